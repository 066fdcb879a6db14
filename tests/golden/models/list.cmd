# exit: 0
# The registered models, with the default per input kind (docs/models.md).
models
