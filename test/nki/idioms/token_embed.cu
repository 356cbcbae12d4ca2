// token_embed: out[r][c] = table[ids[r]][c] + pos[r % L][c]: an embedding
// lookup by token id plus a position embedding, one thread per element.
// Idiom: a row index read from memory (a gather).
// EXPECT: refuse PK5003 "depends on data read at run time"
#include <cuda_runtime.h>

__global__ void token_embed(float *out, const int *ids, const float *table,
                            const float *pos, int rows, int L, int C) {
  int idx = blockIdx.x * blockDim.x + threadIdx.x;
  if (idx >= rows * C)
    return;
  int r = idx / C, c = idx % C;
  out[idx] = table[ids[r] * C + c] + pos[(r % L) * C + c]; // EXPECT-AT
}
