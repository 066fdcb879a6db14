# Hand-tiled GEMM under the literal reading of Eqs. 19-22 (about 50x the paper_fitted time).
# requires: llvm
predict examples/cloop/gemm-tiled.c --gpu tk1 --smem-rule paper_literal
