# --lines: per source line, the emulated SM's issued instructions and the cycles they waited, and on what.
explain tests/frontend/cuda/fixtures/transpose.sm_90.sass --kernel transpose_naive --gpu h100 --grid 32,32 --block 32,8 --arg n=1024 --lines
