// online_softmax: row softmax in one pass over the data for the max and
// the sum: each lane keeps a running max m and a running sum d, rescaling d
// by exp(m_old - m_new) whenever the max grows; the lanes' (m, d) pairs are
// merged the same way through xor-butterflies; one warp per row.
// Idiom: online softmax (running max rescaling), the lanes' pairs merged by
// the same rescale: read as the row's max and the sum of exp(x - max).
// EXPECT: lift
#include <cuda_runtime.h>
#include <float.h>

__global__ void online_softmax(float *out, const float *in, int rows,
                               int cols) {
  int lane = threadIdx.x & 31;
  int row = blockIdx.x * (blockDim.x >> 5) + (threadIdx.x >> 5);
  if (row >= rows)
    return;
  const float *x = in + row * cols;
  float m = -FLT_MAX;
  float d = 0.0f;
  for (int c = lane; c < cols; c += 32) {
    float v = x[c];
    float mNew = fmaxf(m, v);
    d = d * expf(m - mNew) + expf(v - mNew);
    m = mNew;
  }
  for (int o = 16; o > 0; o >>= 1) {
    float mo = __shfl_xor_sync(0xffffffff, m, o);
    float dO = __shfl_xor_sync(0xffffffff, d, o);
    float mNew = fmaxf(m, mo);
    d = d * expf(m - mNew) + dO * expf(mo - mNew);
    m = mNew;
  }
  float inv = 1.0f / d;
  for (int c = lane; c < cols; c += 32)
    out[row * cols + c] = expf(x[c] - m) * inv;
}
