# exit: 0
# An MSL file replaces the memory description (--gpu still compiles, times and sizes occupancy): PORPLE's M2075 example (Fig. 4) with its texture entries, in the MICRO'14 sum form.
place tests/examples/fixtures/place/transpose.sm_75.sass --gpu k20c --msl tests/golden/place/m2075.msl --grid 64,64 --block 16,16 --arg width=1024 --arg height=1024 --latency-centric
