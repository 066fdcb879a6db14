predict examples/skeleton/matmul.sk --gpu fx5600 -D N=256 -D M=256 -D K=128 --hints examples/skeleton/matmul-hand.hints.toml
