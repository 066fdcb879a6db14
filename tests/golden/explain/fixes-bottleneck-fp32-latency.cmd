# The bottleneck example's summary line with its top fix (examples/cuda/bottlenecks/expected.toml: fp32 latency).
explain tests/examples/fixtures/bottlenecks/fp32_latency.sm_90.sass --kernel fp32_latency --gpu h100 --grid 132 --block 128 --arg iters=1024 --summary
