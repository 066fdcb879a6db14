# exit: 0
# PORPLE's active-learning early stop (Procedure 2): the running mean of the warps' index sums moves by the same 1025 per warp, so the trace keeps the first 3 of the block's 8 warps, each standing for 8/3.
place tests/examples/fixtures/place/transpose.sm_75.sass --gpu k20c --grid 64,64 --block 16,16 --arg width=1024 --arg height=1024 --early-stop
