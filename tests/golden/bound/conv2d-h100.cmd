bound tests/examples/fixtures/bound/conv2d.sm_90.sass --kernel conv2d --gpu h100 --grid 128,256 --block 32,8 --arg w=4096 --arg h=2048
