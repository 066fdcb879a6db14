# Hand-tiled GEMM with shared-memory hints (Table 5: 105.75 ms).
# requires: llvm
predict examples/cloop/gemm-tiled.c --gpu tk1
