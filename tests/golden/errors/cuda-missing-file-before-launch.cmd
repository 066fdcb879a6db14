# exit: 1
predict nosuch.cu --gpu h100
