merge tests/golden/explore/fixtures/vecadd-shard-1-of-2.json tests/golden/explore/fixtures/vecadd-shard-0-of-2.json
