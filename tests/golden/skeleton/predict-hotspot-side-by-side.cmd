predict examples/skeleton/hotspot.sk --gpu fx5600,c1060,h100
