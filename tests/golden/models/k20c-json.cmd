# exit: 0
# On a GPU without an L2 bandwidth CUDA's default is GROPHECY's variant.
models --gpu k20c --json
