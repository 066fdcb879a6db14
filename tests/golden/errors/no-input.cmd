# exit: 2
predict
