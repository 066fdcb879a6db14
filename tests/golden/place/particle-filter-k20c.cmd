# exit: 0
# PORPLE's particlefilter on its K20c: CDF is read warp-uniformly (rule-based: constant), the gathers through index have no known size (G or R only), the outputs are written (G or S).
place tests/examples/fixtures/place/particle_filter.sm_75.sass --gpu k20c --grid 16 --block 128 --arg n=2048
