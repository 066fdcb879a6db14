explore examples/skeleton/matmul.sk --gpu fx5600 --hints examples/skeleton/matmul-paper.hints.toml
