// store_first_field: p[i].x = 2 * p[i].y for n float2 values; .y keeps
// its value.
// Idiom: a store to one field of a record in place.  The tile program
// writes whole rows of fields, and the field not stored would not keep its
// value: refused at the store, never lifted with the other field lost.
// EXPECT: refuse PK5007 "stored at column 0 of its rows of 2"
#include <cuda_runtime.h>

__global__ void store_first_field(float2 *p, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    p[i].x = 2.0f * p[i].y; // EXPECT-AT
}
