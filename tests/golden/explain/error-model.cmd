# exit: 1
explain examples/summary/vecadd-h100.toml --model mwp-cwp --variant saake
