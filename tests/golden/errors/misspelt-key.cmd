# exit: 1
predict tests/golden/errors/misspelt-key.toml --gpu fx5600
