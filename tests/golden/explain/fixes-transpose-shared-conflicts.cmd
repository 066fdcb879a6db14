# Issue 17's corpus pair: the unpadded shared-memory transpose (PAD=0, 32-way conflicts on the
# column read, transpose_shared.cu:20); the padded variant is the fix.
explain validation/transpose/transpose_shared.cu -D PAD=0 -D BY=8 --grid 256,256 --block 32,8 --arg rows=8192 --arg cols=8192 --gpu h100 --model emulate
