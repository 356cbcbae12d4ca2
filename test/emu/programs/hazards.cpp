// Warp-32 assumptions in HIP-spelled kernels: right at warp width 32, wrong at 64.
#include <hip/hip_runtime.h>
#include <cstdio>

// 1. Per-warp reduction with __shfl_down(v, 16..1) at the default width, then the warp total is
//    broadcast from lane 0 with __shfl(v, 0) and every thread stores it.
__global__ void warp_reduce(const int* in, int* out) {
  int tid = threadIdx.x;
  int v = in[tid];
  for (int o = 16; o > 0; o >>= 1) v += __shfl_down(v, o);
  out[tid] = __shfl(v, 0);
}

// 2. Ballot stored in a 32-bit unsigned, counted with __popc.
__global__ void ballot_count(const int* in, int* out) {
  int tid = threadIdx.x, lane = tid & 31, warp = tid >> 5;
  unsigned b = __ballot(in[tid] > 0);
  if (lane == 0) out[warp] = __popc(b);
}

// 3. Per-warp partial sums in a shared array indexed by tid / warpSize, sized for 32-lane warps.
__global__ void block_sum(const int* in, int* out) {
  PKEMU_SHARED(partial, int[4]);
  int tid = threadIdx.x;
  int v = in[tid];
  for (int o = 16; o > 0; o >>= 1) v += __shfl_xor(v, o);
  if (__lane_id() == 0) partial[tid / warpSize] = v;
  __syncthreads();
  if (tid == 0) *out = partial[0] + partial[1] + partial[2] + partial[3];
}

int main() {
  const int n = 128;
  int *in, *out;
  hipMallocManaged((void**)&in, n * sizeof(int));
  hipMallocManaged((void**)&out, n * sizeof(int));
  for (int i = 0; i < n; ++i) in[i] = i + 1;

  int ok1 = 1, ok2 = 1, ok3 = 1;
  hipLaunchKernelGGL(warp_reduce, dim3(1), dim3(n), 0, 0, in, out);
  hipDeviceSynchronize();
  for (int t = 0; t < n; ++t) {
    int w = t / 32, want = 0;
    for (int i = 32 * w; i < 32 * w + 32; ++i) want += i + 1;
    if (t % 32 == 0) printf("warp_reduce[%d]=%d (want %d)\n", t, out[t], want);
    ok1 &= out[t] == want;
  }

  for (int i = 0; i < n; ++i) in[i] = (i < 32 || (i >= 64 && i < 72)) ? 1 : 0;  // 32, 0, 8, 0 per warp
  hipLaunchKernelGGL(ballot_count, dim3(1), dim3(n), 0, 0, in, out);
  hipDeviceSynchronize();
  const int want2[4] = {32, 0, 8, 0};
  for (int w = 0; w < 4; ++w) {
    printf("ballot_count[%d]=%d (want %d)\n", w, out[w], want2[w]);
    ok2 &= out[w] == want2[w];
  }

  for (int i = 0; i < n; ++i) in[i] = i + 1;
  hipLaunchKernelGGL(block_sum, dim3(1), dim3(n), 0, 0, in, out);
  hipDeviceSynchronize();
  printf("block_sum=%d (want %d)\n", out[0], n * (n + 1) / 2);
  ok3 = out[0] == n * (n + 1) / 2;

  printf("hazard warp_reduce: %s\n", ok1 ? "RIGHT" : "WRONG");
  printf("hazard ballot_count: %s\n", ok2 ? "RIGHT" : "WRONG");
  printf("hazard block_sum: %s\n", ok3 ? "RIGHT" : "WRONG");
  return 0;
}
