# exit: 1
predict examples/summary/gemm-tk1.toml --gpu fx5600 --variant cgpredict
