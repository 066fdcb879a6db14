# exit: 1
predict tests/frontend/cuda/fixtures/frontier_edges.sm_90.sass --gpu h100 --grid 4 --block 128 --arg n=512
