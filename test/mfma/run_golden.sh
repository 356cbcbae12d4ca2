#!/usr/bin/env bash
# Golden test of the MFMA rules: port CASE/input.* to HIP with
# --mfma-shape=SHAPE; the output and the diagnostics must equal
# CASE/expected-SHAPE/ byte for byte.  UPDATE_GOLDEN=1 rewrites the
# expectation instead.  Usage: run_golden.sh BIN CASE SHAPE
set -euo pipefail
BIN="$1"; CASE="$(cd "$2" && pwd)"; SHAPE="$3"
TMP="$(mktemp -d)"; trap 'rm -rf "$TMP"' EXIT
inputs=("$CASE"/input.*)
status=0
"$BIN" port -q --to hip --mfma-shape="$SHAPE" -o "$TMP/out" "${inputs[@]}" \
  2>"$TMP/diag.raw" || status=$?
sed "s|$CASE/||g" "$TMP/diag.raw" > "$TMP/out/diagnostics.txt"
echo "exit: $status" >> "$TMP/out/diagnostics.txt"
if [ "${UPDATE_GOLDEN:-0}" = 1 ]; then
  rm -rf "$CASE/expected-$SHAPE"; cp -r "$TMP/out" "$CASE/expected-$SHAPE"
  echo "updated $CASE/expected-$SHAPE"; exit 0
fi
diff -ru "$CASE/expected-$SHAPE" "$TMP/out"
