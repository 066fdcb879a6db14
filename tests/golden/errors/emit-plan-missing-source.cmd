# exit: 1
validate --corpus tests/golden/errors/missing-source-corpus --emit-plan /dev/null
