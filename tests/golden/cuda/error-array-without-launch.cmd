# exit: 1
# --array sizes an array of the launch given with --grid and --block: without them it would be dropped, so it is an error.
predict tests/frontend/cuda/fixtures/spmv_csr.sm_90.sass --gpu h100 --array x=131072
