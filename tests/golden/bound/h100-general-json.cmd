bound --gpu h100 --gemm 8192,8192,8192 --json
