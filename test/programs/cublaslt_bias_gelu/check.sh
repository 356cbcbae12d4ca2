#!/usr/bin/env bash
# programs.cublaslt_bias_gelu: the cuBLASLt matmul with a GELU_BIAS epilogue.
# 1. The HIP port calls hipBLASLt (PK1029) and compiles against the ROCm 6.3
#    hipBLASLt headers (when present), host and device side.
# 2. The original, the HIP port (64 lanes) and the CUDA port run on the
#    emulator, where both Lt APIs share one matmul, and pass.
# Usage: check.sh BIN SRC_ROOT
set -euo pipefail
BIN="$1"; DIR="$2/test/programs/cublaslt_bias_gelu"
ROCM6="${PK_ROCM6_INCLUDE:-/work/shared/rocm-6.3/include}"
TMP="$(mktemp -d)"; trap 'rm -rf "$TMP"' EXIT
fail() { echo "FAIL: cublaslt_bias_gelu: $*"; exit 1; }
"$BIN" port --to hip -o "$TMP/out" "$DIR/lt.cu" 2>"$TMP/port.err" \
  || { cat "$TMP/port.err"; fail "port failed"; }
if grep -q "warning:" "$TMP/port.err"; then cat "$TMP/port.err"; fail "port warned"; fi
HIP="$TMP/out/hip/lt.hip"
grep -q "#include <hipblaslt/hipblaslt.h>" "$HIP" || fail "no hipBLASLt header"
grep -q "hipblasLtMatmul(lt, desc" "$HIP" || { cat "$HIP"; fail "the matmul is not hipBLASLt's"; }
grep -q "HIPBLASLT_EPILOGUE_GELU_BIAS" "$HIP" || fail "the epilogue is not hipBLASLt's"
if [ -f "$ROCM6/hipblaslt/hipblaslt.h" ]; then
  for side in --offload-host-only --offload-device-only; do
    clang++-19 -x hip --offload-arch=gfx942 $side -nogpulib -nogpuinc -std=c++17 -w \
      -isystem "$ROCM6" -include __clang_hip_runtime_wrapper.h -fsyntax-only "$HIP" \
      2>"$TMP/cc.err" || { head -5 "$TMP/cc.err"; fail "the HIP port does not compile ($side)"; }
  done
else
  echo "cublaslt_bias_gelu: no hipBLASLt headers at $ROCM6: the HIP port is not compile-checked"
fi
"$BIN" validate --program "$DIR/lt.cu" --to hip,cuda --expect-output PASS >"$TMP/val" 2>&1 \
  || { cat "$TMP/val"; fail "validate --program failed"; }
grep -q "3 passed, 0 failed" "$TMP/val" || { cat "$TMP/val"; fail "validate summary"; }
echo "ok: cublaslt_bias_gelu (HIP port on hipBLASLt compiles; original, HIP and CUDA validated)"
