// PK9101: a source file that another file #includes (a main.cu that includes
// kernels.cu, a .cpp kernel fragment) is translated in the context of the
// file that includes it, not parsed as a translation unit of its own: here
// kernels.cu uses BLOCK and `struct Params`, which only main.cu defines.
// Without a compilation database the #include lines decide; with one, its
// file list does.  The run says which files were treated as fragments.
//
// RUN: rm -rf %t && split-file %s %t
// RUN: %pk port --to hip -o %t/o %t/src 2>&1 | FileCheck %s --check-prefix=NOTE
// NOTE: {{.*}}src/kernels.cu: note: included by {{.*}}src/main.cu: translated in its context, not as a translation unit of its own [PK9101]
// NOTE: {{.*}}src/reduce_impl.cpp: note: included by {{.*}}src/main.cu: translated in its context, not as a translation unit of its own [PK9101]
// RUN: FileCheck %s --check-prefix=MAIN < %t/o/hip/main.hip
// MAIN: #include "kernels.hip"
// MAIN: #include "reduce_impl.cpp"
// RUN: FileCheck %s --check-prefix=KERN < %t/o/hip/kernels.hip
// KERN: __global__ void axpy(Params p) {
// KERN: hipDeviceSynchronize();
// RUN: FileCheck %s --check-prefix=FRAG < %t/o/hip/reduce_impl.cpp
// FRAG: __shfl_down(
//
// With a compilation database that lists main.cu only: the same.
// RUN: sed "s|@DIR@|%t/src|g" %t/compile_commands.json.in > %t/src/compile_commands.json
// RUN: %pk port -q --to hip -p %t/src -o %t/p %t/src/main.cu %t/src/kernels.cu %t/src/reduce_impl.cpp
// RUN: diff %t/o/hip/kernels.hip %t/p/hip/kernels.hip

//--- src/main.cu
#include <cstdio>
#define BLOCK 128
struct Params { float a; const float *x; float *y; int n; };
#include "kernels.cu"
#include "reduce_impl.cpp"
int main() {
  Params p{2.f, nullptr, nullptr, 0};
  launch_axpy(p);
  return 0;
}
//--- src/kernels.cu
__global__ void axpy(Params p) {
  int i = blockIdx.x * BLOCK + threadIdx.x;
  if (i < p.n)
    p.y[i] += p.a * p.x[i];
}
void launch_axpy(Params p) {
  axpy<<<(p.n + BLOCK - 1) / BLOCK, BLOCK>>>(p);
  cudaDeviceSynchronize();
}
//--- src/reduce_impl.cpp
__device__ float warp_sum(float v) {
  for (int o = 16; o > 0; o /= 2)
    v += __shfl_down_sync(0xffffffffu, v, o);
  return v;
}
//--- compile_commands.json.in
[{"directory": "@DIR@", "command": "nvcc -c main.cu -o main.o", "file": "main.cu"}]
