# The same report as JSON.
validate --corpus tests/validation/fixtures/corpus --measurements tests/validation/fixtures/measurements-golden --model mwp-cwp/grophecy --json
