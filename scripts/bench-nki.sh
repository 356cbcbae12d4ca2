#!/usr/bin/env bash
# Speed of the NKI lifter: ports a set of CUDA files (default: the idiom
# suite, test/nki/idioms/*.cu) with `port -j 1 --to nki` and with
# `port -j 1 --to hip` (the same parse, no lifting), prints both times, their
# ratio and the slowest files for NKI, each timed alone.
#
# Usage: scripts/bench-nki.sh [-b BIN] [-n SLOWEST] [FILE...]
#   -b  the port-kernel binary (default: $BUILD_DIR/bin/port-kernel, BUILD_DIR
#       defaulting to build)
#   -n  how many of the slowest files to list (default 5; 0: none)
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
BIN="${BUILD_DIR:-$ROOT/build}/bin/port-kernel"
N=5
while getopts "b:n:" o; do
  case "$o" in
    b) BIN="$OPTARG" ;;
    n) N="$OPTARG" ;;
    *) echo "usage: $0 [-b BIN] [-n SLOWEST] [FILE...]" >&2; exit 2 ;;
  esac
done
shift $((OPTIND - 1))
[ -x "$BIN" ] || { echo "bench-nki: error: $BIN is not an executable port-kernel" >&2; exit 2; }
FILES=("$@")
[ ${#FILES[@]} -gt 0 ] || FILES=("$ROOT"/test/nki/idioms/*.cu)
for f in "${FILES[@]}"; do
  [ -r "$f" ] || { echo "bench-nki: error: cannot read $f" >&2; exit 2; }
done
WORK="$(mktemp -d)"
trap 'rm -rf "$WORK"' EXIT

# Seconds (wall) of one port of the given files to TARGET.
timed() {
  local target="$1"; shift
  local s e
  s=$(date +%s.%N)
  "$BIN" port -q -j 1 --to "$target" -o "$WORK/out-$target" "$@" >/dev/null 2>&1 || true
  e=$(date +%s.%N)
  rm -rf "$WORK/out-$target"
  awk -v s="$s" -v e="$e" 'BEGIN { printf "%.2f", e - s }'
}

echo "port-kernel NKI lifter: ${#FILES[@]} files, port -j 1"
HIP=$(timed hip "${FILES[@]}")
NKI=$(timed nki "${FILES[@]}")
echo "target wall s"
echo "hip $HIP"
echo "nki $NKI"
awk -v h="$HIP" -v n="$NKI" 'BEGIN {
  printf "nki / hip: %.2f (the lifter: %.2f s, %.3f s per file)\n", n / h, n - h, (n - h) / '"${#FILES[@]}"' }'
if [ "$N" -gt 0 ]; then
  echo "slowest for nki (each file alone, wall s):"
  for f in "${FILES[@]}"; do
    echo "$(timed nki "$f") $(basename "$f")"
  done | sort -rn | head -n "$N"
fi
