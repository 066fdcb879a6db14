# exit: 0
# The MSL `place` derives from a preset (docs/place.md#the-msl-of-a-gpu-description).
gpu show h100 --msl
