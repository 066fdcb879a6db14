# The bottleneck example's summary line with its top fix (examples/cuda/bottlenecks/expected.toml: shared throughput).
explain tests/examples/fixtures/bottlenecks/shared_throughput.sm_90.sass --kernel shared_throughput --gpu h100 --grid 1056 --block 256 --arg iters=512 --summary
