// PK2013: warp-level CUDA with no HIP form on ROCm 5.x-6.1 and no rewrite that
// keeps its meaning on 64-lane waves (inline PTX reading warp state other
// than the PK2006 lane registers; __match_*_sync and __reduce_*_sync under
// native warps) is left as written and flagged; the kernel keeps logical
// warps, where the match and reduce collectives become PK2002's helpers and
// cg::reduce with the program's own operator PK2005's butterfly.
// RUN: rm -rf %t && %pk port -q --to hip -o %t %s 2>&1 \
// RUN:   | FileCheck %s --check-prefix=DIAG
// RUN: FileCheck %s --match-full-lines --input-file=%t/hip/PK2013.hip
#include <cuda_runtime.h>
#include <cooperative_groups.h>
#include <cooperative_groups/reduce.h>

namespace cg = cooperative_groups;

__device__ __forceinline__ unsigned warp_id() {
  unsigned w;
// DIAG: PK2013.cu:[[@LINE+1]]:3: warning: inline PTX warp instruction: no HIP form on ROCm 5.x through 6.1 and no rewrite for 64-lane waves; left as is [PK2013]
  asm volatile("mov.u32 %0, %%warpid;" : "=r"(w));
// CHECK: // port-kernel: warning: inline PTX warp instruction: no HIP form on ROCm 5.x through 6.1 and no rewrite for 64-lane waves; left as is [PK2013]
// CHECK: asm volatile("mov.u32 %0, %%warpid;" : "=r"(w));
  return w;
}

struct MaxAbs {
  __device__ float operator()(float a, float b) const { return fmaxf(fabsf(a), fabsf(b)); }
};

// Lanes with equal keys form groups; the first lane of each group counts it.
// DIAG: PK2013.cu:[[@LINE+1]]:1: note: kernel key_counts: logical 32-lane warps inside 64-lane waves because inline PTX warp instruction (line [[#@LINE-11]]) [PK2000]
__global__ void key_counts(const int *keys, int *counts, unsigned *sums) {
  const int k = keys[blockIdx.x * blockDim.x + threadIdx.x];
  const unsigned peers = __match_any_sync(0xffffffff, k);
// CHECK: const unsigned peers = __pk_match_any32(0xffffffff, k);
  if ((threadIdx.x & 31) == __ffs(peers) - 1)
    atomicAdd(&counts[k], __popc(peers));
  const unsigned total = __reduce_add_sync(0xffffffff, (unsigned)k);
// CHECK: const unsigned total = __pk_reduce_add32(0xffffffff, (unsigned)k);
  if ((threadIdx.x & 31) == 0)
    sums[blockIdx.x * 8 + warp_id()] = total;
}

// DIAG-NEXT: PK2013.cu:[[@LINE+1]]:1: note: kernel tile_absmax: logical 32-lane warps inside 64-lane waves because {{.*}} [PK2000]
__global__ void tile_absmax(const float *in, float *out) {
  auto tile = cg::tiled_partition<32>(cg::this_thread_block());
  const float m = cg::reduce(tile, in[threadIdx.x], MaxAbs());
// CHECK: const float m = __pk_reduce(tile, in[threadIdx.x], MaxAbs());
  if (tile.thread_rank() == 0)
    out[threadIdx.x / 32] = m;
}
// DIAG-NOT: [PK2013]
