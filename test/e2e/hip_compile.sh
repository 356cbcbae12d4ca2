#!/usr/bin/env bash
# Every HIP output produced from corpus/ and the test inputs compiles with
# clang++-19 for gfx90a and gfx942 against Debian's HIP headers (ROCm 5.2:
# the outputs are made with --rocm-version=5).
# Each output is compiled side by side (the host, then the device code of
# each architecture: the front ends and code generation of one -c build of
# both, less the offload bundle), the HIP runtime header precompiled where
# that cannot change the verdict (test/lib/hip_pch.sh).
# Usage: hip_compile.sh BIN SRC_ROOT CLANGXX
set -euo pipefail
BIN="$1"; SRC="$2"; CXX="${3:-clang++-19}"
. "$SRC/test/lib/hip_pch.sh"
TMP="$(mktemp -d)"; trap 'rm -rf "$TMP"' EXIT
# ROCm 5.2's device libraries lack the gfx942 ISA file: alias gfx940's
# (compile checks only; never a runnable build).
mkdir -p "$TMP/devlibs"
for f in /usr/lib/x86_64-linux-gnu/amdgcn/bitcode/*.bc; do ln -s "$f" "$TMP/devlibs/"; done
ln -sf oclc_isa_version_940.bc "$TMP/devlibs/oclc_isa_version_942.bc"

inputs=()
for d in "$SRC"/corpus/*/; do
  for f in "$d"*.cu; do [ -e "$f" ] && inputs+=("$f"); done
done
for f in "$SRC"/test/golden/*/input.cu "$SRC"/test/mfma/*/input.cu; do [ -e "$f" ] && inputs+=("$f"); done
[ ${#inputs[@]} -gt 10 ] || { echo "FAIL: found only ${#inputs[@]} inputs"; exit 1; }

fails=0; n=0
for f in "${inputs[@]}"; do
  name=$(echo "${f#$SRC/}" | tr '/' '_')
  out="$TMP/out/$name"
  if ! "$BIN" port -q --to hip --rocm-version=5 -o "$out" "$f" 2>"$TMP/port.err"; then
    echo "FAIL: port $f"; cat "$TMP/port.err"; fails=$((fails+1)); continue
  fi
  while IFS= read -r hip; do
    n=$((n+1))
    for side in "gfx90a --offload-host-only" "gfx90a --offload-device-only" \
                "gfx942 --offload-device-only"; do
      if ! pk_hip_cc "$CXX" "$hip" -x hip --offload-arch="${side% *}" "${side#* }" -c -O1 -w \
           --rocm-path=/usr --rocm-device-lib-path="$TMP/devlibs" -fuse-ld=lld \
           -o "$TMP/x.o" 2>"$TMP/cc.err"; then
        echo "FAIL: compile ${hip#$TMP/out/} (from ${f#$SRC/}; $side)"; grep error "$TMP/cc.err" | head -5
        fails=$((fails+1)); break
      fi
    done
  done < <(find "$out/hip" -name '*.hip')
done
echo "$n HIP outputs compiled for gfx90a+gfx942, $fails failures"
[ "$fails" -eq 0 ]
