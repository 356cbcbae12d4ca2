// PK3017: which shared tiles get a new row pitch, and why others keep theirs.
#include <cuda_fp16.h>
#include <mma.h>

using namespace nvcuda;

typedef wmma::fragment<wmma::matrix_a, 16, 16, 16, __half, wmma::row_major> FragA;
typedef wmma::fragment<wmma::accumulator, 16, 16, 16, float> FragC;

__device__ float sum(const FragA &a) {
  float s = 0.0f;
  for (int e = 0; e < a.num_elements; ++e)
    s += __half2float(a.x[e]);
  return s;
}

__device__ void stage(__half *dst, const __half *src) {
  for (int i = threadIdx.x; i < 16 * 24; i += blockDim.x)
    dst[i] = src[i];
}

// Re-planned: rows reached through a decayed row pointer, in a template.
template <int Scale>
__global__ void replanned(const __half *g, float *out) {
  __shared__ __half T[32][24];
  for (int i = threadIdx.x; i < 32 * 16; i += blockDim.x)
    T[i / 16][i % 16] = g[i];
  __syncthreads();
  FragA a;
  wmma::load_matrix_sync(a, T[(threadIdx.x / 32) * 16], 24);
  out[threadIdx.x] = Scale * sum(a);
}
template __global__ void replanned<2>(const __half *, float *);

// Kept: a pointer to the tile is passed on.
__global__ void passed_on(const __half *g, float *out) {
  __shared__ __half P[16][24];
  stage(&P[0][0], g);
  __syncthreads();
  FragA a;
  wmma::load_matrix_sync(a, &P[0][0], 24);
  out[threadIdx.x] = sum(a);
}

// Kept: its size is taken.
__global__ void sized(const __half *g, float *out) {
  __shared__ __half S[16][24];
  for (unsigned i = threadIdx.x; i < sizeof(S) / sizeof(__half); i += blockDim.x)
    S[i / 24][i % 24] = g[i];
  __syncthreads();
  FragA a;
  wmma::load_matrix_sync(a, &S[0][0], 24);
  out[threadIdx.x] = sum(a);
}

// Kept: the leading dimension is written inside a macro body.
#define LOAD_ROWS(f, r) wmma::load_matrix_sync(f, &Mb[r][0], 24)
__global__ void in_macro(const __half *g, float *out) {
  __shared__ __half Mb[16][24];
  for (int i = threadIdx.x; i < 16 * 16; i += blockDim.x)
    Mb[i / 16][i % 16] = g[i];
  __syncthreads();
  FragA a;
  LOAD_ROWS(a, 0);
  out[threadIdx.x] = sum(a);
}

// Kept: the array type is an alias.
typedef __half Tile[16][24];
__global__ void aliased(const __half *g, float *out) {
  __shared__ Tile Al;
  for (int i = threadIdx.x; i < 16 * 16; i += blockDim.x)
    Al[i / 16][i % 16] = g[i];
  __syncthreads();
  FragA a;
  wmma::load_matrix_sync(a, &Al[0][0], 24);
  out[threadIdx.x] = sum(a);
}

// Kept: the growth would not fit in 64 KiB.
__global__ void too_big(const __half *g, float *out) {
  __shared__ __half Big[1360][24];
  for (int i = threadIdx.x; i < 1360 * 16; i += blockDim.x)
    Big[i / 16][i % 16] = g[i];
  __syncthreads();
  FragA a;
  wmma::load_matrix_sync(a, &Big[(threadIdx.x / 32) * 16][0], 24);
  out[threadIdx.x] = sum(a);
}

// Kept: 2 workgroups fit in a CU's LDS now, 1 after the growth.
__global__ void occupancy(const __half *g, float *out) {
  __shared__ __half Oc[672][24];
  for (int i = threadIdx.x; i < 672 * 16; i += blockDim.x)
    Oc[i / 16][i % 16] = g[i];
  __syncthreads();
  FragA a;
  wmma::load_matrix_sync(a, &Oc[(threadIdx.x / 32) * 16][0], 24);
  out[threadIdx.x] = sum(a);
}

// The growth adds up: 'X' is re-planned (2 workgroups still fit), 'Y' is
// kept (with both, only 1 would).
__global__ void two_tiles(const __half *g, float *out) {
  __shared__ __half X[304][24];
  __shared__ __half Y[304][24];
  for (int i = threadIdx.x; i < 304 * 16; i += blockDim.x) {
    X[i / 16][i % 16] = g[i];
    Y[i / 16][i % 16] = g[i];
  }
  __syncthreads();
  FragA a, b;
  wmma::load_matrix_sync(a, &X[(threadIdx.x / 32) * 16][0], 24);
  wmma::load_matrix_sync(b, &Y[(threadIdx.x / 32) * 16][0], 24);
  out[threadIdx.x] = sum(a) + sum(b);
}

// Re-planned: 5 -> 4 workgroups by LDS, but 1024-thread blocks (16 waves)
// fit only 2 to a CU anyway.
__global__ void __launch_bounds__(1024) big_blocks(const __half *g, float *out) {
  __shared__ __half Lb[256][24];
  for (int i = threadIdx.x; i < 256 * 16; i += blockDim.x)
    Lb[i / 16][i % 16] = g[i];
  __syncthreads();
  FragA a;
  wmma::load_matrix_sync(a, &Lb[(threadIdx.x / 32) * 16 % 256][0], 24);
  out[threadIdx.x] = sum(a);
}

// Advice only: dynamic shared memory with a hand-made pitch of 24 halves.
#define LDA 24
__global__ void dynamic(const __half *g, float *out) {
  extern __shared__ __half smem[];
  __half *As = smem + 64;
  for (int i = threadIdx.x; i < 32 * 16; i += blockDim.x)
    As[(i / 16) * LDA + i % 16] = g[i];
  __syncthreads();
  FragA a;
  wmma::load_matrix_sync(a, As + (threadIdx.x / 32) * 16 * LDA, LDA);
  out[threadIdx.x] = sum(a);
}

// Advice only: a 1-D array with a hand-made pitch; no advice for pitch 28.
__global__ void flat_rows(const __half *g, float *out) {
  __shared__ __half R1[32 * 24];
  __shared__ __half R2[32 * 28];
  for (int i = threadIdx.x; i < 32 * 16; i += blockDim.x) {
    R1[(i / 16) * 24 + i % 16] = g[i];
    R2[(i / 16) * 28 + i % 16] = g[i];
  }
  __syncthreads();
  FragA a, b;
  wmma::load_matrix_sync(a, &R1[(threadIdx.x / 32) * 16 * 24], 24);
  wmma::load_matrix_sync(b, &R2[(threadIdx.x / 32) * 16 * 28], 28);
  out[threadIdx.x] = sum(a) + sum(b);
}

// Not a row-per-row tile (leading dimension 16 in rows of 256): no note.
__global__ void flat(float *out) {
  __shared__ float Fl[4][256];
  FragC c;
  wmma::fill_fragment(c, 1.0f);
  wmma::store_matrix_sync(Fl[threadIdx.x / 32], c, 16, wmma::mem_row_major);
  __syncthreads();
  out[threadIdx.x] = Fl[threadIdx.x / 32][threadIdx.x % 32];
}
