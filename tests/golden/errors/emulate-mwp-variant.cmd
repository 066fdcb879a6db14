# exit: 1
predict examples/summary/vecadd-h100.toml --model emulate --variant grophecy
