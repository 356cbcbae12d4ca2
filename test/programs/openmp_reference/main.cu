// Row sums of GELU(x), one warp per row, checked against a CPU reference that
// runs under OpenMP (reference.h). The input lives in managed memory, so the
// reference's threads read device buffers from host code.
#include <cmath>
#include <cstdio>
#include <cstdlib>

#include <cuda_runtime.h>

#include "reference.h"

__global__ void row_gelu_sums(const float* in, float* out, int rows, int cols) {
  int row = blockIdx.x * (blockDim.x / 32) + threadIdx.x / 32;
  int lane = threadIdx.x % 32;
  if (row >= rows) return;
  float s = 0.0f;
  for (int c = lane; c < cols; c += 32) s += gelu_at(in + row * cols, c);
  for (int off = 16; off > 0; off /= 2) s += __shfl_xor_sync(0xffffffffu, s, off);
  if (lane == 0) out[row] = s;
}

int main() {
  const int rows = 2048, cols = 500;
#ifdef _OPENMP
  omp_set_num_threads(2);
#endif
  float *in, *out;
  cudaMallocManaged(&in, sizeof(float) * rows * cols);
  cudaMallocManaged(&out, sizeof(float) * rows);
  float* ref = (float*)malloc(sizeof(float) * rows);
  for (int i = 0; i < rows * cols; ++i) in[i] = (float)((i * 7919) % 1000) / 250.0f - 2.0f;
  row_gelu_sums<<<rows / 4, 128>>>(in, out, rows, cols);
  cudaDeviceSynchronize();
  row_gelu_sums_cpu(in, ref, rows, cols);
  int bad = 0;
  for (int r = 0; r < rows; ++r)
    if (fabsf(out[r] - ref[r]) > 1e-3f * (1.0f + fabsf(ref[r]))) ++bad;
  printf("team=%d\n", team_size());
  printf("%s: %d of %d rows differ\n", bad ? "FAIL" : "PASS", bad, rows);
  free(ref);
  cudaFree(in);
  cudaFree(out);
  return bad != 0;
}
