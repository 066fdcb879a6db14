bound --gpu gtx680 --threads 256 --thread-tile 6x6 --depth 16 --lds-bits 64
