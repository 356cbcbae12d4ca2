#!/usr/bin/env bash
# Installs what port-kernel needs (when missing) and builds it into build/.
# Idempotent and quiet when there is nothing to do.
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
BUILD_DIR="${BUILD_DIR:-$ROOT/build}"

PKGS=(cmake ninja-build g++ ccache libclang-19-dev llvm-19-dev clang-19 lld-19
      llvm-19-tools clang-tools-19 clang-format-19 libclang-rt-19-dev libzstd-dev libgtest-dev libgmock-dev libboost-context-dev
      hipcc libamdhip64-dev rocm-device-libs python3-numpy python3-yaml time
      chromium git cmark-gfm make zsh groff-base strace
      libopenblas-dev libhiprand-dev librocrand-dev libhipsparse-dev libomp-19-dev valgrind)
missing=()
for p in "${PKGS[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if ((${#missing[@]})); then
  echo "setup: installing ${missing[*]}"
  SUDO=""; [ "$(id -u)" -ne 0 ] && SUDO="sudo"
  $SUDO apt-get update -qq >/dev/null
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi

if [ ! -f "$BUILD_DIR/build.ninja" ]; then
  cmake -S "$ROOT" -B "$BUILD_DIR" -G Ninja -DCMAKE_BUILD_TYPE=Release >/dev/null
fi
JOBS="${JOBS:-$(nproc)}"
LOG="$BUILD_DIR/build.log"
if ! ninja -C "$BUILD_DIR" -j "$JOBS" >"$LOG" 2>&1; then
  grep -vE '^\[[0-9]+/[0-9]+\] ' "$LOG" | tail -n 60
  echo "setup: build failed (full log: $LOG)" >&2
  exit 1
fi
