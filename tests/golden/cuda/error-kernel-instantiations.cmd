# exit: 1
ir tests/frontend/cuda/fixtures/templates.sm_90.sass --kernel block_sum --gpu h100 --grid 4 --block 256
