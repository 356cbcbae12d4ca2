// PK2005: cooperative-groups tiles become __pk_tile<N>, a helper generated
// into the output with the tile member functions (votes, meta_group_rank,
// ...) that HIP before ROCm 6 lacks; a 32-thread tile is a logical warp
// (__pk_tile<32>) or, under native warps, the whole wave (__pk_tile<64>);
// other sizes stay.  cg::reduce becomes __pk_reduce with __pk_<op> and the
// <cooperative_groups/reduce.h> include goes once every use is lowered.
// RUN: rm -rf %t && %pk port -q --to hip --report %t/r.json -o %t %s 2>&1 \
// RUN:   | FileCheck %s --check-prefix=DIAG
// RUN: FileCheck %s --match-full-lines --input-file=%t/hip/PK2005.hip
// RUN: FileCheck %s --check-prefix=REPORT --input-file=%t/r.json
// REPORT:      "counts": {
// REPORT:        "PK2005": 11
// REPORT:      "replacement": "",
// REPORT-NEXT: "rule": "PK2005",
// REPORT-NEXT: "why": "cg::reduce is lowered to __pk_reduce; the header is not needed"
#include <cuda_runtime.h>
#include <cooperative_groups.h>
// CHECK: #include <{{hip}}/hip_cooperative_groups.h>
// CHECK-NOT: {{^}}#include <cooperative_groups/reduce.h>
#include <cooperative_groups/reduce.h>
// An optional dependency: the helpers go after its block, never inside it.
#ifdef USE_CUDNN
#include <cudnn.h>
#endif
// CHECK: #ifndef PK_TILE_HELPERS
// CHECK: template <unsigned N> struct __pk_tile {
// CHECK:   __device__ mask_type ballot(int pred) const {
// CHECK-NEXT:     unsigned long long b = __ballot(pred) >> (__lane_id() & (64u - N));
// CHECK-NEXT:     return (mask_type)(N == 64 ? b : b & ((1ull << (N & 63u)) - 1ull));
// CHECK-NEXT:   }
// CHECK: template <class T> struct __pk_greater { __device__ T operator()(T a, T b) const { return a < b ? b : a; } };
// CHECK: __device__ static inline T __pk_reduce(const __pk_tile<N> &t, T v, Op op) {
// CHECK-NEXT:   for (unsigned o = N / 2; o > 0; o >>= 1)
// CHECK-NEXT:     v = op(v, t.shfl_xor(v, (int)o));
// CHECK: #endif // PK_TILE_HELPERS
// CHECK: #ifdef USE_CUDNN
// CHECK-NEXT: #include <cudnn.h>
// CHECK-NEXT: #endif

namespace cg = cooperative_groups;

__device__ float tile_sum(const cg::thread_block_tile<32> &tile, float v) {
// CHECK: __device__ float tile_sum(const __pk_tile<32> &tile, float v) {
  for (int o = tile.size() / 2; o > 0; o /= 2)
    v += tile.shfl_down(v, o);
// CHECK:    v += tile.shfl_down(v, o);
  return v;
}

// Per-tile statistics: one slot per 32-thread tile, so logical warps.
// DIAG: PK2005.cu:[[@LINE+1]]:1: note: kernel tile_stats: logical 32-lane warps inside 64-lane waves because {{.*}} [PK2000]
__global__ void tile_stats(const float *in, float *sum, int *positive) {
  __shared__ float part[32];
  cg::thread_block block = cg::this_thread_block();
// CHECK:  cg::thread_block block = cg::this_thread_block();
  cg::thread_block_tile<32> tile = cg::tiled_partition<32>(block);
// CHECK:  __pk_tile<32> tile = __pk_tile<32>();
// REPORT:      "line": [[@LINE-2]],
// REPORT-NEXT: "offset": {{[0-9]+}},
// REPORT-NEXT: "replacement": "__pk_tile<32>",
// REPORT-NEXT: "rule": "PK2005",
// REPORT-NEXT: "why": "a tile of 32 threads -> __pk_tile<32>: a 32-lane logical warp of the wave"
  const float v = in[blockIdx.x * blockDim.x + threadIdx.x];
  const float s = tile_sum(tile, v);
  const unsigned votes = tile.ballot(v > 0.0f);
// CHECK:  const unsigned votes = tile.ballot(v > 0.0f);
  if (tile.thread_rank() == 0) {
    part[tile.meta_group_rank()] = s;
    positive[blockIdx.x * tile.meta_group_size() + tile.meta_group_rank()] = __popc(votes);
  }
  block.sync();
  if (threadIdx.x == 0) {
    float t = 0.f;
    for (int w = 0; w < tile.meta_group_size(); ++w) t += part[w];
    sum[blockIdx.x] = t;
  }
}

// Block maximum through 16-thread tiles and cg::reduce: native warps.
// DIAG: PK2005.cu:[[@LINE+1]]:1: note: kernel block_max: native 64-lane warps (its warp code does not depend on the data layout of 32-lane warps) [PK2000]
__global__ void block_max(const float *in, float *out) {
  cg::thread_block block = cg::this_thread_block();
  cg::thread_block_tile<16> quarter = cg::tiled_partition<16>(block);
// CHECK:  __pk_tile<16> quarter = __pk_tile<16>();
  auto warp = cg::tiled_partition<32>(block);
// CHECK:  auto warp = __pk_tile<64>();
// REPORT:      "replacement": "__pk_tile<64>()",
// REPORT-NEXT: "rule": "PK2005",
// REPORT-NEXT: "why": "a tile of 32 threads -> __pk_tile<64>: the native 64-lane warp"
  const float v = in[blockIdx.x * blockDim.x + threadIdx.x];
  const float m = cg::reduce(quarter, v, cg::greater<float>());
// CHECK:  const float m = __pk_reduce(quarter, v, __pk_greater<float>());
// REPORT:      "replacement": "__pk_reduce",
// REPORT-NEXT: "rule": "PK2005",
// REPORT-NEXT: "why": "cg::reduce -> __pk_reduce: a butterfly over the tile (HIP before ROCm 6 has no cg::reduce)"
  const float t = cg::reduce(warp, m, cg::greater<float>());
// CHECK:  const float t = __pk_reduce(warp, m, __pk_greater<float>());
  if (warp.thread_rank() == 0)
    atomicMax((int *)out, __float_as_int(t));
}
// DIAG-NOT: warning
// Tile shuffles of vector and struct values (CUDA's tiles shuffle any
// trivially copyable type; HIP's __shfl* are scalar): the output compiles
// against ROCm 5.2 and 6.3, host and device side.
// RUN: %pk port -q --to hip -o %t/vec %S/Inputs/PK2005/vector_shfl.cu
// RUN: FileCheck %s --check-prefix=VEC --input-file=%t/vec/hip/vector_shfl.hip
// VEC: template <class T, class F> __device__ static inline T __pk_tile_shfl(T v, F f) {
// VEC: uint4 v = t.shfl_xor(p[t.thread_rank()], 1);
// RUN: %hip5 --offload-host-only %t/vec/hip/vector_shfl.hip
// RUN: %hip5 --offload-device-only %t/vec/hip/vector_shfl.hip
// RUN: %hip6 --offload-host-only %t/vec/hip/vector_shfl.hip
// RUN: %hip6 --offload-device-only %t/vec/hip/vector_shfl.hip
