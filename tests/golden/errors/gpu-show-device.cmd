# exit: 1
gpu show /dev/zero
