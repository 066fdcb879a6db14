# exit: 1
# A summary has no kernel parameters to set: --arg is refused rather than ignored.
predict examples/summary/matmul-fx5600.toml --gpu fx5600 --arg n=1024
