# exit: 1
predict tests/frontend/cuda/fixtures/scalar_args.sm_90.sass --kernel scalar_args --gpu h100 --grid 4 --block 256 --arg n=1.5
