# exit: 1
predict tests/frontend/cuda/fixtures/spmv_csr.sm_90.sass --gpu h100 --data row_ptr=i32:csr_rowptr:16
