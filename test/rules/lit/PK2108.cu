// PK2108 (check): lane bits built in 32 bits (1u << lane, (1u << lane) - 1,
// %lanemask_lt read through inline PTX, __ffs(mask) - 1 used as a lane
// index) cannot name lanes 32-63 of a 64-lane wave.
// RUN: not %pk check -q --to hip %s 2>&1 | FileCheck %s --check-prefix=DIAG

__device__ __forceinline__ unsigned lanemaskLt() {
  unsigned m;
// DIAG: PK2108.cu:[[@LINE+1]]:3: warning: inline PTX reads %lanemask_lt: a 32-lane lane mask [PK2108]
  asm("mov.u32 %0, %%lanemask_lt;" : "=r"(m));
  return m;
}

// Order-preserving compaction: a lane's rank among the passing lanes of its
// warp, the warp's count written by its first passing lane.
__global__ void compact(const float *in, float *out, int *warpCounts,
                        int *ranks) {
  const int lane = threadIdx.x & 31;
  const int gid = blockIdx.x * blockDim.x + threadIdx.x;
  const float v = in[gid];
  const bool pass = v > 0.25f;
  const unsigned ballot = __ballot_sync(0xffffffff, pass);
// DIAG: PK2108.cu:[[@LINE+1]]:30: warning: '1u << lane' is a 32-bit lane bit: lanes 32-63 of a 64-lane wave do not fit [PK2108]
  const unsigned below = (1u << lane) - 1u;
  const int rank = __popc(ballot & below);
// DIAG: PK2108.cu:[[@LINE+1]]:36: warning: '__ffs(ballot) - 1' turns a 32-bit lane mask into a lane index [PK2108]
  const int leader = __ffs(ballot) - 1;
  // A 64-bit lane bit fits every lane of the wave.
// DIAG-NOT: PK2108.cu:[[@LINE+1]]:{{.*}}[PK2108]
  const unsigned long long mine = 1ull << lane;
  if (lane == leader)
    warpCounts[gid / 32] = __popc(ballot);
  ranks[gid] = __popc(ballot & lanemaskLt()) + (int)(mine >> lane);
  if (pass)
    out[blockIdx.x * blockDim.x + rank] = v;
}
// DIAG-NOT: [PK2108]
