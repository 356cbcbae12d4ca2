// PK9901: before `validate` runs a CUDA or HIP source on the SIMT emulator,
// launches k<<<g, b, s, st>>>(args) become pkemu::launch(k, g, b, s, st,
// args) and __shared__ variables per-block storage (PKEMU_SHARED,
// PKEMU_DYNAMIC_SHARED, PKEMU_GLOBAL_SHARED); #line directives keep emulator
// reports at the original file and line.  These edits never reach `port`
// outputs.  This file is a self-checking program (main exits 0 when right).
//
// RUN: rm -rf %t
// RUN: %pk validate --program %s --to hip --keep-work --work-dir %t/w 2>&1 \
// RUN:   | FileCheck %s --check-prefix=RESULT
// RESULT: 2 passed, 0 failed (1 program x 2 variants)
// RUN: FileCheck %s --match-full-lines --check-prefix=PREP \
// RUN:   --input-file=%t/w/PK9901/original/prep/PK9901.cu
// RUN: FileCheck %s --match-full-lines --check-prefix=PREP \
// RUN:   --input-file=%t/w/PK9901/hip/prep/PK9901.hip
//
// The user-facing HIP output keeps the launches and __shared__ as written.
// RUN: %pk port -q --to hip --report %t/r.json -o %t/o %s
// RUN: FileCheck %s --match-full-lines --check-prefix=PORT --input-file=%t/o/hip/PK9901.hip
// RUN: FileCheck %s --check-prefix=PORT-REPORT --input-file=%t/r.json
// PORT-REPORT-NOT: "rule": "PK9901"
//
// The preparation has no output of its own that names the rule; the rule
// table and its documentation do.
// RUN: %pk rules | FileCheck %s --check-prefix=RULES
// RULES: PK9901  rewrite     emulator preparation
// RUN: %pk explain PK9901 | FileCheck %s --check-prefix=DOC
// DOC: # PK9901: emulator preparation
//
// The line after a namespace-scope __shared__ declaration keeps its number:
// the #line that follows the replacement names it.
// RUN: FileCheck %s --match-full-lines --check-prefix=LINE --input-file=%t/w/PK9901/original/prep/PK9901.cu
//
// Several variables in one namespace-scope __shared__ declaration.
// RUN: %pk validate --program %S/Inputs/PK9901/shared_pair.cu --to none --keep-work --work-dir %t/w2 2>&1 | FileCheck %s --check-prefix=PAIR
// PAIR: 1 passed, 0 failed (1 program x 1 variant)
// PREP: #line 1 "{{.*}}PK9901.{{cu|hip}}"
#include <cuda_runtime.h>
#include <cstdio>
#include <vector>

#define TILE 32

// A __device__ array lives in a checked device buffer of its own on the
// emulator: the definition keeps its initialiser under another name and the
// variable becomes a reference to the buffer (an extern declaration too).
extern __device__ float bias[4];
// PREP: extern PKEMU_DEVICE_VAR_REF(float[4]) bias;
// PORT: extern __device__ float bias[4];
__device__ float bias[4] = {1.f, 2.f, 3.f, 4.f};
// PREP: __device__ float pkemu_dv_bias[4] = {1.f, 2.f, 3.f, 4.f}; PKEMU_DEVICE_VAR(bias, float[4]);
// PORT: __device__ float bias[4] = {1.f, 2.f, 3.f, 4.f};

// Block-wide sums through a static tile and dynamic scratch.
__global__ void block_sums(const float *in, float *out, int n) {
  __shared__ float tile[TILE][TILE + 1];
// PREP: PKEMU_SHARED(tile, float[32][33]);
// PORT: __shared__ float tile[TILE][TILE + 1];
  extern __shared__ float scratch[];
// PREP: PKEMU_DYNAMIC_SHARED(scratch, float);
// PORT: extern __shared__ float scratch[];
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  tile[threadIdx.x / TILE][threadIdx.x % TILE] = i < n ? in[i] : 0.f;
  __syncthreads();
  scratch[threadIdx.x] = tile[threadIdx.x / TILE][threadIdx.x % TILE];
  __syncthreads();
  for (int s = blockDim.x / 2; s > 0; s >>= 1) {
    if (threadIdx.x < s)
      scratch[threadIdx.x] += scratch[threadIdx.x + s];
    __syncthreads();
  }
  if (threadIdx.x == 0)
    out[blockIdx.x] = scratch[0] * bias[0];
}

// The factor is staged once per block in namespace-scope shared memory.
__shared__ float factor;
// PREP:      PKEMU_GLOBAL_SHARED(factor, float)
// PREP-NEXT: #define factor (pkemu_shared_factor())
// PREP-NEXT: #line {{[0-9]+}}
// LINE:      #define factor (pkemu_shared_factor())
// LINE-NEXT: #line [[#@LINE-4]]
// PORT: __shared__ float factor;

__global__ void scale(float *x, float a) {
// PREP: __global__ void scale(float *x, float a) {
  if (threadIdx.x == 0)
    factor = a;
  __syncthreads();
  if (threadIdx.x == 0)
    x[blockIdx.x] *= factor;
}

// Host-only functions are compiled without the memory hooks.
int main() {
// PREP: PKEMU_HOST_FN int main() {
// PORT: int main() {
  const int n = 1000, block = 128, blocks = (n + block - 1) / block;
  std::vector<float> h(n), r(blocks);
  for (int i = 0; i < n; ++i)
    h[i] = float(i % 7);
  float *din, *dout;
  cudaMalloc(&din, n * sizeof(float));
  cudaMalloc(&dout, blocks * sizeof(float));
  cudaMemcpy(din, h.data(), n * sizeof(float), cudaMemcpyHostToDevice);
  cudaStream_t s;
  cudaStreamCreate(&s);
  block_sums<<<blocks, block, block * sizeof(float), s>>>(din, dout, n);
// PREP: pkemu::launch(block_sums, blocks, block, block * sizeof(float), s, din, dout, n);
// PORT: block_sums<<<blocks, block, block * sizeof(float), s>>>(din, dout, n);
  scale<<<blocks, 32>>>(dout, 2.f);
// PREP: pkemu::launch(scale, blocks, 32, 0, 0, dout, 2.f);
// PORT: scale<<<blocks, 32>>>(dout, 2.f);
  // The launch APIs take the kernel as void *: the emulator needs its type.
  float one = 1.f;
  void *args[] = {&dout, &one};
  cudaLaunchKernel((void *)scale, dim3(blocks), dim3(32), args, 0, s);
// PREP: {{cuda|hip}}LaunchKernel(scale, dim3(blocks), dim3(32), args, 0, s);
// PORT: hipLaunchKernel((void *)scale, dim3(blocks), dim3(32), args, 0, s);
  cudaStreamSynchronize(s);
  cudaMemcpy(r.data(), dout, blocks * sizeof(float), cudaMemcpyDeviceToHost);
  for (int b = 0; b < blocks; ++b) {
    float want = 0.f;
    for (int i = b * block; i < n && i < (b + 1) * block; ++i)
      want += h[i];
    if (r[b] != 2.f * want) {
      std::printf("block %d: got %f want %f\n", b, r[b], 2.f * want);
      return 1;
    }
  }
  std::printf("ok\n");
  return 0;
}
