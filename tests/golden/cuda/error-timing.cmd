# exit: 2
predict tests/frontend/cuda/fixtures/vecadd.sm_90.sass --gpu h100 --grid 4096 --block 256 --arg n=1048576 --timing once
