# exit: 1
place tests/examples/fixtures/place/transpose.sm_75.sass --gpu k20c --grid 64,64 --block 16,16 --arg width=1024 --arg height=1024 --search astar
