# The bottleneck example's summary line with its top fix (examples/cuda/bottlenecks/expected.toml: sfu latency).
explain tests/examples/fixtures/bottlenecks/sfu_latency.sm_90.sass --kernel sfu_latency --gpu h100 --grid 132 --block 128 --arg iters=512 --summary
