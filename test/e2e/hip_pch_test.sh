#!/usr/bin/env bash
# test/lib/hip_pch.sh, the precompiled HIP runtime header of the compile
# checks: which files may use it, that a verdict with it is the verdict
# without it (an error stays an error), and that a damaged or stale PCH only
# costs a second compile.
# Usage: hip_pch_test.sh SRC_ROOT CLANGXX
set -euo pipefail
SRC="$1"; CXX="${2:-clang++-19}"
TMP="$(mktemp -d)"; trap 'rm -rf "$TMP"' EXIT
export PK_HIP_PCH_DIR="$TMP/pch"
. "$SRC/test/lib/hip_pch.sh"
fail() { echo "FAIL: $*"; exit 1; }

# Which files start with the runtime header.
eligible() { printf "$2" > "$TMP/e.hip"; pk_hip_pch_eligible "$TMP/e.hip" || return 1; }
eligible first '#include <hip/hip_runtime.h>\nint x;\n' || fail "first directive"
eligible quotes '#include "hip/hip_runtime.h"\n' || fail "quoted include"
eligible comments '// a\n/* b\n c */\n\n  #pragma once\n#  include <hip/hip_runtime.h> // d\n' \
  || fail "after comments and #pragma once"
eligible crlf '// a\r\n#include <hip/hip_runtime.h>\r\n' || fail "CRLF line endings"
! eligible define '#define min(a,b) x\n#include <hip/hip_runtime.h>\n' || fail "a macro before the header"
! eligible std '#include <cstdio>\n#include <hip/hip_runtime.h>\n' || fail "another include first"
! eligible code 'int x;\n#include <hip/hip_runtime.h>\n' || fail "code first"
! eligible cond '#ifdef X\n#include <hip/hip_runtime.h>\n#endif\n' || fail "a conditional first"
! eligible inline '/* a */ #define X 1\n#include <hip/hip_runtime.h>\n' || fail "a directive after a comment"
! eligible none 'int x;\n' || fail "no runtime header"
! eligible empty '' || fail "an empty file"

FLAGS=(-x hip --offload-arch=gfx90a --offload-device-only -fsyntax-only -nogpulib -w --rocm-path=/usr)
# A good file passes, and the PCH is built once.
printf '// k\n#include <hip/hip_runtime.h>\n__global__ void k(int *p) { p[threadIdx.x] = __shfl(1, 0); }\n' > "$TMP/good.hip"
pk_hip_cc "$CXX" "$TMP/good.hip" "${FLAGS[@]}" || fail "a good file"
n=$(find "$PK_HIP_PCH_DIR" -name '*.pch' | wc -l)
[ "$n" = 1 ] || fail "expected one PCH, found $n"
pch=$(find "$PK_HIP_PCH_DIR" -name '*.pch')
# The same flags reuse it (its time is kept).
before=$(stat -c %Y.%s "$pch"); sleep 1
pk_hip_cc "$CXX" "$TMP/good.hip" "${FLAGS[@]}" || fail "a good file, again"
[ "$(stat -c %Y.%s "$pch")" = "$before" ] || fail "the PCH was rebuilt for the same flags"
# Other flags, another PCH.
pk_hip_cc "$CXX" "$TMP/good.hip" "${FLAGS[@]}" -DEXTRA=1 || fail "a good file, -D"
n=$(find "$PK_HIP_PCH_DIR" -name '*.pch' | wc -l)
[ "$n" = 2 ] || fail "expected a PCH for each flag set, found $n"

# An error after the header is still an error, reported as without the PCH.
printf '#include <hip/hip_runtime.h>\n__global__ void k(int *p) { p[0] = undefined_name; }\n' > "$TMP/bad.hip"
if pk_hip_cc "$CXX" "$TMP/bad.hip" "${FLAGS[@]}" 2>"$TMP/err"; then fail "a bad file passed"; fi
grep -q "undefined_name" "$TMP/err" || { cat "$TMP/err"; fail "the error is not reported"; }
# A macro before the header changes it: such a file is compiled as is.
printf '#define hipMalloc 42\n#include <hip/hip_runtime.h>\n__global__ void k(int *p) { p[0] = 1; }\n' > "$TMP/macro.hip"
if pk_hip_cc "$CXX" "$TMP/macro.hip" "${FLAGS[@]}" 2>"$TMP/err"; then fail "a macro before the header was hidden by the PCH"; fi

# A damaged PCH: the file is judged without it, passes, and the PCH is rebuilt.
echo garbage > "$pch"
pk_hip_cc "$CXX" "$TMP/good.hip" "${FLAGS[@]}" 2>"$TMP/err" || { cat "$TMP/err"; fail "a damaged PCH failed a good file"; }
[ ! -e "$pch" ] || [ "$(head -c 7 "$pch")" != garbage ] || fail "the damaged PCH was kept"
pk_hip_cc "$CXX" "$TMP/good.hip" "${FLAGS[@]}" || fail "a good file after the rebuild"
[ -s "$pch" ] && [ "$(head -c 4 "$pch")" = CPCH ] || fail "the PCH was not rebuilt"
# A header newer than the PCH (a stale source): the same.
touch -d '2000-01-01' "$pch"; touch "$PK_HIP_PCH_DIR/hip_runtime_pch.h"
pk_hip_cc "$CXX" "$TMP/good.hip" "${FLAGS[@]}" 2>"$TMP/err" || { cat "$TMP/err"; fail "a stale PCH failed a good file"; }
# PK_HIP_PCH=0 compiles without one.
rm -rf "$PK_HIP_PCH_DIR"
PK_HIP_PCH=0 pk_hip_cc "$CXX" "$TMP/good.hip" "${FLAGS[@]}" || fail "PK_HIP_PCH=0"
[ ! -e "$PK_HIP_PCH_DIR" ] || fail "PK_HIP_PCH=0 built a PCH"
echo "ok: hip_pch"
