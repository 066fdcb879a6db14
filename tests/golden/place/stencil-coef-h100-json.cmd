# exit: 0
# Hopper adds the persisting-L2 window; a coefficient table of known size is offered every placement.
place tests/examples/fixtures/place/stencil_coef.sm_90.sass --gpu h100 --grid 256 --block 256 --arg n=65536 --array coef=36 --json
