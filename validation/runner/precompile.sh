#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Compiles every experiment variant of a run plan to a cubin ahead of a GPU session, in parallel,
# with the same nvcc command the runner would use, so that the runner (--cubin-dir DIR) spends the
# GPU machine's time measuring rather than compiling. Usage:
#   validation/runner/precompile.sh PLAN DIR [ARCH] [JOBS]    (ARCH default sm_90, JOBS: nproc)
# Writes DIR/<experiment>.<variant>.<ARCH>.cubin; exits non-zero if any variant fails to compile.
set -euo pipefail
plan=${1:?usage: precompile.sh PLAN DIR [ARCH] [JOBS]}
dir=${2:?usage: precompile.sh PLAN DIR [ARCH] [JOBS]}
arch=${3:-sm_90}
jobs=${4:-$(nproc)}
nvcc=${NVCC:-nvcc}
mkdir -p "$dir"
# One line per variant: the nvcc command (sources and macros as the runner passes them).
awk -v arch="$arch" -v dir="$dir" -v nvcc="$nvcc" '
  $1 == "experiment" { name = $2; variant = $3; defs = ""; src = "" }
  $1 == "source"     { src = $2 }
  $1 == "define"     { defs = defs " -D" $2 "=" $3 }
  $1 == "end"        { printf "%s -cubin -O3 -arch=%s%s -o %s/%s.%s.%s.cubin %s\n",
                              nvcc, arch, defs, dir, name, variant, arch, src }
' "$plan" > "$dir/commands.txt"
count=$(wc -l < "$dir/commands.txt")
echo "precompile: $count variants for $arch with $jobs jobs" >&2
# Each command runs with a time limit; a failure is reported with its command.
xargs -P "$jobs" -I{} -d '\n' bash -c 'timeout 300 {} || { echo "precompile: failed: {}" >&2; exit 255; }' \
  < "$dir/commands.txt"
echo "precompile: wrote $count cubins to $dir" >&2
