# The marked nest calls a function that is not visible: message at the call line.
# exit: 1
# requires: llvm
predict tests/golden/cloop/unknown-call.c --gpu tk1
