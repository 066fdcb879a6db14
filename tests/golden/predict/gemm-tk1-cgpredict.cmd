predict examples/summary/gemm-tk1.toml --gpu tk1 --variant cgpredict
