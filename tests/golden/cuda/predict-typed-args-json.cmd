# exit: 0
predict tests/frontend/cuda/fixtures/scalar_args.sm_90.sass --kernel scalar_args --gpu h100 --grid 4 --block 256 --arg n=1000 --arg scale=2.5 --arg offset=1e-3 --arg scaled=true --arg mode=1 --dynamic-shared 2048 --json
