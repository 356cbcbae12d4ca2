#!/usr/bin/env bash
# The golden inputs exercise at least MIN distinct API mappings (rules
# PK1001-PK1004: runtime API, types, headers, device functions).
set -euo pipefail
BIN="$1"; DIR="$2"; MIN="${3:-60}"
TMP="$(mktemp -d)"; trap 'rm -rf "$TMP"' EXIT
"$BIN" port -q --to hip,cuda --report "$TMP/r.json" -o "$TMP/out" "$DIR"/*/input.* 2>/dev/null
python3 - "$TMP/r.json" "$MIN" <<'PY'
import json, sys
r = json.load(open(sys.argv[1]))
maps = set()
for t in r["targets"]:
    for e in t["edits"]:
        if e["rule"] in ("PK1001", "PK1002", "PK1003", "PK1004"):
            if t["target"] == "hip": maps.add(e["why"].split(" (")[0])
n = len(maps)
print(f"{n} distinct API mappings exercised by the golden inputs")
sys.exit(0 if n >= int(sys.argv[2]) else 1)
PY
