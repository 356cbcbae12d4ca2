// block_count_atomic: out[0] += gridDim.x (each block counts itself), and
// must stay refused: what is added is the same in every block, so the sum
// is the number of blocks of the launch, not a reduction of the input.
// Idiom: one thread per block bumps a global counter with atomicAdd.
// EXPECT: refuse PK5002 "same in every block"
#include <cuda_runtime.h>

__global__ void block_count_atomic(float *out, const float *x, int n) {
  if (threadIdx.x == 0 && n > 0)
    atomicAdd(out, 1.0f); // EXPECT-AT
}
