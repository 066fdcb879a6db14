# exit: 1
predict examples/summary/matmul-fx5600.toml --gpu fx5600 --summary --json
