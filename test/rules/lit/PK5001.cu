// PK5001: element-wise kernels are lifted to sequential NKI tile programs:
// a 1-D grid-stride loop (the free axis, tiles of 512 with a min()-bounded
// ragged edge) and a 2-D guarded map (rows on partitions in tiles of 128)
// with an inlined device function and a row vector broadcast over the
// partitions.  The note names the family, why the tiles fit and, for a
// kernel computing in double, that NKI computes it in float32; the .py has
// one @nki.jit function per kernel and the PK_KERNELS calling convention.
// RUN: rm -rf %t && %pk port -q --to nki -o %t %s 2>&1 \
// RUN:   | FileCheck %s --check-prefix=DIAG
// RUN: FileCheck %s --match-full-lines --input-file=%t/nki/PK5001.py
#include <cuda_runtime.h>

// DIAG: PK5001.cu:[[@LINE+1]]:17: note: kernel 'saxpy' lifted to an NKI tile program: element-wise map over a 1-D index space of n elements (rows of 512 elements on the partitions, a ragged tail row); 10 tile operations in its loop bodies; tiles per partition: SBUF at most 2.0 KiB a tile, 16.0 KiB for its 8 allocations (trn1, the smallest SBUF: 192 KiB) [PK5001]
__global__ void saxpy(float *y, const float *x, float a, int n) {
  const int stride = blockDim.x * gridDim.x;
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += stride)
    y[i] = a * x[i] + y[i];
}

__device__ float square_plus(float v, float c) { return v * v + c; }

// DIAG: PK5001.cu:[[@LINE+1]]:17: note: kernel 'bias_sq' lifted {{.*}} 2-D index space {{.*}} [PK5001]
__global__ void bias_sq(float *out, const float *in, const float *bias,
                        int rows, int cols) {
  const int col = blockIdx.x * blockDim.x + threadIdx.x;
  const int row = blockIdx.y * blockDim.y + threadIdx.y;
  if (row >= rows || col >= cols)
    return;
  out[row * cols + col] = square_plus(in[row * cols + col] + bias[col], 0.5f);
}

// A double accumulator is computed in float32 (NKI has no float64): said.
// DIAG: PK5001.cu:[[@LINE+1]]:17: note: kernel 'row_sum_double' lifted {{.*}}; its double arithmetic is computed in float32 (NKI has no float64: results differ in rounding) [PK5001]
__global__ void row_sum_double(float *out, const float *x, int rows,
                               int cols) {
  int r = blockIdx.x * blockDim.x + threadIdx.x;
  if (r >= rows)
    return;
  double s = 0.0;
  for (int c = 0; c < cols; ++c)
    s += x[r * cols + c];
  out[r] = (float)s;
}
// DIAG-NOT: warning
// CHECK: import nki
// CHECK-NEXT: import nki.language as nl
// CHECK-NEXT: import nki.isa as nisa
// CHECK: @nki.jit
// CHECK-NEXT: def saxpy(y, x, a, n):
// CHECK-NEXT:     y_out = nl.ndarray((n,), dtype=nl.float32, buffer=nl.shared_hbm)
// CHECK-NEXT:     full_ = n // 512
// CHECK-NEXT:     for r0 in range(0, full_, 128):
// CHECK-NEXT:         np_ = min(128, full_ - r0)
// CHECK:         nisa.dma_copy(dst=t_0[0:np_, 0:nf_], src=x[lo:hi].reshape((np_, nf_)))
// CHECK:         nisa.tensor_scalar(dst=t_1[0:np_, 0:nf_], data=t_0[0:np_, 0:nf_], op0=nl.multiply, operand0=a)
// CHECK:         nisa.tensor_tensor(dst=t_3[0:np_, 0:nf_], data1=t_1[0:np_, 0:nf_], data2=t_2[0:np_, 0:nf_], op=nl.add)
// CHECK-NEXT:         nisa.dma_copy(dst=y_out[lo:hi].reshape((np_, nf_)), src=t_3[0:np_, 0:nf_])
// CHECK-NEXT:     for lo in range(full_ * 512, n, 512):
// CHECK-NEXT:         hi = n
// CHECK-NEXT:         np_ = 1
// CHECK:     return y_out
// CHECK: def bias_sq(in_, bias, rows, cols, grid_x, block_x, grid_y, block_y):
// CHECK-NEXT:     assert grid_x * block_x >= cols, "the launch covers every x below the bound"
// CHECK-NEXT:     assert grid_y * block_y >= rows, "the launch covers every y below the bound"
// CHECK-NEXT:     out = nl.ndarray((rows, cols), dtype=nl.float32, buffer=nl.shared_hbm)
// CHECK-NEXT:     for p0 in range(0, rows, 128):
// CHECK-NEXT:         p1 = min(rows, p0 + 128)
// CHECK:             nisa.dma_copy(dst=t_0[0:np_, 0:nf_], src=in_[p0:p1, f0:f1])
// CHECK:             nisa.nc_matmul(dst=ps_3[0:np_, 0:nf_], stationary=ones_2[0:1, 0:np_], moving=row_1[0:1, 0:nf_])
// CHECK-NEXT:             t_4 = nl.ndarray((128, 512), dtype=nl.float32, buffer=nl.sbuf)
// CHECK-NEXT:             nisa.tensor_copy(dst=t_4[0:np_, 0:nf_], src=ps_3[0:np_, 0:nf_])
// CHECK:             nisa.dma_copy(dst=out[p0:p1, f0:f1], src=t_7[0:np_, 0:nf_])
// CHECK:     return out
// CHECK: PK_KERNELS = {
// CHECK-NEXT:   "saxpy": {
// CHECK-NEXT:     "params": [
// CHECK-NEXT:       {"name": "y", "kind": "tensor", "dtype": "float32", "shape": ["n"], "role": "inout"},
// CHECK-NEXT:       {"name": "x", "kind": "tensor", "dtype": "float32", "shape": ["n"], "role": "in"},
// CHECK-NEXT:       {"name": "a", "kind": "scalar", "dtype": "float32"},
// CHECK-NEXT:       {"name": "n", "kind": "scalar", "dtype": "int32"},
// CHECK-NEXT:     ],
// CHECK-NEXT:     "launch": [],
// CHECK:       {"name": "in", "kind": "tensor", "dtype": "float32", "shape": ["rows", "cols"], "role": "in"},
// CHECK-NEXT:       {"name": "bias", "kind": "tensor", "dtype": "float32", "shape": ["1", "cols"], "role": "in"},
// CHECK:     "launch": ["grid_x", "block_x", "grid_y", "block_y"],
