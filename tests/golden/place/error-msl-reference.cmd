# exit: 1
place tests/examples/fixtures/place/transpose.sm_75.sass --gpu m2075 --msl tests/golden/place/bad.msl --grid 64,64 --block 16,16 --arg width=1024 --arg height=1024
