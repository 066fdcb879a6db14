# Map a saved (synthetic) microbenchmark output onto fx5600 without a GPU.
calibrate --from-output tests/validation/fixtures/calibration/synthetic-cc1.0.txt --base fx5600 --date 2026-11-21
