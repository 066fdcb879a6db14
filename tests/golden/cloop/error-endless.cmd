# The traced program never ends: stopped by its 1-second CPU limit.
# exit: 1
# requires: llvm
predict tests/golden/cloop/endless.c --gpu tk1
