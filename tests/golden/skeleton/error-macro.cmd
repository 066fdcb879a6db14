# exit: 1
# A skeleton's macros are integers.
predict examples/skeleton/matmul.sk --gpu fx5600 -D N=x
