// PK1019: under --rocm-version=5, a use of CUDA's bfloat16 API that ROCm 5's
// <hip/hip_bfloat16.h> lacks and that neither PK1016 rewrites nor the rename
// table reports (PK1010) is an error at the use (port exits 3).  ROCm 6 (the
// default) has the API: nothing is reported.  What PK1016 rewrites compiles
// with Debian's ROCm 5.2 headers (Inputs/PK1019/supported.cu).
// RUN: rm -rf %t && not %pk port -q --to hip --rocm-version=5 -o %t/five %s 2>&1 \
// RUN:   | FileCheck %s --implicit-check-not='[PK1019]'
// RUN: %pk port -q --to hip -o %t/six %s 2>&1 | FileCheck %s --check-prefix=SIX --allow-empty
// SIX-NOT: [PK1019]
// RUN: %pk port -q --to hip --rocm-version=5 -o %t/ok %S/Inputs/PK1019/supported.cu 2>&1 \
// RUN:   | FileCheck %s --check-prefix=OK
// OK-NOT: [PK1019]
// OK-NOT: error
// RUN: clang++-19 -x hip --offload-arch=gfx90a --offload-device-only -fsyntax-only -nogpulib \
// RUN:   -w --rocm-path=/usr -I/usr/include %t/ok/hip/supported.hip
// RUN: clang++-19 -x hip --offload-arch=gfx90a --offload-host-only -fsyntax-only -nogpulib \
// RUN:   -w --rocm-path=/usr -I/usr/include %t/ok/hip/supported.hip
#include <cuda_runtime.h>
#include <cuda_bf16.h>

__global__ void bf16_math(const __nv_bfloat16 *x, __nv_bfloat16 *y,
                          const float *f, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n)
    return;
  __nv_bfloat16 a = x[i];
  __nv_bfloat16 b = __hadd(a, a);
// CHECK: PK1019.cu:[[@LINE-1]]:21: error: ROCm 5 has no counterpart of the bfloat16 function '__hadd' (<hip/hip_bfloat16.h> of ROCm 5 has the hip_bfloat16 struct and its operators only): the output does not compile with ROCm 5; port with --rocm-version=6 or write it with hip_bfloat16 and float [PK1019]
  __nv_bfloat16 c = __float2bfloat16_rz(f[i]);
// CHECK: PK1019.cu:[[@LINE-1]]:21: error: ROCm 5 has no counterpart of the bfloat16 function '__float2bfloat16_rz' {{.*}} [PK1019]
  __nv_bfloat16 d = hexp(a);
// CHECK: PK1019.cu:[[@LINE-1]]:21: error: ROCm 5 has no counterpart of the bfloat16 function 'hexp' {{.*}} [PK1019]
  __nv_bfloat16 e = __shfl_xor_sync(0xffffffffu, a, 1);
// CHECK: PK1019.cu:[[@LINE-1]]:21: error: ROCm 5 has no counterpart of the bfloat16 function '__shfl_xor_sync' {{.*}} [PK1019]
  // The table reports __hmax (PK1010); PK1016 writes the conversion and the
  // operators are ROCm 5's.
  __nv_bfloat16 g = __hmax(a, b);
// CHECK: PK1019.cu:[[@LINE-1]]:21: warning: '__hmax' has no HIP counterpart: {{.*}} [PK1010]
  y[i] = __float2bfloat16(__bfloat162float(b + c) * 2.f) + d * e + g;
}

// A runtime template instantiated with bfloat16 is not bfloat16 API (its
// declared signature has no bfloat16): no PK1019.
void alloc(__nv_bfloat16 **p, size_t n) { cudaMalloc(p, n * sizeof(**p)); }
