# exit: 1
# A workload summary has no per-lane addresses: placement needs a CUDA kernel.
place examples/summary/matmul-fx5600.toml --gpu fx5600
