# A multi-kernel program: every kernel, then the total per run.
# requires: llvm
predict examples/cloop/atax.c --gpu tk1
