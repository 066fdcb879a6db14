predict examples/summary/matmul-fx5600.toml --gpu h100 --model emulate
