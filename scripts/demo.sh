#!/usr/bin/env bash
# Installs what is missing, builds, ports the bundled corpus to every
# implemented target, validates every output on the SIMT emulator against
# the CPU references, and prints a summary table.
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
BUILD_DIR="${BUILD_DIR:-$ROOT/build}"
OUT="${OUT:-$ROOT/build/demo}"
"$ROOT/scripts/setup.sh"
PK="$BUILD_DIR/bin/port-kernel"
TARGETS="hip,cuda"

echo "== port: corpus -> $OUT/{hip,cuda}"
rm -rf "$OUT"
"$PK" port --to "$TARGETS" -j "$(nproc)" --report "$OUT.report.json" -o "$OUT" "$ROOT/corpus"
echo
echo "== validate: every case, original at 32 lanes, HIP at 64, CUDA at 32"
status=0
"$PK" validate --to "$TARGETS" -j "$(nproc)" "$ROOT/corpus" || status=$?
echo
echo "(nki: not implemented yet; the tool refuses it rather than emit a fake kernel)"
exit $status
