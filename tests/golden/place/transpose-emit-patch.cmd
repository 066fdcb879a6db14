# exit: 0
# The chosen plan (in on the read-only path) as a diff of the kernel's source (the .cu beside the fixture); patch -p0 applies it.
place tests/examples/fixtures/place/transpose.sm_75.sass --gpu k20c --grid 64,64 --block 16,16 --arg width=1024 --arg height=1024 --emit-patch
