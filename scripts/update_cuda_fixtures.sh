#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Regenerates the CUDA frontend's test fixtures from examples/cuda/*.cu: for each source and
# architecture (sm_80, sm_90) the cubin, the PTX, the nvdisasm SASS text and the `ptxas -v` log,
# written to tests/frontend/cuda/fixtures/<name>.sm_XX.{cubin,ptx,sass,ptxas.txt}. The flags
# are the ones the frontend passes (-lineinfo). Needs nvcc and nvdisasm (scripts/setup.sh puts
# nvdisasm under .tools/cuda-12.5/usr/bin).
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
out="$root/tests/frontend/cuda/fixtures"
nvdisasm="${NVDISASM:-$root/.tools/cuda-12.5/usr/bin/nvdisasm}"
command -v nvcc >/dev/null || { echo "update_cuda_fixtures: nvcc not on PATH" >&2; exit 1; }
[[ -x "$nvdisasm" ]] || { echo "update_cuda_fixtures: $nvdisasm missing (run scripts/setup.sh)" >&2; exit 1; }
mkdir -p "$out"
cd "$root/examples/cuda"   # sources are referred to by file name in line info
for src in *.cu; do
  name="${src%.cu}"
  cp "$src" "$out/$src"   # the frontend reads parameter names from the source
  for arch in sm_80 sm_90; do
    base="$out/$name.$arch"
    nvcc -ptx -arch="$arch" -lineinfo "$src" -o "$base.ptx"
    nvcc -cubin -arch="$arch" -lineinfo -Xptxas -v "$src" -o "$base.cubin" 2>"$base.ptxas.txt"
    "$nvdisasm" -c -g -hex "$base.cubin" >"$base.sass"
    echo "update_cuda_fixtures: $name $arch" >&2
  done
done
