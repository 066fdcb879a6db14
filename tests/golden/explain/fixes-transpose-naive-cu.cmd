# Issue 17's corpus pair: the naive transpose's fixes (its strided store, transpose.cu:13);
# tests/advise/fixes_test.cpp checks the speedup against the shared-memory kernel's prediction.
explain examples/cuda/transpose.cu --kernel transpose_naive --gpu h100 --grid 64,64 --block 32,32 --arg n=2048 --model emulate
