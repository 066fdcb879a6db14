# exit: 1
# a directory used to read as an empty file (here: "missing required key gpu")
predict examples/summary/matmul-fx5600.toml --gpu tests/golden/
