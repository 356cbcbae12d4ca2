#include <cuda_runtime.h>
// Nested warp calls: the mask argument that holds __activemask() is removed
// with it (no PK9002).
__global__ void votes(const int *in, unsigned *out) {
  const int v = in[threadIdx.x];
  unsigned b = __ballot_sync(__activemask(), v > 0);
  int any = __any_sync(__activemask(), v < 0);
  float s = __shfl_xor_sync(__activemask(), (float)v, 1);
  out[threadIdx.x] = b + (unsigned)any + (unsigned)s;
}
