#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Regenerates the fixtures of the bottleneck examples (tests/examples/bottlenecks_test.cpp) from
# examples/cuda/bottlenecks/*.cu: for sm_90 (the H100 the examples target) the PTX, the cubin,
# the nvdisasm SASS and the `ptxas -v` log, written to
# tests/examples/fixtures/bottlenecks/<name>.sm_90.{ptx,cubin,sass,ptxas.txt}, plus a copy of the
# source, which the test compares with the example to catch stale fixtures. Flags are the ones
# the CUDA frontend passes (-lineinfo). Needs nvcc and nvdisasm (scripts/setup.sh puts nvdisasm
# under .tools/cuda-12.5/usr/bin; NVDISASM overrides).
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
out="$root/tests/examples/fixtures/bottlenecks"
nvdisasm="${NVDISASM:-$root/.tools/cuda-12.5/usr/bin/nvdisasm}"
command -v nvcc >/dev/null || { echo "update_bottleneck_fixtures: nvcc not on PATH" >&2; exit 1; }
[[ -x "$nvdisasm" ]] || { echo "update_bottleneck_fixtures: $nvdisasm missing (run scripts/setup.sh)" >&2; exit 1; }
mkdir -p "$out"
cd "$root/examples/cuda/bottlenecks"   # sources are referred to by file name in line info
for src in *.cu; do
  name="${src%.cu}"
  cp "$src" "$out/$src"
  for arch in sm_90; do
    base="$out/$name.$arch"
    nvcc -ptx -arch="$arch" -lineinfo "$src" -o "$base.ptx"
    nvcc -cubin -arch="$arch" -lineinfo -Xptxas -v "$src" -o "$base.cubin" 2>"$base.ptxas.txt"
    "$nvdisasm" -c -g -hex "$base.cubin" >"$base.sass"
    echo "update_bottleneck_fixtures: $name $arch" >&2
  done
done
