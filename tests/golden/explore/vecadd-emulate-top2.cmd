explore tests/frontend/cuda/fixtures/vecadd.sm_90.sass --gpu h100 --space "TX=64..1024:pow2" -D N=1048576 --grid "cdiv(N, TX)" --block TX --arg n=N --top 2 --model emulate
