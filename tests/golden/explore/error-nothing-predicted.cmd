# exit: 1
explore tests/frontend/cuda/fixtures/vecadd.sm_90.sass --gpu h100 --space "TX=0" --grid "1048576 / TX" --block TX --arg n=1048576
