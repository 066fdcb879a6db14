# Fixture corpus and synthetic measurements (tests/validation/fixtures): rows for every measurement (the .cu fixture is left out: its reason is the CUDA frontend's wording)
# and model, "not predicted" reasons, superseded runs, the per-model summary and rank correlation.
validate --corpus tests/validation/fixtures/corpus --measurements tests/validation/fixtures/measurements-golden
