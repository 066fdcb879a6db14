# Volta: sm_70 SASS from the PTX nvcc emits for sm_75, assembled by CUDA 12.5's ptxas
ir examples/cuda/vecadd.cu --gpu v100 --grid 4096 --block 256 --arg n=1048576
