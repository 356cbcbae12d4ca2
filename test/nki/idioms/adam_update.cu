// adam_update: one Adam step with decoupled weight decay, in place on the
// parameters and both moment estimates; the bias corrections are scalars
// the host computes.  One thread per element, a grid-stride-free launch.
// Idiom: three read-modify-write outputs, lerp-style moment updates,
// sqrtf, scalar hyper-parameters.
// EXPECT: lift
#include <cuda_runtime.h>

__global__ void adam_update(float *w, const float *g, float *m, float *v,
                            int n, float lr, float b1, float b2, float c1,
                            float c2, float eps, float wd) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n)
    return;
  float gi = g[i];
  float mi = b1 * m[i] + (1.0f - b1) * gi;
  float vi = b2 * v[i] + (1.0f - b2) * gi * gi;
  m[i] = mi;
  v[i] = vi;
  float mh = mi / c1, vh = vi / c2;
  w[i] -= lr * (mh / (sqrtf(vh) + eps) + wd * w[i]);
}
