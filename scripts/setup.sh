#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Installs Foresight's build dependencies from Debian packages (run as root on Debian 12).
# Idempotent: packages already present are not reinstalled; apt is only touched when one is missing.
set -euo pipefail

packages=(
  build-essential cmake ninja-build ccache pkg-config
  libcli11-dev nlohmann-json3-dev libfmt-dev libtomlplusplus-dev
  libgtest-dev libgmock-dev libbenchmark-dev
)
missing=()
for p in "${packages[@]}"; do
  if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "ok installed"; then
    missing+=("$p")
  fi
done
if ((${#missing[@]})); then
  echo "setup: installing ${missing[*]}" >&2
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq >&2
  apt-get install -y -qq --no-install-recommends "${missing[@]}" >&2
else
  echo "setup: all build dependencies present" >&2
fi
