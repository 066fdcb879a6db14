# exit: 1
merge tests/golden/explore/fixtures/vecadd-shard-1-of-2.json
