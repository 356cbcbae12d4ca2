// Matrix transpose through padded 32 x 33 shared tiles with 32 x 8 threads,
// each thread moving four elements.  Default: 4096 x 4096 (64 MB per buffer).
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <vector>

#include "bench_common.h"

#define TILE_DIM 32
#define BLOCK_ROWS 8

__global__ void transposeTiles(float *out, const float *in, int width, int height) {
  __shared__ float tile[TILE_DIM][TILE_DIM + 1];
  int x = blockIdx.x * TILE_DIM + threadIdx.x, y = blockIdx.y * TILE_DIM + threadIdx.y;
  for (int j = 0; j < TILE_DIM; j += BLOCK_ROWS)
    if (x < width && y + j < height) tile[threadIdx.y + j][threadIdx.x] = in[(size_t)(y + j) * width + x];
  __syncthreads();
  x = blockIdx.y * TILE_DIM + threadIdx.x;
  y = blockIdx.x * TILE_DIM + threadIdx.y;
  for (int j = 0; j < TILE_DIM; j += BLOCK_ROWS)
    if (x < height && y + j < width) out[(size_t)(y + j) * height + x] = tile[threadIdx.x][threadIdx.y + j];
}

BENCH_NATIVE static void transposeHost(float *out, const float *in, int width, int height) {
  for (int y = 0; y < height; ++y)
    for (int x = 0; x < width; ++x) out[(size_t)x * height + y] = in[(size_t)y * width + x];
}

BENCH_NATIVE static void fill(float *p, size_t n, uint32_t seed) {
  for (size_t i = 0; i < n; ++i) p[i] = (float)(benchLcg(seed) >> 8);
}

int main(int argc, char **argv) {
  int width = argc > 1 ? atoi(argv[1]) : 4096;
  int height = argc > 2 ? atoi(argv[2]) : 4096;
  size_t n = (size_t)width * height;
  std::vector<float> in(n), ref(n), got(n);
  fill(in.data(), n, 11u);
  if (int reps = benchNativeReps()) {
    for (int r = 0; r < reps; ++r) {
      benchClobber();
      transposeHost(ref.data(), in.data(), width, height);
    }
    return 0;
  }
  float *dIn, *dOut;
  cudaMalloc((void **)&dIn, n * sizeof(float));
  cudaMalloc((void **)&dOut, n * sizeof(float));
  cudaMemcpy(dIn, in.data(), n * sizeof(float), cudaMemcpyHostToDevice);
  double t0 = benchNow();
  transposeTiles<<<dim3((width + TILE_DIM - 1) / TILE_DIM, (height + TILE_DIM - 1) / TILE_DIM),
                   dim3(TILE_DIM, BLOCK_ROWS)>>>(dOut, dIn, width, height);
  cudaDeviceSynchronize();
  double emulated = benchNow() - t0;
  t0 = benchNow();
  transposeHost(ref.data(), in.data(), width, height);
  double native = benchNow() - t0;
  cudaMemcpy(got.data(), dOut, n * sizeof(float), cudaMemcpyDeviceToHost);
  size_t bad = 0;
  for (size_t i = 0; i < n; ++i) bad += got[i] != ref[i];
  benchReport("transpose_tiles", emulated, native);
  printf("%d x %d: %zu wrong %s\n", width, height, bad, bad == 0 ? "PASS" : "FAIL");
  return bad != 0;
}
