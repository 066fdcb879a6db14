# exit: 1
bound tests/examples/fixtures/bound/gemm_regtile.sm_90.sass --kernel gemm_regtile --gpu h100 --grid 16,16 --block 256 --arg n=2048 --threads 256 --thread-tile 8x8 --depth 8 --lds-bits 128
