ir tests/frontend/cuda/fixtures/spmv_csr.sm_80.sass --gpu a100 --grid 256 --block 128 --arg rows=32768 --trip spmv_csr.cu:11=16 --json
