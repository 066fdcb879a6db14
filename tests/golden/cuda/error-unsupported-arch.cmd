# exit: 1
predict examples/cuda/vecadd.cu --gpu fx5600 --grid 4096 --block 256 --arg n=1048576
