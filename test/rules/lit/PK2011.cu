// PK2011: the device property warpSize is 64 on CDNA GPUs; host code that
// sizes grids or buffers from prop.warpSize computes with 64 while kernels
// ported with logical 32-lane warps work with 32.  Where every kernel of the
// translation unit keeps logical warps, the access becomes their width
// (PK2004: pk_warpSize); otherwise it is left as written and flagged, the
// message saying whether the kernels go native (64 is right) or both.
// RUN: rm -rf %t && %pk port -q --to hip -o %t/auto %s 2>&1 \
// RUN:   | FileCheck %s --check-prefix=BOTH
// RUN: FileCheck %s --match-full-lines --input-file=%t/auto/hip/PK2011.hip
// RUN: %pk port -q --to hip --wave64=logical32 -o %t/log %s 2>&1 \
// RUN:   | FileCheck %s --check-prefix=LOG --allow-empty
// RUN: FileCheck %s --match-full-lines --check-prefix=LOGOUT --input-file=%t/log/hip/PK2011.hip
// RUN: %pk port -q --to hip --wave64=native -o %t/nat %s 2>&1 \
// RUN:   | FileCheck %s --check-prefix=NAT
#include <cuda_runtime.h>

// One row per warp: keeps logical 32-lane warps under --wave64=auto.
__global__ void row_max(const float *x, float *out, int rows, int cols) {
  const int warp = threadIdx.x / 32, lane = threadIdx.x % 32;
  const int row = blockIdx.x * (blockDim.x / 32) + warp;
  if (row >= rows)
    return;
  float m = -1e30f;
  for (int c = lane; c < cols; c += 32)
    m = fmaxf(m, x[row * cols + c]);
  for (int o = 16; o > 0; o /= 2)
    m = fmaxf(m, __shfl_xor_sync(0xffffffff, m, o));
  if (lane == 0)
    out[row] = m;
}

// Grid-wide sum: native 64-lane warps are safe.
__global__ void total(const float *x, float *out, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  float v = i < n ? x[i] : 0.f;
  for (int o = warpSize / 2; o > 0; o /= 2)
    v += __shfl_down_sync(0xffffffff, v, o);
  if (threadIdx.x % warpSize == 0)
    atomicAdd(out, v);
}

void launch_rows(const float *x, float *out, int rows, int cols) {
  cudaDeviceProp prop;
  cudaGetDeviceProperties(&prop, 0);
// BOTH: PK2011.cu:[[@LINE+2]]:40: warning: the device property warpSize is 64 on CDNA GPUs; some kernels of this port keep 32-lane logical warps: host code that sizes their work by it must use 32 [PK2011]
// NAT: PK2011.cu:[[@LINE+1]]:40: warning: the device property warpSize is 64 on CDNA GPUs, the width of the native warps of this port [PK2011]
  const int warpsPerBlock = 256 / prop.warpSize;
// CHECK: // port-kernel: warning: the device property warpSize is 64 on CDNA GPUs; some kernels of this port keep 32-lane logical warps: host code that sizes their work by it must use 32 [PK2011]
// CHECK-NEXT: const int warpsPerBlock = 256 / prop.warpSize;
// LOGOUT: const int warpsPerBlock = 256 / pk_warpSize;
  const int blocks = (rows + warpsPerBlock - 1) / warpsPerBlock;
  row_max<<<blocks, 256>>>(x, out, rows, cols);
}

void launch_total(const float *x, float *out, int n) {
  total<<<(n + 255) / 256, 256>>>(x, out, n);
}
// BOTH-NOT: [PK2011]
// LOG-NOT: [PK2011]
// NAT-NOT: [PK2011]
