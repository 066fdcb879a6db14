# A C error: clang's first error, at its file:line:column.
# exit: 1
# requires: llvm
predict tests/golden/cloop/compile-error.c --gpu tk1
