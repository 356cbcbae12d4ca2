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
// __half operators in host code (CUDA defines them for the host, HIP for the
// device only): computed through float as CUDA's host versions do; the
// output compiles against ROCm 5.2 and 6.3 (host side) but for what is flagged.
// RUN: %pk port -q --to hip -o %t/half %S/Inputs/PK1015/half_host.cu 2>&1 \
// RUN:   | FileCheck %s --check-prefix=HALFDIAG
// RUN: FileCheck %s --check-prefix=HALF --input-file=%t/half/hip/half_host.hip
// HALF: bool less(__half a, __half b) { return __half2float(a) < __half2float(b); }
// HALF: __half sum3(__half a, __half b, __half c) { return __float2half(__half2float(__float2half(__half2float(a) + __half2float(b))) + __half2float(c)); }
// HALF: __half neg(__half a) { return __float2half(-__half2float(a)); }
// HALF: p[i] = __float2half(__half2float(p[i]) * __half2float(s));
// HALF: __host__ __device__ bool same(__half a, __half b) { return __half2float(a) == __half2float(b); }
// HALF: p[i++] += __float2half(1.0f);
// HALF: __global__ void kernel(__half *p) { p[0] = p[0] + p[1]; }
// HALFDIAG: half_host.cu:13:10: warning: operator+= on __half in host code: CUDA defines it for the host, HIP for the device only; its left operand would be evaluated twice: write it with __half2float and __float2half [PK1015]
// HALFDIAG: half_host.cu:14:3: warning: operator++ on __half in host code: {{.*}} increments are not translated{{.*}} [PK1015]
// RUN: sed -i -e '/p\[i++\] +=/d' -e '/++p\[0\]/d' %t/half/hip/half_host.hip
// RUN: %hip5 --offload-host-only %t/half/hip/half_host.hip
// RUN: %hip6 --offload-host-only %t/half/hip/half_host.hip
// RUN: %hip6 --offload-device-only %t/half/hip/half_host.hip
