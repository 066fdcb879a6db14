# exit: 1
predict tests/golden/skeleton/bad-syntax.sk --gpu fx5600
