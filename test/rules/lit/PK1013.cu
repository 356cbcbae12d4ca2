// PK1013: cooperative groups that HIP (ROCm 5.2 and 6.3) does not declare,
// or declares with other semantics on a 64-lane wave, are flagged at each
// use.  Tiles and their meta_group_rank are mapped (PK2005) and not flagged.
// RUN: rm -rf %t && %pk port -q --to hip -o %t %s 2>&1 \
// RUN:   | FileCheck %s --check-prefix=DIAG
// RUN: not %pk check --to hip %s 2>&1 | FileCheck %s --check-prefix=DIAG
#include <cuda_runtime.h>
#include <cooperative_groups.h>
namespace cg = cooperative_groups;

__global__ void aggregate(int *counter, int *slots) {
// DIAG: PK1013.cu:[[@LINE+2]]:7: warning: cg::coalesced_group: on a 64-lane wave a HIP coalesced_group holds up to 64 lanes with 64-bit lane masks; code that assumes at most 32 lanes differs [PK1013]
// DIAG: PK1013.cu:[[@LINE+1]]:31: warning: cg::coalesced_threads: on a 64-lane wave HIP's coalesced_threads() holds the active lanes of the whole wave (up to 64, 64-bit lane masks), not of a 32-lane warp; code that assumes at most 32 lanes or a 32-bit mask differs [PK1013]
  cg::coalesced_group g = cg::coalesced_threads();
  int prev = 0;
  if (g.thread_rank() == 0)
    prev = atomicAdd(counter, (int)g.size());
  slots[threadIdx.x] = g.shfl(prev, 0) + g.thread_rank();
}

__global__ void labels(const int *key, int *out) {
  cg::thread_block block = cg::this_thread_block();
  cg::thread_block_tile<32> tile = cg::tiled_partition<32>(block);
// DIAG: PK1013.cu:[[@LINE+1]]:19: warning: cg::labeled_partition: HIP has no labeled_partition (ROCm 5.2 and 6.3); group the lanes by their label explicitly [PK1013]
  auto part = cg::labeled_partition(tile, key[threadIdx.x]);
  out[threadIdx.x] = part.thread_rank() + tile.meta_group_rank();
}
// DIAG-NOT: [PK1013]
