# The traced program crashes in the child process; Foresight reports it and survives.
# exit: 1
# requires: llvm
predict tests/golden/cloop/crash.c --gpu tk1
