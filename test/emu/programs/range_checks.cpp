// Loops that walk memory, for the range-checks plugin (lib/Emu/ranges): each loop's accesses are
// affine in its counter, so the plugin gives the loop one bounds check per entry. Whatever the
// check decides, the results and the reports are those of one hook per access. argv[1] selects
// the scenario.
#include <cstdio>
#include <cstdlib>
#include <cstring>

// One row's dot product per thread (the shape of llm.c's attention scores).
__global__ void row_dots(float* out, const float* a, const float* b, int n) {
  int r = blockIdx.x * blockDim.x + threadIdx.x;
  float s = 0.f;
  for (int i = 0; i < n; ++i) s += a[r * n + i] * b[i];  // DOT_LINE
  out[r] = s;
}

// Walks down, with a stride of 3, and writes as it reads.
__global__ void walk_down(float* x, int n) {
  for (int i = n - 1 - (int)threadIdx.x; i >= 0; i -= 3 * (int)blockDim.x) x[i] = x[i] * 2.f + 1.f;
}

// A block-stride loop: an int counter stepped by blockDim.x (unsigned), which the compiler cannot
// prove free of wrapping; the plugin tests at run time that it cannot wrap.
__global__ void stride_scale(float* x, int n, float f) {
  for (int i = threadIdx.x; i < n; i += blockDim.x) x[i] = x[i] * f + 1.f;  // STRIDE_LINE
}

// Every thread fills its row of a shared tile in a loop, then reads its neighbour's row without
// a barrier: a race on shared memory, which the hooks must still see.
__global__ void shared_rows(float* out, int n) {
  PKEMU_SHARED(tile, float[64 * 8]);
  int t = threadIdx.x;
  for (int i = 0; i < n; ++i) tile[t * n + i] = (float)(t + i);  // SHARED_WRITE_LINE
  float s = 0.f;
  for (int i = 0; i < n; ++i) s += tile[((t + 1) % blockDim.x) * n + i];  // SHARED_READ_LINE
  out[t] = s;
}

int main(int argc, char** argv) {
  const char* s = argc > 1 ? argv[1] : "";
  const int rows = 128, n = 64;
  float *a, *b, *o;
  cudaMalloc(&a, rows * n * sizeof(float));  // A_LINE
  cudaMalloc(&b, n * sizeof(float));
  cudaMalloc(&o, rows * sizeof(float));
  float* h = (float*)malloc(rows * n * sizeof(float));
  for (int i = 0; i < rows * n; ++i) h[i] = (float)((i * 7) % 11) - 5.f;
  cudaMemcpy(a, h, rows * n * sizeof(float), cudaMemcpyHostToDevice);
  cudaMemcpy(b, h, n * sizeof(float), cudaMemcpyHostToDevice);
  if (!strcmp(s, "dots") || !strcmp(s, "dots_past")) {
    // dots_past: one element more per row, so the last row reads past the end of a.
    int m = !strcmp(s, "dots_past") ? n + 1 : n;
    pkemu::launch(row_dots, rows / 32, 32, 0, 0, o, (const float*)a, (const float*)a, m);
    cudaDeviceSynchronize();
    float ho[rows];
    cudaMemcpy(ho, o, sizeof ho, cudaMemcpyDeviceToHost);
    bool ok = true;
    for (int r = 0; (r + 1) * m <= rows * n; ++r) {
      float ref = 0.f;
      for (int i = 0; i < m; ++i) ref += h[r * m + i] * h[i];
      ok = ok && ho[r] == ref;
    }
    printf("%s: %s\n", s, ok ? "ok" : "wrong");
  } else if (!strcmp(s, "host")) {
    // A host malloc'd array: not device memory, reported by the hooks.
    pkemu::launch(row_dots, 1, 32, 0, 0, o, (const float*)h, (const float*)b, n);  // HOST_LINE
    cudaDeviceSynchronize();
    printf("host: done\n");
  } else if (!strcmp(s, "down")) {
    const int m = 1000;
    float* x;
    cudaMalloc(&x, m * sizeof(float));
    float hx[m];
    for (int i = 0; i < m; ++i) hx[i] = (float)i;
    cudaMemcpy(x, hx, sizeof hx, cudaMemcpyHostToDevice);
    pkemu::launch(walk_down, 1, 7, 0, 0, x, m);
    cudaDeviceSynchronize();
    float back[m];
    cudaMemcpy(back, x, sizeof back, cudaMemcpyDeviceToHost);
    bool ok = true;
    for (int i = 0; i < m; ++i) ok = ok && back[i] == ((m - 1 - i) % 21 < 7 ? 2.f * i + 1.f : (float)i);
    printf("down: %s\n", ok ? "ok" : "wrong");
  } else if (!strcmp(s, "stride") || !strcmp(s, "stride_past")) {
    // stride_past: one element more than the buffer holds.
    const int m = 1000;
    float* x;
    cudaMalloc(&x, m * sizeof(float));  // X_LINE
    float hx[m];
    for (int i = 0; i < m; ++i) hx[i] = (float)i;
    cudaMemcpy(x, hx, sizeof hx, cudaMemcpyHostToDevice);
    pkemu::launch(stride_scale, 1, 96, 0, 0, x, !strcmp(s, "stride") ? m : m + 1, 3.f);
    cudaDeviceSynchronize();
    float back[m];
    cudaMemcpy(back, x, sizeof back, cudaMemcpyDeviceToHost);
    bool ok = true;
    for (int i = 0; i < m; ++i) ok = ok && back[i] == 3.f * i + 1.f;
    printf("%s: %s\n", s, ok ? "ok" : "wrong");
  } else if (!strcmp(s, "shared")) {
    pkemu::launch(shared_rows, 1, 64, 0, 0, o, 8);
    cudaDeviceSynchronize();
    printf("shared: done\n");
  }
  return 0;
}
