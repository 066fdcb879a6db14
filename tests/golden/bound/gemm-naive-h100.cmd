bound tests/examples/fixtures/bound/gemm_naive.sm_90.sass --kernel gemm_naive --gpu h100 --grid 64,64 --block 16,16 --arg n=1024 --gemm 1024,1024,1024
