# The bottleneck example's summary line with its top fix (examples/cuda/bottlenecks/expected.toml: shared latency).
explain tests/examples/fixtures/bottlenecks/shared_latency.sm_90.sass --kernel shared_latency --gpu h100 --grid 132 --block 128 --arg reps=64 --summary
