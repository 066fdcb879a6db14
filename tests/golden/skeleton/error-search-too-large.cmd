# exit: 1
predict tests/golden/skeleton/five-dims.sk --gpu h100
