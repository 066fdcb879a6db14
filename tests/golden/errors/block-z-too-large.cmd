# exit: 1
predict examples/cuda/vecadd.cu --gpu h100 --grid 4 --block 1,1,65 --arg n=1024
