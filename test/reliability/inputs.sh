#!/usr/bin/env bash
# Hostile inputs: directory walks, file classification, compilation databases
# and rule files.  Usage: inputs.sh BIN SRC_ROOT TEST
# Every case checks the exit status, the message (file and line where there
# is one) and that the inputs are byte for byte what they were.
. "$(dirname "${BASH_SOURCE[0]}")/common.sh"

KERNEL="$GOLD/launch/input.cu"
# The statuses of an input error: 2 (usage and input errors) or 1 (an input
# the run could not read); never 0, 3 (findings) or a signal.
INPUT_ERROR="1 2"

case "$TEST" in
inputs-symlink-loop)
  # A link back to an ancestor (and one to itself) must not be followed: one
  # output per source, not one per trip around the loop.
  mkdir -p "$TMP/t/sub"
  cp "$KERNEL" "$TMP/t/a.cu"; cp "$KERNEL" "$TMP/t/sub/b.cu"
  ln -s .. "$TMP/t/sub/up"; ln -s . "$TMP/t/sub/self"
  before=$(snapshot "$TMP/t")
  run port -q --to hip -o "$TMP/o" "$TMP/t"
  expect_rc 0
  got=$(cd "$TMP/o" && find . | sort | tr '\n' ' ')
  [ "$got" = ". ./hip ./hip/a.hip ./hip/sub ./hip/sub/b.hip " ] || fail "outputs: $got"
  same_inputs "$TMP/t" "$before" ;;
inputs-symlink-outside)
  # Links that leave the input tree (a directory like /etc, a file) are not
  # read and nothing of theirs is copied to the output.
  mkdir -p "$TMP/t" "$TMP/etc/ssl"
  cp "$KERNEL" "$TMP/t/a.cu"
  echo 'root:x:0:0' > "$TMP/etc/passwd"; echo 'key' > "$TMP/etc/ssl/k.pem"
  ln -s "$TMP/etc" "$TMP/t/etc"; ln -s ../etc/passwd "$TMP/t/passwd.h"
  ln -s /etc "$TMP/t/system"
  before=$(snapshot "$TMP/t")
  run port -q --to hip -o "$TMP/o" "$TMP/t"
  expect_rc 0
  got=$(cd "$TMP/o" && find . | sort | tr '\n' ' ')
  [ "$got" = ". ./hip ./hip/a.hip " ] || fail "outputs: $got"
  same_inputs "$TMP/t" "$before" ;;
inputs-linked-file)
  # A link to a file inside the tree is read once, at the file's own path.
  mkdir -p "$TMP/t/inc"
  cp "$KERNEL" "$TMP/t/a.cu"
  printf '#pragma once\n#define N 4\n' > "$TMP/t/inc/k.cuh"
  ln -s inc/k.cuh "$TMP/t/0k.cuh"; ln -s ../a.cu "$TMP/t/inc/a_again.cu"
  ln -s inc "$TMP/t/inc2"
  before=$(snapshot "$TMP/t")
  run port -q --to hip -o "$TMP/o" "$TMP/t"
  expect_rc 0
  got=$(cd "$TMP/o" && find . | sort | tr '\n' ' ')
  [ "$got" = ". ./hip ./hip/a.hip ./hip/inc ./hip/inc/k.hpp " ] || fail "outputs: $got"
  same_inputs "$TMP/t" "$before" ;;
inputs-fifo)
  # A FIFO, a socket or a device in the tree is not read (reading a FIFO
  # would block for ever); the rest is ported.
  mkdir -p "$TMP/t"
  cp "$KERNEL" "$TMP/t/a.cu"; mkfifo "$TMP/t/pipe.cu"
  python3 -c 'import socket,sys; s=socket.socket(socket.AF_UNIX); s.bind(sys.argv[1])' "$TMP/t/sock.cu" 2>/dev/null || true
  before=$(snapshot "$TMP/t")
  run port -q --to hip -o "$TMP/o" "$TMP/t"
  expect_rc 0
  got=$(cd "$TMP/o" && find . | sort | tr '\n' ' ')
  [ "$got" = ". ./hip ./hip/a.hip " ] || fail "outputs: $got"
  same_inputs "$TMP/t" "$before"
  # Named explicitly, a FIFO is an error (and is not opened).
  run port -q --to hip -o "$TMP/o2" "$TMP/t/pipe.cu"
  expect_rc $INPUT_ERROR
  expect_err "$TMP/t/pipe.cu: error: a FIFO, not a regular file or directory [PK9001]"
  [ ! -e "$TMP/o2" ] || fail "output written" ;;
inputs-unreadable-subdir)
  # A subdirectory the user cannot read is left out; the rest is ported.
  # (Run as an unprivileged user when this is root, who reads everything.)
  mkdir -p "$TMP/t/locked" "$TMP/o"
  cp "$KERNEL" "$TMP/t/a.cu"; cp "$KERNEL" "$TMP/t/locked/b.cu"
  chmod 755 "$TMP"; chmod 777 "$TMP/o"; chmod 000 "$TMP/t/locked"
  AS=()
  if [ "$(id -u)" = 0 ]; then
    command -v setpriv >/dev/null || { echo "skipped: no setpriv"; exit 77; }
    AS=(setpriv --reuid=65534 --regid=65534 --clear-groups)
    "${AS[@]}" test -x "$BIN" || { echo "skipped: $BIN not executable by nobody"; exit 77; }
  fi
  before=$(snapshot "$TMP/t")
  timeout 120 "${AS[@]}" "$BIN" port -q --to hip -o "$TMP/o/x" "$TMP/t" 2>"$TMP/err" >"$TMP/out"; rc=$?
  expect_rc 0
  got=$(cd "$TMP/o/x" && find . | sort | tr '\n' ' ')
  [ "$got" = ". ./hip ./hip/a.hip " ] || fail "outputs: $got"
  same_inputs "$TMP/t" "$before" ;;
classify-local-hip-header)
  # A CUDA file that includes its project's own "hip/..." header is CUDA.
  mkdir -p "$TMP/p/hip"
  printf '#pragma once\n#define COMPAT_N 4\n' > "$TMP/p/hip/compat.h"
  printf '#include <cuda_runtime.h>\n#include "hip/compat.h"\n__global__ void k(float *p) { p[0] = COMPAT_N; }\nvoid f(float **p) { cudaMalloc(p, COMPAT_N); k<<<1, 1>>>(*p); }\n' > "$TMP/p/a.cu"
  before=$(snapshot "$TMP/p")
  run port -q --to hip -o "$TMP/o" "$TMP/p/a.cu"
  expect_rc 0
  grep -q 'hipMalloc(p, COMPAT_N)' "$TMP/o/hip/a.hip" || fail "not ported as CUDA: $(cat "$TMP/o/hip/a.hip")"
  same_inputs "$TMP/p" "$before" ;;
compdb-cmake-nvcc)
  # A command as CMake writes it for nvcc: dependency-file options, include
  # paths and macros in every spelling, an options file, host flags.
  P="$TMP/proj"; mkdir -p "$P/src" "$P/inc" "$P/sys" "$P/rspinc" "$P/build/src/CMakeFiles/k.dir"
  printf '#define FROM_INC cudaStream_t\n' > "$P/inc/defs.h"
  printf '#define FROM_SYS 1\n' > "$P/sys/sysdep.h"
  printf '#define FROM_RSP 2\n' > "$P/rspinc/rsp.h"
  cat > "$P/src/k.cu" <<'CU'
#include <cuda_runtime.h>
#include "defs.h"
#include <sysdep.h>
#include "rsp.h"
#if !defined(FROM_D) || !defined(FROM_XC) || !defined(FROM_D2) || __cplusplus < 201703L
#error flags lost
#endif
void f() { FROM_INC s; cudaStreamCreate(&s); (void)(FROM_SYS + FROM_RSP); }
CU
  printf -- '-I../../rspinc\n' > "$P/build/src/CMakeFiles/k.dir/includes_CUDA.rsp"
  cmd="/usr/local/cuda/bin/nvcc -forward-unknown-to-host-compiler --define-macro=FROM_D -DFROM_D2=1 --include-path=$P/inc -isystem $P/sys -Xcompiler -fPIC,-fno-gnu-unique,-DFROM_XC -std=c++17 -x cu -ccbin /usr/bin/g++ -gencode arch=compute_80,code=sm_80 -rdc=true --options-file CMakeFiles/k.dir/includes_CUDA.rsp -MD -MT src/CMakeFiles/k.dir/k.cu.o -MF CMakeFiles/k.dir/k.cu.o.d -c $P/src/k.cu -o CMakeFiles/k.dir/k.cu.o"
  printf '[{"directory":"%s","command":"%s","file":"%s"}]\n' "$P/build/src" "$cmd" "$P/src/k.cu" > "$P/build/compile_commands.json"
  before=$(snapshot "$P")
  run port -q --to hip -o "$TMP/o0" "$P/src/k.cu"
  [ "$rc" != 0 ] || fail "parsed without the database's flags"
  run port -q --to hip -p "$P/build" -o "$TMP/o" "$P/src/k.cu"
  expect_rc 0
  # The layout root is proj/ (the local headers come along).
  grep -q 'hipStreamCreate(&s)' "$TMP/o/hip/src/k.hip" || fail "not ported: $(find "$TMP/o")"
  same_inputs "$P" "$before" ;;
compdb-parallel)
  # Entries in different directories with relative include paths, parsed in
  # parallel: each parse resolves paths against its own entry's directory.
  P="$TMP/proj"; echo '[' > "$TMP/db"; sep=
  for i in 1 2 3 4 5 6 7 8; do
    mkdir -p "$P/m$i/inc" "$P/m$i/build"
    printf '#define T%s cudaStream_t\n' "$i" > "$P/m$i/inc/d.h"
    printf '#include <cuda_runtime.h>\n#include "d.h"\nvoid f%s() { T%s s; cudaStreamCreate(&s); }\n' "$i" "$i" > "$P/m$i/k$i.cu"
    printf '%s{"directory":"%s","command":"nvcc -I../inc -c ../k%s.cu -o k%s.o","file":"../k%s.cu"}\n' "$sep" "$P/m$i/build" "$i" "$i" "$i" >> "$TMP/db"; sep=,
  done
  echo ']' >> "$TMP/db"; mkdir -p "$P/db"; mv "$TMP/db" "$P/db/compile_commands.json"
  before=$(snapshot "$P")
  for j in 8 1; do
    run port -q --to hip -j $j -p "$P/db" -o "$TMP/o$j" "$P"
    expect_rc 0
  done
  diff -r "$TMP/o1" "$TMP/o8" >/dev/null || fail "-j 8 output differs from -j 1"
  [ "$(ls "$TMP"/o8/hip/m*/k*.hip | wc -l)" = 8 ] || fail "outputs: $(find "$TMP/o8")"
  same_inputs "$P" "$before" ;;
compdb-missing-directory)
  # An entry whose directory does not exist is an error naming the database.
  mkdir -p "$TMP/p"; cp "$KERNEL" "$TMP/p/a.cu"
  printf '[{"directory":"%s","command":"nvcc -c a.cu -o a.o","file":"%s"}]\n' "$TMP/gone" "$TMP/p/a.cu" > "$TMP/p/compile_commands.json"
  before=$(snapshot "$TMP/p")
  run port -q --to hip -p "$TMP/p" -o "$TMP/o" "$TMP/p/a.cu"
  expect_rc $INPUT_ERROR
  expect_err "$TMP/p/compile_commands.json: error: the entry for $TMP/p/a.cu: its directory '$TMP/gone' does not exist or is not a directory [PK9001]"
  grep -q "LLVM ERROR" "$TMP/err" && fail "aborted: $(cat "$TMP/err")"
  [ ! -e "$TMP/o" ] || fail "output written"
  same_inputs "$TMP/p" "$before" ;;
rules-*)
  # A --rules file that is not a rename table: FILE:LINE:COL: error, an
  # error status (not a crash) and nothing written.
  mkdir -p "$TMP/p"; cp "$KERNEL" "$TMP/p/a.cu"
  R="$TMP/p/user.yaml"
  case "$TEST" in
  rules-empty) : > "$R"; want="$R:1:1: error: the rule file is empty" ;;
  rules-comment-only) printf '# nothing yet\n\n' > "$R"; want="$R:1:1: error: the rule file is empty" ;;
  rules-list) printf -- '- rule: PK8001\n- title: t\n' > "$R"; want="$R:1:1: error: expected a mapping with 'rule', 'title' and 'entries', found a sequence" ;;
  rules-non-mapping-entry) printf 'rule: PK8001\ntitle: t\nentries:\n  - myCudaAlloc\n' > "$R"; want="$R:4:5: error: an entry must be a mapping" ;;
  rules-bad-utf8) printf 'rule: PK8001\ntitle: caf\xe9\nentries: []\n' > "$R"; want="$R:2:11: error: invalid UTF-8" ;;
  rules-directory) R="$TMP/p/rules.d"; mkdir -p "$R"; want="$R:1:1: error: cannot read rule file: it is a directory" ;;
  *) fail "unknown test $TEST" ;;
  esac
  before=$(snapshot "$TMP/p")
  run port -q --to hip --rules "$R" -o "$TMP/o" "$TMP/p/a.cu"
  expect_rc $INPUT_ERROR
  expect_err "$want"
  [ ! -e "$TMP/o" ] || fail "output written"
  same_inputs "$TMP/p" "$before" ;;
jobs-many)
  # -j far above the number of files (and the default) gives the same output.
  mkdir -p "$TMP/t"
  for k in launch streams_events runtime_memory; do cp "$GOLD/$k/input.cu" "$TMP/t/$k.cu"; done
  before=$(snapshot "$TMP/t")
  run port -q --to hip -j 1 -o "$TMP/o1" "$TMP/t"; expect_rc 0
  run port -q --to hip -j 10000 -o "$TMP/o2" "$TMP/t"; expect_rc 0
  run port -q --to hip -o "$TMP/o3" "$TMP/t"; expect_rc 0
  diff -r "$TMP/o1" "$TMP/o2" >/dev/null || fail "-j 10000 output differs"
  diff -r "$TMP/o1" "$TMP/o3" >/dev/null || fail "default -j output differs"
  same_inputs "$TMP/t" "$before" ;;
*) fail "unknown test $TEST" ;;
esac
echo "ok: $TEST"
