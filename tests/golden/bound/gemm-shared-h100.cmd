bound tests/examples/fixtures/bound/gemm_shared.sm_90.sass --kernel gemm_shared --gpu h100 --grid 64,64 --block 16,16 --arg n=1024
