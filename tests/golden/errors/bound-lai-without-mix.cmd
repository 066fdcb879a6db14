# exit: 1
bound --gpu h100 --variant lai
