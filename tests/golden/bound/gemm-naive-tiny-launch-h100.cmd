bound tests/examples/fixtures/bound/gemm_naive.sm_90.sass --kernel gemm_naive --gpu h100 --grid 1 --block 32 --arg n=32
