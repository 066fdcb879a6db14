predict tests/frontend/cuda/fixtures/templates.sm_90.sass --kernel _Z9block_sumILi256EEvPKfPf --gpu h100 --grid 4 --block 256
