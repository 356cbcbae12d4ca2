// PK1027: 8-bit floats follow --rocm-version.  ROCm 6 (the default): the
// header, types, enumerators and conversions of <hip/hip_fp8.h>; what HIP
// has not (the E8M0 scales) is flagged.  ROCm 5 has no 8-bit floats: each
// use is flagged (PK1010) and left as written.
// RUN: rm -rf %t && %pk port -q --to hip -o %t/six %s 2>&1 \
// RUN:   | FileCheck %s --check-prefix=DIAG6
// RUN: FileCheck %s --match-full-lines --check-prefix=SIX --input-file=%t/six/hip/PK1027.hip
// The ROCm 6 output compiles against the ROCm 6.3 headers but for what is
// flagged (the E8M0 kernel, removed first).
// RUN: sed -e '/__nv_fp8_e8m0/d' %t/six/hip/PK1027.hip > %t/six.hip
// RUN: %hip6 --offload-host-only %t/six.hip
// RUN: %hip6 --offload-device-only %t/six.hip
// RUN: %pk port -q --to hip --rocm-version=5 -o %t/five %s 2>&1 \
// RUN:   | FileCheck %s --check-prefix=DIAG5
// RUN: FileCheck %s --match-full-lines --check-prefix=FIVE --input-file=%t/five/hip/PK1027.hip
#include <cuda_runtime.h>
#include <cuda_fp8.h>
// SIX: #include <hip/hip_fp8.h>
// FIVE: #include <cuda_fp8.h>
// DIAG5: PK1027.cu:[[@LINE-3]]:1: warning: header <cuda_fp8.h> has no HIP counterpart: ROCm 5 has no 8-bit floating-point types (ROCm 6: hip/hip_fp8.h, --rocm-version=6) [PK1010]

// DIAG6: PK1027.cu:[[@LINE+2]]:43: note: this output depends on --rocm-version (here 6): the 8-bit floating-point types, header and conversions of ROCm 6 [PK1027]
// DIAG5: PK1027.cu:[[@LINE+1]]:43: warning: '__nv_fp8_e4m3' has no HIP counterpart: ROCm 5 has no 8-bit floating-point types (ROCm 6: __hip_fp8_e4m3, --rocm-version=6) [PK1010]
__global__ void quantize(const float *in, __nv_fp8_e4m3 *out, __nv_fp8_storage_t *raw, int n) {
// SIX: __global__ void quantize(const float *in, __hip_fp8_e4m3 *out, __hip_fp8_storage_t *raw, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    out[i] = __nv_fp8_e4m3(in[i]);
// SIX: out[i] = __hip_fp8_e4m3(in[i]);
    raw[i] = __nv_cvt_float_to_fp8(in[i], __NV_SATFINITE, __NV_E5M2);
// SIX: raw[i] = __hip_cvt_float_to_fp8(in[i], __HIP_SATFINITE, __HIP_E5M2);
// FIVE: raw[i] = __nv_cvt_float_to_fp8(in[i], __NV_SATFINITE, __NV_E5M2);
  }
}

// DIAG6: PK1027.cu:[[@LINE+1]]:24: warning: '__nv_fp8_e8m0' has no HIP counterpart: HIP (ROCm 5.2 and 6.3) has no E8M0 scale type [PK1010]
__global__ void scales(__nv_fp8_e8m0 *s) { (void)s; }
// SIX: __global__ void scales(__nv_fp8_e8m0 *s) { (void)s; }
