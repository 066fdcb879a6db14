# exit: 1
batch tests/golden/batch/requests.jsonl --jobs 2
