// PK1035: __CUDA_ARCH__ is defined only in nvcc's device pass; HIP compilers
// never define it, so the HIP output tests __HIP_DEVICE_COMPILE__ (what
// clang's device pass defines) and gives __CUDA_ARCH__ the value of sm_70 in
// the device pass and 0 in the host pass. Left as written, the kernel below
// would compile to nothing on AMD.
// RUN: rm -rf %t && %pk port -q --to hip -o %t/o %s 2>&1 | count 0
// RUN: FileCheck %s --match-full-lines --input-file=%t/o/hip/PK1035.hip
// RUN: %pk port -q --to hip --report %t/r.json -o %t/r %s
// RUN: FileCheck %s --check-prefix=REPORT --input-file=%t/r.json
// REPORT: "rule": "PK1035",
// The output compiles for the device and the host, and each pass keeps its
// branch (the #error lines below would fire otherwise):
// RUN: %hip6 --offload-host-only %t/o/hip/PK1035.hip
// RUN: %hip6 --offload-device-only %t/o/hip/PK1035.hip
// RUN: %hip5 --offload-device-only %t/o/hip/PK1035.hip
// On the emulator (validate), which compiles once as nvcc's host pass would,
// directives inside a device-only function's body take the device pass's
// branch (PK9901): the kernel below computes, as written and as its port.
// RUN: %pk validate --program %s --to hip --keep-work --work-dir %t/w 2>&1 \
// RUN:   | FileCheck %s --check-prefix=RESULT
// RESULT: 2 passed, 0 failed (1 program x 2 variants)
// RUN: FileCheck %s --check-prefix=PREP --input-file=%t/w/PK1035/original/prep/PK1035.cu
// The CUDA target keeps the macro: nvcc compiles its output.
// RUN: %pk port -q --to cuda -o %t/c %s
// RUN: FileCheck %s --match-full-lines --check-prefix=CUDA --input-file=%t/c/cuda/PK1035.cu
#include <cuda_runtime.h>

#if __CUDA_ARCH__ >= 700 || !defined(__CUDA_ARCH__)
// CHECK: #if (__HIP_DEVICE_COMPILE__ * 700) >= 700 || !defined(__HIP_DEVICE_COMPILE__)
// CUDA: #if __CUDA_ARCH__ >= 700 || !defined(__CUDA_ARCH__)
__device__ inline float twice(float x) { return 2.0f * x; }
#endif

// Only the device pass defines this function; the kernel below calls it in
// its device branch. The emulator takes the device pass's branch here too
// (its host branch is empty, its device branch only device code).
#if __CUDA_ARCH__ >= 700
// CHECK: #if (__HIP_DEVICE_COMPILE__ * 700) >= 700
// PREP: #if 1
__device__ inline float thrice(float x) { return 3.0f * x; }
#endif

__global__ void scale3(float *out, const float *in) {
#if __CUDA_ARCH__ >= 700
// PREP: #if 700 >= 700
  out[threadIdx.x] = thrice(in[threadIdx.x]);
#endif
}

__global__ void scale(float *out, const float *in) {
#if __CUDA_ARCH__ >= 700
// CHECK: #if (__HIP_DEVICE_COMPILE__ * 700) >= 700
  out[threadIdx.x] = twice(in[threadIdx.x]);
#elif defined __CUDA_ARCH__
// CHECK: #elif defined __HIP_DEVICE_COMPILE__
// PREP: #elif 1
#error "the device pass takes the sm_70 branch"
#endif
}

#ifdef __CUDA_ARCH__
// CHECK: #ifdef __HIP_DEVICE_COMPILE__
// No device code in it: the emulator keeps the host pass's branch.
// PREP: #ifdef __CUDA_ARCH__
#define ON_DEVICE 1
#endif
#ifndef __CUDA_ARCH__
// CHECK: #ifndef __HIP_DEVICE_COMPILE__
#define ON_HOST 1
#endif
#if defined(ON_DEVICE) && (__CUDA_ARCH__ < 700 || __CUDA_ARCH__ >= 800)
// CHECK: #if defined(ON_DEVICE) && ((__HIP_DEVICE_COMPILE__ * 700) < 700 || (__HIP_DEVICE_COMPILE__ * 700) >= 800)
#error "sm_70"
#endif
// A device-only helper the parse skipped that declares __shared__: the
// emulator's preparation cannot rewrite it, so its host branch stays.
#if __CUDA_ARCH__ >= 700
// PREP: #if __CUDA_ARCH__ >= 700
__device__ float staged(float x) {
  __shared__ float s[32];
  s[threadIdx.x] = x;
  return s[threadIdx.x];
}
#endif
#if !defined(ON_DEVICE) && !defined(ON_HOST)
#error "one pass or the other"
#endif

#include <cstdio>
int main() {
  float h[32], *in, *out;
  for (int i = 0; i < 32; ++i) h[i] = (float)i;
  cudaMalloc(&in, sizeof h);
  cudaMalloc(&out, sizeof h);
  cudaMemset(out, 0, sizeof h);
  cudaMemcpy(in, h, sizeof h, cudaMemcpyHostToDevice);
  scale<<<1, 32>>>(out, in);
  cudaMemcpy(h, out, sizeof h, cudaMemcpyDeviceToHost);
  int bad = 0;
  for (int i = 0; i < 32; ++i) bad += h[i] != 2.0f * i;
  for (int i = 0; i < 32; ++i) h[i] = (float)i;
  scale3<<<1, 32>>>(out, in);
  cudaMemcpy(h, out, sizeof h, cudaMemcpyDeviceToHost);
  for (int i = 0; i < 32; ++i) bad += h[i] != 3.0f * i;
  printf("%d wrong\n", bad);
  return bad != 0;
}
