# exit: 1
predict examples/summary/vecadd-h100.toml --l2-hit-rate 0.5
