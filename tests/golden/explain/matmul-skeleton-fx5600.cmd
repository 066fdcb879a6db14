explain examples/skeleton/matmul.sk --gpu fx5600
