# exit: 1
bound --gpu gtx580 --threads 256 --thread-tile 7x7 --depth 16 --lds-bits 64
