explore tests/frontend/cuda/fixtures/vecadd.sm_90.sass --gpu h100 --space "TX=128,256" -D N=4194304 --grid "cdiv(N, TX)" --block TX --arg n=N --jsonl --jobs 1
