# --summary: one line per kernel and GPU.
predict examples/summary/matmul-fx5600.toml --gpu fx5600,h100 --summary
