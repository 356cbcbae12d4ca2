#!/usr/bin/env bash
# validate --program judges HIP sources by the real HIP headers, not only by
# the emulator's stand-ins:
#  1. bf16.hip (ROCm 6's <hip/hip_bf16.h>) with --rocm-version=5 fails against
#     the ROCm 5.2 headers (/usr/include) with a clear message, and the table
#     says which headers were used;
#  2. with the ROCm 6 headers (PK_ROCM6_INCLUDE, default
#     /work/shared/rocm-6.3/include) given as PK_HIP_INCLUDE it passes, and
#     the JSON names them;
#  3. a HIP program that calls rsqrtf from host code and assigns a float to
#     hip_bfloat16 (both refused by ROCm's headers) fails validation;
#  4. the device side is checked for gfx942 as well as gfx90a: arch_guard.hip,
#     whose device code compiles for gfx90a only, fails naming gfx942;
#  5. ROCm 6 headers are found without PK_HIP_INCLUDE: through hipconfig
#     --path and through $ROCM_PATH (the failure names the headers used).
# Usage: check.sh BIN SRC_ROOT
set -uo pipefail
BIN="$1"; SRC="$2"
DIR="$SRC/test/programs/hip_headers"
ROCM6="${PK_ROCM6_INCLUDE:-/work/shared/rocm-6.3/include}"
TMP="$(mktemp -d)"; trap 'rm -rf "$TMP"' EXIT
fail() { echo "FAIL: $*"; exit 1; }

if [ -f /usr/include/hip/hip_version.h ]; then
  PK_HIP_INCLUDE= "$BIN" validate --program "$DIR/bf16.hip" --to none --rocm-version=5 \
    >"$TMP/v5" 2>&1 && { cat "$TMP/v5"; fail "bf16.hip passed against ROCm 5.2"; }
  grep -q "FAIL hip-headers" "$TMP/v5" || { cat "$TMP/v5"; fail "no hip-headers failure"; }
  grep -q "bf16.hip does not compile against the ROCm 5.2 headers (/usr/include; gfx90a and gfx942, host side)" \
    "$TMP/v5" || { cat "$TMP/v5"; fail "unclear message"; }
  grep -q "hip_bf16.h' file not found" "$TMP/v5" || { cat "$TMP/v5"; fail "no compiler error"; }
  echo "ok: ROCm 5.2 headers refuse bf16.hip"
else
  echo "no ROCm 5 headers in /usr/include: step 1 skipped"
fi

if [ -d "$ROCM6/hip" ]; then
  PK_HIP_INCLUDE="$ROCM6" "$BIN" validate --program "$DIR/bf16.hip" --to none --json \
    >"$TMP/v6" 2>"$TMP/v6.err" || { cat "$TMP/v6" "$TMP/v6.err"; fail "bf16.hip failed against ROCm 6"; }
  grep -q "\"hip_headers\": \"ROCm 6\.[0-9]* (" "$TMP/v6" || { cat "$TMP/v6"; fail "JSON lacks hip_headers"; }
  tr -d ' \n' < "$TMP/v6" | grep -q '"hip_archs":\["gfx90a","gfx942"\]' || { cat "$TMP/v6"; fail "JSON lacks hip_archs"; }
  echo "ok: ROCm 6 headers accept bf16.hip"
else
  echo "no ROCm 6 headers at $ROCM6: step 2 skipped"
fi

"$BIN" validate --program "$SRC/test/emu/parse/hip_permissive.hip" --to none \
  >"$TMP/vp" 2>&1 && { cat "$TMP/vp"; fail "hip_permissive.hip passed"; }
grep -q "error: no matching function for call to 'rsqrtf'" "$TMP/vp" || { cat "$TMP/vp"; fail "host rsqrtf not refused"; }
grep -q "error: no viable overloaded '='" "$TMP/vp" || { cat "$TMP/vp"; fail "hip_bfloat16 = float not refused"; }
echo "ok: host rsqrtf and hip_bfloat16 = float are refused"

# 4. gfx942's device side is checked (against whichever headers are found).
if [ -f /usr/include/hip/hip_version.h ]; then
  PK_HIP_INCLUDE= HIP_PATH= ROCM_PATH= "$BIN" validate --program "$DIR/arch_guard.hip" --to none \
    --rocm-version=5 >"$TMP/va" 2>&1 && { cat "$TMP/va"; fail "arch_guard.hip passed"; }
  grep -q "arch_guard.hip does not compile against the ROCm 5.2 headers (/usr/include; gfx942, device side)" \
    "$TMP/va" || { cat "$TMP/va"; fail "gfx942 not checked"; }
  grep -q 'tuned for gfx90a (MI200) only' "$TMP/va" || { cat "$TMP/va"; fail "no compiler error"; }
  echo "ok: gfx942's device side is checked"
else
  echo "no ROCm 5 headers in /usr/include: step 4 skipped"
fi

# 5. ROCm 6 headers found through hipconfig --path and through $ROCM_PATH.
if [ -d "$ROCM6/hip" ]; then
  mkdir -p "$TMP/bin" "$TMP/hc" "$TMP/rp"
  ln -s "$ROCM6" "$TMP/hc/include"; ln -s "$ROCM6" "$TMP/rp/include"
  printf '#!/bin/sh\n[ "$1" = --path ] && echo "%s"\n' "$TMP/hc" > "$TMP/bin/hipconfig"
  chmod +x "$TMP/bin/hipconfig"
  PATH="$TMP/bin:$PATH" PK_HIP_INCLUDE= HIP_PATH= ROCM_PATH= "$BIN" validate \
    --program "$DIR/arch_guard.hip" --to none >"$TMP/vh" 2>&1 && { cat "$TMP/vh"; fail "arch_guard.hip passed"; }
  grep -q "against the ROCm 6\.[0-9]* headers ($TMP/hc/include; gfx942, device side)" "$TMP/vh" \
    || { cat "$TMP/vh"; fail "ROCm 6 headers not found through hipconfig"; }
  PK_HIP_INCLUDE= HIP_PATH= ROCM_PATH="$TMP/rp" "$BIN" validate \
    --program "$DIR/arch_guard.hip" --to none >"$TMP/vr" 2>&1 && { cat "$TMP/vr"; fail "arch_guard.hip passed"; }
  grep -q "against the ROCm 6\.[0-9]* headers ($TMP/rp/include; gfx942, device side)" "$TMP/vr" \
    || { cat "$TMP/vr"; fail "ROCm 6 headers not found through ROCM_PATH"; }
  echo "ok: ROCm 6 headers found through hipconfig and ROCM_PATH"
else
  echo "no ROCm 6 headers at $ROCM6: step 5 skipped"
fi
