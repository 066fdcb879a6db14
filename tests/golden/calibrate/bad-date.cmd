# exit: 1
calibrate --from-output tests/validation/fixtures/calibration/synthetic-cc1.0.txt --base fx5600 --date 2026-02-30
