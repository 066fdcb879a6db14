# exit: 1
calibrate --from-output tests/validation/fixtures/calibration/synthetic-cc1.0.txt --date 2026-11-21
