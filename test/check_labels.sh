#!/usr/bin/env bash
# Every test of the build carries the label of its group (the part of its
# name before the first dot; pkValidate*: validate), and
# scripts/test-times.sh turns a ctest log into a table that counts each test
# under its labels.  Usage: check_labels.sh SRC_ROOT BUILD_DIR
set -euo pipefail
SRC="$1"; BUILD="$2"
TMP="$(mktemp -d)"; trap 'rm -rf "$TMP"' EXIT
(cd "$BUILD" && ctest --show-only=json-v1) >"$TMP/tests.json"
/usr/bin/python3 - "$TMP/tests.json" <<'PY'
import json, sys
doc = json.load(open(sys.argv[1]))
bad = []
for t in doc["tests"]:
    ls = next((p["value"] for p in t.get("properties", []) if p["name"] == "LABELS"), [])
    g = "validate" if t["name"].startswith("pkValidate") else t["name"].split(".")[0]
    if g not in ls:
        bad.append("%s (labels: %s)" % (t["name"], ", ".join(ls) or "none"))
if bad:
    sys.exit("FAIL: tests without their group label:\n  " + "\n  ".join(bad))
if len(doc["tests"]) < 100:
    sys.exit("FAIL: only %d tests listed" % len(doc["tests"]))
print("ok: %d tests, each with its group label" % len(doc["tests"]))
# Tests that run lit on one file of a shared suite directory run in parallel:
# none may record test times (lit rewrites .lit_test_times.txt there after
# each run while another run reads it at start, and a half-written file
# fails every later run).
lits = [t for t in doc["tests"] if any(a.endswith("lit.py") for a in t.get("command", []))]
rec = [t["name"] for t in lits if "--skip-test-time-recording" not in t["command"]]
if rec:
    sys.exit("FAIL: lit runs that record test times:\n  " + "\n  ".join(rec))
if len(lits) < 100:
    sys.exit("FAIL: only %d lit tests listed" % len(lits))
print("ok: %d lit runs, none recording test times" % len(lits))
PY
# A log with a passed, a failed and a skipped test, and names ctest knows.
mapfile -t names < <(/usr/bin/python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); print("\n".join(t["name"] for t in d["tests"][:3]))' "$TMP/tests.json")
cat >"$TMP/log" <<LOG
  1/3 Test   #1: ${names[0]} ..........   Passed   12.50 sec
  2/3 Test   #2: ${names[1]} ..........***Failed    2.25 sec
  3/3 Test   #3: ${names[2]} ..........   Passed    0.25 sec
LOG
"$SRC/scripts/test-times.sh" "$TMP/log" "$BUILD" >"$TMP/out"
grep -q "^total: 3 tests, 15 s of test time$" "$TMP/out" || { cat "$TMP/out"; echo "FAIL: total"; exit 1; }
g0="${names[0]%%.*}"; [[ "${names[0]}" == pkValidate* ]] && g0=validate
grep -q "^| \`$g0\` | [0-9]* | [0-9]* |$" "$TMP/out" || { cat "$TMP/out"; echo "FAIL: no row for $g0"; exit 1; }
if "$SRC/scripts/test-times.sh" "$TMP/missing.log" "$BUILD" 2>"$TMP/err"; then echo "FAIL: a missing log is not an error"; exit 1; fi
grep -q "cannot read" "$TMP/err" || { cat "$TMP/err"; echo "FAIL: message"; exit 1; }
echo "ok: test-times.sh"
