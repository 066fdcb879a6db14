# exit: 1
bound --gpu v100 --precision tf32
