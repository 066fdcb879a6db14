explain examples/summary/matmul-fx5600.toml --gpu fx5600 --json
