# exit: 1
validate --corpus tests/validation/fixtures/no-corpus
