#!/usr/bin/env bash
# Golden test of the MFMA rules: port CASE/input.* to HIP with
# --mfma-shape=SHAPE; the output and the diagnostics must equal
# CASE/expected-SHAPE/ byte for byte.  The per-kernel wave-64 strategy notes
# (PK2000) are left out: they belong to the wave-64 rules and are tested with
# them.  UPDATE_GOLDEN=1 rewrites the expectation instead.
# Usage: run_golden.sh BIN CASE SHAPE
set -euo pipefail
BIN="$1"; CASE="$(cd "$2" && pwd)"; SHAPE="$3"
TMP="$(mktemp -d)"; trap 'rm -rf "$TMP"' EXIT
inputs=("$CASE"/input.*)
status=0
"$BIN" port -q --to hip --mfma-shape="$SHAPE" -o "$TMP/out" "${inputs[@]}" \
  2>"$TMP/diag.raw" || status=$?
sed -e "s|$CASE/||g" -e '/\[PK2000\]$/d' "$TMP/diag.raw" > "$TMP/out/diagnostics.txt"
find "$TMP/out" -name '*.hip' -exec sed -i '/port-kernel: note: .*\[PK2000\]$/d' {} +
echo "exit: $status" >> "$TMP/out/diagnostics.txt"
if [ "${UPDATE_GOLDEN:-0}" = 1 ]; then
  rm -rf "$CASE/expected-$SHAPE"; cp -r "$TMP/out" "$CASE/expected-$SHAPE"
  echo "updated $CASE/expected-$SHAPE"; exit 0
fi
diff -ru "$CASE/expected-$SHAPE" "$TMP/out"
