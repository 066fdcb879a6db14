#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Rewrites the expected output of every golden CLI test (tests/golden/**/*.cmd) from the current
# build. Review the diff before committing: a changed number is a changed prediction.
# Usage: scripts/update_golden.sh [build-dir]   (default: build)
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
cli="$root/${1:-build}/bin/foresight"
[[ -x "$cli" ]] || { echo "update_golden: $cli not built" >&2; exit 1; }
cd "$root"
find tests/golden -name '*.cmd' | sort | while read -r cmd; do
  args="$(grep -v '^#' "$cmd" | grep -v '^$' | tail -n 1)"
  base="${cmd%.cmd}"
  set +e
  eval "\"$cli\" $args" >"$base.out" 2>"$base.err"
  status=$?
  set -e
  [[ -s "$base.out" ]] || rm -f "$base.out"
  [[ -s "$base.err" ]] || rm -f "$base.err"
  echo "update_golden: $cmd (exit $status)" >&2
done
