# exit: 2
# NaN passed CLI::Range and silently meant "no measured rate"
explain examples/summary/vecadd-h100.toml --l2-hit-rate nan
