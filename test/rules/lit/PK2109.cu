// PK2109 (check): implicit warp-synchronous code: volatile shared-memory steps
// that read another lane's slot and write their own with no __syncwarp in
// between (the classic unrolled warpReduce).
// RUN: not %pk check -q --to hip %s 2>&1 | FileCheck %s --check-prefix=DIAG

// The last six steps of the classic block reduction.
__device__ void warpReduce(volatile float *s, int tid) {
// DIAG: PK2109.cu:[[@LINE+1]]:3: warning: 's[tid] += s[tid + 32]' reads another lane's volatile shared-memory slot and writes its own with no __syncwarp: implicit warp-synchronous code [PK2109]
  s[tid] += s[tid + 32];
// DIAG: PK2109.cu:[[@LINE+1]]:3: warning: 's[tid] += s[tid + 16]' reads another lane's volatile shared-memory slot and writes its own with no __syncwarp: implicit warp-synchronous code [PK2109]
  s[tid] += s[tid + 16];
// DIAG: PK2109.cu:[[@LINE+1]]:3: warning: 's[tid] += s[tid + 8]' {{.*}} [PK2109]
  s[tid] += s[tid + 8];
// DIAG: PK2109.cu:[[@LINE+1]]:3: warning: 's[tid] += s[tid + 4]' {{.*}} [PK2109]
  s[tid] += s[tid + 4];
// DIAG: PK2109.cu:[[@LINE+1]]:3: warning: 's[tid] += s[tid + 2]' {{.*}} [PK2109]
  s[tid] += s[tid + 2];
// DIAG: PK2109.cu:[[@LINE+1]]:3: warning: 's[tid] += s[tid + 1]' {{.*}} [PK2109]
  s[tid] += s[tid + 1];
}

// CUDA 9's form: each read and write separated by __syncwarp.
// DIAG-NOT: [PK2109]
__device__ void warpReduceSynced(volatile float *s, int tid) {
  float v = s[tid];
  v += s[tid + 16];
  __syncwarp();
  s[tid] = v;
  __syncwarp();
  v += s[tid + 8];
  __syncwarp();
  s[tid] = v;
  __syncwarp();
}

template <unsigned BLOCK>
__global__ void reduce(const float *in, float *out, float *out2) {
  __shared__ float sdata[BLOCK];
  const int tid = threadIdx.x;
  sdata[tid] = in[blockIdx.x * BLOCK + tid];
  __syncthreads();
  for (unsigned s = BLOCK / 2; s > 32; s >>= 1) {
    if (tid < s)
      sdata[tid] += sdata[tid + s];
    __syncthreads();
  }
  if (tid < 32)
    warpReduce(sdata, tid);
  __syncthreads();
  if (tid == 0)
    out[blockIdx.x] = sdata[0];
  __syncthreads();
  sdata[tid] = in[blockIdx.x * BLOCK + tid];
  __syncthreads();
  if (tid < 32)
    warpReduceSynced(sdata, tid);
  if (tid == 0)
    out2[blockIdx.x] = sdata[0];
}
template __global__ void reduce<64>(const float *, float *, float *);
