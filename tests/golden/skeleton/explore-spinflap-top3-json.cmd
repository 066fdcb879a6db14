explore examples/skeleton/spinflap.sk --gpu c1060 --top 3 --json
