#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Sets up the dependencies (scripts/setup.sh), configures and builds Foresight into build/.
# Progress goes to stderr. Usage: scripts/build.sh [extra cmake arguments]
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
"$root/scripts/setup.sh"
cmake -S "$root" -B "$root/build" -G Ninja "$@" >&2
cmake --build "$root/build" >&2
