# The bottleneck example's summary line with its top fix (examples/cuda/bottlenecks/expected.toml: l2 throughput).
explain tests/examples/fixtures/bottlenecks/l2_throughput.sm_90.sass --kernel l2_throughput --gpu h100 --grid 1056 --block 256 --arg iters=256 --summary
