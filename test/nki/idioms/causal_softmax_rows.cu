// causal_softmax_rows: for query row t of a (T, T) score matrix, softmax
// over the columns 0..t only (a causal mask), the rest of the row zero; one
// thread per row, as in the first kernel of most attention write-ups.
// Idiom: reduction loops whose bound is the thread's own row (`c <= t`),
// the store masked by `c <= t ? ... : 0`: nisa.affine_select on the terms
// of the other columns and on the stored tile.
// EXPECT: lift
#include <cuda_runtime.h>
#include <math.h>

__global__ void causal_softmax_rows(float *p, const float *s, int T,
                                    float scale) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t >= T)
    return;
  const float *row = s + t * T;
  float m = -INFINITY;
  for (int c = 0; c <= t; c++)
    m = fmaxf(m, row[c] * scale);
  float z = 0.0f;
  for (int c = 0; c <= t; c++)
    z += expf(row[c] * scale - m);
  for (int c = 0; c < T; c++)
    p[t * T + c] = c <= t ? expf(row[c] * scale - m) / z : 0.0f;
}
