// PK9103: clang 19 knows CUDA up to 12.5; with a newer toolkit (CUDA 13 is
// installed on the development machines) and with the bundled declarations,
// what nvcc accepts and clang does not is declared for the parse
// (lib/Frontend/cuda13-shim/__pk_nvcc_compat.h): __ldcs/__stcs on vector
// types, host min/max on mixed integer types, unqualified isfinite on the
// host, a __device__ max reached from a __host__ __device__ function,
// CUDA 12's __nv_atomic_* builtins, and the C headers nvcc's
// common_functions.h includes (clock() without <time.h>); OpenMP host code
// (<omp.h>, from libomp-19-dev, as llm.c's CPU references use).  -v says so.  This file is ported with
// the toolkit when one is installed and with the bundled declarations.
//
// RUN: rm -rf %t && mkdir -p %t
// RUN: %pk port -q --to hip -o %t/tk %s
// RUN: %pk port -v -q --cuda-path=none --to hip -o %t/b %s 2>&1 | FileCheck %s --check-prefix=NOTE
// NOTE: port-kernel: note: bundled declarations: nvcc compatibility declarations added ({{.*}}__pk_nvcc_compat.h) [PK9103]
// RUN: FileCheck %s --check-prefix=OUT < %t/b/hip/PK9103.hip
// OUT: __device__ float4 load_stream(const float4 *p) { return pk_ldcs(p); }
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <omp.h>

__device__ float4 load_stream(const float4 *p) { return __ldcs(p); }
__device__ void store_stream(float4 *p, float4 v) { __stcs(p, v); }

__device__ int dmax(int a, int b) { return max(a, b); }
__host__ __device__ inline int clampi(int a, int lo) { return max(a, lo); }

__global__ void count_finite(const float *x, unsigned *c, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n && isfinite(x[i]))
    __nv_atomic_fetch_add(c, 1u, __NV_ATOMIC_RELAXED, __NV_THREAD_SCOPE_DEVICE);
}

int main() {
  size_t n = 10;
  int m = 3;
  size_t r = min(n, m);
  long long q = max(n, 4);
  bool f = isfinite(1.0f);
  clock_t start = clock();
#pragma omp parallel for
  for (int i = 0; i < omp_get_max_threads(); ++i)
    q += 0;
  printf("%zu %lld %d %d %ld\n", r, q, (int)f, clampi(1, 2), (long)(clock() - start));
  return 0;
}
