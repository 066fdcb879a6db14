# exit: 1
# A block with more dimensions than the skeleton's parallel_for (matmul.sk has two).
predict examples/skeleton/matmul.sk --gpu fx5600 --block 16,16,2
