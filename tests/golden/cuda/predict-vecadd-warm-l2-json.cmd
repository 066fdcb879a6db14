# exit: 0
predict tests/frontend/cuda/fixtures/vecadd.sm_90.sass --gpu h200 --grid 4096 --block 256 --arg n=1048576 --l2 warm --json
