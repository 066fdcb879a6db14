# Pointer parameters without restrict: c[i] cannot be promoted to a register.
# exit: 1
# requires: llvm
predict tests/golden/cloop/aliasing.c --gpu tk1
