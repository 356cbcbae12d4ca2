// xent_grad_flat: the gradient of softmax cross-entropy, d[r][c] += (p[r][c]
// - (c == label[r])) * g[r], over a flat index i of B * T rows of V
// classes split as b = i / (T * V), t = (i / V) % T, c = i % V.
// Idiom: a 3-level delinearised index recombined (b * T + t is the row),
// and a one-hot `c == label ? 1.0f : 0.0f` (iota against the label).
// EXPECT: lift
#include <cuda_runtime.h>

__global__ void xent_grad_flat(float *d, const float *g, const float *p,
                               const int *label, int B, int T, int V) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= B * T * V)
    return;
  int b = i / (T * V);
  int t = (i / V) % T;
  int c = i % V;
  int row = b * T + t;
  float onehot = c == label[row] ? 1.0f : 0.0f;
  d[b * T * V + t * V + c] += (p[row * V + c] - onehot) * g[row];
}
