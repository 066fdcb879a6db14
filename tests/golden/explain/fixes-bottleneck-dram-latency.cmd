# The bottleneck example's summary line with its top fix (examples/cuda/bottlenecks/expected.toml: dram latency).
explain tests/examples/fixtures/bottlenecks/dram_latency.sm_90.sass --kernel dram_latency --gpu h100 --grid 132 --block 32 --arg iters=512 --summary
