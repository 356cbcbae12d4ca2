// PK1015: math that CUDA declares __host__ __device__ and HIP device-only.
// In host functions rsqrtf/rcbrtf (and the double versions) become the expressions CUDA's
// host versions compute; other host uses, and uses in __host__ __device__
// functions, are flagged.  Device code is left alone.
// RUN: rm -rf %t && %pk port -q --to hip -o %t %s 2>&1 \
// RUN:   | FileCheck %s --check-prefix=DIAG
// RUN: FileCheck %s --match-full-lines --input-file=%t/hip/PK1015.hip
// `check` reports the rewrites as notes and the calls that stay as warnings.
// RUN: not %pk check --to hip %s 2>&1 | FileCheck %s --check-prefix=CHECKMODE
// CHECKMODE: PK1015.cu:[[@LINE+13]]:13: note: rsqrtf() is device-only in HIP: in host code it becomes the expression CUDA's host version computes; `port` writes `(1.0f / sqrtf(v * v + 1.f))` [PK1015]
// CHECKMODE: PK1015.cu:[[@LINE+14]]:14: note: rsqrt() is device-only in HIP: {{.*}}; `port` writes `(1.0 / sqrt(d))` [PK1015]
// CHECKMODE: PK1015.cu:[[@LINE+13]]:25: note: rcbrt() is device-only in HIP: {{.*}}; `port` writes `(1.0 / cbrt(d))` [PK1015]
// CHECKMODE: PK1015.cu:[[@LINE+16]]:14: warning: normcdff() is __host__ __device__ in CUDA but device-only in HIP; this host call does not compile for the host [PK1015]
// CHECKMODE: port-kernel: 2 finding(s)
#include <cuda_runtime.h>

__global__ void norms(const float *x, float *y) {
  y[threadIdx.x] = rsqrtf(x[threadIdx.x]) + sinpif(x[threadIdx.x]);
// CHECK: y[threadIdx.x] = rsqrtf(x[threadIdx.x]) + sinpif(x[threadIdx.x]);
}

float reference(float v, double d) {
  float a = rsqrtf(v * v + 1.f);
// CHECK:   float a = (1.0f / sqrtf(v * v + 1.f));
  double b = rsqrt(d) + rcbrt(d);
// CHECK:   double b = (1.0 / sqrt(d)) + (1.0 / cbrt(d));
  float c = a / 2.f;
// DIAG: PK1015.cu:[[@LINE+1]]:14: warning: normcdff() is __host__ __device__ in CUDA but device-only in HIP; this host call does not compile for the host [PK1015]
  return c + normcdff(v) + float(b);
}

__host__ __device__ float both(float v) {
// DIAG: PK1015.cu:[[@LINE+1]]:10: warning: rsqrtf() is __host__ __device__ in CUDA but device-only in HIP; the host side of this __host__ __device__ function does not compile for the host [PK1015]
  return rsqrtf(v);
}
// DIAG-NOT: warning
