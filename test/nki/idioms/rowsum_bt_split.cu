// rowsum_bt_split: out[b][t] = sum over c of inp[b][t][c], one block per
// (b, t) pair with the block index split as b = blockIdx.x / T and t =
// blockIdx.x % T, a shared-memory tree.
// Idiom: a row addressed through the split coordinates (b * T * C + t *
// C), which recombine to the block's row.
// EXPECT: lift
#include <cuda_runtime.h>

__global__ void rowsum_bt_split(float *out, const float *inp, int B, int T,
                                int C) {
  int b = blockIdx.x / T;
  int t = blockIdx.x % T;
  const float *x = inp + b * T * C + t * C;
  __shared__ float s[256];
  float acc = 0.0f;
  for (int c = threadIdx.x; c < C; c += blockDim.x)
    acc += x[c];
  s[threadIdx.x] = acc;
  __syncthreads();
  for (int k = blockDim.x / 2; k > 0; k /= 2) {
    if (threadIdx.x < k)
      s[threadIdx.x] += s[threadIdx.x + k];
    __syncthreads();
  }
  if (threadIdx.x == 0)
    out[b * T + t] = s[0];
}
