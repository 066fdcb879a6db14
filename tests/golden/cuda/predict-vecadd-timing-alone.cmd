# exit: 0
# a launch timed on its own (CUDA events around it): the H100's launch_latency, 3.91 us, added
predict tests/frontend/cuda/fixtures/vecadd.sm_90.sass --gpu h100 --grid 64 --block 256 --arg n=16384 --timing alone
