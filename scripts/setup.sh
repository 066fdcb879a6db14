#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Installs Foresight's build dependencies from Debian packages (run as root on Debian 12).
# Idempotent: packages already present are not reinstalled; apt is only touched when one is missing.
set -euo pipefail

packages=(
  build-essential cmake ninja-build ccache pkg-config
  libcli11-dev nlohmann-json3-dev libfmt-dev libtomlplusplus-dev
  libgtest-dev libgmock-dev libbenchmark-dev
  # C loop frontend (docs/input-cloop.md): LLVM 14 libraries and the clang 14 driver.
  llvm-14-dev clang-14
  # Sanitizer and libFuzzer runtimes for scripts/sanitize.sh and scripts/fuzz.sh (docs/robustness.md).
  libclang-rt-14-dev
  # The Python module and its tests (docs/python.md).
  pybind11-dev python3-dev python3-pytest
  # --html reports (docs/html.md): headless Chromium checks the pages in the tests.
  chromium
)
missing=()
for p in "${packages[@]}"; do
  if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "ok installed"; then
    missing+=("$p")
  fi
done
# npm fetches the pinned chart library of the --html reports (below); a Node.js from elsewhere
# may already bring its own npm.
if ! command -v npm >/dev/null 2>&1; then missing+=(npm); fi
if ((${#missing[@]})); then
  echo "setup: installing ${missing[*]}" >&2
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq >&2
  apt-get install -y -qq --no-install-recommends "${missing[@]}" >&2
else
  echo "setup: all build dependencies present" >&2
fi

# ---- Optional: nvdisasm / cuobjdump for the CUDA frontend's SASS path (docs/input-cuda.md) ----
# The installed CUDA 13 toolkit has no disassembler. Debian's non-free `nvidia-cuda-toolkit`
# 12.5 (experimental) ships nvdisasm/cuobjdump that decode CUDA-13 cubins for sm_75..sm_90a.
# It is downloaded (not installed) with a private apt state under .tools/, so the system's apt
# sources stay untouched, and unpacked into .tools/cuda-12.5/. Without it the frontend falls
# back to PTX; a failed download only warns. Set FORESIGHT_SKIP_NVDISASM=1 to skip this step.
fetch_nvdisasm() {
  local root tools version mirror deb
  root="$(cd "$(dirname "$0")/.." && pwd)"
  tools="$root/.tools"
  version="12.5.40~12.5.0-2+b1"
  if [[ -x "$tools/cuda-12.5/usr/bin/nvdisasm" ]]; then
    echo "setup: nvdisasm present ($tools/cuda-12.5/usr/bin/nvdisasm)" >&2
    return 0
  fi
  mirror="$(awk '$1=="URIs:"{print $2; exit}' /etc/apt/sources.list.d/*.sources 2>/dev/null || true)"
  [[ -n "$mirror" ]] || mirror="$(awk '$1=="deb"{print $2; exit}' /etc/apt/sources.list 2>/dev/null || true)"
  [[ -n "$mirror" ]] || mirror="http://deb.debian.org/debian"
  mkdir -p "$tools/apt/lists/partial" "$tools/apt/cache/archives/partial"
  cat >"$tools/apt/nonfree.list" <<LIST
deb [signed-by=/usr/share/keyrings/debian-archive-keyring.gpg] $mirror experimental non-free
LIST
  local -a apt_opts=(
    -o "Dir::Etc::SourceList=$tools/apt/nonfree.list" -o "Dir::Etc::SourceParts=/nonexistent"
    -o "Dir::State::Lists=$tools/apt/lists" -o "Dir::Cache=$tools/apt/cache"
    -o "Dir::Cache::pkgcache=$tools/apt/cache/pkgcache.bin"
    -o "Dir::Cache::srcpkgcache=$tools/apt/cache/srcpkgcache.bin"
    -o "APT::Sandbox::User=root" -qq)
  echo "setup: fetching nvdisasm from Debian's nvidia-cuda-toolkit $version (non-free, ~88 MB) into .tools/" >&2
  if ! apt-get "${apt_opts[@]}" update >&2 ||
     ! (cd "$tools" && apt-get "${apt_opts[@]}" download "nvidia-cuda-toolkit=$version" >&2); then
    echo "setup: WARNING: could not download nvidia-cuda-toolkit $version; the CUDA frontend" \
         "will use its PTX fallback (no SASS). Re-run scripts/setup.sh when the mirror is reachable." >&2
    return 0
  fi
  deb="$(ls "$tools"/nvidia-cuda-toolkit_12.5*.deb 2>/dev/null | head -n 1 || true)"
  if [[ -z "$deb" ]] || ! dpkg-deb -x "$deb" "$tools/cuda-12.5"; then
    echo "setup: WARNING: could not unpack the nvidia-cuda-toolkit package; PTX fallback applies" >&2
    return 0
  fi
  rm -f "$deb"
  echo "setup: $("$tools/cuda-12.5/usr/bin/nvdisasm" --version | tail -n 1)" >&2
}
if [[ "${FORESIGHT_SKIP_NVDISASM:-0}" != 1 ]]; then fetch_nvdisasm; fi

# ---- The chart library of the --html reports (docs/html.md) ----
# Vega, Vega-Lite and vega-embed (BSD-3-Clause) from the npm registry, pinned by version and
# checked against the registry's sha512 integrity, unpacked into .tools/web/. The build inlines
# their minified bundles into the library, so a page works offline and from a file:// URL.
# Without them `--html` says so and exits 1; everything else works. FORESIGHT_SKIP_WEB=1 skips it.
fetch_web_assets() {
  local root web tmp name version integrity tgz got
  root="$(cd "$(dirname "$0")/.." && pwd)"
  web="$root/.tools/web"
  local -a pins=(
    "vega 5.30.0 ZGoC8LdfEUV0LlXIuz7hup9jxuQYhSaWek2M7r9dEHAPbPrzSQvKXZ0BbsJbrarM100TGRpTVN/l1AFxCwDkWw=="
    "vega-lite 5.21.0 hNxM9nuMqpI1vkUOhEx6ewEf23WWLmJxSFJ4TA86AW43ixJyqcLV+iSCO0NipuVTE0rlDcc2e8joSewWyOlEwA=="
    "vega-embed 6.26.0 AZCTdKHDAuhp6TFZRQOOs332tStCwZr/5e4uZMNEuJL69A57cT66NNZJdNiCP6u66REzIToYtMJhMTL9wl5B3A=="
  )
  if [[ -f "$web/vega.min.js" && -f "$web/vega-lite.min.js" && -f "$web/vega-embed.min.js" &&
        "$(cat "$web/VERSIONS" 2>/dev/null)" == "${pins[*]}" ]]; then
    echo "setup: chart library present (.tools/web)" >&2
    return 0
  fi
  mkdir -p "$web"
  tmp="$(mktemp -d)"
  for pin in "${pins[@]}"; do
    read -r name version integrity <<<"$pin"
    if ! (cd "$tmp" && timeout 300 npm pack --silent "$name@$version" >/dev/null 2>&1); then
      echo "setup: WARNING: could not fetch $name@$version from the npm registry; --html is unavailable" >&2
      rm -rf "$tmp"
      return 0
    fi
    tgz="$tmp/$name-$version.tgz"
    got="$(python3 -c 'import base64, hashlib, sys
print(base64.b64encode(hashlib.sha512(open(sys.argv[1], "rb").read()).digest()).decode())' "$tgz")"
    if [[ "$got" != "$integrity" ]]; then
      echo "setup: WARNING: $name@$version does not match its pinned sha512; --html is unavailable" >&2
      rm -rf "$tmp"
      return 0
    fi
    tar -xzf "$tgz" -C "$tmp" "package/build/$name.min.js" "package/LICENSE"
    mv "$tmp/package/build/$name.min.js" "$web/$name.min.js"
    mv "$tmp/package/LICENSE" "$web/$name.LICENSE"
    rm -rf "$tmp/package"
  done
  rm -rf "$tmp"
  echo "${pins[*]}" >"$web/VERSIONS"
  echo "setup: chart library: vega 5.30.0, vega-lite 5.21.0, vega-embed 6.26.0 (.tools/web)" >&2
}
if [[ "${FORESIGHT_SKIP_WEB:-0}" != 1 ]]; then fetch_web_assets; fi
