#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Fuzzes one parser: scripts/fuzz.sh TARGET SECONDS [libFuzzer options…]
# Builds the libFuzzer targets with clang + ASan + UBSan into build-fuzz/ (once), seeds a working
# corpus (build-fuzz/corpus/TARGET) from fuzz/seeds.txt, and runs TARGET for SECONDS. A crash is
# written to build-fuzz/artifacts/TARGET/; copy it to fuzz/regressions/TARGET/ with a test that
# pins the message (docs/robustness.md). Targets: see fuzz/seeds.txt. Progress goes to stderr.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
if (($# < 2)); then
  echo "usage: scripts/fuzz.sh TARGET SECONDS [libFuzzer options…]" >&2
  echo "targets: $(awk '!/^#/ && NF {printf "%s ", $1}' "$root/fuzz/seeds.txt")" >&2
  exit 2
fi
target="$1"
seconds="$2"
shift 2
if ! grep -q "^$target " "$root/fuzz/seeds.txt"; then
  echo "fuzz.sh: unknown target '$target' (targets: $(awk '!/^#/ && NF {printf "%s ", $1}' "$root/fuzz/seeds.txt"))" >&2
  exit 2
fi
build="$root/build-fuzz"
if [[ ! -f "$build/build.ninja" ]]; then
  CC=clang-14 CXX=clang++-14 cmake -S "$root" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=None \
    -DCMAKE_CXX_FLAGS="-O1 -gline-tables-only" \
    -DFORESIGHT_SANITIZE=ON -DFORESIGHT_FUZZ=ON -DFORESIGHT_BUILD_BENCH=OFF >&2
fi
cmake --build "$build" --target "fuzz_$target" >&2
corpus="$build/corpus/$target"
artifacts="$build/artifacts/$target"
mkdir -p "$corpus" "$artifacts"
# Seeds: the globs of fuzz/seeds.txt and the regressions, copied once into the working corpus.
read -r -a patterns <<<"$(grep "^$target " "$root/fuzz/seeds.txt" | cut -d' ' -f2-)"
shopt -s nullglob
for pattern in "${patterns[@]}" "fuzz/regressions/$target/*"; do
  for f in "$root"/$pattern; do cp -n "$f" "$corpus/" 2>/dev/null || true; done
done
echo "fuzz.sh: $target for ${seconds}s, corpus $corpus ($(ls "$corpus" | wc -l) inputs)" >&2
exec "$build/bin/fuzz_$target" -max_total_time="$seconds" -timeout=60 -rss_limit_mb=4096 \
  -max_len=65536 -print_final_stats=1 -artifact_prefix="$artifacts/" "$@" "$corpus"
