# exit: 1
predict tests/golden/errors/does-not-exist.toml --gpu fx5600
