# text and --json both report the emulated best layout per GPU (the text used to show the MWP-CWP search times)
predict examples/skeleton/matmul.sk --gpu fx5600,c1060 --model emulate
