explain examples/summary/vecadd-h100.toml --gpu h100 --variant saake
