# The bottleneck example's summary line with its top fix (examples/cuda/bottlenecks/expected.toml: sfu throughput).
explain tests/examples/fixtures/bottlenecks/sfu_throughput.sm_90.sass --kernel sfu_throughput --gpu h100 --grid 1056 --block 256 --arg iters=64 --summary
