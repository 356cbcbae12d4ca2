#!/usr/bin/env bash
# `port-kernel validate --to cuda,nki` end to end with the real translator:
# one parse per case for both targets, the NKI output run by the NKI runner,
# a kernel the NKI target does not lift (histogram: atomics) reported as
# not lifted with its diagnostic, the same JSON and exit status as the other
# targets.  Skipped (77) while the nki target is not in the tree.
set -euo pipefail
PK="$1"
SRC="$2"
PY="$3"
WORK="$(mktemp -d)"
trap 'rm -rf "$WORK"' EXIT

if "$PK" validate --to nki --json /nonexistent 2>&1 | grep -q "unknown target 'nki'"; then
  echo "no nki target: skipped"
  exit 77
fi

set +e
"$PK" validate --to cuda,nki --json -j 2 "$SRC/corpus/histogram" >"$WORK/out.json" 2>"$WORK/err.txt"
code=$?
set -e
if [ "$code" -ne 1 ]; then
  echo "expected exit status 1 (a failed cell), got $code"; cat "$WORK/err.txt"; exit 1
fi
"$PY" - "$WORK/out.json" <<'PYEOF'
import json, sys
doc = json.load(open(sys.argv[1]))
assert doc["variants"] == ["original", "cuda", "nki"], doc["variants"]
cells = {r["variant"]: r for r in doc["cases"][0]["results"]}
assert cells["original"]["status"] == "pass", cells["original"]
assert cells["cuda"]["status"] == "pass", cells["cuda"]
nki = cells["nki"]
assert nki["status"] == "fail" and nki["kind"] == "not-lifted", nki
assert "kernel 'histogram256' was not lifted" in nki["reason"], nki
assert "histogram256" in nki["detail"] and "[PK50" in nki["detail"], nki
assert doc["summary"] == {"passed": 2, "failed": 1, "skipped": 0}, doc["summary"]
assert doc["ok"] is False
print("ok")
PYEOF
