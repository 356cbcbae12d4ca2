// PK1023: the namespace cub becomes hipcub; names of the program's own are
// not touched.
// RUN: rm -rf %t && %pk port -q --cuda-path=none --to hip -o %t %s 2>&1 | count 0
// RUN: FileCheck %s --match-full-lines --input-file=%t/hip/PK1023.hip
// RUN: %pk port -q --cuda-path=none --to hip --report %t/r.json -o %t/2 %s
// RUN: FileCheck %s --check-prefix=REPORT --input-file=%t/r.json
// REPORT: "rule": "PK1023",
// REPORT-NEXT: "why": "cub -> hipcub (hipCUB has CUB's block, warp and device primitives under the same names)"
#include <cub/cub.cuh>

template <int THREADS>
__global__ void block_sum(const float *in, float *out) {
  typedef cub::BlockReduce<float, THREADS, cub::BLOCK_REDUCE_RAKING> BlockReduceT;
// CHECK:  typedef hipcub::BlockReduce<float, THREADS, hipcub::BLOCK_REDUCE_RAKING> BlockReduceT;
  __shared__ typename BlockReduceT::TempStorage tmp;
  float s = BlockReduceT(tmp).Reduce(in[threadIdx.x], cub::Sum());
// CHECK:  float s = BlockReduceT(tmp).Reduce(in[threadIdx.x], hipcub::Sum());
  if (threadIdx.x == 0) out[blockIdx.x] = s;
}

void total(const float *d_in, float *d_out, int n) {
  size_t bytes = 0;
  cub::DeviceReduce::Sum(nullptr, bytes, d_in, d_out, n);
// CHECK:  hipcub::DeviceReduce::Sum(nullptr, bytes, d_in, d_out, n);
  block_sum<128><<<1, 128>>>(d_in, d_out);
}
