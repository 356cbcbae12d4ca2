// fields_straddle: out[i] = a[2i + 1] * a[2i + 2], the second field of one
// pair times the first of the next.
// Idiom: constant offsets that straddle records.  No record length puts
// each thread's offsets in one row: refused, never read as fields.
// EXPECT: refuse PK5006 "offset (1) from the thread's element"
#include <cuda_runtime.h>

__global__ void fields_straddle(float *out, const float *a, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    out[i] = a[2 * i + 1] * a[2 * i + 2]; // EXPECT-AT
}
