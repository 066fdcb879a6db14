# exit: 1
predict tests/golden/errors/summary-grid-too-large.toml --gpu h100
