# exit: 1
explore examples/summary/matmul-fx5600.toml --gpu fx5600
