# The emulate options are explain's own on a skeleton too (the layout search is MWP-CWP).
explain examples/skeleton/matmul.sk --gpu fx5600 --policy rr
