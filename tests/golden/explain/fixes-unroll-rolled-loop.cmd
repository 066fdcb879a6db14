# The unroll fix: a loop kept rolled by "#pragma unroll 1" (rolled_loop.cu:10), the source
# compiled again with "#pragma unroll 4"; the default model reports the time and its own speedup.
explain tests/advise/fixtures/rolled_loop.cu --gpu h100 --grid 64 --block 256 --arg n=16384 --arg m=512 --summary
