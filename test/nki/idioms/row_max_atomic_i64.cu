// row_max_atomic_i64: hi[r] = max(hi[r], max_c x[r][c]) over 64-bit
// integers (timestamps, sequence numbers).
// Idiom: as row_min_atomic, with long long atomicMax.  NKI tiles hold no
// 64-bit integers: refused, naming the type.
// EXPECT: refuse PK5007 "a 64-bit integer"
#include <cuda_runtime.h>

__global__ void row_max_atomic_i64(long long *hi, const long long *x, // EXPECT-AT
                                   int rows, int cols) {
  int c = blockIdx.x * blockDim.x + threadIdx.x;
  int r = blockIdx.y;
  if (c >= cols || r >= rows)
    return;
  atomicMax(&hi[r], x[r * cols + c]);
}
