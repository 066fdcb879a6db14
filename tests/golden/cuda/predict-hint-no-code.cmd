predict tests/frontend/cuda/fixtures/spmv_csr.sm_90.sass --gpu h100 --grid 256 --block 128 --arg rows=32768 --trip spmv_csr.cu:11=16 --branch spmv.cu:11=0.5
