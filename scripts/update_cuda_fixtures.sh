#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Regenerates stored CUDA fixtures, so that tests run the CUDA frontend without nvcc: for each
# source of SRC_DIR and each architecture, the cubin, the PTX, the nvdisasm SASS text and the
# `ptxas -v` log, written to OUT_DIR/<name>.<arch>.{cubin,ptx,sass,ptxas.txt}, plus a copy of the
# source (the frontend reads parameter names from it; tests compare it with the original to catch
# stale fixtures). The flags are the ones the frontend passes (-lineinfo). Needs nvcc and nvdisasm
# (scripts/setup.sh puts nvdisasm under .tools/cuda-12.5/usr/bin; NVDISASM overrides).
# Usage: scripts/update_cuda_fixtures.sh [SRC_DIR OUT_DIR ARCH...]
#   default: examples/cuda → tests/frontend/cuda/fixtures for sm_80 sm_90
#   bottleneck examples: scripts/update_cuda_fixtures.sh examples/cuda/bottlenecks tests/examples/fixtures/bottlenecks sm_90
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
src_dir="$root/${1:-examples/cuda}"
out="$root/${2:-tests/frontend/cuda/fixtures}"
archs=("${@:3}")
((${#archs[@]})) || archs=(sm_80 sm_90)
nvdisasm="${NVDISASM:-$root/.tools/cuda-12.5/usr/bin/nvdisasm}"
command -v nvcc >/dev/null || { echo "update_cuda_fixtures: nvcc not on PATH" >&2; exit 1; }
[[ -x "$nvdisasm" ]] || { echo "update_cuda_fixtures: $nvdisasm missing (run scripts/setup.sh)" >&2; exit 1; }
mkdir -p "$out"
cd "$src_dir"   # sources are referred to by file name in line info
for src in *.cu; do
  name="${src%.cu}"
  cp "$src" "$out/$src"
  for arch in "${archs[@]}"; do
    base="$out/$name.$arch"
    nvcc -ptx -arch="$arch" -lineinfo "$src" -o "$base.ptx"
    nvcc -cubin -arch="$arch" -lineinfo -Xptxas -v "$src" -o "$base.cubin" 2>"$base.ptxas.txt"
    "$nvdisasm" -c -gi -hex "$base.cubin" >"$base.sass"
    echo "update_cuda_fixtures: $name $arch" >&2
  done
done
