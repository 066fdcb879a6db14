# exit: 0
predict tests/frontend/cuda/fixtures/matmul.sm_90.sass --kernel matmul_tiled --gpu h100 --grid 64,64 --block 16,16 --arg n=1024 --carveout 0
