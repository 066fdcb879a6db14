# CGPredict GEMM (Table 4: 242.53 ms) from plain C on the Jetson TK1, with advice.
# requires: llvm
predict examples/cloop/gemm.c --gpu tk1
