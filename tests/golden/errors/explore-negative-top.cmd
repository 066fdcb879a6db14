# exit: 2
explore examples/skeleton/hotspot.sk --gpu h100 --top -1
