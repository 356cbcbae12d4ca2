// cross_entropy_rows: loss[r] = logsumexp(logits[r]) - logits[r][label[r]],
// the cross-entropy of each row against its integer label.
// Idiom: one warp per row, max and sum by xor-butterflies, then the target
// logit gathered at logits[row * n + label[row]]: an index read from memory.
// EXPECT: refuse PK5003 "depends on data"
#include <cuda_runtime.h>
#include <float.h>

__global__ void cross_entropy_rows(float *loss, const float *logits,
                                   const int *label, int rows, int n) {
  int lane = threadIdx.x & 31;
  int row = blockIdx.x * (blockDim.x / 32) + (threadIdx.x >> 5);
  if (row >= rows)
    return;
  const float *x = logits + row * n;
  float m = -FLT_MAX;
  for (int c = lane; c < n; c += 32)
    m = fmaxf(m, x[c]);
  for (int o = 16; o > 0; o >>= 1)
    m = fmaxf(m, __shfl_xor_sync(0xffffffff, m, o));
  float s = 0.0f;
  for (int c = lane; c < n; c += 32)
    s += expf(x[c] - m);
  for (int o = 16; o > 0; o >>= 1)
    s += __shfl_xor_sync(0xffffffff, s, o);
  if (lane == 0)
    loss[row] = m + logf(s) - logits[row * n + label[row]]; // EXPECT-AT
}
