# exit: 0
# --array takes an expression of the space in explore: x is 128 MiB for B = 64, 256 MiB for B = 128
explore tests/frontend/cuda/fixtures/spmv_csr.sm_90.sass --gpu h100 --space "B=64,128" --grid "32768/B" --block B --arg rows=32768 --trip spmv_csr.cu:11=16 --array "x=B*2097152"
