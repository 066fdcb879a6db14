# exit: 0
# The arrays' contents instead of a trip hint: row_ptr gives 16 entries per row (as --trip
# spmv_csr.cu:11=16 does) and col = csr_cols:16:32768 spreads each row's columns over x, so
# x[col[j]] has exact addresses (no data-dependent accesses left).
predict tests/frontend/cuda/fixtures/spmv_csr.sm_90.sass --gpu h100 --grid 256 --block 128 --arg rows=32768 --array col=2097152 --array x=131072 --data row_ptr=i32:csr_rowptr:16 --data col=i32:csr_cols:16:32768
