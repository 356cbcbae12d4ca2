// fields_decimate: out[i] = a[2i], every other element.
// Idiom: one field of pairs read alone, with no other access to the pair.
// Each thread reads one offset, so no record is seen: a strided gather,
// refused with the reason.
// EXPECT: refuse PK5006 "is not the thread's element"
#include <cuda_runtime.h>

__global__ void fields_decimate(float *out, const float *a, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    out[i] = a[2 * i]; // EXPECT-AT
}
