// Host code as the compiler plugin treats it (HostCode.cpp, GlobalAccesses.cpp), built with
// -fopenmp. argv[1] selects the scenario.
#include <omp.h>

#include <cmath>
#include <cstdio>
#include <cstring>
#include <vector>

// Called by device and host code alike.
__host__ __device__ inline float twice_at(const float* p, int i) { return 2.0f * p[i]; }

// Host-only: the inline functions it calls (std::vector's operator[], std::isfinite,
// twice_at) are inlined into it without hooks.
PKEMU_HOST_FN int count_wrong(const std::vector<float>& got, const float* in) {
  int bad = 0;
  for (size_t i = 0; i < got.size(); ++i)
    if (!std::isfinite(got[i]) || got[i] != twice_at(in, (int)i)) ++bad;
  return bad;
}

volatile int g_stop = 0;  // polled by spin(): its reads stay scheduling points
int g_table[4] = {1, 2, 3, 4};

// Its built-in variables and g_table[1] are read without hooks; in[i] and out[i] keep theirs.
__global__ void doubled(float* out, const float* in, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = twice_at(in, i) * (float)g_table[1] / 2.0f;
}

__global__ void spin(int* out) {
  while (!g_stop) {
  }
  *out = 1;
}

// Host-only, as validate's preparation marks such functions: its parallel loop (a function
// clang outlines) runs without the memory hooks, as the function itself does.
PKEMU_HOST_FN void host_scale(float* out, const float* in, int n) {
#pragma omp parallel for
  for (int i = 0; i < n; ++i) out[i] = 2.0f * in[i];
}

// Not marked: its parallel loop keeps the checks, in every OpenMP thread.
void checked_scale(float* out, const float* in, int n) {
#pragma omp parallel for
  for (int i = 0; i < n; ++i) out[i] = 2.0f * in[i];  // CHECKED_LINE
}

__global__ void fill(float* p, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) p[i] = (float)i;
}

int main(int argc, char** argv) {
  const char* s = argc > 1 ? argv[1] : "";
  omp_set_num_threads(2);
  const int n = 1000;
  float *in, *out;
  cudaMallocManaged(&in, n * sizeof(float));  // IN_LINE
  cudaMallocManaged(&out, (n + 8) * sizeof(float));
  pkemu::launch(fill, 4, 256, 0, 0, in, n);
  cudaDeviceSynchronize();
  int team = 0;
#pragma omp parallel
  {
#pragma omp single
    team = omp_get_num_threads();
  }
  if (!strcmp(s, "ok")) {
    host_scale(out, in, n);
    int bad = 0;
    for (int i = 0; i < n; ++i) bad += out[i] != 2.0f * i;
    checked_scale(out, in, n);
    for (int i = 0; i < n; ++i) bad += out[i] != 2.0f * i;
    std::vector<float> got(out, out + n);
    bad += count_wrong(got, in);
    float* dout;
    cudaMallocManaged(&dout, n * sizeof(float));
    pkemu::launch(doubled, 4, 256, 0, 0, dout, in, n);
    cudaDeviceSynchronize();
    for (int i = 0; i < n; ++i) bad += dout[i] != 2.0f * i;
    printf("ok: team %d, %d wrong\n", team, bad);
  } else if (!strcmp(s, "past")) {
    checked_scale(out, in, n + 8);
    printf("past: done\n");
  } else {
    printf("unknown scenario\n");
    return 2;
  }
  return 0;
}
