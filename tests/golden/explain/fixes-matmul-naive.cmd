# Issue 17's corpus pair: the naive matmul (16x16 blocks: each load spans two L1 lines); the
# shared-memory tiled kernel is the fix.
explain validation/matmul/matmul_naive.cu -D N=2048 --grid 128,128 --block 16,16 --arg n=2048 --gpu h100 --model emulate
