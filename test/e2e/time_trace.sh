#!/usr/bin/env bash
# PK_TIME_TRACE (pk/Trace.h): port and check write a Chrome trace of their
# phases; scripts/bench-phases.sh sums it. Off, nothing is written; a trace
# that cannot be written is a warning, never a failed port.
# Usage: time_trace.sh BIN SRC_ROOT
set -euo pipefail
BIN="$1"; SRC="$2"
TMP="$(mktemp -d)"; trap 'rm -rf "$TMP"' EXIT
fail() { echo "FAIL: $*"; exit 1; }

# Two files on two workers: every phase of each, on the workers' threads.
PK_TIME_TRACE="$TMP/t.json" "$BIN" port -q -j 2 --to hip,cuda,nki -o "$TMP/out" \
  "$SRC/corpus/saxpy/saxpy.cu" "$SRC/corpus/layernorm/layernorm.cu" 2>"$TMP/err" || { cat "$TMP/err"; fail "port"; }
/usr/bin/python3 - "$TMP/t.json" "$SRC" <<'PY' || exit 1
import json, sys
d = json.load(open(sys.argv[1]))
ev = [e for e in d["traceEvents"] if e.get("ph") == "X"]
def names(n):
    return [e for e in ev if e["name"] == n]
files = sorted(e["args"]["detail"] for e in names("file"))
want = sorted([sys.argv[2] + "/corpus/saxpy/saxpy.cu", sys.argv[2] + "/corpus/layernorm/layernorm.cu"])
assert files == want, files
for n in ("clang parse", "macro-depth scan", "generate", "release the AST", "write outputs"):
    assert names(n), "no %s event" % n
for t in ("hip", "cuda", "nki"):
    assert len([e for e in names("target") if e["args"]["detail"] == t]) == 2, t
passes = {e["args"]["detail"] for e in names("pass")}
assert {"renames", "wave64", "mfma"} <= passes, passes
# A file's phases lie inside its own event, on its thread.
for f in names("file"):
    inside = [e for e in ev if e["tid"] == f["tid"] and e["name"] == "clang parse"
              and f["ts"] <= e["ts"] and e["ts"] + e["dur"] <= f["ts"] + f["dur"]]
    assert inside, "no parse inside %s" % f["args"]["detail"]
print("ok: trace of %d events" % len(ev))
PY
"$SRC/scripts/bench-phases.sh" "$SRC/corpus/saxpy/saxpy.cu" >"$TMP/table" 2>&1 || { cat "$TMP/table"; fail "bench-phases"; }
grep -q "^| clang parse | [0-9.]* | [0-9.]* |$" "$TMP/table" || { cat "$TMP/table"; fail "bench-phases: no parse row"; }
grep -q "^| target hip | " "$TMP/table" || { cat "$TMP/table"; fail "bench-phases: no hip row"; }

# check writes one too.
PK_TIME_TRACE="$TMP/c.json" "$BIN" check -q --to hip "$SRC/corpus/saxpy/saxpy.cu" >/dev/null 2>&1 || true
grep -q '"clang parse"' "$TMP/c.json" || fail "check wrote no trace"

# Off: no trace anywhere in the outputs or the working directory.
mkdir "$TMP/cwd"
(cd "$TMP/cwd" && env -u PK_TIME_TRACE "$BIN" port -q --to hip -o "$TMP/out2" "$SRC/corpus/saxpy/saxpy.cu") || fail "port without a trace"
[ -z "$(ls -A "$TMP/cwd")" ] || fail "files written while off: $(ls -A "$TMP/cwd")"
! grep -rlq traceEvents "$TMP/out2" || fail "a trace among the outputs"

# A trace that cannot be written: a warning; the port succeeds.
PK_TIME_TRACE="$TMP/no/such/dir/t.json" "$BIN" port -q --to hip -o "$TMP/out3" "$SRC/corpus/saxpy/saxpy.cu" 2>"$TMP/err3" \
  || { cat "$TMP/err3"; fail "an unwritable trace failed the port"; }
grep -q "warning: cannot write the time trace $TMP/no/such/dir/t.json" "$TMP/err3" || { cat "$TMP/err3"; fail "no warning"; }
[ -f "$TMP/out3/hip/saxpy.hip" ] || fail "no output"
echo "ok: time trace"
