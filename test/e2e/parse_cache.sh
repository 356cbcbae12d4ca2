#!/usr/bin/env bash
# The parse cache (lib/Frontend/ParseCache.h): the prelude of a parse (clang's
# runtime wrapper with the toolkit's headers, port-kernel's forced includes)
# is precompiled the second time a configuration is seen and loaded from then
# on. It is an accelerator, never an input: outputs and diagnostics are the
# same with it, without it, and with a PCH that is damaged or stale (which is
# then discarded); an unusable cache directory only costs the speed.
# Usage: parse_cache.sh BIN SRC_ROOT
set -euo pipefail
BIN="$1"; SRC="$2"
TMP="$(mktemp -d)"; trap 'chmod -R u+w "$TMP" 2>/dev/null; rm -rf "$TMP"' EXIT
fail() { echo "FAIL: $*"; exit 1; }
export PORT_KERNEL_CACHE_DIR="$TMP/cache"
unset PORT_KERNEL_PARSE_CACHE
# A private copy of the data directory: the test edits a prelude header.
cp -rL "$(dirname "$BIN")/../share/port-kernel" "$TMP/data"
export PORT_KERNEL_DATA_DIR="$TMP/data"
IN="$SRC/corpus/layernorm/layernorm.cu"
port() { # port NAME [args...]: outputs in $TMP/NAME, stderr in $TMP/NAME.err
  local n="$1"; shift
  "$BIN" port --to hip,cuda,nki -o "$TMP/$n" "$@" "$IN" 2>"$TMP/$n.err" || { cat "$TMP/$n.err"; fail "port $n"; }
}
same() { # same A B: outputs and diagnostics byte-identical
  diff -r "$TMP/$1" "$TMP/$2" >/dev/null || fail "outputs of $1 and $2 differ"
  diff <(sed "s|$TMP/$1|OUT|g" "$TMP/$1.err") <(sed "s|$TMP/$2|OUT|g" "$TMP/$2.err") \
    || fail "diagnostics of $1 and $2 differ"
}
pchs() { find "$TMP/cache/parse" -name '*.pch' 2>/dev/null | wc -l; }

# Off: nothing cached.
PORT_KERNEL_PARSE_CACHE=off port off
[ ! -e "$TMP/cache/parse" ] || fail "PORT_KERNEL_PARSE_CACHE=off wrote $TMP/cache/parse"

# First sighting marks the configuration, the second builds the PCH, the
# third loads it; every output is the plain parse's.
port first
[ "$(pchs)" = 0 ] || fail "a PCH after the first sighting"
ls "$TMP/cache/parse/"*.seen >/dev/null || fail "no mark after the first sighting"
port second
[ "$(pchs)" = 1 ] || fail "no PCH after the second sighting"
port third
same off first; same off second; same off third
PCH="$(find "$TMP/cache/parse" -name '*.pch')"

# The PCH is used: a trace of the third kind of run has no PCH build, and
# its parse reads the PCH (clang's ReadAST event under the parse).
PK_TIME_TRACE="$TMP/t.json" port traced
/usr/bin/python3 - "$TMP/t.json" <<'PY' || fail "the PCH was not used"
import json, sys
ev = [e for e in json.load(open(sys.argv[1]))["traceEvents"] if e.get("ph") == "X"]
names = {e["name"] for e in ev}
assert "build the prelude PCH" not in names, "rebuilt"
assert "ReadAST" in names, "no ReadAST: the prelude was parsed"
PY
same off traced

# A user error: the same message with the cache as without.
printf '__global__ void k(float *x) { x[threadIdx.x] = undeclared; }\n' > "$TMP/bad.cu"
for mode in on off; do
  if PORT_KERNEL_PARSE_CACHE=$([ $mode = on ] && echo on || echo off) \
      "$BIN" port --to hip -o "$TMP/bad-$mode" "$TMP/bad.cu" 2>"$TMP/bad-$mode.err"; then
    fail "a file that does not compile ported ($mode)"
  fi
done
diff <(sed "s|bad-on|OUT|g" "$TMP/bad-on.err") <(sed "s|bad-off|OUT|g" "$TMP/bad-off.err") || fail "the error differs with the cache"
grep -q "bad.cu:1:.*undeclared" "$TMP/bad-on.err" || { cat "$TMP/bad-on.err"; fail "no file:line in the error"; }
[ -f "$PCH" ] || fail "a user error discarded the PCH"

# --stub-missing-includes: a header that is not installed is the file's
# failure, not the PCH's; the stubbed parse uses the PCH and gives the plain
# parse's outputs and notes.
printf '#include "not_installed.h"\n__global__ void k(float *x) { x[threadIdx.x] = 2.0f; }\n' > "$TMP/stub.cu"
for mode in on on on off; do
  PORT_KERNEL_PARSE_CACHE=$mode "$BIN" port --to hip --stub-missing-includes -o "$TMP/stub-$mode" "$TMP/stub.cu" \
    2>"$TMP/stub-$mode.err" || { cat "$TMP/stub-$mode.err"; fail "stubbed port ($mode)"; }
done
diff -r "$TMP/stub-on" "$TMP/stub-off" >/dev/null || fail "stubbed outputs differ with the cache"
diff <(sed "s|stub-on|OUT|g" "$TMP/stub-on.err") <(sed "s|stub-off|OUT|g" "$TMP/stub-off.err") || fail "stub notes differ with the cache"
grep -q "not_installed.h" "$TMP/stub-on.err" || { cat "$TMP/stub-on.err"; fail "no stub note"; }

# A damaged PCH: same outputs, the PCH is discarded, then rebuilt.
head -c 100000 "$PCH" > "$TMP/trunc" && cat "$TMP/trunc" > "$PCH"
port damaged
same off damaged
[ ! -f "$PCH" ] || [ "$(stat -c %s "$PCH")" != 100000 ] || fail "the damaged PCH was kept"
port rebuilt
[ -f "$PCH" ] || fail "no PCH rebuilt after a damaged one"
same off rebuilt

# A stale PCH: a prelude header changed after it was built.
printf '\n/* changed after the PCH was built */\n' >> "$TMP/data/cuda13-shim/__pk_nvcc_compat.h"
port stale
same off stale
port stale2
same off stale2

# A user's forced include comes after the prelude and is not in the PCH:
# its macro reaches the file with the PCH loaded.
printf '#define PK_TEST_SCALE 3.0f\n' > "$TMP/user_pre.h"
printf '__global__ void k(float *x) { x[threadIdx.x] *= PK_TEST_SCALE; }\n' > "$TMP/scale.cu"
for i in 1 2 3; do
  "$BIN" port --to hip -o "$TMP/scale$i" --extra-arg=-include --extra-arg="$TMP/user_pre.h" "$TMP/scale.cu" 2>"$TMP/scale$i.err" \
    || { cat "$TMP/scale$i.err"; fail "port with a user -include ($i)"; }
  grep -q "PK_TEST_SCALE" "$TMP/scale$i/hip/scale.hip" || fail "output $i lost the user's macro"
done
diff -r "$TMP/scale1" "$TMP/scale3" >/dev/null || fail "user -include: outputs differ with the PCH"

# Different defines are different configurations: each its own PCH.
n0="$(pchs)"
for i in 1 2; do port defA$i --extra-arg=-DPK_TEST_A=1; done
[ "$(pchs)" -gt "$n0" ] || fail "-D did not give a configuration of its own"
same defA1 defA2

# An unusable cache directory: the port still works, nothing cached.
mkdir -p "$TMP/ro"; chmod a-w "$TMP/ro"
if [ "$(id -u)" != 0 ]; then
  for i in 1 2 3; do PORT_KERNEL_CACHE_DIR="$TMP/ro/c" port ro$i; done
  same off ro3
fi
PORT_KERNEL_CACHE_DIR="$TMP/afile/c" ; : > "$TMP/afile"
for i in 1 2 3; do PORT_KERNEL_CACHE_DIR="$TMP/afile/c" port file$i; done
same off file3

# A compilation database with flags of its own per file: the second run
# builds at most 8 PCHs (one process), the other configurations stay marked.
mkdir -p "$TMP/db"
entries=""
for i in 1 2 3 4 5 6 7 8 9; do
  printf '__global__ void k%d(float *x) { x[threadIdx.x] = ID; }\n' "$i" > "$TMP/db/f$i.cu"
  entries="$entries{\"directory\": \"$TMP/db\", \"file\": \"f$i.cu\", \"arguments\": [\"clang++\", \"-DID=$i\", \"-c\", \"f$i.cu\"]},"
done
printf '[%s]\n' "${entries%,}" > "$TMP/db/compile_commands.json"
export PORT_KERNEL_CACHE_DIR="$TMP/dbcache"
for run in 1 2; do
  "$BIN" port -q -j 1 --to hip -p "$TMP/db" -o "$TMP/dbout$run" "$TMP/db" 2>"$TMP/db$run.err" \
    || { cat "$TMP/db$run.err"; fail "port of the compilation database ($run)"; }
done
n="$(find "$TMP/dbcache/parse" -name '*.pch' | wc -l)"
[ "$n" = 8 ] || fail "per-file configurations: $n PCHs after the second run, expected 8 (the cap)"
[ "$(find "$TMP/dbcache/parse" -name '*.seen' | wc -l)" = 9 ] || fail "not every configuration marked"
diff -r "$TMP/dbout1" "$TMP/dbout2" >/dev/null || fail "compilation database: outputs differ with the PCHs"
export PORT_KERNEL_CACHE_DIR="$TMP/cache"

# Several workers in one run: one PCH, outputs as with one worker.
rm -rf "$TMP/cache"
"$BIN" port -q -j 2 --to hip,cuda -o "$TMP/j2" "$SRC/corpus/saxpy/saxpy.cu" "$SRC/corpus/layernorm/layernorm.cu" \
  "$SRC/corpus/transpose/transpose.cu" 2>/dev/null || fail "port -j 2"
PORT_KERNEL_PARSE_CACHE=off "$BIN" port -q -j 1 --to hip,cuda -o "$TMP/j1" "$SRC/corpus/saxpy/saxpy.cu" "$SRC/corpus/layernorm/layernorm.cu" \
  "$SRC/corpus/transpose/transpose.cu" 2>/dev/null || fail "port -j 1"
diff -r "$TMP/j1" "$TMP/j2" >/dev/null || fail "-j 2 with the cache differs from -j 1 without"
echo "ok: parse cache"
