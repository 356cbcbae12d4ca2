// pos_add_mod_rows: out[b][t][c] = x[b][t][c] + pos[t][c], a (T, C)
// position table added to every one of B sequences, over a flat index.
// Idiom: `t = (i / C) % T` reads pos at a row that wraps every T rows.  A
// tile of 128 rows would cross those wraps: refused with the reason.
// EXPECT: refuse PK5006 "'t' is not an affine function"
#include <cuda_runtime.h>

__global__ void pos_add_mod_rows(float *out, const float *x, const float *pos,
                                 int B, int T, int C) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < B * T * C) {
    int t = (i / C) % T; // EXPECT-AT
    int c = i % C;
    out[i] = x[i] + pos[t * C + c];
  }
}
