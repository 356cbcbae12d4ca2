#!/usr/bin/env bash
# The corpus round trip CUDA -> HIP -> CUDA on the emulator at 32 lanes: the
# CUDA cases are ported to HIP (their case.yaml and ref.cpp come along), each
# case's source is pointed at its HIP output, and `validate --to cuda` ports
# those back to CUDA and runs them against the CPU references.
# Usage: roundtrip_validate.sh BIN SRC_ROOT
set -euo pipefail
BIN="$1"; SRC="$2"
TMP="$(mktemp -d)"; trap 'rm -rf "$TMP"' EXIT
"$BIN" port -q --to hip --rocm-version=5 -o "$TMP/h" "$SRC/corpus" 2>"$TMP/port.err" \
  || { cat "$TMP/port.err"; echo "FAIL: port --to hip corpus/"; exit 1; }
n=0
for y in "$TMP"/h/hip/*/case.yaml; do
  src=$(sed -n 's/^source: *//p' "$y")
  case "$src" in
    *.cu) sed -i "s/^source: .*/source: ${src%.cu}.hip/" "$y"; n=$((n+1)) ;;
    *) rm -rf "$(dirname "$y")" ;; # a HIP case: no round trip
  esac
done
[ "$n" -gt 10 ] || { echo "FAIL: only $n CUDA cases"; exit 1; }
"$BIN" validate --to cuda --rocm-version=5 -j 2 "$TMP/h/hip" > "$TMP/out" 2>&1 \
  || { cat "$TMP/out"; echo "FAIL: round-trip validation"; exit 1; }
grep -q "$((n * 2)) passed, 0 failed" "$TMP/out" || { cat "$TMP/out"; echo "FAIL: summary"; exit 1; }
echo "ok: $n round-trip cases pass at 32 lanes"
