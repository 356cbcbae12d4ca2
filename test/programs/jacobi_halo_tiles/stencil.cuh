// Jacobi relaxation of the 2-D Poisson problem  -lap(u) = f  on an nx x ny
// grid of unknowns with u = 0 on the boundary, through shared-memory tiles
// that carry a one-cell halo.
#pragma once
#include "helper_cuda.h"

#define BLOCK_X 16
#define BLOCK_Y 8

struct Grid2D {
  int nx, ny;  // unknowns; the arrays are (nx + 2) x (ny + 2) with the boundary
  int stride;  // elements per row of the device arrays (pitched, >= nx + 2)
  float h2;    // squared mesh width
  HOST_DEVICE int pitch() const { return stride; }
  HOST_DEVICE int at(int i, int j) const { return (j + 1) * pitch() + (i + 1); }
};

// Float atomic maximum through compare-and-swap on the bit pattern.
__device__ __forceinline__ float atomicMaxFloat(float *address, float val) {
  int *addressAsInt = (int *)address;
  int old = *addressAsInt, assumed;
  do {
    assumed = old;
    if (__int_as_float(assumed) >= val)
      break;
    old = atomicCAS(addressAsInt, assumed, __float_as_int(val));
  } while (assumed != old);
  return __int_as_float(old);
}

// One sweep: out = (sum of the four neighbours of in + h^2 f) / 4, on interior
// points only; the boundary ring of out is left as it is.
template <int BX, int BY>
__global__ void jacobiSweep(Grid2D g, const float *__restrict__ in, float *__restrict__ out,
                            const float *__restrict__ f) {
  __shared__ float tile[BY + 2][BX + 2];
  const int tx = threadIdx.x, ty = threadIdx.y;
  const int i = blockIdx.x * BX + tx; // interior coordinates
  const int j = blockIdx.y * BY + ty;
  const bool inside = i < g.nx && j < g.ny;

  // Centre and halo: the threads of interior points load their own value;
  // those on the tile's edges (or the grid's last row and column, in ragged
  // tiles) also load the neighbour beyond it, boundary values included.
  if (inside) {
    tile[ty + 1][tx + 1] = in[g.at(i, j)];
    if (tx == 0)
      tile[ty + 1][0] = in[g.at(i - 1, j)];
    if (ty == 0)
      tile[0][tx + 1] = in[g.at(i, j - 1)];
  }
  if (inside && (tx == BX - 1 || i == g.nx - 1))
    tile[ty + 1][tx + 2] = in[g.at(i + 1, j)];
  if (inside && (ty == BY - 1 || j == g.ny - 1))
    tile[ty + 2][tx + 1] = in[g.at(i, j + 1)];
  __syncthreads();

  if (inside) {
    float s = tile[ty + 1][tx] + tile[ty + 1][tx + 2] + tile[ty][tx + 1] + tile[ty + 2][tx + 1];
    out[g.at(i, j)] = 0.25f * (s + g.h2 * f[g.at(i, j)]);
  }
}

// Largest change of the sweep, per block: a shared-memory tree over the
// tile, one value per block to the host.
template <int BX, int BY>
__global__ void maxChange(Grid2D g, const float *a, const float *b, float *blockMax,
                          float *globalMax) {
  __shared__ float red[BX * BY];
  const int tid = threadIdx.y * BX + threadIdx.x;
  const int i = blockIdx.x * BX + threadIdx.x;
  const int j = blockIdx.y * BY + threadIdx.y;
  float d = 0.0f;
  if (i < g.nx && j < g.ny)
    d = fabsf(a[g.at(i, j)] - b[g.at(i, j)]);
  red[tid] = d;
  __syncthreads();
  for (int s = (BX * BY) / 2; s > 0; s >>= 1) {
    if (tid < s)
      red[tid] = fmaxf(red[tid], red[tid + s]);
    __syncthreads();
  }
  if (tid == 0) {
    blockMax[blockIdx.y * gridDim.x + blockIdx.x] = red[0];
    atomicMaxFloat(globalMax, red[0]);
  }
}

// Residual r = f + lap_h(u), per point (with lap_h the 5-point Laplacian / h^2).
__global__ void residual(Grid2D g, const float *u, const float *f, float *r) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  const int j = blockIdx.y * blockDim.y + threadIdx.y;
  if (i >= g.nx || j >= g.ny)
    return;
  const int p = g.at(i, j);
  float lap = u[p - 1] + u[p + 1] + u[p - g.pitch()] + u[p + g.pitch()] - 4.0f * u[p];
  r[p] = f[p] + lap / g.h2;
}
