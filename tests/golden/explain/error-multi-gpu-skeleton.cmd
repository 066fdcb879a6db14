# exit: 1
# explain searches layouts on one GPU; a list used to be cut to its first entry silently
explain examples/skeleton/matmul.sk --gpu fx5600,c1060
