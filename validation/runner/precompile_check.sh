#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# ctest validation.precompile: the plan of one experiment (stream_copy, 3 variants) goes through
# precompile.sh, which must write one cubin per variant under the runner's naming
# (<experiment>.<variant>.sm_90.cubin). Usage: precompile_check.sh FORESIGHT NVCC
set -euo pipefail
foresight=${1:?usage: precompile_check.sh FORESIGHT NVCC}
export NVCC=${2:?usage: precompile_check.sh FORESIGHT NVCC}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
FORESIGHT_PROGRESS=0 "$foresight" validate --emit-plan "$work/plan.txt" --experiment stream_copy 2>/dev/null
bash "$(dirname "$0")/precompile.sh" "$work/plan.txt" "$work/cubins" sm_90 2 2>/dev/null
for v in b128 b256 b1024; do
  f="$work/cubins/stream_copy.$v.sm_90.cubin"
  [[ -s "$f" ]] || { echo "precompile_check: $f missing" >&2; exit 1; }
done
# The macros of each variant reach nvcc (the runner passes the same -D flags).
grep -q -- "-DBLOCK=256 -DN=67108864 " "$work/cubins/commands.txt" || { echo "precompile_check: macros missing" >&2; exit 1; }
echo "precompile_check: 3 cubins"
