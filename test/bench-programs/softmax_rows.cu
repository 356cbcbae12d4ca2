// Row softmax over a vocabulary-sized axis (a language model's logits):
// one block per row, max and sum through shared-memory trees, three passes
// over the row.  Default: 2048 rows x 50257 columns (412 MB per buffer).
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <vector>

#include "bench_common.h"

#define THREADS 256

__global__ void softmaxRows(float *out, const float *in, int cols) {
  __shared__ float red[THREADS];
  const float *x = in + (size_t)blockIdx.x * cols;
  float *y = out + (size_t)blockIdx.x * cols;
  float m = -INFINITY;
  for (int i = threadIdx.x; i < cols; i += blockDim.x) m = fmaxf(m, x[i]);
  red[threadIdx.x] = m;
  __syncthreads();
  for (int s = blockDim.x / 2; s > 0; s >>= 1) {
    if (threadIdx.x < s) red[threadIdx.x] = fmaxf(red[threadIdx.x], red[threadIdx.x + s]);
    __syncthreads();
  }
  m = red[0];
  __syncthreads();
  float sum = 0.0f;
  for (int i = threadIdx.x; i < cols; i += blockDim.x) {
    float e = expf(x[i] - m);
    y[i] = e;
    sum += e;
  }
  red[threadIdx.x] = sum;
  __syncthreads();
  for (int s = blockDim.x / 2; s > 0; s >>= 1) {
    if (threadIdx.x < s) red[threadIdx.x] += red[threadIdx.x + s];
    __syncthreads();
  }
  float inv = 1.0f / red[0];
  for (int i = threadIdx.x; i < cols; i += blockDim.x) y[i] *= inv;
}

BENCH_NATIVE static void softmaxHost(float *out, const float *in, int rows, int cols) {
  for (int r = 0; r < rows; ++r) {
    const float *x = in + (size_t)r * cols;
    float *y = out + (size_t)r * cols;
    float m = -INFINITY;
    for (int i = 0; i < cols; ++i) m = fmaxf(m, x[i]);
    float sum = 0.0f;
    for (int i = 0; i < cols; ++i) {
      y[i] = expf(x[i] - m);
      sum += y[i];
    }
    float inv = 1.0f / sum;
    for (int i = 0; i < cols; ++i) y[i] *= inv;
  }
}

BENCH_NATIVE static void fill(float *p, size_t n, uint32_t seed) {
  for (size_t i = 0; i < n; ++i) p[i] = (float)(benchLcg(seed) >> 8) / 16777216.0f * 8.0f - 4.0f;
}

int main(int argc, char **argv) {
  int rows = argc > 1 ? atoi(argv[1]) : 2048;
  int cols = argc > 2 ? atoi(argv[2]) : 50257;
  size_t n = (size_t)rows * cols;
  std::vector<float> in(n), ref(n), got(n);
  fill(in.data(), n, 7u);
  if (int reps = benchNativeReps()) {
    for (int r = 0; r < reps; ++r) {
      benchClobber();
      softmaxHost(ref.data(), in.data(), rows, cols);
    }
    return 0;
  }
  float *dIn, *dOut;
  cudaMalloc((void **)&dIn, n * sizeof(float));
  cudaMalloc((void **)&dOut, n * sizeof(float));
  cudaMemcpy(dIn, in.data(), n * sizeof(float), cudaMemcpyHostToDevice);
  double t0 = benchNow();
  softmaxRows<<<rows, THREADS>>>(dOut, dIn, cols);
  cudaDeviceSynchronize();
  double emulated = benchNow() - t0;
  t0 = benchNow();
  softmaxHost(ref.data(), in.data(), rows, cols);
  double native = benchNow() - t0;
  cudaMemcpy(got.data(), dOut, n * sizeof(float), cudaMemcpyDeviceToHost);
  double err = 0.0;
  for (size_t i = 0; i < n; ++i) err = fmax(err, fabs((double)got[i] - ref[i]));
  benchReport("softmax_rows", emulated, native);
  printf("%d x %d: max error %.2e %s\n", rows, cols, err, err < 1e-5 ? "PASS" : "FAIL");
  return err < 1e-5 ? 0 : 1;
}
