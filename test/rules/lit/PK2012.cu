// PK2012: --wave64=native widens every kernel to 64-lane warps; each construct
// that made --wave64=auto keep logical warps is reported at its line with the
// reason, so the widened code can be reviewed.  Kernels that auto would widen
// anyway get no warning, and auto itself reports none.
// RUN: rm -rf %t && %pk port -q --to hip --wave64=native -o %t/nat %s 2>&1 \
// RUN:   | FileCheck %s --check-prefix=DIAG
// RUN: FileCheck %s --match-full-lines --input-file=%t/nat/hip/PK2012.hip
// RUN: %pk port -q --to hip -o %t/auto %s 2>&1 | FileCheck %s --check-prefix=AUTO
// AUTO-NOT: [PK2012]
// AUTO: note: kernel floatWarps: logical 32-lane warps inside 64-lane waves because the warp width is written as the floating-point number '32.f', which native warps do not widen (line {{[0-9]+}}) [PK2000]
// AUTO-NOT: [PK2012]
// A warp width given with -D: nothing in the files to widen.
// RUN: %pk port -q --to hip --extra-arg=-DWARP_SIZE=32 -o %t/def \
// RUN:   %S/Inputs/PK2012/define_warp.cu 2>&1 | FileCheck %s --check-prefix=DEF
// RUN: %pk port -q --to hip --wave64=native --extra-arg=-DWARP_SIZE=32 \
// RUN:   -o %t/defnat %S/Inputs/PK2012/define_warp.cu 2>&1 \
// RUN:   | FileCheck %s --check-prefix=DEFNAT
// DEF: note: kernel warpSums: logical 32-lane warps inside 64-lane waves because {{.*}}comes from outside the ported files (a -D option); native warps cannot widen it (line 4) [PK2000]
// DEFNAT: define_warp.cu:4:{{[0-9]+}}: warning: --wave64=native: {{.*}}comes from outside the ported files (a -D option); native warps cannot widen it; the widened code may compute something else [PK2012]
#include <cuda_runtime.h>

#define WARP_SIZE 32
// CHECK: #define WARP_SIZE 64

// Softmax over rows of 32 values: one row per warp.
// DIAG: PK2012.cu:[[@LINE+1]]:1: note: kernel warp_softmax: native 64-lane warps (--wave64=native) [PK2000]
__global__ void warp_softmax(const float *__restrict__ x, float *__restrict__ y,
                             int rows) {
  const int lane = threadIdx.x % WARP_SIZE;
  const int row = blockIdx.x * (blockDim.x / WARP_SIZE) + threadIdx.x / WARP_SIZE;
// DIAG-NEXT: PK2012.cu:[[@LINE+1]]:11: warning: --wave64=native: 'row >= rows' depends on the 32-lane warp numbering; the widened code may compute something else [PK2012]
  if (row >= rows)
// CHECK: // port-kernel: warning: --wave64=native: 'row >= rows' depends on the 32-lane warp numbering; the widened code may compute something else [PK2012]
// CHECK-NEXT: if (row >= rows)
    return;
// DIAG-NEXT: PK2012.cu:[[@LINE+2]]:19: warning: --wave64=native: 'x[row * WARP_SIZE + lane]' addresses global memory with a value that depends on the 32-lane warp numbering; the widened code may compute something else [PK2012]
// DIAG-NEXT: PK2012.cu:[[@LINE+1]]:27: warning: --wave64=native: the warp width WARP_SIZE is used in 'x[row * WARP_SIZE + lane]', which is not one of the idioms native warps widen; the widened code may compute something else [PK2012]
  const float v = x[row * WARP_SIZE + lane];
  float m = v;
  for (int o = WARP_SIZE / 2; o > 0; o /= 2)
    m = fmaxf(m, __shfl_xor_sync(0xffffffff, m, o));
// CHECK:    m = fmaxf(m, __shfl_xor(m, o, 64));
  float e = __expf(v - m), s = e;
  for (int o = WARP_SIZE / 2; o > 0; o /= 2)
    s += __shfl_xor_sync(0xffffffff, s, o);
// DIAG-NEXT: PK2012.cu:[[@LINE+2]]:3: warning: --wave64=native: 'y[row * WARP_SIZE + lane]' addresses global memory {{.*}} [PK2012]
// DIAG-NEXT: PK2012.cu:[[@LINE+1]]:11: warning: --wave64=native: the warp width WARP_SIZE is used in 'y[row * WARP_SIZE + lane]', {{.*}} [PK2012]
  y[row * WARP_SIZE + lane] = e / s;
}

// A block total: safe with native warps, so no warning.
// DIAG-NEXT: PK2012.cu:[[@LINE+1]]:1: note: kernel total: native 64-lane warps (--wave64=native) [PK2000]
__global__ void total(const float *x, float *out) {
  float v = x[blockIdx.x * blockDim.x + threadIdx.x];
  for (int o = 16; o > 0; o /= 2)
    v += __shfl_down_sync(0xffffffff, v, o);
  if (threadIdx.x % 32 == 0)
    atomicAdd(out, v);
}
// DIAG-NOT: [PK2012]

// A warp count written as a float (blockDim.x / 32.f): no idiom widens it,
// so auto keeps logical warps and forced native warns at it.  The same for
// a warp width defined on the command line (-DLANES=32, see PK2000.cu).
// DIAG: PK2012.cu:[[@LINE+1]]:1: note: kernel floatWarps: native 64-lane warps (--wave64=native) [PK2000]
__global__ void floatWarps(const float *x, float *out) {
  __shared__ float best[32];
  float v = x[blockIdx.x * blockDim.x + threadIdx.x];
  for (int o = 16; o > 0; o /= 2)
    v = fmaxf(v, __shfl_xor_sync(0xffffffff, v, o));
  if (threadIdx.x % 32 == 0)
    best[threadIdx.x / 32] = v;
  __syncthreads();
// DIAG: PK2012.cu:[[@LINE+1]]:34: warning: --wave64=native: the warp width is written as the floating-point number '32.f', which native warps do not widen; the widened code may compute something else [PK2012]
  if (threadIdx.x < blockDim.x / 32.f)
    out[threadIdx.x] = best[threadIdx.x];
}
