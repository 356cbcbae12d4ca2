// PK5009: a kernel recognised as a block row program or a staged transpose
// is refused, with no output for it, when a step is not proven equivalent to
// the tile program: a shared array read before the barrier that publishes
// it, a sum whose every thread starts from a non-zero constant, a transpose
// whose store does not read the tile transposed, a row in dynamic shared
// memory read at another column or before it is written, a dot product over
// a staged row before its barrier or over another length.
// RUN: rm -rf %t && %pk port -q --to nki -o %t %s 2>&1 | FileCheck %s
// RUN: grep "^def " %t/nki/PK5009.py | FileCheck --check-prefix=DEFS %s
// Only biased_sum is lifted: the kernel model proves it at a block of one
// warp, where the sum is the row's plus 32 (each lane starts from 1).
// DEFS: def biased_sum(
// DEFS-NOT: def
#include <cuda_runtime.h>

__device__ float warp_sum(float v) {
  for (int o = 16; o > 0; o >>= 1)
    v += __shfl_down_sync(0xffffffffu, v, o);
  return v;
}

__global__ void no_barrier(const float *x, float *out, int cols) {
  __shared__ float part[32];
  const int lane = threadIdx.x & 31;
  const int warp = threadIdx.x >> 5;
  const int nwarps = blockDim.x / 32;
  const float *xr = x + blockIdx.x * cols;
  float s = 0.0f;
  for (int c = threadIdx.x; c < cols; c += blockDim.x)
    s += xr[c];
  s = warp_sum(s);
  if (lane == 0)
    part[warp] = s;
  if (warp == 0) {
// The kernel model names the race (PK5004) before the shape lifter's reason.
// CHECK: PK5009.cu:[[@LINE+1]]:31: warning: kernel 'no_barrier' is not lifted to NKI: 'part[1]' is read by thread 1 and written by thread 32 with no __syncthreads() between (a data race{{.*}} [PK5004]
    float t = lane < nwarps ? part[lane] : 0.0f;
    t = warp_sum(t);
    if (lane == 0)
      out[blockIdx.x] = t;
  }
}

// CHECK: PK5009.cu:[[@LINE+1]]:17: note: kernel 'biased_sum' lifted to an NKI tile program: row program from the kernel model (1 reduction over each row{{.*}}proven at block shape 32){{.*}} [PK5001]
__global__ void biased_sum(const float *x, float *out, int cols) {
  const float *xr = x + blockIdx.x * cols;
  float s = 1.0f;
  for (int c = threadIdx.x; c < cols; c += blockDim.x)
    s += xr[c];
  s = warp_sum(s);
  if (threadIdx.x == 0)
    out[blockIdx.x] = s;
}

__global__ void copy_not_transposed(float *out, const float *in, int rows,
                                    int cols) {
  __shared__ float tile[32][33];
  int x = blockIdx.x * 32 + threadIdx.x;
  int y = blockIdx.y * 32 + threadIdx.y;
  for (int j = 0; j < 32; j += 8)
    if (x < cols && y + j < rows)
      tile[threadIdx.y + j][threadIdx.x] = in[(y + j) * cols + x];
  __syncthreads();
  x = blockIdx.y * 32 + threadIdx.x;
  y = blockIdx.x * 32 + threadIdx.y;
  for (int j = 0; j < 32; j += 8)
    if (x < rows && y + j < cols)
// CHECK: PK5009.cu:[[@LINE+1]]:7: warning: kernel 'copy_not_transposed' is not lifted to NKI: read of the tile that is not the transposed [threadIdx.x][threadIdx.y + j] [PK5009]
      out[(y + j) * rows + x] = tile[threadIdx.y + j][threadIdx.x];
}

__global__ void staged_row(const float *x, float *y, int cols) {
  extern __shared__ float buf[];
  for (int c = threadIdx.x; c < cols; c += blockDim.x)
    buf[c] = x[blockIdx.x * cols + c];
  __syncthreads();
  for (int c = threadIdx.x; c < cols; c += blockDim.x)
// CHECK: PK5009.cu:[[@LINE+1]]:32: warning: kernel 'staged_row' is not lifted to NKI: stored value not lifted: read of shared 'buf' that is not 'buf[c]' at the column c of a column loop [PK5009]
    y[blockIdx.x * cols + c] = buf[cols - 1 - c];
}

__global__ void dot_no_barrier(const float *Q, const float *Km, float *S,
                               int nk, int d) {
  __shared__ float q[64];
  for (int i = threadIdx.x; i < d; i += blockDim.x)
    q[i] = Q[blockIdx.x * d + i];
  for (int j = threadIdx.x; j < nk; j += blockDim.x) {
    const float *k = Km + j * d;
    float dot = 0.0f;
// CHECK: PK5009.cu:[[@LINE+1]]:5: warning: kernel 'dot_no_barrier' is not lifted to NKI: the staged row is read before a barrier publishes it [PK5009]
    for (int i = 0; i < d; ++i)
      dot += q[i] * k[i];
    S[blockIdx.x * nk + j] = dot;
  }
}

__global__ void dot_short(const float *Q, const float *Km, float *S, int nk,
                          int d, int e) {
  __shared__ float q[64];
  for (int i = threadIdx.x; i < d; i += blockDim.x)
    q[i] = Q[blockIdx.x * d + i];
  __syncthreads();
  for (int j = threadIdx.x; j < nk; j += blockDim.x) {
    const float *k = Km + j * d;
    float dot = 0.0f;
// CHECK: PK5009.cu:[[@LINE+1]]:5: warning: kernel 'dot_short' is not lifted to NKI: dot product over e elements of a staged row of d and matrix rows of pitch d: the lengths must be the same [PK5009]
    for (int i = 0; i < e; ++i)
      dot += q[i] * k[i];
    S[blockIdx.x * nk + j] = dot;
  }
}

__global__ void row_read_early(const float *x, float *y, int cols) {
  extern __shared__ float buf[];
  for (int c = threadIdx.x; c < cols; c += blockDim.x)
// CHECK: PK5009.cu:[[@LINE+1]]:32: warning: kernel 'row_read_early' is not lifted to NKI: stored value not lifted: read of 'buf[c]' before a column loop wrote the row's columns to it [PK5009]
    y[blockIdx.x * cols + c] = buf[c] + x[blockIdx.x * cols + c];
}
// CHECK-NOT: warning
