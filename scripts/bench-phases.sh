#!/usr/bin/env bash
# Where port's time goes, per phase: scripts/bench-phases.sh [PATH...]
#
# Runs `port --to hip,cuda,nki -j 1` over PATH (default: corpus/) with
# PK_TIME_TRACE (pk/Trace.h) and sums the trace's events per phase: the clang
# parse (with clang's own largest sub-phases), the macro-depth scan, each
# target and each of its passes, generating, releasing the AST, writing the
# outputs. Prints a Markdown table of milliseconds and the share of the
# files' total; TARGETS=hip,cuda overrides the targets, BIN the binary.
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
BIN="${BIN:-$ROOT/build/bin/port-kernel}"
TARGETS="${TARGETS:-hip,cuda,nki}"
[ -x "$BIN" ] || { echo "bench-phases: error: no port-kernel at $BIN (build first)" >&2; exit 2; }
(($#)) || set -- "$ROOT/corpus"
WORK="$(mktemp -d)"; trap 'rm -rf "$WORK"' EXIT
PK_TIME_TRACE="$WORK/trace.json" "$BIN" port -q -j 1 --to "$TARGETS" -o "$WORK/out" "$@" >/dev/null 2>"$WORK/err" || {
  echo "bench-phases: error: port failed:" >&2; tail -5 "$WORK/err" >&2; exit 1; }
/usr/bin/python3 - "$WORK/trace.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
agg, files = {}, 0
for e in d["traceEvents"]:
    if e.get("ph") != "X" or e["name"].startswith("Total "):
        continue
    n, det = e["name"], e.get("args", {}).get("detail", "")
    if n == "file":
        files += 1
    key = {"target": "target " + det, "pass": "  pass " + det}.get(n, n)
    agg[key] = agg.get(key, 0) + e["dur"]
total = agg.get("file", 0)
if not total:
    sys.exit("bench-phases: error: the trace has no file events")
print("| phase | ms | % of the files' time |")
print("|---|---:|---:|")
order = ["file", "clang parse", "macro-depth scan", "scan for invisible controls"]
order += sorted((k for k in agg if k.startswith("target ")), key=lambda k: -agg[k])
rest = ["generate", "release the AST", "write outputs"]
for k in order + rest:
    if k in agg:
        print("| %s | %.1f | %.1f |" % (k, agg[k] / 1000, 100.0 * agg[k] / total))
passes = sorted((k for k in agg if k.startswith("  pass ")), key=lambda k: -agg[k])
for k in passes[:15]:
    print("| %s | %.1f | %.1f |" % (k.strip(), agg[k] / 1000, 100.0 * agg[k] / total))
parse = agg.get("clang parse", 0)
print("\n%d files; after the parse (analysis, passes, generating, releasing): %.1f%% of the files' time"
      % (files, 100.0 * (total - parse) / total))
PY
