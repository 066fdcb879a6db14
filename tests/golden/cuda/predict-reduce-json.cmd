predict tests/frontend/cuda/fixtures/reduce.sm_80.sass --gpu a100 --grid 1024 --block 256 --arg n=262144 --json
