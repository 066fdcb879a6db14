predict examples/summary/vecadd-h100.toml
