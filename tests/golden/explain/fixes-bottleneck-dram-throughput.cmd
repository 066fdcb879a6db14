# The bottleneck example's summary line with its top fix (examples/cuda/bottlenecks/expected.toml: dram throughput).
explain tests/examples/fixtures/bottlenecks/dram_throughput.sm_90.sass --kernel dram_throughput --gpu h100 --grid 1056 --block 256 --arg iters=256 --summary
