explain tests/frontend/cuda/fixtures/transpose.sm_90.sass --kernel transpose_naive --gpu h100 --grid 32,32 --block 32,8 --arg n=1024
