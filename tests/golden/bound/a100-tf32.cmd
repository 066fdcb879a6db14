bound --gpu a100 --precision tf32 --gemm 8192,8192,8192
