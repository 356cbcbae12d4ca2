// PK6003: where the lanes that run a mask-less warp intrinsic cannot be
// computed, it becomes its *_sync form with __activemask() and a warning.
// RUN: rm -rf %t && %pk port -q --to cuda -o %t %s 2>&1 \
// RUN:   | FileCheck %s --check-prefix=DIAG
// RUN: FileCheck %s --match-full-lines --input-file=%t/cuda/PK6003.cu

__device__ float unknown_callers(float v) { return __shfl_down(v, 1); }
// CHECK: __device__ float unknown_callers(float v) { return __shfl_down_sync(__activemask(), v, 1); }
// DIAG: PK6003.cu:[[@LINE-2]]:52: warning: __shfl_down became __shfl_down_sync(__activemask(), ...): the lanes that call 'unknown_callers' are not the same known lanes at every call in this file; {{.*}} [PK6003]

#define BCAST(v) __shfl(v, 0)
// CHECK: #define BCAST(v) __shfl_sync(__activemask(), v, 0)

__global__ void grid_stride(const float *in, float *out, int n) {
  float s = 0.f;
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n;
       i += blockDim.x * gridDim.x)
    s += __shfl_up(in[i], 1);
// CHECK:    s += __shfl_up_sync(__activemask(), in[i], 1);
// DIAG: PK6003.cu:[[@LINE-2]]:10: warning: __shfl_up became __shfl_up_sync(__activemask(), ...): the enclosing loop runs a different number of iterations in different lanes; {{.*}} [PK6003]
  s = s > 0.f ? __shfl_xor(s, 1) : s;
// CHECK:  s = s > 0.f ? __shfl_xor_sync(__activemask(), s, 1) : s;
// DIAG: PK6003.cu:[[@LINE-2]]:17: warning: {{.*}} [PK6003]
  if (threadIdx.x < 8)
    s += BCAST(s);
  s += BCAST(s);
// DIAG: PK6003.cu:[[@LINE-2]]:10: warning: __shfl became __shfl_sync(__activemask(), ...): it is written once in a macro whose expansions run on different lanes; {{.*}} [PK6003]
// DIAG: PK6003.cu:[[@LINE-2]]:8: warning: __shfl became {{.*}} [PK6003]
  out[threadIdx.x] = s;
}
