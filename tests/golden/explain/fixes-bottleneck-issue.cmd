# The bottleneck example's summary line with its top fix (examples/cuda/bottlenecks/expected.toml: issue throughput).
explain tests/examples/fixtures/bottlenecks/issue.sm_90.sass --kernel issue --gpu h100 --grid 1056 --block 256 --arg iters=256 --summary
