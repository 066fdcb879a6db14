# exit: 1
predict examples/skeleton/matmul.sk --gpu fx5600 --hints tests/golden/skeleton/bad-loop.hints.toml
