# exit: 1
explore examples/skeleton/hotspot.sk --gpu h100 --space "TX=64"
