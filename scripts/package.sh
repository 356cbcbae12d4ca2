#!/usr/bin/env bash
# Builds the Debian package of port-kernel with CPack:
#
#   scripts/package.sh [OUT_DIR]     (default OUT_DIR: BUILD_DIR/package)
#
# installs what the build needs when missing and builds (scripts/setup.sh,
# BUILD_DIR default build/), then writes OUT_DIR/port-kernel_<version>_amd64.deb
# and prints its path.  Install it with `sudo apt-get install ./port-kernel_*.deb`
# (docs/install.md).
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
export BUILD_DIR="${BUILD_DIR:-$ROOT/build}"
OUT_DIR="${1:-$BUILD_DIR/package}"
"$ROOT/scripts/setup.sh"
mkdir -p "$OUT_DIR"
OUT_DIR="$(cd "$OUT_DIR" && pwd)"
version=$(sed -n 's/^set(CPACK_PACKAGE_VERSION "\(.*\)")$/\1/p' "$BUILD_DIR/CPackConfig.cmake")
deb="$OUT_DIR/port-kernel_${version}_amd64.deb"
rm -f "$deb"
LOG="$BUILD_DIR/package.log"
if ! (cd "$BUILD_DIR" && cpack -G DEB -B "$OUT_DIR" >"$LOG" 2>&1); then
  tail -n 40 "$LOG"
  echo "package: cpack failed (full log: $LOG)" >&2
  exit 1
fi
rm -rf "$OUT_DIR/_CPack_Packages"
[ -f "$deb" ] || { echo "package: cpack wrote no $deb (log: $LOG)" >&2; exit 1; }
echo "$deb"
