# --lines: the shared-bank-conflicted loop waits on the shared pipe's throughput at line 29.
explain tests/examples/fixtures/bottlenecks/shared_throughput.sm_90.sass --kernel shared_throughput --gpu h100 --grid 1056 --block 256 --arg iters=512 --model emulate --lines
