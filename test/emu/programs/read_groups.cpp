// Unrolled runs of reads at constant offsets from one address, for the
// read-groups pass of the emulator's plugin (lib/Emu/ranges/ReadGroups.cpp):
// each run is checked by one runtime call; whatever it decides, the results and
// the reports are those of one hook per read. argv[1] selects the scenario.
#include <cstdio>
#include <cstdlib>
#include <cstring>

constexpr int T = 16; // tile edge

// A tiled matrix product: each thread's inner product reads a row of As and a
// column of Bs (16 reads each, fully unrolled). `late` (scenario "race") makes
// thread (0,0) write As[1][0] after the product without a barrier, while the
// threads of row 1 read it in their groups: a race the write must report
// against a read of the group.
__global__ void tiled(float *c, const float *a, const float *b, int n,
                      int late) {
  PKEMU_SHARED(As, float[T][T]);
  PKEMU_SHARED(Bs, float[T][T]);
  int tx = threadIdx.x, ty = threadIdx.y;
  int row = blockIdx.y * T + ty, col = blockIdx.x * T + tx;
  float s = 0.f;
  for (int t = 0; t < n / T; ++t) {
    As[ty][tx] = a[row * n + t * T + tx];
    Bs[ty][tx] = b[(t * T + ty) * n + col];
    __syncthreads();
#pragma unroll
    for (int k = 0; k < T; ++k)
      s += As[ty][k] * Bs[k][tx]; // PRODUCT_LINE
    if (late && tx == 0 && ty == 0)
      As[1][0] = 0.f; // LATE_WRITE_LINE
    __syncthreads();
  }
  c[row * n + col] = s;
}

// Reads a row of a tile that only its first half was written: the group's reads
// of the second half are reads of uninitialised shared memory.
__global__ void half_row(float *out) {
  PKEMU_SHARED(row, float[8]);
  int t = threadIdx.x;
  if (t < 4)
    row[t] = (float)t;
  __syncthreads();
  float s = 0.f;
#pragma unroll
  for (int k = 0; k < 8; ++k)
    s += row[k]; // HALF_READ_LINE
  out[t] = s;
}

// Eight device reads at constant offsets from p, one group: `past` moves p so
// that the last ones lie past the end of the buffer.
__global__ void eight(float *out, const float *p) {
  float s = 0.f;
#pragma unroll
  for (int k = 0; k < 8; ++k)
    s += p[threadIdx.x * 8 + k]; // EIGHT_LINE
  out[threadIdx.x] = s;
}

int main(int argc, char **argv) {
  const char *s = argc > 1 ? argv[1] : "";
  if (!strcmp(s, "tile") || !strcmp(s, "race")) {
    const int n = 64;
    float *a, *b, *c;
    cudaMalloc(&a, n * n * sizeof(float));
    cudaMalloc(&b, n * n * sizeof(float));
    cudaMalloc(&c, n * n * sizeof(float));
    float *ha = (float *)malloc(n * n * sizeof(float));
    float *hb = (float *)malloc(n * n * sizeof(float));
    float *hc = (float *)malloc(n * n * sizeof(float));
    for (int i = 0; i < n * n; ++i) {
      ha[i] = (float)((i * 7) % 11) - 5.f;
      hb[i] = (float)((i * 5) % 13) - 6.f;
    }
    cudaMemcpy(a, ha, n * n * sizeof(float), cudaMemcpyHostToDevice);
    cudaMemcpy(b, hb, n * n * sizeof(float), cudaMemcpyHostToDevice);
    pkemu::launch(tiled, dim3(n / T, n / T), dim3(T, T), 0, 0, c,
                  (const float *)a, (const float *)b, n,
                  !strcmp(s, "race") ? 1 : 0);
    cudaDeviceSynchronize();
    cudaMemcpy(hc, c, n * n * sizeof(float), cudaMemcpyDeviceToHost);
    int wrong = 0;
    for (int i = 0; i < n; ++i)
      for (int j = 0; j < n; ++j) {
        float ref = 0.f;
        for (int k = 0; k < n; ++k)
          ref += ha[i * n + k] * hb[k * n + j];
        wrong += hc[i * n + j] != ref;
      }
    printf("%s: %d wrong\n", s, wrong);
  } else if (!strcmp(s, "uninit")) {
    float *o;
    cudaMalloc(&o, 32 * sizeof(float));
    pkemu::launch(half_row, 1, 32, 0, 0, o);
    cudaDeviceSynchronize();
    printf("uninit: done\n");
  } else if (!strcmp(s, "eight") || !strcmp(s, "past")) {
    float *p, *o;
    cudaMalloc(&p, 32 * 8 * sizeof(float)); // P_LINE
    cudaMalloc(&o, 32 * sizeof(float));
    float h[32 * 8];
    for (int i = 0; i < 32 * 8; ++i)
      h[i] = (float)(i % 9);
    cudaMemcpy(p, h, sizeof h, cudaMemcpyHostToDevice);
    pkemu::launch(eight, 1, 32, 0, 0, o,
                  (const float *)(p + (!strcmp(s, "past") ? 4 : 0)));
    cudaDeviceSynchronize();
    float ho[32];
    cudaMemcpy(ho, o, sizeof ho, cudaMemcpyDeviceToHost);
    int wrong = 0;
    for (int t = 0; t < 28; ++t) {
      float ref = 0.f;
      for (int k = 0; k < 8; ++k)
        ref += h[t * 8 + k + (!strcmp(s, "past") ? 4 : 0)];
      wrong += ho[t] != ref;
    }
    printf("%s: %d wrong\n", s, wrong);
  }
  return 0;
}
