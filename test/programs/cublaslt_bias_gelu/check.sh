#!/usr/bin/env bash
# programs.cublaslt_bias_gelu: the cuBLASLt matmul with a GELU_BIAS epilogue.
# 1. The HIP port keeps every cublasLt name, each flagged (PK1010) with its
#    hipBLASLt spelling: hipBLAS has no Lt API.
# 2. The original and the CUDA port run on the emulator and pass.
# Usage: check.sh BIN SRC_ROOT
set -euo pipefail
BIN="$1"; DIR="$2/test/programs/cublaslt_bias_gelu"
TMP="$(mktemp -d)"; trap 'rm -rf "$TMP"' EXIT
fail() { echo "FAIL: cublaslt_bias_gelu: $*"; exit 1; }
"$BIN" port --to hip -o "$TMP/out" "$DIR/lt.cu" 2>"$TMP/port.err" || true
grep -q "'cublasLtMatmul' has no HIP counterpart: .*hipblasLtMatmul" "$TMP/port.err" \
  || { cat "$TMP/port.err"; fail "cublasLtMatmul is not flagged with its hipBLASLt name"; }
grep -q "header <cublasLt.h> has no HIP counterpart" "$TMP/port.err" \
  || { cat "$TMP/port.err"; fail "<cublasLt.h> is not flagged"; }
grep -q "cublasLtMatmul(lt, desc" "$TMP/out/hip/lt.hip" || fail "the call was not kept"
"$BIN" validate --program "$DIR/lt.cu" --to cuda --expect-output PASS >"$TMP/val" 2>&1 \
  || { cat "$TMP/val"; fail "validate --program failed"; }
grep -q "2 passed, 0 failed" "$TMP/val" || { cat "$TMP/val"; fail "validate summary"; }
echo "ok: cublaslt_bias_gelu (HIP port flagged; original and CUDA port validated)"
