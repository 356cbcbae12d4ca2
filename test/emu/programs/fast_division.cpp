// 32-bit division and remainder by kernel arguments (the plugin's fast division,
// lib/Emu/ranges/FastDivision.cpp): every quotient and remainder must equal the host's, for
// signed and unsigned operands at their extremes and divisors of every kind (1 and -1, which
// keep the divide, powers of two, INT_MIN, large unsigned ones), each divisor used by many
// threads in a row and then changing.
#include <climits>
#include <cstdio>

__global__ void divide(const int* n, int* q, int* r, unsigned* uq, unsigned* ur, int count, int d) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= count) return;
  if (d == -1 && n[i] == INT_MIN) {  // undefined in C++ and on the GPU alike
    q[i] = r[i] = 0;
  } else {
    q[i] = n[i] / d;
    r[i] = n[i] % d;
  }
  unsigned un = (unsigned)n[i], ud = (unsigned)d;
  uq[i] = un / ud;
  ur[i] = un % ud;
}

// The divisor from the launch's dimensions: row and column of a flat index.
__global__ void rows_cols(const int* n, int* q, int* r, int count) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= count) return;
  int w = (int)(gridDim.x * 3 + 1);
  q[i] = n[i] / w;
  r[i] = n[i] % w;
}

int main() {
  const int count = 1000;
  int hn[count];
  const int edge[] = {0, 1, -1, 2, -2, 3, -3, 7, -7, 100, -100, INT_MAX, INT_MIN, INT_MAX - 1, INT_MIN + 1,
                      65535, 65536, -65536, 1 << 30, -(1 << 30)};
  const int nedge = sizeof edge / sizeof edge[0];
  for (int i = 0; i < count; ++i)
    hn[i] = i < nedge ? edge[i] : (int)(2654435761u * (unsigned)i);
  int *n, *q, *r;
  unsigned *uq, *ur;
  cudaMalloc(&n, sizeof hn);
  cudaMalloc(&q, sizeof hn);
  cudaMalloc(&r, sizeof hn);
  cudaMalloc(&uq, sizeof hn);
  cudaMalloc(&ur, sizeof hn);
  cudaMemcpy(n, hn, sizeof hn, cudaMemcpyHostToDevice);
  const int divisors[] = {1, -1, 2, -2, 3, -3, 7, 10, -10, 64, 1000, 46341, -46341, 65537, INT_MAX, INT_MIN,
                          INT_MIN + 1, (int)3000000000u, (int)0xFFFFFFFEu, 1 << 30};
  int bad = 0;
  for (int d : divisors) {
    pkemu::launch(divide, (count + 127) / 128, 128, 0, 0, (const int*)n, q, r, uq, ur, count, d);
    cudaDeviceSynchronize();
    int hq[count], hr[count];
    unsigned huq[count], hur[count];
    cudaMemcpy(hq, q, sizeof hq, cudaMemcpyDeviceToHost);
    cudaMemcpy(hr, r, sizeof hr, cudaMemcpyDeviceToHost);
    cudaMemcpy(huq, uq, sizeof huq, cudaMemcpyDeviceToHost);
    cudaMemcpy(hur, ur, sizeof hur, cudaMemcpyDeviceToHost);
    for (int i = 0; i < count; ++i) {
      bool skip = d == -1 && hn[i] == INT_MIN;  // undefined in C++ and on the GPU alike
      if (!skip && (hq[i] != hn[i] / d || hr[i] != hn[i] % d)) {
        if (bad++ < 5) printf("signed %d / %d: %d r %d\n", hn[i], d, hq[i], hr[i]);
      }
      unsigned un = (unsigned)hn[i], ud = (unsigned)d;
      if (huq[i] != un / ud || hur[i] != un % ud) {
        if (bad++ < 5) printf("unsigned %u / %u: %u r %u\n", un, ud, huq[i], hur[i]);
      }
    }
  }
  for (int g : {4, 8, 9}) {
    pkemu::launch(rows_cols, g, 128, 0, 0, (const int*)n, q, r, count < g * 128 ? count : g * 128);
    cudaDeviceSynchronize();
    int hq[count], hr[count];
    cudaMemcpy(hq, q, sizeof hq, cudaMemcpyDeviceToHost);
    cudaMemcpy(hr, r, sizeof hr, cudaMemcpyDeviceToHost);
    int w = g * 3 + 1;
    for (int i = 0; i < count && i < g * 128; ++i)
      if (hq[i] != hn[i] / w || hr[i] != hn[i] % w) {
        if (bad++ < 5) printf("rows_cols %d / %d: %d r %d\n", hn[i], w, hq[i], hr[i]);
      }
  }
  printf("fast division: %s (%d wrong)\n", bad ? "WRONG" : "ok", bad);
  return bad != 0;
}
