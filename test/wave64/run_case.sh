#!/usr/bin/env bash
# One check of a wave-64 hazard case (test/wave64/<case>/).
# Usage: run_case.sh BIN CASE_DIR MODE
#   check       `check --to hip` reports the case's hazard class (PK21NN,
#               NN from the directory name cNN_...) and exits 1
#   original64  the original fails on the emulator at 64 lanes (or passes,
#               when wave64.txt says 'original64: pass': portable CUDA whose
#               HIP spelling is the problem)
#   logical32 | native | auto
#               the HIP port with --wave64=MODE passes at 64 lanes
#   choice      --wave64=auto picks the strategy named in wave64.txt
set -euo pipefail
BIN="$1"; CASE="$(cd "$2" && pwd)"; MODE="$3"
name="$(basename "$CASE")"
cls="${name:1:2}"
if [ -f "$CASE/case.yaml" ]; then
  src="$CASE/$(sed -n 's/^source: *//p' "$CASE/case.yaml")"
else
  src="$(ls "$CASE"/*.cu | head -1)"
fi
TMP="$(mktemp -d)"; trap 'rm -rf "$TMP"' EXIT

status_of() { # json file, variant -> status
  python3 - "$1" "$2" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
for r in d["cases"][0]["results"]:
    if r["variant"] == sys.argv[2]:
        print(r["status"], "|", r.get("reason", ""))
        break
else:
    print("missing |")
PY
}

case "$MODE" in
check)
  rc=0; "$BIN" check -q --to hip "$src" > "$TMP/out" 2>&1 || rc=$?
  cat "$TMP/out"
  [ "$rc" -eq 1 ] || { echo "FAIL: check exited $rc, want 1"; exit 1; }
  grep -q "\[PK21$cls\]" "$TMP/out" || { echo "FAIL: no PK21$cls finding"; exit 1; } ;;
original64)
  "$BIN" validate --json --to none --lanes 64 --work-dir "$TMP/w" "$CASE" > "$TMP/r.json" 2>/dev/null || true
  s="$(status_of "$TMP/r.json" original)"; echo "original at 64 lanes: $s"
  if grep -q '^original64: *pass' "$CASE/wave64.txt"; then
    [ "${s%% *}" = pass ] || { echo "FAIL: the original fails at 64 lanes"; exit 1; }
  else
    [ "${s%% *}" != pass ] || { echo "FAIL: the original passes at 64 lanes"; exit 1; }
  fi ;;
logical32|native|auto)
  "$BIN" validate --json --to hip --wave64="$MODE" --work-dir "$TMP/w" "$CASE" > "$TMP/r.json" 2>/dev/null || true
  s="$(status_of "$TMP/r.json" hip)"; echo "hip (--wave64=$MODE) at 64 lanes: $s"
  [ "${s%% *}" = pass ] || { echo "FAIL"; exit 1; } ;;
choice)
  want="$(sed -n 's/^auto: *//p' "$CASE/wave64.txt")"
  "$BIN" port -q --to hip -o "$TMP/o" "$src" 2> "$TMP/diag" || true
  cat "$TMP/diag"
  case "$want" in
  native) grep -q "note: kernel .*: native 64-lane warps.*\[PK2000\]" "$TMP/diag" ;;
  logical32) grep -q "note: kernel .*: logical 32-lane warps.*\[PK2000\]" "$TMP/diag" ;;
  *) echo "FAIL: wave64.txt names no auto strategy"; exit 1 ;;
  esac || { echo "FAIL: auto did not pick $want"; exit 1; } ;;
*) echo "unknown mode $MODE"; exit 2 ;;
esac
