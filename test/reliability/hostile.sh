#!/usr/bin/env bash
# The hostile-input suite: many cases per group, one ctest per group
# (reliability.hostile-<group>).  Usage: hostile.sh BIN SRC_ROOT GROUP
# Groups: paths, contents, compdb, rules, writes, validate.
# Every case asserts the exit status; on failure, a message naming the file
# (FILE:LINE where there is a line) and that nothing was written; on success,
# that the outputs are byte for byte those of a clean run; and always that the
# inputs are byte for byte what they were (a listing with modes, link targets
# and checksums, before and after).  Prints the number of cases it ran.
. "$(dirname "${BASH_SOURCE[0]}")/common.sh"
GROUP="$TEST"
KERNEL="$GOLD/launch/input.cu"
INPUT_ERROR="1 2"
N=0
CASE=""
fail() { echo "FAIL [$GROUP/$CASE]: $*" >&2; exit 1; }

# begin NAME: a fresh case directory $C with an input tree $C/in.
begin() {
  CASE="$1"; N=$((N + 1)); C="$TMP/case$N"
  mkdir -p "$C/in"
}
snap() { BEFORE=$(snapshot "$C/in"); }
unchanged() { [ "$(snapshot "$C/in")" = "$BEFORE" ] || fail "the input tree changed"; }
no_output() { for p in "$@"; do [ ! -e "$p" ] || fail "output written: $(find "$p" | head -5)"; done; }
no_tmp_leftovers() {
  local l; l=$(find "$1" -name '*.pk-tmp-*' -o -name '.pk-tmp-*' -o -name '.pk-bak-*' 2>/dev/null)
  [ -z "$l" ] || fail "leftover temporary files: $l"
}

# The clean run every successful case is compared with: the same kernel at a
# plain path.
REF="$TMP/ref"; mkdir -p "$REF/in"; cp "$KERNEL" "$REF/in/k.cu"
"$BIN" port -q --to hip -o "$REF/o" "$REF/in/k.cu" 2>"$TMP/err" || fail "clean run failed: $(cat "$TMP/err")"
REFOUT="$REF/o/hip/k.hip"
same_as_clean() { cmp -s "$1" "$REFOUT" || fail "$1 differs from the clean run: $(diff "$1" "$REFOUT" | head -5)"; }

# A port that must fail: status, message, no output, inputs unchanged.
port_fails() { # MESSAGE ARGS...
  local msg="$1"; shift
  run port -q --to hip -o "$C/o" "$@"
  expect_rc $INPUT_ERROR; expect_err "$msg"
  no_output "$C/o"; unchanged
}

group_paths() {
  begin path-with-spaces
  mkdir -p "$C/in/my src"; cp "$KERNEL" "$C/in/my src/a b.cu"; snap
  run port -q --to hip -o "$C/o" "$C/in/my src"; expect_rc 0
  same_as_clean "$C/o/hip/a b.hip"; unchanged

  begin path-non-ascii
  mkdir -p "$C/in/ünï"; cp "$KERNEL" "$C/in/ünï/κέρνελ.cu"; snap
  run port -q --to hip -o "$C/o" "$C/in"; expect_rc 0
  same_as_clean "$C/o/hip/ünï/κέρνελ.hip"; unchanged

  begin path-non-utf8-name
  cp "$KERNEL" "$C/in/$(printf 'caf\xe9').cu"; snap
  run port -q --to hip -o "$C/o" "$C/in"; expect_rc 0
  same_as_clean "$C/o/hip/$(printf 'caf\xe9').hip"; unchanged

  begin path-leading-dash
  cp "$KERNEL" "$C/in/-k.cu"; snap
  run port -q --to hip -o "$C/o" "$C/in/-k.cu"; expect_rc 0
  same_as_clean "$C/o/hip/-k.hip"; unchanged

  begin path-newline-in-name
  cp "$KERNEL" "$C/in/a
b.cu"; snap
  run port -q --to hip -o "$C/o" "$C/in"; expect_rc 0
  same_as_clean "$C/o/hip/a
b.hip"; unchanged

  begin path-dot-dot
  mkdir -p "$C/in/sub"; cp "$KERNEL" "$C/in/k.cu"; snap
  run port -q --to hip -o "$C/o" "$C/in/sub/../k.cu"; expect_rc 0
  same_as_clean "$C/o/hip/k.hip"; unchanged

  begin path-same-file-twice
  cp "$KERNEL" "$C/in/k.cu"; snap
  run port -q --to hip -o "$C/o" "$C/in/k.cu" "$C/in/./k.cu" "$C/in"; expect_rc 0
  [ "$(find "$C/o" -type f | wc -l)" = 1 ] || fail "outputs: $(find "$C/o" -type f)"
  same_as_clean "$C/o/hip/k.hip"; unchanged

  begin path-missing-input
  snap; port_fails "$C/in/nope.cu: error: no such file or directory" "$C/in/nope.cu"

  begin path-empty-directory
  mkdir -p "$C/in/empty"; snap
  run port -q --to hip -o "$C/o" "$C/in/empty"; expect_rc 0
  [ -z "$(find "$C/o" -type f 2>/dev/null)" ] || fail "files written for an empty tree"; unchanged

  begin path-dangling-symlink
  cp "$KERNEL" "$C/in/k.cu"; ln -s "$C/gone.cu" "$C/in/dangling.cu"; snap
  run port -q --to hip -o "$C/o" "$C/in"; expect_rc 0
  same_as_clean "$C/o/hip/k.hip"
  [ "$(find "$C/o" -type f | wc -l)" = 1 ] || fail "outputs: $(find "$C/o")"; unchanged

  begin path-output-inside-input
  cp "$KERNEL" "$C/in/k.cu"; snap
  run port -q --to hip -o "$C/in/out" "$C/in"
  expect_rc $INPUT_ERROR; expect_err "inside the input"; no_output "$C/in/out"; unchanged

  begin path-output-is-input-file
  cp "$KERNEL" "$C/in/k.cu"; snap
  run port -q --to hip -o "$C/in/k.cu" "$C/in/k.cu"
  expect_rc $INPUT_ERROR; expect_err "$C/in/k.cu"; unchanged

  begin path-deep-tree
  d="$C/in"; for i in $(seq 1 30); do d="$d/level-$i-$(printf '%0100d' 0)"; done
  mkdir -p "$d"; cp "$KERNEL" "$d/k.cu"; snap
  run port -q --to hip -o "$C/o" "$C/in"
  expect_rc 0 $INPUT_ERROR
  if [ "$rc" = 0 ]; then same_as_clean "$(find "$C/o" -name k.hip)"; else expect_err "no output written"; no_output "$C/o"; fi
  unchanged

  begin path-input-is-symlink-to-file
  cp "$KERNEL" "$C/k.cu"; ln -s "$C/k.cu" "$C/in/link.cu"; snap
  run port -q --to hip -o "$C/o" "$C/in/link.cu"; expect_rc 0
  same_as_clean "$(find "$C/o" -name '*.hip')"; unchanged

  begin path-non-cuda-files-copied
  # Other files of the tree are copied as they are.
  printf 'notes\n' > "$C/in/README.txt"; printf 'x = 1\n\377\0' > "$C/in/a.py"; snap
  run port -q --to hip -o "$C/o" "$C/in"; expect_rc 0
  cmp -s "$C/o/hip/README.txt" "$C/in/README.txt" && cmp -s "$C/o/hip/a.py" "$C/in/a.py" ||
    fail "copies differ: $(find "$C/o" -type f)"; unchanged
}

group_contents() {
  begin content-empty-file
  : > "$C/in/e.cu"; snap
  run port -q --to hip -o "$C/o" "$C/in/e.cu"; expect_rc 0
  [ -f "$C/o/hip/e.hip" ] && [ ! -s "$C/o/hip/e.hip" ] || fail "empty input, output: $(ls -la "$C/o/hip")"; unchanged

  begin content-comment-only
  printf '// nothing here\n/* nor here */\n' > "$C/in/c.cu"; snap
  run port -q --to hip -o "$C/o" "$C/in/c.cu"; expect_rc 0
  cmp -s "$C/o/hip/c.hip" "$C/in/c.cu" || fail "comment-only file changed"; unchanged

  begin content-binary
  head -c 4096 /dev/urandom > "$C/in/b.cu"; printf '\0\1\2' >> "$C/in/b.cu"; snap
  port_fails "$C/in/b.cu: error: cannot parse as CUDA" "$C/in/b.cu"

  begin content-nul-byte
  { printf '// a NUL: \0 in a comment\n'; cat "$KERNEL"; } > "$C/in/n.cu"; snap
  run port -q --to hip -o "$C/o" "$C/in/n.cu"; expect_rc 0 $INPUT_ERROR
  if [ "$rc" = 0 ]; then
    # The NUL is an invisible character: a PK9004 warning above its line.
    head -1 "$C/o/hip/n.hip" | grep -q "invisible character U+0000 .*\[PK9004\]" || fail "no PK9004 warning for the NUL"
    tail -n +3 "$C/o/hip/n.hip" | cmp -s - "$REFOUT" || fail "NUL case output differs from the clean run"
    sed -n 2p "$C/o/hip/n.hip" | cmp -s - <(head -1 "$C/in/n.cu") || fail "the line with the NUL byte changed"
  else expect_err "$C/in/n.cu"; no_output "$C/o"; fi
  unchanged

  begin content-non-utf8-comment
  { printf '// auteur: Andr\xe9\n'; cat "$KERNEL"; } > "$C/in/l.cu"; snap
  run port -q --to hip -o "$C/o" "$C/in/l.cu"; expect_rc 0
  tail -n +2 "$C/o/hip/l.hip" | cmp -s - "$REFOUT" || fail "output differs from the clean run"
  head -1 "$C/o/hip/l.hip" | cmp -s - <(head -1 "$C/in/l.cu") || fail "the Latin-1 comment changed"; unchanged

  begin content-non-utf8-code
  printf '__global__ void k(int *p) { p[0] = 1; }\nint \xff\xfe = 1;\n' > "$C/in/u.cu"; snap
  port_fails "$C/in/u.cu:2:5: error: source file is not valid UTF-8" "$C/in/u.cu"

  begin content-crlf
  sed 's/$/\r/' "$KERNEL" > "$C/in/w.cu"; snap
  run port -q --to hip -o "$C/o" "$C/in/w.cu"; expect_rc 0
  [ "$(grep -c $'\r$' "$C/o/hip/w.hip")" = "$(wc -l < "$C/o/hip/w.hip")" ] || fail "CRLF line endings not kept"
  tr -d '\r' < "$C/o/hip/w.hip" | cmp -s - "$REFOUT" || fail "CRLF output differs from the clean run"; unchanged

  begin content-utf8-bom
  { printf '\xef\xbb\xbf'; cat "$KERNEL"; } > "$C/in/b.cu"; snap
  run port -q --to hip -o "$C/o" "$C/in/b.cu"; expect_rc 0
  # The byte-order mark stays first; after it, the clean run's output.
  [ "$(head -c 3 "$C/o/hip/b.hip" | od -An -tx1 | tr -d ' ')" = efbbbf ] || fail "the BOM is not first"
  tail -c +4 "$C/o/hip/b.hip" | cmp -s - "$REFOUT" || fail "output after the BOM differs from the clean run"
  unchanged

  begin content-no-final-newline
  printf '%s' "$(cat "$KERNEL")" > "$C/in/f.cu"; snap
  run port -q --to hip -o "$C/o" "$C/in/f.cu"; expect_rc 0
  [ "$(tail -c 1 "$C/o/hip/f.hip" | od -An -c | tr -d ' ')" != '\n' ] || fail "a final newline was added"
  cmp -s "$C/o/hip/f.hip" <(printf '%s' "$(cat "$REFOUT")") || fail "output differs from the clean run"; unchanged

  begin content-missing-header
  printf '#include <cuda_runtime.h>\n#include "not_there.cuh"\n__global__ void k(int *p) { p[0] = 1; }\n' > "$C/in/m.cu"; snap
  port_fails "$C/in/m.cu:2:10: error: 'not_there.cuh' file not found" "$C/in/m.cu"

  begin content-include-cycle
  printf '#include "b.cuh"\n' > "$C/in/a.cuh"; printf '#include "a.cuh"\n' > "$C/in/b.cuh"
  printf '#include "a.cuh"\n__global__ void k(int *p) { p[0] = 1; }\n' > "$C/in/c.cu"; snap
  port_fails "error: #include nested too deeply" "$C/in/c.cu"
  grep -qE "$C/in/[ab].cuh:1:10: error: #include nested too deeply" "$TMP/err" || fail "no FILE:LINE: $(head -3 "$TMP/err")"

  begin content-include-cycle-guarded
  printf '#pragma once\n#include "b.cuh"\n' > "$C/in/a.cuh"; printf '#pragma once\n#include "a.cuh"\n' > "$C/in/b.cuh"
  { printf '#include "a.cuh"\n'; cat "$KERNEL"; } > "$C/in/c.cu"; snap
  run port -q --to hip -o "$C/o" "$C/in/c.cu"; expect_rc 0
  # The headers keep consistent names (a.cuh -> a.hpp, included as such).
  [ -f "$C/o/hip/a.hpp" ] && [ -f "$C/o/hip/b.hpp" ] && grep -qx '#include "a.hpp"' "$C/o/hip/c.hip" ||
    fail "headers: $(find "$C/o" -type f)"
  cmp -s <(grep -vx '#include "a.hpp"\|#include <hip/hip_runtime.h>' "$C/o/hip/c.hip") \
         <(grep -vx '#include <hip/hip_runtime.h>' "$REFOUT") || fail "output differs from the clean run"; unchanged

  begin content-unterminated-comment
  printf '__global__ void k(int *p) { p[0] = 1; }\n/* never closed\n' > "$C/in/t.cu"; snap
  port_fails "$C/in/t.cu:2:1: error: unterminated /* comment" "$C/in/t.cu"

  begin content-syntax-error
  printf '__global__ void k(int *p) {\n  p[0] = = 1;\n}\n' > "$C/in/s.cu"; snap
  port_fails "$C/in/s.cu:2:10: error: expected expression" "$C/in/s.cu"

  begin content-hash-error
  printf '#error this file is not meant to compile\n' > "$C/in/h.cu"; snap
  port_fails "$C/in/h.cu:1:2: error: this file is not meant to compile" "$C/in/h.cu"

  begin content-deep-nesting
  python3 -c "print('__global__ void k(int *p) { p[0] = ' + '('*3000 + '1' + ')'*3000 + '; }')" > "$C/in/d.cu"; snap
  port_fails "$C/in/d.cu:1:292: error: bracket nesting level exceeded maximum of 256" "$C/in/d.cu"

  begin content-long-line
  { python3 -c "print('static const int table[] = {' + ','.join(['1']*200000) + '};')"; cat "$KERNEL"; } > "$C/in/l.cu"; snap
  run port -q --to hip -o "$C/o" "$C/in/l.cu"; expect_rc 0
  tail -n +2 "$C/o/hip/l.hip" | cmp -s - "$REFOUT" || fail "output differs from the clean run"; unchanged

  begin content-large-file
  # 2 MB of copies of the kernel, each in its own namespace.
  { for i in $(seq 1 700); do echo "namespace n$i {"; grep -v '^#include' "$KERNEL"; echo "}"; done; } > "$C/in/big.body"
  { grep '^#include' "$KERNEL"; cat "$C/in/big.body"; } > "$C/in/big.cu"; rm "$C/in/big.body"; snap
  run port -q --to hip -o "$C/o" "$C/in/big.cu"; expect_rc 0
  [ "$(grep -c 'hipLaunchKernelGGL\|<<<' "$C/o/hip/big.hip")" -ge 700 ] || fail "large file not ported"
  unchanged

  begin content-form-feed-and-tabs
  { printf '\f\v\t\n'; cat "$KERNEL"; } > "$C/in/ff.cu"; snap
  run port -q --to hip -o "$C/o" "$C/in/ff.cu"; expect_rc 0
  tail -n +2 "$C/o/hip/ff.hip" | cmp -s - "$REFOUT" || fail "output differs from the clean run"; unchanged

  begin content-directory-named-cu
  mkdir -p "$C/in/d.cu"; cp "$KERNEL" "$C/in/d.cu/k.cu"; snap
  run port -q --to hip -o "$C/o" "$C/in"; expect_rc 0
  same_as_clean "$C/o/hip/d.cu/k.hip"; unchanged
}

group_compdb() {
  cdb() { # CONTENT: a database in $C/db, the kernel in $C/in
    mkdir -p "$C/db"; printf '%s' "$1" > "$C/db/compile_commands.json"
    cp "$KERNEL" "$C/in/k.cu"; snap
  }
  cdb_fails() { # MESSAGE
    run port -q --to hip -p "$C/db" -o "$C/o" "$C/in/k.cu"
    expect_rc $INPUT_ERROR; expect_err "$C/db: error: cannot load compilation database"; expect_err "$1"
    grep -q "LLVM ERROR" "$TMP/err" && fail "aborted"
    no_output "$C/o"; unchanged
    [ "$(cat "$C/db/compile_commands.json")" = "$DBTEXT" ] || fail "database changed"
  }
  begin compdb-truncated-json
  DBTEXT='[{"directory": "/tmp", "command": '; cdb "$DBTEXT"; cdb_fails "Expected string as value"
  begin compdb-not-an-array
  DBTEXT='{}'; cdb "$DBTEXT"; cdb_fails "Expected array"
  begin compdb-entry-without-file
  DBTEXT="[{\"directory\":\"$C/in\",\"command\":\"nvcc -c k.cu\"}]"; cdb "$DBTEXT"; cdb_fails 'Missing key: "file"'
  begin compdb-binary
  mkdir -p "$C/db"; head -c 600 /dev/urandom | tr -d '\n\000' > "$C/db/compile_commands.json"
  DBTEXT=$(cat "$C/db/compile_commands.json"); cp "$KERNEL" "$C/in/k.cu"; snap; cdb_fails "json-compilation-database"
  begin compdb-missing
  cp "$KERNEL" "$C/in/k.cu"; snap
  run port -q --to hip -p "$C/nodb" -o "$C/o" "$C/in/k.cu"
  expect_rc $INPUT_ERROR; expect_err "$C/nodb: error: cannot load compilation database"; no_output "$C/o"; unchanged

  begin compdb-empty-array
  cdb '[]'
  run port -q --to hip -p "$C/db" -o "$C/o" "$C/in/k.cu"; expect_rc 0
  same_as_clean "$C/o/hip/k.hip"; unchanged

  begin compdb-other-files-only
  cdb "[{\"directory\":\"$C/in\",\"command\":\"nvcc -DNOTHING -c other.cu\",\"file\":\"other.cu\"}]"
  run port -q --to hip -p "$C/db" -o "$C/o" "$C/in/k.cu"; expect_rc 0
  same_as_clean "$C/o/hip/k.hip"; unchanged

  begin compdb-arguments-form
  cdb "[{\"directory\":\"$C/in\",\"arguments\":[\"nvcc\",\"-O2\",\"-c\",\"k.cu\",\"-o\",\"k.o\"],\"file\":\"k.cu\"}]"
  run port -q --to hip -p "$C/db" -o "$C/o" "$C/in/k.cu"; expect_rc 0
  same_as_clean "$C/o/hip/k.hip"; unchanged

  begin compdb-flags-break-parse
  cdb "[{\"directory\":\"$C/in\",\"command\":\"nvcc -include not_there.h -c k.cu\",\"file\":\"k.cu\"}]"
  port_fails "not_there.h' file not found" -p "$C/db" "$C/in/k.cu"
}

group_rules() {
  rules_fail() { # CONTENT MESSAGE (MESSAGE may use $R)
    R="$C/in/r.yaml"; printf "$1" > "$R"; cp "$KERNEL" "$C/in/k.cu"; snap
    run port -q --to hip --rules "$R" -o "$C/o" "$C/in/k.cu"
    expect_rc $INPUT_ERROR; expect_err "$(eval echo "\"$2\"")"; no_output "$C/o"; unchanged
  }
  begin rules-keyword-rename
  rules_fail 'rule: PK8001\ntitle: t\nentries:\n  - { cuda: int, hip: long long, kind: function }\n' \
    '$R: error: '"'"'int'"'"' in entry '"'"'int'"'"' is a C++ keyword'
  begin rules-empty-target
  rules_fail 'rule: PK8001\ntitle: t\nentries:\n  - { cuda: threadIdx, hip: "", kind: function }\n' \
    '$R: error: '"'"''"'"' in entry '"'"'threadIdx'"'"' is not an identifier'
  begin rules-builtin-id
  rules_fail 'rule: PK2001\ntitle: t\nentries:\n  - { cuda: foo, hip: bar, kind: function }\n' \
    '$R: error: rule ID PK2001 is already used by a built-in rule'
  begin rules-duplicate-key
  rules_fail 'rule: PK8001\ntitle: t\ntitle: u\nentries: []\n' "\$R:3:1: error: duplicated mapping key 'title'"
  begin rules-tab-indent
  rules_fail 'rule: PK8001\n\ttitle: t\n' '$R:2:1: error: Found invalid tab character in indentation'
  begin rules-missing-file
  cp "$KERNEL" "$C/in/k.cu"; snap
  run port -q --to hip --rules "$C/in/none.yaml" -o "$C/o" "$C/in/k.cu"
  expect_rc $INPUT_ERROR; expect_err "$C/in/none.yaml: error: cannot read rule file"; no_output "$C/o"; unchanged
  begin rules-binary
  R="$C/in/r.yaml"; head -c 800 /dev/urandom > "$R"; cp "$KERNEL" "$C/in/k.cu"; snap
  run port -q --to hip --rules "$R" -o "$C/o" "$C/in/k.cu"
  expect_rc $INPUT_ERROR; expect_err "$R"; no_output "$C/o"; unchanged
  begin rules-nul-byte
  R="$C/in/r.yaml"; printf 'rule: PK8001\ntitle: t\0\nentries: []\n' > "$R"; cp "$KERNEL" "$C/in/k.cu"; snap
  run port -q --to hip --rules "$R" -o "$C/o" "$C/in/k.cu"
  expect_rc $INPUT_ERROR 0; expect_err "$R"
  [ "$rc" = 0 ] || no_output "$C/o"; unchanged
}

group_writes() {
  begin write-interrupt-after-first
  cp "$KERNEL" "$C/in/a.cu"; cp "$KERNEL" "$C/in/b.cu"; snap
  PK_TEST_INTERRUPT_AFTER=1 run port -q --to hip -o "$C/o" "$C/in"
  expect_rc 130; expect_err "interrupted; no output written"
  [ -z "$(find "$C/o" -type f 2>/dev/null)" ] || fail "files left: $(find "$C/o" -type f)"
  no_tmp_leftovers "$C"; unchanged

  begin write-interrupt-after-last
  cp "$KERNEL" "$C/in/a.cu"; cp "$KERNEL" "$C/in/b.cu"; snap
  PK_TEST_INTERRUPT_AFTER=2 run port -q --to hip -o "$C/o" "$C/in"
  expect_rc 130; expect_err "interrupted; no output written"
  [ -z "$(find "$C/o" -type f 2>/dev/null)" ] || fail "files left: $(find "$C/o" -type f)"
  no_tmp_leftovers "$C"; unchanged

  begin write-interrupt-with-report
  cp "$KERNEL" "$C/in/a.cu"; snap
  PK_TEST_INTERRUPT_AFTER=2 run port -q --to hip,cuda --report "$C/r.json" -o "$C/o" "$C/in"
  expect_rc 130; no_output "$C/r.json"
  [ -z "$(find "$C/o" -type f 2>/dev/null)" ] || fail "files left: $(find "$C/o" -type f)"
  no_tmp_leftovers "$C"; unchanged

  begin write-sigterm-while-parsing
  # A real SIGTERM that arrives as the parse of big.cu starts
  # (PK_TEST_SIGTERM_IN): the same place on every run, however fast the
  # machine (a timed kill could come after a quick parse had finished).
  { grep '^#include' "$KERNEL"; for i in $(seq 1 50); do echo "namespace n$i {"; grep -v '^#include' "$KERNEL"; echo "}"; done; } > "$C/in/big.cu"
  cp "$KERNEL" "$C/in/a.cu"; snap
  PK_TEST_SIGTERM_IN=big.cu "$BIN" port -q --to hip -o "$C/o" "$C/in" 2>"$TMP/err"; rc=$?
  [ "$rc" = 143 ] || fail "status $rc, want 143 (SIGTERM): $(cat "$TMP/err")"
  no_output "$C/o"; no_tmp_leftovers "$C"; unchanged

  begin write-report-is-directory
  cp "$KERNEL" "$C/in/a.cu"; mkdir -p "$C/rep"; snap
  run port -q --to hip --report "$C/rep" -o "$C/o" "$C/in"
  expect_rc $INPUT_ERROR; expect_err "$C/rep"; expect_err "no output written"; no_output "$C/o"; unchanged

  begin write-report-in-missing-dir
  cp "$KERNEL" "$C/in/a.cu"; snap
  run port -q --to hip --report "$C/nodir/deeper/r.json" -o "$C/o" "$C/in"
  expect_rc 0 $INPUT_ERROR
  if [ "$rc" = 0 ]; then [ -s "$C/nodir/deeper/r.json" ] || fail "no report"; same_as_clean "$C/o/hip/a.hip"
  else expect_err "$C/nodir"; no_output "$C/o"; fi
  unchanged

  begin write-output-through-dangling-symlink
  cp "$KERNEL" "$C/in/a.cu"; ln -s "$C/nowhere" "$C/olink"; snap
  run port -q --to hip -o "$C/olink" "$C/in"
  expect_rc 0 $INPUT_ERROR
  if [ "$rc" = 0 ]; then same_as_clean "$C/olink/hip/a.hip"; else expect_err "$C/olink"; no_output "$C/nowhere"; fi
  unchanged

  begin write-rerun-identical
  cp "$KERNEL" "$C/in/a.cu"; snap
  run port -q --to hip -o "$C/o" "$C/in"; expect_rc 0
  run port -q --to hip -o "$C/o" "$C/in"; expect_rc 0
  same_as_clean "$C/o/hip/a.hip"; no_tmp_leftovers "$C"; unchanged
}

# validate: the program's time, output and device memory are bounded; it
# runs in a directory of its own, and everything it starts dies with it.
group_validate() {
  # The help is read whole first: grep -q stopping early would end the writer
  # with SIGPIPE, which pipefail reports as a failure, and skip the group.
  local help; help="$("$BIN" validate --help 2>&1 || true)"
  if grep -q "has no emulator" <<<"$help" || ! grep -q -- "--timeout" <<<"$help"; then
    echo "skipped: this build has no emulator"; exit 77
  fi
  vrun() { # run validate with a private TMPDIR ($C/tmp), keeping status in rc
    mkdir -p "$C/tmp"
    TMPDIR="$C/tmp" timeout 300 "$BIN" validate --to none "$@" 2>"$TMP/err" >"$TMP/out"; rc=$?
  }
  scratch_gone() { [ -z "$(ls -A "$C/tmp")" ] || fail "scratch left: $(ls -A "$C/tmp")"; }
  gone() { # PID: not running (or a zombie about to be reaped)
    for _ in $(seq 1 50); do
      st=$(awk '{print $3}' "/proc/$1/stat" 2>/dev/null) || return 0
      [ "$st" = Z ] && return 0; sleep 0.1
    done
    fail "process $1 still runs"
  }
  cat > "$TMP/hang.cu" <<'CU'
#include <cstdio>
#include <unistd.h>
int main(int argc, char **argv) {
  if (FILE *f = std::fopen(argv[1], "w")) { std::fprintf(f, "%d\n", (int)getpid()); std::fclose(f); }
  volatile unsigned long spin = 0;
  for (;;) ++spin;
}
CU

  begin validate-timeout
  cp "$TMP/hang.cu" "$C/in/hang.cu"; snap
  vrun --timeout 20 --program "$C/in/hang.cu" -- "$C/pid"
  expect_rc 1; expect_err ""
  grep -qF "'hang.cu' (original) timed out while running: the limit is 20 s per case (--timeout 20); its process group was killed" "$TMP/out" || fail "no timeout message: $(cat "$TMP/out")"
  [ -s "$C/pid" ] || fail "the program never ran"; gone "$(cat "$C/pid")"
  scratch_gone; unchanged

  # A kernel that never finishes (it keeps writing new values, so no
  # deadlock or stuck-thread check catches it): --timeout reaches the
  # emulator as its per-launch limit
  # (PKEMU_TIMEOUT_S), so the emulator's hang report, naming the block, is
  # the cell's reason instead of a kill without one.  20 s: the limit also
  # covers compiling the program, which takes seconds on a loaded machine.
  begin validate-emulator-timeout
  cat > "$C/in/spin.cu" <<'CU'
__global__ void spin(volatile unsigned *c) {
  for (unsigned i = 0;; ++i)
    c[i % 64] = i;
}
int main() {
  unsigned *c;
  cudaMalloc(&c, 64 * sizeof *c);
  spin<<<1, 1>>>(c);
  return cudaDeviceSynchronize() == cudaSuccess ? 0 : 1;
}
CU
  snap
  vrun --timeout 20 --program "$C/in/spin.cu"
  expect_rc 1
  grep -q "FAIL emulator" "$TMP/out" || fail "not reported by the emulator: $(cat "$TMP/out")"
  grep -qE "spin.cu \[original\]: emulator: timeout: kernel 'spin\(unsigned int volatile\*\)'.* did not finish within [0-9]+ s \(PKEMU_TIMEOUT_S\).*\(0,0,0\).*\[PKEMU_TIMEOUT_S=[0-9.]+: the emulator's limit per launch, from the [0-9]+ s that --timeout 20 left for the run\]" "$TMP/out" \
    || fail "no hang report in the reason: $(cat "$TMP/out")"
  scratch_gone; unchanged

  begin validate-sigint-while-running
  cp "$TMP/hang.cu" "$C/in/hang.cu"; snap; mkdir -p "$C/tmp"
  (trap - INT; exec env TMPDIR="$C/tmp" "$BIN" validate --to none --program "$C/in/hang.cu" -- "$C/pid" 2>"$TMP/err" >"$TMP/out") & pid=$!
  for _ in $(seq 1 600); do [ -s "$C/pid" ] && break; sleep 0.2; done
  [ -s "$C/pid" ] || fail "the program never ran: $(cat "$TMP/err")"
  kill -INT "$pid"; wait "$pid"; rc=$?
  expect_rc 130; expect_err "validate interrupted"; expect_err "scratch directory removed"
  gone "$(cat "$C/pid")"; scratch_gone; unchanged

  begin validate-sigterm-while-running
  cp "$TMP/hang.cu" "$C/in/hang.cu"; snap; mkdir -p "$C/tmp"
  TMPDIR="$C/tmp" "$BIN" validate --to none --program "$C/in/hang.cu" -- "$C/pid" 2>"$TMP/err" >"$TMP/out" & pid=$!
  for _ in $(seq 1 600); do [ -s "$C/pid" ] && break; sleep 0.2; done
  [ -s "$C/pid" ] || fail "the program never ran: $(cat "$TMP/err")"
  kill -TERM "$pid"; wait "$pid"; rc=$?
  expect_rc 130; expect_err "validate interrupted"; gone "$(cat "$C/pid")"; scratch_gone; unchanged

  begin validate-runaway-output
  cat > "$C/in/flood.cu" <<'CU'
#include <cstdio>
#include <cstring>
int main() {
  static char line[4096];
  std::memset(line, 'x', sizeof line - 1);
  line[sizeof line - 1] = '\n';
  for (int i = 0; i < 256 * 1024; ++i) std::fwrite(line, 1, sizeof line, stdout); // 1 GiB
  std::printf("done\n");
  return 0;
}
CU
  snap; mkdir -p "$C/tmp"
  # Peak RSS of port-kernel (KiB) through getrusage of the child; a bound, not a timing.
  TMPDIR="$C/tmp" python3 -c '
import resource, subprocess, sys
with open(sys.argv[2], "w") as o, open(sys.argv[3], "w") as e:
    r = subprocess.call(sys.argv[4:], stdout=o, stderr=e)
print(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss, r, file=open(sys.argv[1], "w"))
' "$C/rss" "$TMP/out" "$TMP/err" "$BIN" validate --to none --program "$C/in/flood.cu"
  read -r rss rc < "$C/rss"
  expect_rc 0
  expect_err "note: flood.cu (original): the program wrote 1024 MB to stdout; kept the first and last 2048 KB, discarded 1020 MB"
  [ "$rss" -lt 400000 ] || fail "peak RSS $rss KiB for 1 GiB of output"
  echo "validate-runaway-output: peak RSS $((rss / 1024)) MB for 1 GiB of program output"
  scratch_gone; unchanged

  begin validate-device-out-of-bounds
  cat > "$C/in/oob.cu" <<'CU'
#include <cuda_runtime.h>
#include <cstdio>
__global__ void read_past(const float *in, float *out) {
  out[threadIdx.x] = in[threadIdx.x + 1000];
}
int main() {
  float *in, *out;
  cudaMalloc(&in, 16 * sizeof(float));
  cudaMalloc(&out, 16 * sizeof(float));
  cudaMemset(in, 0, 16 * sizeof(float));
  read_past<<<1, 16>>>(in, out);
  cudaDeviceSynchronize();
  return 0;
}
CU
  snap; vrun --program "$C/in/oob.cu"
  expect_rc 1
  grep -qF "emulator: out-of-bounds device memory access: kernel 'read_past(float const*, float*)' at " "$TMP/out" || fail "no report: $(cat "$TMP/out")"
  grep -qF "oob.cu:4" "$TMP/out" || fail "no FILE:LINE: $(cat "$TMP/out")"
  grep -qF "reads 4 bytes at 3936 bytes past the end of device buffer #1 (64 bytes, allocated at " "$TMP/out" || fail "no buffer: $(cat "$TMP/out")"
  scratch_gone; unchanged

  begin validate-compile-error
  printf 'int main() { return undeclared; }\n' > "$C/in/bad.cu"; snap
  vrun --program "$C/in/bad.cu"
  expect_rc 1 2
  grep -qF "bad.cu:1:21" "$TMP/out" "$TMP/err" || fail "no FILE:LINE: $(cat "$TMP/out" "$TMP/err")"
  scratch_gone; unchanged

  begin validate-missing-program
  snap; vrun --program "$C/in/none.cu"
  expect_rc 2; expect_err "$C/in/none.cu: error: no such file"; scratch_gone; unchanged

  begin validate-bad-timeout
  cp "$TMP/hang.cu" "$C/in/hang.cu"; snap; vrun --timeout soon --program "$C/in/hang.cu"
  expect_rc 2; expect_err "soon"; scratch_gone; unchanged

  begin validate-zero-output-limit
  cp "$TMP/hang.cu" "$C/in/hang.cu"; snap; vrun --output-limit 0 --program "$C/in/hang.cu"
  expect_rc 2; expect_err "--output-limit must be at least 1"; scratch_gone; unchanged

  # Each run has a working directory of its own in the scratch directory,
  # holding a copy of the program's directory: a relative data file is
  # found, relative writes (a new file, and over the data file) land in the
  # copy, never in the caller's directory or the program's.
  begin validate-own-working-directory
  cat > "$C/in/files.cu" <<'CU'
#include <cstdio>
#include <cstring>
int main() {
  char buf[64] = {0};
  FILE *in = std::fopen("data/input.txt", "r");
  if (!in || !std::fgets(buf, sizeof buf, in) || std::strcmp(buf, "42\n")) {
    std::printf("no data/input.txt\n");
    return 3;
  }
  std::fclose(in);
  for (const char *n : {"out.txt", "data/input.txt"})
    if (FILE *o = std::fopen(n, "w")) { std::fputs("written\n", o); std::fclose(o); }
  std::printf("files ok\n");
  return 0;
}
CU
  mkdir -p "$C/in/data" "$C/caller"; echo 42 > "$C/in/data/input.txt"; snap
  pushd "$C/caller" >/dev/null; vrun --expect-output '^files ok$' --program "$C/in/files.cu"; popd >/dev/null
  expect_rc 0; grep -q "files.cu (original): PASS" "$TMP/err" || fail "no PASS: $(cat "$TMP/out" "$TMP/err")"
  [ -z "$(ls -A "$C/caller")" ] || fail "written to the caller's directory: $(ls -A "$C/caller")"
  scratch_gone; unchanged

  # A daemon (double fork, setsid: another session and process group) dies
  # with the program that started it, and is reaped before validate exits.
  cat > "$TMP/daemon.cu" <<'CU'
#include <cstdio>
#include <cstring>
#include <string>
#include <unistd.h>
int main(int argc, char **argv) {
  std::string tmp = std::string(argv[1]) + ".tmp";
  if (fork() == 0) {
    setsid();
    if (fork() == 0) {
      if (FILE *f = std::fopen(tmp.c_str(), "w")) { std::fprintf(f, "%d\n", (int)getpid()); std::fclose(f); }
      std::rename(tmp.c_str(), argv[1]);
      for (;;) sleep(1000);
    }
    _exit(0);
  }
  while (access(argv[1], F_OK) != 0) usleep(10000);
  if (argc > 2 && !std::strcmp(argv[2], "spin")) { volatile unsigned long s = 0; for (;;) ++s; }
  return 0;
}
CU
  begin validate-daemon-dies-with-program
  cp "$TMP/daemon.cu" "$C/in/daemon.cu"; snap
  vrun --program "$C/in/daemon.cu" -- "$C/pid"
  expect_rc 0
  expect_err "note: daemon.cu (original): the program left 1 process running (a daemon, a child it did not wait for); killed when it ended"
  [ -s "$C/pid" ] || fail "the daemon never ran"
  ! kill -0 "$(cat "$C/pid")" 2>/dev/null || fail "daemon $(cat "$C/pid") outlived validate"
  scratch_gone; unchanged

  begin validate-daemon-dies-on-sigint
  cp "$TMP/daemon.cu" "$C/in/daemon.cu"; snap; mkdir -p "$C/tmp"
  (trap - INT; exec env TMPDIR="$C/tmp" "$BIN" validate --to none --program "$C/in/daemon.cu" -- "$C/pid" spin 2>"$TMP/err" >"$TMP/out") & pid=$!
  for _ in $(seq 1 600); do [ -s "$C/pid" ] && break; sleep 0.2; done
  [ -s "$C/pid" ] || fail "the daemon never ran: $(cat "$TMP/err")"
  kill -INT "$pid"; wait "$pid"; rc=$?
  expect_rc 130; expect_err "validate interrupted"
  ! kill -0 "$(cat "$C/pid")" 2>/dev/null || fail "daemon $(cat "$C/pid") outlived validate"
  scratch_gone; unchanged

  # Arguments reach the program as they are: no shell sees them, nor the
  # program's name.
  begin validate-arguments-without-shell
  cat > "$C/in/it's \$(x).cu" <<'CU'
#include <cstdio>
#include <cstring>
int main(int argc, char **argv) {
  const char *want[] = {"$(touch pwned)", "a b", "x;y'z\"", "`touch pwned2`"};
  if (argc != 5) return 5;
  for (int i = 0; i < 4; ++i)
    if (std::strcmp(argv[i + 1], want[i])) { std::printf("argv[%d] = %s\n", i + 1, argv[i + 1]); return 5; }
  return 0;
}
CU
  mkdir -p "$C/caller"; snap
  pushd "$C/caller" >/dev/null
  vrun --program "$C/in/it's \$(x).cu" -- '$(touch pwned)' 'a b' "x;y'z\"" '`touch pwned2`'
  popd >/dev/null
  expect_rc 0
  [ -z "$(find "$C" -name 'pwned*')" ] || fail "a shell ran: $(find "$C" -name 'pwned*')"
  scratch_gone; unchanged

  # A damaged cache entry (here truncated) is detected by its SHA-256,
  # compiled again and replaced; the run passes.
  begin validate-cache-damaged-entry
  printf '#include <cstdio>\nint main() { std::printf("cached ok\\n"); return 0; }\n' > "$C/in/ok.cu"; snap
  vrun --cache-dir "$C/cache" --work-dir "$C/w0" --program "$C/in/ok.cu"
  expect_rc 0
  obj=$(find "$C/cache" -name '*.o'); [ "$(echo "$obj" | wc -l)" = 1 ] && [ -s "$obj" ] || fail "no cached object: $obj"
  [ "$(sha256sum < "$obj" | cut -d' ' -f1)" = "$(cat "$obj.sha256")" ] || fail "stored hash does not match"
  good=$(sha256sum < "$obj")
  # It was compiled against the prelude precompiled into the cache.
  grep -q -- "-include-pch $C/cache/pch/" "$C/w0/ok/original/compile.cmd" || fail "no precompiled prelude: $(cat "$C/w0/ok/original/compile.cmd")"
  # The linked program is cached too: damaged alike, it is linked again.
  exe=$(find "$C/cache" -name '*.exe'); [ "$(echo "$exe" | wc -l)" = 1 ] && [ -s "$exe" ] || fail "no cached program: $exe"
  truncate -s 1000 "$obj"; printf 'x' | dd of="$exe" bs=1 seek=100 conv=notrunc 2>/dev/null
  vrun --cache-dir "$C/cache" --work-dir "$C/w" --expect-output '^cached ok$' --program "$C/in/ok.cu"
  expect_rc 0
  grep -q "^cache entry $(basename "$obj" .o) in $C/cache was damaged (its content (1000 bytes, SHA-256 [0-9a-f]*) does not match the stored SHA-256 [0-9a-f]*); compiled again$" "$C/w/ok/original/compile.log" \
    || fail "damage not reported: $(head -3 "$C/w/ok/original/compile.log")"
  grep -q "^cache entry $(basename "$exe" .exe) in $C/cache was damaged (its content ([0-9]* bytes, SHA-256 [0-9a-f]*) does not match the stored SHA-256 [0-9a-f]*); linked again$" "$C/w/ok/original/compile.log" \
    || fail "damaged program not reported: $(head -3 "$C/w/ok/original/compile.log")"
  [ "$(sha256sum < "$obj")" = "$good" ] || fail "the entry was not replaced"
  [ "$(sha256sum < "$obj" | cut -d' ' -f1)" = "$(cat "$obj.sha256")" ] || fail "stored hash does not match"
  vrun --cache-dir "$C/cache" --work-dir "$C/w2" --program "$C/in/ok.cu"
  expect_rc 0; grep -q "reused from $C/cache" "$C/w2/ok/original/compile.log" || fail "the replaced entry is not used"
  scratch_gone; unchanged

  # A file the assembler embeds (.incbin) is not seen by the preprocessor:
  # such a build is not cached, so a changed file is never served stale.
  begin validate-cache-incbin
  printf one > "$C/in/blob.bin"
  cat > "$C/in/blob.cu" <<CU
#include <cstdio>
asm(".section .rodata\n.globl pk_blob\npk_blob:\n.incbin \"$C/in/blob.bin\"\n.byte 0\n.text");
extern "C" const char pk_blob[];
int main() { std::printf("blob=%s\n", pk_blob); return 0; }
CU
  snap
  vrun --cache-dir "$C/cache" --work-dir "$C/w" --expect-output '^blob=one$' --program "$C/in/blob.cu"
  expect_rc 0; unchanged
  grep -q "^not cached: a string literal of the source mentions 'incbin'" "$C/w/blob/original/compile.log" || fail "no reason: $(head -3 "$C/w/blob/original/compile.log")"
  printf two > "$C/in/blob.bin"; snap
  vrun --cache-dir "$C/cache" --work-dir "$C/w2" --expect-output '^blob=two$' --program "$C/in/blob.cu"
  expect_rc 0
  [ -z "$(find "$C/cache" -name '*.o' 2>/dev/null)" ] || fail "stored in the cache"
  scratch_gone; unchanged

  begin validate-binary-program
  head -c 2000 /dev/urandom > "$C/in/junk.cu"; snap; vrun --program "$C/in/junk.cu"
  expect_rc 1 2; grep -qF "junk.cu" "$TMP/out" "$TMP/err" || fail "file not named"; scratch_gone; unchanged
}

case "$GROUP" in
paths) group_paths ;;
contents) group_contents ;;
compdb) group_compdb ;;
rules) group_rules ;;
writes) group_writes ;;
validate) group_validate ;;
*) fail "unknown group $GROUP" ;;
esac
echo "ok: $GROUP: $N hostile cases"
