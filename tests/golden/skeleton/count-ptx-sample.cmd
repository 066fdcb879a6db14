count-ptx --ptx tests/golden/skeleton/sample.ptx
