# The bottleneck example's summary line with its top fix (examples/cuda/bottlenecks/expected.toml: fp64 throughput).
explain tests/examples/fixtures/bottlenecks/fp64_throughput.sm_90.sass --kernel fp64_throughput --gpu h100 --grid 1056 --block 256 --arg iters=256 --summary
