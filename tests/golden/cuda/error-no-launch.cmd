# exit: 1
predict tests/frontend/cuda/fixtures/vecadd.sm_90.sass --gpu h100
