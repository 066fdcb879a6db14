#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Builds the validation runner with nvcc (host C++17 + the CUDA driver API). Usage:
#   validation/runner/build.sh [OUT]      (default OUT: build/validation-runner)
# Where libcuda.so is only present as a stub (a build machine without a driver), the stub
# directory is added to the link path; the binary then runs only where a driver is installed.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
out=${1:-build/validation-runner}
nvcc=${NVCC:-nvcc}
cuda_root=$(dirname "$(dirname "$(command -v "$nvcc")")")
mkdir -p "$(dirname "$out")"
# The library's parallelFor (foresight/support/parallel.cpp) and its init patterns
# (foresight/support/patterns.cpp) come from src/.
"$nvcc" -std=c++17 -O2 -I"$here/../../src" -o "$out" \
  "$here/runner.cpp" "$here/host/plan_reader.cpp" "$here/host/patterns.cpp" "$here/host/measure.cpp" \
  "$here/host/references.cpp" "$here/host/options.cpp" "$here/../../src/foresight/support/patterns.cpp" \
  "$here/../../src/foresight/support/parallel.cpp" \
  -L"$cuda_root/lib64/stubs" -lcuda -lpthread
echo "built $out"
