// Third-party idiom: a tiled transpose through padded shared memory, 2D
// launch with dim3, no runtime include.
#include <cstdio>
#include <vector>

#define TILE 16

__global__ void transpose(const float *in, float *out, int w, int h) {
  __shared__ float tile[TILE][TILE + 1];
  int x = blockIdx.x * TILE + threadIdx.x;
  int y = blockIdx.y * TILE + threadIdx.y;
  if (x < w && y < h)
    tile[threadIdx.y][threadIdx.x] = in[y * w + x];
  __syncthreads();
  x = blockIdx.y * TILE + threadIdx.x;
  y = blockIdx.x * TILE + threadIdx.y;
  if (x < h && y < w)
    out[y * h + x] = tile[threadIdx.x][threadIdx.y];
}

int main() {
  const int w = 48, h = 32;
  std::vector<float> a(w * h), b(w * h);
  for (int i = 0; i < w * h; ++i)
    a[i] = float(i);
  float *da, *db;
  cudaMalloc(&da, w * h * sizeof(float));
  cudaMalloc(&db, w * h * sizeof(float));
  cudaMemcpy(da, a.data(), w * h * sizeof(float), cudaMemcpyHostToDevice);
  dim3 block(TILE, TILE), grid(w / TILE, h / TILE);
  transpose<<<grid, block>>>(da, db, w, h);
  cudaMemcpy(b.data(), db, w * h * sizeof(float), cudaMemcpyDeviceToHost);
  for (int y = 0; y < h; ++y)
    for (int x = 0; x < w; ++x)
      if (b[x * h + y] != a[y * w + x]) {
        std::printf("mismatch at %d,%d\n", x, y);
        return 1;
      }
  std::printf("transpose_shared: ok\n");
  return 0;
}
