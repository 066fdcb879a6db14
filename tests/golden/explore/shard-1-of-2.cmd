explore tests/frontend/cuda/fixtures/vecadd.sm_90.sass --gpu h100 --space TX=256,512,1024 --space N=1048576,4194304 --grid "cdiv(N,TX)" --block TX --arg n=N --shard 1/2
