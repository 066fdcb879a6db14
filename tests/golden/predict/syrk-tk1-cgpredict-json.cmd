predict examples/summary/syrk-tk1.toml --gpu tk1 --variant cgpredict --json
