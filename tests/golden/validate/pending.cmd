# No measurements: an empty table, the pending line, exit 0.
validate --corpus tests/validation/fixtures/corpus --measurements tests/validation/fixtures/no-such-dir
