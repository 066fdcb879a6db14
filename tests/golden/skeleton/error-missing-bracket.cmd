# exit: 1
predict tests/golden/skeleton/missing-bracket.sk --gpu h100
