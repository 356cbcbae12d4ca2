#!/usr/bin/env bash
# The test suite's time per label: scripts/test-times.sh [LOG] [BUILD_DIR]
#
# LOG is the output of `scripts/test.sh` or `ctest` (lines "Test #N: name
# ... Passed 12.34 sec"); without it, the times of each test's last run
# recorded by ctest (BUILD_DIR/Testing/Temporary/CTestCostData.txt). Every
# test carries the label of its group (test/CMakeLists.txt), so each test is
# counted under its group and under every other label it has. Prints a
# Markdown table: label, tests, seconds (the sum of the tests' times), and the
# total test time and number of tests.
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
LOG="${1:-}"
BUILD_DIR="${2:-$ROOT/build}"
[ -z "$LOG" ] || [ -r "$LOG" ] || { echo "test-times: error: cannot read $LOG" >&2; exit 2; }
[ -f "$BUILD_DIR/CTestTestfile.cmake" ] || { echo "test-times: error: $BUILD_DIR is not a configured build directory" >&2; exit 2; }
JSON="$(mktemp)"; trap 'rm -f "$JSON"' EXIT
(cd "$BUILD_DIR" && ctest --show-only=json-v1) >"$JSON"
/usr/bin/python3 - "$JSON" "$LOG" "$BUILD_DIR/Testing/Temporary/CTestCostData.txt" <<'PY'
import json, re, sys
doc = json.load(open(sys.argv[1]))
labels = {}
for t in doc["tests"]:
    ls = []
    for p in t.get("properties", []):
        if p["name"] == "LABELS":
            ls = p["value"]
    labels[t["name"]] = ls
times = {}
if sys.argv[2]:
    pat = re.compile(r"Test +#\d+: (\S+) \.*\s*(?:\*\*\*)?\w+[^0-9]*([0-9.]+) sec")
    for line in open(sys.argv[2], errors="replace"):
        m = pat.search(line)
        if m:
            times[m.group(1)] = float(m.group(2))
else:
    try:
        for line in open(sys.argv[3]):
            f = line.split()
            if len(f) == 3 and f[0] in labels:
                times[f[0]] = float(f[2])
    except OSError:
        sys.exit("test-times: error: no LOG given and no recorded times in " + sys.argv[3])
if not times:
    sys.exit("test-times: error: no test times found")
agg, cnt = {}, {}
for name, s in times.items():
    for l in labels.get(name) or ["(no label)"]:
        agg[l] = agg.get(l, 0.0) + s
        cnt[l] = cnt.get(l, 0) + 1
print("| label | tests | seconds |")
print("|---|---:|---:|")
for l, s in sorted(agg.items(), key=lambda x: -x[1]):
    print("| `%s` | %d | %.0f |" % (l, cnt[l], s))
print("\ntotal: %d tests, %.0f s of test time" % (len(times), sum(times.values())))
PY
