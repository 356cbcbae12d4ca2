// PK5007: statements, calls and types without a tile-level equivalent: a
// per-thread branch, a call the lifter does not know, a template kernel.
// RUN: rm -rf %t && %pk port -q --to nki -o %t %s 2>&1 | FileCheck %s
#include <cuda_runtime.h>

__global__ void relu_branch(const float *in, float *out, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
// CHECK: PK5007.cu:[[@LINE+1]]:3: warning: kernel 'relu_branch' is not lifted to NKI: condition that is not a bound check `coordinate < size`: per-thread branches are not lifted [PK5007]
  if (in[i] > 0.0f)
    out[i] = in[i];
}

__global__ void sine(const float *in, float *out, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
// CHECK: PK5007.cu:[[@LINE+1]]:14: warning: kernel 'sine' is not lifted to NKI: call to 'atanf' has no tile-level equivalent in the lifter [PK5007]
    out[i] = atanf(in[i]);
}

template <int N>
// CHECK: PK5007.cu:[[@LINE+1]]:17: warning: kernel 'fill' is not lifted to NKI: template kernels are not lifted {{.*}} [PK5007]
__global__ void fill(float *out) {
  out[blockIdx.x * N + threadIdx.x] = 1.0f;
}

// Instantiated twice (two element types): two kernels, refused.
template <class T>
// CHECK: PK5007.cu:[[@LINE+1]]:17: warning: kernel 'twice' is not lifted to NKI: template kernels are not lifted unless the file instantiates them once {{.*}} [PK5007]
__global__ void twice(T *y, const T *x, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    y[i] = x[i] + x[i];
}

// Instantiated once: that instantiation is lifted, the note names it.
template <class T>
// CHECK: PK5007.cu:[[@LINE+1]]:17: note: kernel 'once' lifted to an NKI tile program: {{.*}}; the template's one instantiation in this file, <float>; {{.*}} [PK5001]
__global__ void once(T *y, const T *x, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    y[i] = x[i] * x[i];
}

void launch(float *yf, const float *xf, int *yi, const int *xi, int n) {
  twice<<<(n + 255) / 256, 256>>>(yf, xf, n);
  twice<<<(n + 255) / 256, 256>>>(yi, xi, n);
  once<<<(n + 255) / 256, 256>>>(yf, xf, n);
}
// CHECK-NOT: warning
