# C input without any #pragma cgpredict kernel: one message, exit 1.
# exit: 1
predict tests/golden/cloop/no-marker.c --gpu tk1
