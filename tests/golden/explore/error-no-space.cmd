# exit: 1
explore tests/frontend/cuda/fixtures/vecadd.sm_90.sass --gpu h100 --grid 4096 --block 256 --arg n=1048576
