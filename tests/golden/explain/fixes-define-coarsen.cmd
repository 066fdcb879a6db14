# --try-defines: the coarsening macro's default (COARSEN 1) doubled with the grid halved does the
# same work faster; the define fix names both changes.
explain tests/explore/fixtures/scale_coarsened.cu --gpu h100 --grid 65536 --block 256 --arg n=16777216 --arg a=2 --try-defines --summary
