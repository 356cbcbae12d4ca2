#!/usr/bin/env bash
# HIP-written MFMA GEMMs (__builtin_amdgcn_mfma_f32_16x16x16f16 in AMD's lane
# layout) ported to CUDA: the output uses WMMA and no MFMA builtin (PK6043,
# PK6044), and the original (HIP, 64 lanes), the HIP output and the CUDA
# output (32 lanes) all match the CPU reference in the emulator.
# Usage: hip_builtins.sh BIN SRC_ROOT
set -euo pipefail
BIN="$1"; SRC="$2"
TMP="$(mktemp -d)"; trap 'rm -rf "$TMP"' EXIT
cases=("$SRC/corpus/hip_mfma_gemm" "$SRC/test/mfma/cases/hip_mfma_colmajor")
fail=0
for c in "${cases[@]}"; do
  n="$(basename "$c")"
  "$BIN" port -q --to cuda -o "$TMP/port/$n" "$c/$n.hip" 2>"$TMP/$n.err" || {
    echo "FAIL: port --to cuda $n"; cat "$TMP/$n.err"; fail=1; continue; }
  out="$TMP/port/$n/cuda/$n.cu"
  for want in "nvcuda::wmma::load_matrix_sync" "nvcuda::wmma::mma_sync" \
              "nvcuda::wmma::store_matrix_sync" "if (threadIdx.x % 64 < 32) {"; do
    grep -qF "$want" "$out" || { echo "FAIL: $n: no '$want' in the CUDA output"; fail=1; }
  done
  if grep -q "__builtin_amdgcn\|ext_vector_type" "$out"; then
    echo "FAIL: $n: MFMA builtin or vector type left in the CUDA output"; fail=1
  fi
done
grep -qF "nvcuda::wmma::col_major" "$TMP/port/hip_mfma_colmajor/cuda/hip_mfma_colmajor.cu" &&
  grep -qF "nvcuda::wmma::mem_col_major" "$TMP/port/hip_mfma_colmajor/cuda/hip_mfma_colmajor.cu" ||
  { echo "FAIL: hip_mfma_colmajor: column-major fragments expected"; fail=1; }
# Validated where they are: the compile cache then shares objects with the
# other runs of the same cases (e2e.validate-corpus).
"$BIN" validate -j 2 --json --to hip,cuda "${cases[@]}" >"$TMP/out.json" 2>"$TMP/err" || true
python3 - "$TMP/out.json" "$TMP/err" "${#cases[@]}" <<'PY' || fail=1
import json, sys
try:
    doc = json.load(open(sys.argv[1]))
except Exception as e:
    print("FAIL: no JSON from validate:", e)
    print(open(sys.argv[2]).read()[-4000:])
    sys.exit(1)
bad, seen = 0, 0
for c in doc.get("cases", []):
    for r in c.get("results", []):
        seen += 1
        ok = r.get("status") == "pass"
        print(f"{'PASS' if ok else 'FAIL'}: {c['name']} ({r.get('variant')}) "
              f"max_abs={r.get('max_abs')} {r.get('kind', '')} {r.get('reason', '')}")
        if not ok:
            bad += 1
            print(r.get("detail", "")[-3000:])
want = 3 * int(sys.argv[3])
if seen != want:
    print(f"FAIL: {seen} results, want {want} (original, hip, cuda per case)")
    sys.exit(1)
sys.exit(1 if bad else 0)
PY
exit $fail
