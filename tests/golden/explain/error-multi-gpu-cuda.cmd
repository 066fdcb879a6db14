# exit: 1
explain tests/frontend/cuda/fixtures/vecadd.sm_90.sass --gpu h100,a100 --grid 4096 --block 256 --arg n=1048576
