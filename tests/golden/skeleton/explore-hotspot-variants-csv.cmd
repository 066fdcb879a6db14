explore examples/skeleton/hotspot.sk --gpu fx5600,c1060 --hints examples/skeleton/hotspot-variants.hints.toml --csv
