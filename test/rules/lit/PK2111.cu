// PK2111 (check): warpSize used as a constant expression (an array bound, a
// template argument, a static_assert, a constexpr initialiser, a case label)
// stops compiling from ROCm 7.0, where it is a run-time value (and it was 64,
// not 32, before).
// RUN: not %pk check -q --to hip %s 2>&1 | FileCheck %s --check-prefix=DIAG

// Sum over groups of WIDTH lanes.
template <int WIDTH> __device__ float groupSum(float v) {
  for (int o = WIDTH / 2; o > 0; o >>= 1)
    v += __shfl_xor_sync(0xffffffff, v, o, WIDTH);
  return v;
}

template <int N> struct LaneBuffer {
  float v[N];
};

__global__ void blockSum(const float *in, float *out) {
// DIAG: PK2111.cu:[[@LINE+1]]:25: warning: warpSize in a constant expression: it is no constant expression from ROCm 7.0 (and 64, not 32, before) [PK2111]
  constexpr int kWarp = warpSize;
// DIAG: PK2111.cu:[[@LINE+1]]:23: warning: warpSize in a constant expression: {{.*}} [PK2111]
  static_assert(256 % warpSize == 0, "whole warps");
// DIAG: PK2111.cu:[[@LINE+1]]:34: warning: warpSize in a constant expression: {{.*}} [PK2111]
  __shared__ float partial[256 / warpSize];
// DIAG: PK2111.cu:[[@LINE+1]]:14: warning: warpSize in a constant expression: {{.*}} [PK2111]
  LaneBuffer<warpSize> staged;
  // Run-time uses of warpSize are not constant expressions.
// DIAG-NOT: [PK2111]
  const int lane = threadIdx.x % warpSize;
  const int warp = threadIdx.x / warpSize;
  staged.v[lane] = in[blockIdx.x * 256 + threadIdx.x];
// DIAG: PK2111.cu:[[@LINE+1]]:22: warning: warpSize in a constant expression: {{.*}} [PK2111]
  float v = groupSum<warpSize>(staged.v[lane]);
  switch (lane) {
// DIAG: PK2111.cu:[[@LINE+1]]:8: warning: warpSize in a constant expression: {{.*}} [PK2111]
  case warpSize - 1:
    partial[warp] = v;
    break;
  default:
    break;
  }
  __syncthreads();
  if (threadIdx.x == 0) {
    float s = 0.0f;
    for (int w = 0; w < 256 / kWarp; ++w)
      s += partial[w];
    out[blockIdx.x] = s;
  }
}
// DIAG-NOT: [PK2111]
