bound tests/examples/fixtures/bound/gemm_tensor.sm_90.sass --kernel gemm_tensor --gpu h100 --grid 32,32 --block 128 --arg n=2048 --gemm 2048,2048,2048 --precision fp16
