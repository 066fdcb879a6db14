# exit: 1
# A skeleton takes no grid: it follows from the layout (a block pins the layout's).
predict examples/skeleton/matmul.sk --gpu fx5600 --grid 4
