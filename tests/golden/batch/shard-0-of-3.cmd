# exit: 1
batch tests/golden/batch/requests.jsonl --shard 0/3
