# exit: 1
validate --corpus tests/validation/fixtures/corpus --model mwp-cwp/grophecyy
