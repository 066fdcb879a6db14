# exit: 1
predict examples/cuda/vecadd.cu --gpu h100 --grid 2147483648 --block 256 --arg n=1024
