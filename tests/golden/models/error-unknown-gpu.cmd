# exit: 1
models --gpu h1000
