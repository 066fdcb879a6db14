predict examples/skeleton/matmul.sk --gpu c1060 --hints examples/skeleton/matmul-hand.hints.toml --json
