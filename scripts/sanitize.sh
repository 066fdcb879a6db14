#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# The sanitizer run of CI (docs/robustness.md): builds the whole tree with clang-14, AddressSanitizer
# and UndefinedBehaviorSanitizer (plus the libFuzzer targets) into build-fuzz/, then runs the test
# suite there — every unit and golden test, and each fuzz target over its seeds and regression
# inputs — except the tests that only time nvcc compiling the corpus or re-run every corpus kernel
# through every model (the normal build runs those). Any sanitizer report fails the run.
# Usage: scripts/sanitize.sh [extra ctest arguments]
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
"$root/scripts/setup.sh"
build="$root/build-fuzz"
if [[ ! -f "$build/build.ninja" ]]; then
  CC=clang-14 CXX=clang++-14 cmake -S "$root" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=None \
    -DCMAKE_CXX_FLAGS="-O1 -gline-tables-only" \
    -DFORESIGHT_FUZZ=ON -DFORESIGHT_BUILD_BENCH=OFF >&2
fi
cmake --build "$build" >&2
export ASAN_OPTIONS="detect_leaks=1:abort_on_error=1:strict_string_checks=1"
export UBSAN_OPTIONS="print_stacktrace=1:halt_on_error=1"
exclude='^(FloorInvariant\.|validation\.corpus_compiles|validation\.runner_builds|calibrate\.microbench_compiles|examples\.bottlenecks\..*_compiles)'
ctest --test-dir "$build" --output-on-failure -j"$(nproc)" -E "$exclude" "$@"
