# exit: 1
# A skeleton has no per-lane addresses either: the library says so, as for a summary.
place examples/skeleton/matmul.sk --gpu fx5600
