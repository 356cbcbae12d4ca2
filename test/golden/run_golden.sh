#!/usr/bin/env bash
# Golden test: port CASE/input.* to hip and cuda; the outputs and the
# diagnostics must equal CASE/expected/ byte for byte.
# UPDATE_GOLDEN=1 rewrites the expectations instead.
set -euo pipefail
BIN="$1"; CASE="$(cd "$2" && pwd)"
TMP="$(mktemp -d)"; trap 'rm -rf "$TMP"' EXIT
inputs=("$CASE"/input.*)
status=0
"$BIN" port -q --to hip,cuda -o "$TMP/out" "${inputs[@]}" 2>"$TMP/diag.raw" || status=$?
sed "s|$CASE/||g" "$TMP/diag.raw" > "$TMP/out/diagnostics.txt"
echo "exit: $status" >> "$TMP/out/diagnostics.txt"
if [ "${UPDATE_GOLDEN:-0}" = 1 ]; then
  rm -rf "$CASE/expected"; cp -r "$TMP/out" "$CASE/expected"; echo "updated $CASE/expected"; exit 0
fi
diff -ru "$CASE/expected" "$TMP/out"
