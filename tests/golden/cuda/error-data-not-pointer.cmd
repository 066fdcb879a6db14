# exit: 1
predict tests/frontend/cuda/fixtures/spmv_csr.sm_90.sass --gpu h100 --grid 256 --block 128 --arg rows=32768 --data rows=i32:iota
