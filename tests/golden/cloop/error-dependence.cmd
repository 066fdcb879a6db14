# A prefix sum: iteration i reads what iteration i-1 wrote (loop-carried dependence).
# exit: 1
# requires: llvm
predict tests/golden/cloop/dependence.c --gpu tk1
