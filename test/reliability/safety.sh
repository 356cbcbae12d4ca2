#!/usr/bin/env bash
# Data safety: no write lands on a file the run reads, and a run writes all of
# its outputs or none (write errors, interruption, --in-place rollback).
# Usage: safety.sh BIN SRC_ROOT TEST
# Every case checks the exit status, the message, that the inputs are byte for
# byte what they were, and that a failed run leaves no output and no
# temporary file behind.
. "$(dirname "${BASH_SOURCE[0]}")/common.sh"
no_leftovers() {
  local l; l=$(find "$1" -name '.pk-tmp-*' -o -name '.pk-bak-*' -o -name '*.pk-tmp-*' 2>/dev/null)
  [ -z "$l" ] || fail "leftover temporary files: $l"
}

# A small tree: a kernel file that includes a local header, and a lone header.
mk_tree() {
  mkdir -p "$1/inc"
  cp "$GOLD/warp_intrinsics/input.cu" "$1/k.cu" 2>/dev/null || cp "$GOLD/launch/input.cu" "$1/k.cu"
  printf '#pragma once\n#include <cuda_runtime.h>\ninline void sync_dev() { cudaDeviceSynchronize(); }\n' > "$1/inc/util.cuh"
  printf '#include "inc/util.cuh"\n#include <cuda_runtime.h>\n__global__ void k2(float *p) { p[threadIdx.x] = 0; }\nvoid h(float *p) { k2<<<1, 32>>>(p); sync_dev(); }\n' > "$1/m.cu"
}

case "$TEST" in
report-on-input)
  mk_tree "$TMP/t"; before=$(snapshot "$TMP/t")
  run port -q --to hip --report "$TMP/t/m.cu" -o "$TMP/o" "$TMP/t"
  expect_rc 2; expect_err "which this run reads"; expect_err "no output written"
  [ "$(snapshot "$TMP/t")" = "$before" ] || fail "input tree changed"
  [ ! -e "$TMP/o" ] || fail "partial output written" ;;
report-on-included-header)
  mk_tree "$TMP/t"; before=$(snapshot "$TMP/t")
  run port -q --to hip --report "$TMP/t/inc/util.cuh" -o "$TMP/o" "$TMP/t/m.cu"
  expect_rc 2; expect_err "which this run reads"
  [ "$(snapshot "$TMP/t")" = "$before" ] || fail "input tree changed" ;;
report-on-rule-file)
  mk_tree "$TMP/t"; printf 'rule: PK8001\ntitle: t\nentries:\n  - { cuda: foo, hip: bar, kind: function }\n' > "$TMP/r.yaml"
  cp "$TMP/r.yaml" "$TMP/r.orig"
  run port -q --to hip --rules "$TMP/r.yaml" --report "$TMP/r.yaml" -o "$TMP/o" "$TMP/t"
  expect_rc 2; expect_err "which this run reads"
  cmp -s "$TMP/r.yaml" "$TMP/r.orig" || fail "rule file overwritten" ;;
report-on-compdb)
  mk_tree "$TMP/t"
  printf '[{"directory":"%s","command":"nvcc -c k.cu","file":"k.cu"}]\n' "$TMP/t" > "$TMP/t/compile_commands.json"
  before=$(snapshot "$TMP/t")
  run port -q --to hip -p "$TMP/t" --report "$TMP/t/compile_commands.json" -o "$TMP/o" "$TMP/t/k.cu"
  expect_rc 2; expect_err "which this run reads"
  [ "$(snapshot "$TMP/t")" = "$before" ] || fail "input tree changed" ;;
out-through-symlink-into-input)
  mk_tree "$TMP/t"; ln -s "$TMP/t" "$TMP/link"; before=$(snapshot "$TMP/t")
  run port -q --to hip -o "$TMP/link/out" "$TMP/t"
  expect_rc 2; expect_err "inside the input"
  [ "$(snapshot "$TMP/t")" = "$before" ] || fail "input tree changed" ;;
out-equals-input-dir)
  # Outputs go to OUT/hip/...: with OUT the parent of an input in a folder
  # named hip/, the header the input includes would be overwritten by its
  # translation.
  mkdir -p "$TMP/t/hip"
  printf '#pragma once\n#include <cuda_runtime.h>\ninline void s() { cudaDeviceSynchronize(); }\n' > "$TMP/t/hip/x.h"
  printf '#include "x.h"\n__global__ void k(int *p) { p[0] = 1; }\n' > "$TMP/t/hip/a.cu"
  before=$(snapshot "$TMP/t")
  run port -q --to hip -o "$TMP/t" "$TMP/t/hip/a.cu"
  expect_rc 2; expect_err "which this run reads"
  [ "$(snapshot "$TMP/t")" = "$before" ] || fail "input tree changed" ;;
readonly-subdir)
  # Part of the output tree cannot take files (a file where a directory must
  # go; permissions do not stop root): the outputs staged before are removed.
  mk_tree "$TMP/t"
  mkdir -p "$TMP/o/hip"; printf 'x' > "$TMP/o/hip/inc"
  run port -q --to hip -o "$TMP/o" "$TMP/t"
  expect_rc 2; expect_err "no output written"; expect_err "is not a directory"
  [ "$(find "$TMP/o" -type f)" = "$TMP/o/hip/inc" ] || fail "partial output: $(find "$TMP/o" -type f)"
  no_leftovers "$TMP/o" ;;
output-is-a-file)
  mk_tree "$TMP/t"; printf 'x' > "$TMP/o"
  run port -q --to hip -o "$TMP/o" "$TMP/t"
  expect_rc 2; expect_err "is not a directory"; expect_err "no output written"
  [ "$(cat "$TMP/o")" = x ] || fail "file replaced" ;;
output-exists-as-dir)
  mk_tree "$TMP/t"; mkdir -p "$TMP/o/hip/m.hip"
  run port -q --to hip,cuda -o "$TMP/o" "$TMP/t"
  expect_rc 2; expect_err "a directory has this name"
  [ -z "$(find "$TMP/o" -type f)" ] || fail "partial output"
  [ ! -e "$TMP/o/cuda" ] || fail "created directories left behind" ;;
name-too-long)
  mk_tree "$TMP/t"; long=$(printf 'd%.0s' $(seq 1 300))
  run port -q --to hip -o "$TMP/o/$long" "$TMP/t"
  expect_rc 2; expect_err "no output written"
  [ ! -e "$TMP/o" ] || fail "created directories left behind" ;;
report-relative-name)
  mk_tree "$TMP/t"; mkdir "$TMP/w"
  (cd "$TMP/w" && timeout 120 "$BIN" port -q --to hip --report r.json -o o "$TMP/t" 2>"$TMP/err"); rc=$?
  expect_rc 0
  [ -s "$TMP/w/r.json" ] || fail "report not written"
  [ -f "$TMP/w/o/hip/m.hip" ] || fail "outputs not written" ;;
report-unwritable)
  mk_tree "$TMP/t"; printf 'x' > "$TMP/ro"
  run port -q --to hip --report "$TMP/ro/r.json" -o "$TMP/o" "$TMP/t"
  expect_rc 2; expect_err "no output written"
  [ ! -e "$TMP/o" ] || fail "outputs written though the report failed" ;;
rerun-same-output)
  # A second run over existing outputs replaces them, identically.
  mk_tree "$TMP/t"
  run port -q --to hip,cuda -o "$TMP/o" "$TMP/t"; expect_rc 0
  first=$(snapshot "$TMP/o")
  run port -q --to hip,cuda -o "$TMP/o" "$TMP/t"; expect_rc 0
  [ "$(snapshot "$TMP/o")" = "$first" ] || fail "second run differs"
  no_leftovers "$TMP/o" ;;
interrupt-while-writing)
  mk_tree "$TMP/t"
  for i in $(seq 1 20); do cp "$TMP/t/m.cu" "$TMP/t/m$i.cu"; done
  PK_TEST_INTERRUPT_AFTER=7 timeout 120 "$BIN" port -q --to hip -o "$TMP/o" "$TMP/t" 2>"$TMP/err"; rc=$?
  expect_rc 130; expect_err "interrupted; no output written"
  [ ! -e "$TMP/o" ] || fail "output left after interruption: $(find "$TMP/o" | head)" ;;
interrupt-in-place)
  mk_tree "$TMP/t"; before=$(snapshot "$TMP/t")
  PK_TEST_INTERRUPT_AFTER=1 timeout 120 "$BIN" port -q --to hip --in-place "$TMP/t" 2>"$TMP/err"; rc=$?
  expect_rc 130
  [ "$(snapshot "$TMP/t")" = "$before" ] || fail "tree changed by an interrupted in-place run"
  no_leftovers "$TMP/t" ;;
in-place-with-o)
  mk_tree "$TMP/t"; before=$(snapshot "$TMP/t")
  run port -q --to hip --in-place -o "$TMP/o" "$TMP/t"
  expect_rc 2; expect_err "exclude each other"
  [ "$(snapshot "$TMP/t")" = "$before" ] || fail "input tree changed" ;;
in-place-keeps-names-and-modes)
  mk_tree "$TMP/t"; chmod 640 "$TMP/t/m.cu"; chmod 600 "$TMP/t/inc/util.cuh"
  run port -q --to hip --in-place "$TMP/t"
  expect_rc 0
  grep -q '#include "inc/util.cuh"' "$TMP/t/m.cu" || fail "include renamed though the header keeps its name"
  grep -q 'hipDeviceSynchronize' "$TMP/t/inc/util.cuh" || fail "header not ported"
  [ "$(stat -c %a "$TMP/t/m.cu")" = 640 ] || fail "mode of m.cu changed"
  [ "$(stat -c %a "$TMP/t/inc/util.cuh")" = 600 ] || fail "mode of util.cuh changed"
  [ -f "$TMP/t/m.cu.orig" ] || fail "no backup"
  no_leftovers "$TMP/t" ;;
in-place-rollback)
  # Replacing the second file fails: the first is restored, no backup left.
  mk_tree "$TMP/t"; before=$(snapshot "$TMP/t")
  PK_TEST_FAIL_COMMIT_AT=1 timeout 120 "$BIN" port -q --to hip --in-place "$TMP/t" 2>"$TMP/err"; rc=$?
  expect_rc 2; expect_err "no output written"; expect_err "injected failure"
  [ "$(snapshot "$TMP/t")" = "$before" ] || fail "tree half-ported"
  no_leftovers "$TMP/t" ;;
commit-failure-restores-outputs)
  # A re-run whose commit fails half-way leaves the previous outputs intact.
  mk_tree "$TMP/t"
  run port -q --to hip,cuda -o "$TMP/o" "$TMP/t"; expect_rc 0
  first=$(snapshot "$TMP/o")
  printf '// changed\n' >> "$TMP/t/m.cu"
  PK_TEST_FAIL_COMMIT_AT=3 timeout 120 "$BIN" port -q --to hip,cuda -o "$TMP/o" "$TMP/t" 2>"$TMP/err"; rc=$?
  expect_rc 2
  [ "$(snapshot "$TMP/o")" = "$first" ] || fail "previous outputs changed"
  no_leftovers "$TMP/o" ;;
in-place-symlink)
  mk_tree "$TMP/t"; ln -s "$TMP/t/m.cu" "$TMP/l.cu"; before=$(snapshot "$TMP/t")
  run port -q --to hip --in-place "$TMP/l.cu"
  expect_rc 2; expect_err "symbolic link"
  [ -L "$TMP/l.cu" ] || fail "link replaced"
  [ "$(snapshot "$TMP/t")" = "$before" ] || fail "target changed" ;;
in-place-outside-tree)
  # A header outside the given inputs needs edits: refused, nothing written.
  mk_tree "$TMP/t"; mkdir "$TMP/only"; mv "$TMP/t/m.cu" "$TMP/only/m.cu"
  sed -i "s|inc/util.cuh|$TMP/t/inc/util.cuh|" "$TMP/only/m.cu"
  b1=$(snapshot "$TMP/t"); b2=$(snapshot "$TMP/only")
  run port -q --to hip --in-place "$TMP/only"
  expect_rc 2; expect_err "outside the inputs"
  [ "$(snapshot "$TMP/t")" = "$b1" ] && [ "$(snapshot "$TMP/only")" = "$b2" ] || fail "files changed" ;;
in-place-orig-exists)
  mk_tree "$TMP/t"; echo keep > "$TMP/t/m.cu.orig"; before=$(snapshot "$TMP/t")
  run port -q --to hip --in-place "$TMP/t"
  expect_rc 2; expect_err "already exists"
  [ "$(snapshot "$TMP/t")" = "$before" ] || fail "tree changed" ;;
check-exit-codes)
  mk_tree "$TMP/t"
  printf '__global__ void k(unsigned *o) { o[0] = __ballot_sync(0xffffffffu, threadIdx.x & 1); }\n' > "$TMP/h.cu"
  printf '__global__ void k(float *o) { o[threadIdx.x] = 1.0f; }\n' > "$TMP/c.cu"
  printf '__global__ void k( { \n' > "$TMP/bad.cu"
  run check --to hip "$TMP/c.cu"; expect_rc 0
  run check --to hip "$TMP/h.cu"; expect_rc 1
  run check --to hip "$TMP/bad.cu"; expect_rc 2; expect_err "bad.cu:1:"
  run check --to nope "$TMP/c.cu"; expect_rc 2 ;;
*) fail "unknown test $TEST" ;;
esac
exit 0
