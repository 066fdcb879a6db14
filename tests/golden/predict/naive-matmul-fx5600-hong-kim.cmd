predict examples/summary/naive-matmul-fx5600.toml --gpu fx5600 --variant hong-kim
