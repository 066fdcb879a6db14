# The launch-shape fix: vecadd in blocks of 32 threads (50 % occupancy on the H100, limited by
# blocks), the input re-read and emulated for the block sizes that fill the SM.
explain examples/cuda/vecadd.cu --gpu h100 --grid 524288 --block 32 --arg n=16777216 --model emulate --json
