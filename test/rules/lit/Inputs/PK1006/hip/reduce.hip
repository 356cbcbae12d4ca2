// Input of the PK1006 test (HIP side): its include of wave_utils.hiph must
// name wave_utils.cuh in the CUDA output.
#include <hip/hip_runtime.h>
#include "wave_utils.hiph"

__global__ void sums(const float *in, float *out) {
  float v = half_wave_sum(in[threadIdx.x]);
  if (threadIdx.x % 32 == 0)
    out[threadIdx.x / 32] = v;
}
