#!/usr/bin/env bash
# One program of test/programs/: port it to HIP, compile every HIP output as
# emitted, host and device, gfx90a and gfx942: the --rocm-version=5 output
# against the installed HIP headers (ROCm 5.2, /usr/include) with a full -c
# build and ROCm 5.2's device libraries (-fsyntax-only where those are
# missing), and, when present, the default output against the ROCm 6.3
# headers (-fsyntax-only; PK_ROCM6_INCLUDE, default /work/shared/rocm-6.3/include),
# then validate it (original, HIP at 64 lanes, CUDA at 32) when its
# program.conf says the emulator supports it.
# Usage: run_program.sh BIN SRC_ROOT CLANGXX NAME
#
# program.conf (optional, sourced):
#   PORT_ARGS   extra options of `port` and `validate` (e.g. --extra-arg=-DWARP_SIZE=32)
#   CC_ARGS     extra options of the HIP compile checks (e.g. -DWARP_SIZE=32)
#   RUN_ARGS    arguments of the program
#   VALIDATE    1 (default) or 0: run `validate --program`
#   VALIDATE_ARGS extra options of `validate` only (e.g. --expect-output PASS)
#   EXPECT      a pattern `port`'s diagnostics must contain
#   EXPECT_HIP  a pattern the HIP output of MAIN must contain
#   ROCM5       1 (default) or 0: 0 skips the ROCm 5.2 checks, for programs
#               using a ROCm library Debian's ROCm 5.2 lacks (hipBLAS, hipCUB)
#   MAIN        the translation unit with main (default main.cu)
#   ARCHS       the GPU architectures of the device compile checks (default
#               "gfx90a gfx942"; the host side is checked once)
#   SOURCES     the program's other translation units (space separated,
#               relative to its directory): ported with MAIN, each HIP output
#               compile-checked, validated as one program (validate --program
#               MAIN SOURCES...)
#
# Every compile check is one side (the host, or one architecture's device
# code), the HIP runtime header precompiled where that cannot change the
# verdict (test/lib/hip_pch.sh).
set -euo pipefail
BIN="$1"; SRC="$2"; CXX="${3:-clang++-19}"; NAME="$4"
. "$SRC/test/lib/hip_pch.sh"
DIR="$SRC/test/programs/$NAME"
ROCM6="${PK_ROCM6_INCLUDE:-/work/shared/rocm-6.3/include}"
TMP="$(mktemp -d)"; trap 'rm -rf "$TMP"' EXIT
fail() { echo "FAIL: $NAME: $*"; exit 1; }

PORT_ARGS=""; CC_ARGS=""; RUN_ARGS=""; VALIDATE=1; VALIDATE_ARGS=""; EXPECT=""; EXPECT_HIP=""
ROCM5=1; MAIN=main.cu; SOURCES=""; ARCHS="gfx90a gfx942"
[ -f "$DIR/program.conf" ] && . "$DIR/program.conf"
SIDES=("${ARCHS%% *} --offload-host-only")
for a in $ARCHS; do SIDES+=("$a --offload-device-only"); done
UNITS=("$DIR/$MAIN")
for s in $SOURCES; do UNITS+=("$DIR/$s"); done
# The HIP output of MAIN: main.cu becomes main.hip, a .cpp keeps its name.
case "$MAIN" in *.cu) MAIN_OUT="${MAIN%.cu}.hip" ;; *) MAIN_OUT="$MAIN" ;; esac

# shellcheck disable=SC2086
"$BIN" port --to hip $PORT_ARGS -o "$TMP/out" "${UNITS[@]}" 2>"$TMP/port.err" \
  || { cat "$TMP/port.err"; fail "port exited $?"; }
if grep -q "error:" "$TMP/port.err"; then cat "$TMP/port.err"; fail "port reported errors"; fi
if [ -n "$EXPECT" ] && ! grep -q -- "$EXPECT" "$TMP/port.err"; then
  cat "$TMP/port.err"; fail "port's diagnostics lack '$EXPECT'"
fi
MAIN_HIP="$(find "$TMP/out/hip" -name "$MAIN_OUT" | head -1)"
[ -n "$MAIN_HIP" ] || fail "no HIP output $MAIN_OUT"
if [ -n "$EXPECT_HIP" ] && ! grep -q -- "$EXPECT_HIP" "$MAIN_HIP"; then
  cat "$MAIN_HIP"; fail "the HIP output lacks '$EXPECT_HIP'"
fi

# The default output (ROCm 6) against the ROCm 6.3 headers; the output of
# --rocm-version=5 against Debian's ROCm 5.2 headers.
# shellcheck disable=SC2086
"$BIN" port -q --to hip --rocm-version=5 $PORT_ARGS -o "$TMP/out5" "${UNITS[@]}" \
  2>"$TMP/port5.err" || { cat "$TMP/port5.err"; fail "port --rocm-version=5 failed"; }
n=0
check() { # ROCM OUTDIR FLAGS...
  local rocm="$1" dir="$2"; shift 2
  # The host side once: its predefined macros and target are the same for
  # gfx90a and gfx942 (clang 19, -E -dM --offload-host-only), so a second
  # host parse would repeat the first; the device side per architecture.
  while IFS= read -r hip; do
    for arch_side in "${SIDES[@]}"; do
      arch="${arch_side% *}"; side="${arch_side#* }"
      # shellcheck disable=SC2086
      pk_hip_cc "$CXX" "$hip" -x hip --offload-arch=$arch $side -fsyntax-only -nogpulib -w \
        "$@" $CC_ARGS 2>"$TMP/cc.err" || {
        grep error "$TMP/cc.err" | head -5
        fail "${hip#$dir/hip/} does not compile (ROCm $rocm, $arch, $side)"; }
      n=$((n+1))
    done
  done < <(find "$dir/hip" -name '*.hip' -o -name '*.cpp')
}
DEVLIBS=/usr/lib/x86_64-linux-gnu/amdgcn/bitcode
FULL=0
[ -f "$DEVLIBS/ocml.bc" ] && command -v ld.lld-19 >/dev/null && FULL=1
[ "$ROCM5" = 1 ] || FULL=2
# ROCm 5.2's atomicInc/atomicDec call llvm.amdgcn.atomic.inc/dec, intrinsics
# LLVM 19 removed (lld: undefined llvm.amdgcn.atomic.inc.i32.p0i32): such an
# output gets the ROCm 5.2 syntax checks instead of the -c build.
if [ "$FULL" = 1 ] && grep -rqE '\batomic(Inc|Dec)[[:space:]]*\(' "$TMP/out5/hip"; then
  echo "$NAME: atomicInc/atomicDec: ROCm 5.2's need LLVM intrinsics clang 19 lacks: -fsyntax-only instead of the -c build"
  FULL=0; INCDEC=1
fi
# The full -c build below runs the same front ends (host, gfx90a, gfx942) and
# generates code: the syntax checks of the ROCm 5 output are only for
# machines without the device libraries.
[ "$FULL" = 0 ] && check 5.2 "$TMP/out5" --rocm-path=/usr
# A library whose headers the ROCm 6.3 set lacks (hipBLASLt is not in every
# copy): the default output is not compile-checked, and the log says why.
ROCM6_MISSING=""
while IFS= read -r inc; do
  [ -e "$ROCM6/$inc" ] || [ -e "/usr/include/$inc" ] || ROCM6_MISSING="$ROCM6_MISSING $inc"
done < <(grep -rhoE '^#include <hip[a-z_]*/[^>]+>' "$TMP/out/hip" 2>/dev/null | sed 's/#include <\(.*\)>/\1/' | sort -u)
if [ -n "$ROCM6_MISSING" ]; then
  echo "$NAME: not at $ROCM6 or /usr/include:$ROCM6_MISSING: the default output is not compile-checked"
elif [ -d "$ROCM6" ]; then
  check 6.3 "$TMP/out" -nogpuinc -isystem "$ROCM6" -include __clang_hip_runtime_wrapper.h \
    -DHIP_ENABLE_WARP_SYNC_BUILTINS
else
  echo "$NAME: no ROCm 6 headers at $ROCM6: the default output is not compile-checked"
fi
# A full build (-c: device code generation and the offload bundle) where the
# device libraries allow: the --rocm-version=5 output against Debian's ROCm
# 5.2 headers and device libraries (rocm-device-libs), linked with lld-19.
# ROCm 5.2 has no gfx942 ISA library: gfx940's is aliased (a compile check,
# never a runnable build).  The ROCm 6 output stays -fsyntax-only: no ROCm 6
# device libraries are installed (docs/porting.md).
if [ "$FULL" = 1 ]; then
  mkdir -p "$TMP/devlibs"
  for f in "$DEVLIBS"/*.bc; do ln -s "$f" "$TMP/devlibs/"; done
  ln -sf oclc_isa_version_940.bc "$TMP/devlibs/oclc_isa_version_942.bc"
  while IFS= read -r hip; do
    # The host, then each architecture's device code (compiled and linked
    # with lld): one -c build of both, less the offload bundle.
    for side in "${SIDES[@]}"; do
      # shellcheck disable=SC2086
      pk_hip_cc "$CXX" "$hip" -x hip --offload-arch="${side% *}" "${side#* }" -c -O1 -w \
        --rocm-path=/usr --rocm-device-lib-path="$TMP/devlibs" -fuse-ld=lld \
        $CC_ARGS -o "$TMP/obj.o" 2>"$TMP/cc.err" || {
        grep error "$TMP/cc.err" | head -5
        fail "${hip#$TMP/out5/hip/} does not build with -c (ROCm 5.2, $side)"; }
    done
    n=$((n+1))
  done < <(find "$TMP/out5/hip" -name '*.hip' -o -name '*.cpp')
  echo "$NAME: full -c builds of the ROCm 5 output passed"
elif [ "$FULL" = 2 ]; then
  echo "$NAME: ROCM5=0: the ROCm 5.2 checks are skipped (a library ROCm 5.2 lacks)"
elif [ -z "${INCDEC:-}" ]; then
  echo "$NAME: no ROCm device libraries or lld-19: the -c build is skipped"
fi
[ "$n" -gt 0 ] || [ -n "$ROCM6_MISSING" ] || fail "no HIP output compiled"
echo "$NAME: $n compile checks passed"

if [ "$VALIDATE" = 1 ]; then
  # shellcheck disable=SC2086
  "$BIN" validate --program "${UNITS[@]}" --to hip,cuda $PORT_ARGS $VALIDATE_ARGS -- $RUN_ARGS \
    >"$TMP/val" 2>&1 || { cat "$TMP/val"; fail "validate --program failed"; }
  grep -q "3 passed, 0 failed" "$TMP/val" || { cat "$TMP/val"; fail "validate summary"; }
  echo "$NAME: validated (original, hip at 64 lanes, cuda at 32)"
fi
echo "ok: $NAME"
