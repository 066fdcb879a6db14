# exit: 1
merge tests/golden/batch/requests.jsonl
