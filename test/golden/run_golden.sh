#!/usr/bin/env bash
# Golden test: port CASE/input.* to hip and cuda; the outputs and the
# diagnostics must equal CASE/expected/ byte for byte.  An optional
# CASE/flags file holds extra port-kernel arguments (e.g. --wave64=native).
# UPDATE_GOLDEN=1 rewrites the expectations instead.
set -euo pipefail
BIN="$1"; CASE="$(cd "$2" && pwd)"
TMP="$(mktemp -d)"; trap 'rm -rf "$TMP"' EXIT
inputs=("$CASE"/input.*)
flags=()
if [ -f "$CASE/flags" ]; then read -r -a flags < "$CASE/flags"; fi
status=0
"$BIN" port -q --to hip,cuda ${flags[@]+"${flags[@]}"} --report "$TMP/report.json" -o "$TMP/out" "${inputs[@]}" 2>"$TMP/diag.raw" || status=$?
sed "s|$CASE/||g" "$TMP/diag.raw" > "$TMP/out/diagnostics.txt"
echo "exit: $status" >> "$TMP/out/diagnostics.txt"
# The rules that fired, per target: every rewrite is asserted by its ID too.
if [ -f "$TMP/report.json" ]; then
  python3 -c '
import json, sys
r = json.load(open(sys.argv[1]))
for t in r["targets"]:
    ids = sorted({e["rule"] for e in t["edits"]} | {f["rule"] for f in t["findings"]})
    print(t["target"] + ": " + " ".join(ids))
' "$TMP/report.json" > "$TMP/out/rules.txt"
fi
if [ "${UPDATE_GOLDEN:-0}" = 1 ]; then
  rm -rf "$CASE/expected"; cp -r "$TMP/out" "$CASE/expected"; echo "updated $CASE/expected"; exit 0
fi
diff -ru "$CASE/expected" "$TMP/out"
