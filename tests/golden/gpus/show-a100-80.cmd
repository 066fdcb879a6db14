gpu show a100-80
