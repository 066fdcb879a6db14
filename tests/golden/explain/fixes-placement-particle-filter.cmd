# --placement: PORPLE's plans as a fix (CDF in __constant__ memory, the rule-based plan).
explain tests/examples/fixtures/place/particle_filter.sm_75.sass --gpu k20c --grid 16 --block 128 --arg n=2048 --placement --summary
