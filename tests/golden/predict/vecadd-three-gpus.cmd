# exit: 0
predict examples/summary/vecadd-h100.toml --gpu h100,a100,v100
