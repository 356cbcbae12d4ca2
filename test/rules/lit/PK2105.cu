// PK2105 (check): a shared array with one slot per 32-lane warp or per lane
// (indexed by the warp id or the lane id) is sized or indexed for 32-lane
// warps; reported once per array, at its declaration.
// RUN: not %pk check -q --to hip %s 2>&1 | FileCheck %s --check-prefix=DIAG

#define THREADS 256
#define WARPS (THREADS / 32)

// Each warp stages its values in its own row; lane 0 adds the row up.
__global__ void stagedSum(const float *x, float *out) {
// DIAG: PK2105.cu:[[@LINE+1]]:20: warning: per-warp shared array 'rows[WARPS]' is indexed by the warp id: it holds one slot per 32-lane warp or lane; on 64-lane waves the warp and lane numbering differ [PK2105]
  __shared__ float rows[WARPS][32];
// DIAG: PK2105.cu:[[@LINE+1]]:20: warning: per-warp shared array 'partial[WARPS]' is indexed by the warp id: it holds one slot per 32-lane warp or lane; on 64-lane waves the warp and lane numbering differ [PK2105]
  __shared__ float partial[WARPS];
  // One slot per thread: not a per-warp array.
// DIAG-NOT: PK2105.cu:[[@LINE+1]]:{{.*}}[PK2105]
  __shared__ float sdata[THREADS];
  const int tid = threadIdx.x;
  const int lane = tid % 32;
  const int warp = tid / 32;
  sdata[tid] = x[blockIdx.x * THREADS + tid];
  rows[warp][lane] = sdata[tid] * 2.0f;
  __syncwarp();
  if (lane == 0) {
    float s = 0.0f;
    for (int i = 0; i < warpSize; ++i)
      s += rows[warp][i];
    partial[warp] = s;
  }
  __syncthreads();
  if (tid == 0) {
    float s = 0.0f;
    for (int w = 0; w < WARPS; ++w)
      s += partial[w];
    out[blockIdx.x] = s;
  }
}

// One slot per lane, indexed by tid % warpSize: out of bounds when warpSize
// is 64.
__global__ void rotate(const float *x, float *out) {
// DIAG: PK2105.cu:[[@LINE+1]]:20: warning: per-warp shared array 'slot[32]' is indexed by the lane id: it holds one slot per 32-lane warp or lane; on 64-lane waves the warp and lane numbering differ [PK2105]
  __shared__ float slot[32];
  const int lane = threadIdx.x % warpSize;
  slot[lane] = x[threadIdx.x];
  __syncwarp();
  out[threadIdx.x] = slot[(lane + 1) % warpSize];
}
// DIAG-NOT: [PK2105]
