# The traced program allocates 4 GiB under a 64 MiB memory limit.
# exit: 1
# requires: llvm
predict tests/golden/cloop/huge-alloc.c --gpu tk1
