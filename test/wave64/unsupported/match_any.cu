// Warp constructs neither strategy can express: flagged (PK2013), left as is
// (PTX's %warpid).  __match_any_sync keeps logical warps and becomes PK2002's
// helper.
#include <cuda_runtime.h>

__global__ void groups(const int *in, unsigned *same, int *sum) {
  const int v = in[threadIdx.x];
  same[threadIdx.x] = __match_any_sync(0xffffffff, v);
  unsigned w;
  asm volatile("mov.u32 %0, %%warpid;" : "=r"(w));
  sum[threadIdx.x] = v + (int)w;
}
