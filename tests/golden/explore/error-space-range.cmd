# exit: 1
explore tests/frontend/cuda/fixtures/vecadd.sm_90.sass --gpu h100 --space "TX=64..32:pow2" --grid 4096 --block TX --arg n=1048576
