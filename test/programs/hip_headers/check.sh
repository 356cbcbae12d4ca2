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
#     hip_bfloat16 (both refused by ROCm's headers) fails validation.
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
  grep -q "bf16.hip does not compile against the ROCm 5.2 headers (/usr/include; gfx90a, host side)" \
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
  echo "ok: ROCm 6 headers accept bf16.hip"
else
  echo "no ROCm 6 headers at $ROCM6: step 2 skipped"
fi

"$BIN" validate --program "$SRC/test/emu/parse/hip_permissive.hip" --to none \
  >"$TMP/vp" 2>&1 && { cat "$TMP/vp"; fail "hip_permissive.hip passed"; }
grep -q "error: no matching function for call to 'rsqrtf'" "$TMP/vp" || { cat "$TMP/vp"; fail "host rsqrtf not refused"; }
grep -q "error: no viable overloaded '='" "$TMP/vp" || { cat "$TMP/vp"; fail "hip_bfloat16 = float not refused"; }
echo "ok: host rsqrtf and hip_bfloat16 = float are refused"
