// compact_positive: copies the positive elements of in to out, in any order,
// and counts them in *count (stream compaction).
// Idiom: a global counter claimed with atomicAdd gives each kept element its
// output position: the store index depends on data.
// EXPECT: refuse PK5003 "depends on data"
#include <cuda_runtime.h>

__global__ void compact_positive(float *out, int *count, const float *in,
                                 int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    float v = in[i];
    if (v > 0.0f) {
      int pos = atomicAdd(count, 1);
      out[pos] = v; // EXPECT-AT
    }
  }
}
