# CGPredict SYRK (Table 4: 2605.45 ms) as JSON.
# requires: llvm
predict examples/cloop/syrk.c --gpu tk1 --json
