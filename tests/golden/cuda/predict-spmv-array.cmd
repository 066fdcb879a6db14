# exit: 0
# The launch gives x its size (256 MiB, five times the L2), which the gather x[col[j]] spreads over (memory notes in explain).
predict tests/frontend/cuda/fixtures/spmv_csr.sm_90.sass --gpu h100 --grid 256 --block 128 --arg rows=32768 --trip spmv_csr.cu:11=16 --array x=268435456
