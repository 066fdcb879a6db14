bound --gpu gtx580 --gemm 4096,4096,4096
