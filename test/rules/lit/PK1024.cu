// PK1024: cub::WarpReduce and cub::WarpScan written without a logical warp
// width get CUB's 32 written out for hipCUB, whose default is the 64-lane
// wave; a width already written stays.  The CUDA target changes nothing.
// RUN: rm -rf %t && %pk port -q --cuda-path=none --to hip,cuda --report %t/r.json -o %t %s 2>&1 | count 0
// RUN: FileCheck %s --match-full-lines --input-file=%t/hip/PK1024.hip
// RUN: FileCheck %s --check-prefix=REPORT --input-file=%t/r.json
// RUN: diff %s %t/cuda/PK1024.cu
// REPORT: "rule": "PK1024",
// REPORT-NEXT: "why": "cub::WarpReduce defaults to CUB's 32-lane logical warp; hipCUB's default is the 64-lane wave, so the width is written out"
#include <cub/cub.cuh>

__global__ void warp_sums(const float *in, float *out) {
  typedef cub::WarpReduce<float> WarpReduceT;
// CHECK:  typedef hipcub::WarpReduce<float, 32> WarpReduceT;
  __shared__ typename WarpReduceT::TempStorage tmp[4];
  float s = WarpReduceT(tmp[threadIdx.x / 32]).Sum(in[threadIdx.x]);
  if (threadIdx.x % 32 == 0) out[threadIdx.x / 32] = s;
}

template <typename T>
__global__ void warp_offsets(const T *in, T *out) {
  using WarpScanT = cub::WarpScan<T>;
// CHECK:  using WarpScanT = hipcub::WarpScan<T, 32>;
  __shared__ typename WarpScanT::TempStorage tmp[4];
  T x;
  WarpScanT(tmp[threadIdx.x / 32]).ExclusiveSum(in[threadIdx.x], x);
  out[threadIdx.x] = x;
}

__global__ void half_warps(const float *in, float *out) {
  __shared__ cub::WarpReduce<float, 16>::TempStorage tmp[8];
// CHECK:  __shared__ hipcub::WarpReduce<float, 16>::TempStorage tmp[8];
  out[threadIdx.x] = cub::WarpReduce<float, 16>(tmp[threadIdx.x / 16]).Sum(in[threadIdx.x]);
// CHECK:  out[threadIdx.x] = hipcub::WarpReduce<float, 16>(tmp[threadIdx.x / 16]).Sum(in[threadIdx.x]);
}

template __global__ void warp_offsets<int>(const int *, int *);
