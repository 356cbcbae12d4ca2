// histogram_bins: hist[b] += number of x[i] in bin b of nbins equal bins of
// [lo, hi) (values outside are dropped).
// Idiom: grid-stride loop, the bin computed from the data, then
// atomicAdd(&hist[bin], 1) in global memory: the address depends on data.
// EXPECT: refuse PK5002 "depends on data"
#include <cuda_runtime.h>

__global__ void histogram_bins(unsigned int *hist, const float *x, int n,
                               float lo, float hi, int nbins) {
  float scale = nbins / (hi - lo);
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n;
       i += blockDim.x * gridDim.x) {
    int bin = (int)((x[i] - lo) * scale);
    if (bin >= 0 && bin < nbins)
      atomicAdd(&hist[bin], 1u); // EXPECT-AT
  }
}
