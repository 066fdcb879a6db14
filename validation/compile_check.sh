#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Compiles every experiment variant of the corpus to a cubin for each architecture (default
# sm_80 and sm_90), with the variant's -D macros, as the runner will. Variants come from the
# run plan (`foresight validate --emit-plan`), so manifests are parsed in one place only.
# Usage: validation/compile_check.sh [--foresight BIN] [--nvcc NVCC] [--jobs N] [--arch sm_XX]...
#        [--corpus DIR]   (default validation; validation/public for the public accuracy set)
# Run from the repository root. Exit status 0 when everything compiles.
set -euo pipefail

foresight=build/bin/foresight
nvcc=nvcc
jobs=2
corpus=validation
archs=()
while [[ $# -gt 0 ]]; do
  case "$1" in
    --foresight) foresight=$2; shift 2 ;;
    --nvcc) nvcc=$2; shift 2 ;;
    --jobs) jobs=$2; shift 2 ;;
    --arch) archs+=("$2"); shift 2 ;;
    --corpus) corpus=$2; shift 2 ;;
    *) echo "compile_check.sh: unknown argument '$1'" >&2; exit 2 ;;
  esac
done
[[ ${#archs[@]} -eq 0 ]] && archs=(sm_80 sm_90)

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
"$foresight" validate --corpus "$corpus" --emit-plan "$work/plan.txt"

# One line per (variant, arch): "name|source|-DA=1 -DB=2|arch"
awk -v archs="${archs[*]}" '
  $1 == "experiment" { name = $2 "." $3; defs = "" }
  $1 == "source"     { src = $2 }
  $1 == "define"     { defs = defs " -D" $2 "=" $3 }
  $1 == "end"        { n = split(archs, a, " "); for (i = 1; i <= n; ++i) print name "|" src "|" defs "|" a[i] }
' "$work/plan.txt" > "$work/jobs.txt"

compile_one() {
  IFS='|' read -r name src defs arch <<< "$1"
  # shellcheck disable=SC2086
  if ! out=$("$NVCC" -cubin -arch="$arch" $defs -o "$WORK/$name.$arch.cubin" "$src" 2>&1); then
    printf 'FAILED %s (%s, %s)\n%s\n' "$name" "$arch" "$defs" "$out"
    return 1
  fi
}
export -f compile_one
export NVCC=$nvcc WORK=$work

total=$(wc -l < "$work/jobs.txt")
if xargs -d '\n' -P "$jobs" -n 1 bash -c 'compile_one "$0"' < "$work/jobs.txt"; then
  echo "compile_check: $total compilations ($(IFS=,; echo "${archs[*]}")) succeeded"
else
  echo "compile_check: some of $total compilations failed" >&2
  exit 1
fi
