# exit: 1
predict examples/summary/vecadd-h100.toml --gpu tests/golden/errors/clock-too-large.toml
