explain examples/summary/vecadd-h100.toml --gpu h100
