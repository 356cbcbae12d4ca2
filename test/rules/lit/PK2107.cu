// PK2107 (check): a kernel with warp-level code launched with blocks whose x
// size is not a multiple of 64 (or declared __launch_bounds__(32)) leaves
// lanes of its last 64-lane wave empty.
// RUN: not %pk check -q --to hip %s 2>&1 | FileCheck %s --check-prefix=DIAG

// Each block scans its tile; the last lane writes the block total.
__global__ void tileScan(const float *in, float *out, float *totals) {
  const int lane = threadIdx.x % warpSize;
  const int gid = blockIdx.x * blockDim.x + threadIdx.x;
  float v = in[gid];
  for (int d = 1; d < warpSize; d *= 2) {
    const float t = __shfl_up_sync(0xffffffff, v, d);
    if (lane >= d)
      v += t;
  }
  out[gid] = v;
  if (lane == warpSize - 1)
    totals[blockIdx.x] = v;
}

// DIAG: PK2107.cu:[[@LINE+1]]:35: warning: __launch_bounds__(32): blocks of at most 32 threads fill half a 64-lane wave [PK2107]
__global__ void __launch_bounds__(32) anyNegative(const float *x, int *flag) {
  if (__any_sync(0xffffffff, x[blockIdx.x * 32 + threadIdx.x] < 0.0f) &&
      threadIdx.x == 0)
    flag[blockIdx.x] = 1;
}

// No warp-level code: any block size is fine.
__global__ void addOffsets(float *out, const float *offsets) {
  out[blockIdx.x * blockDim.x + threadIdx.x] += offsets[blockIdx.x];
}

void scanTiles(const float *in, float *out, float *totals, int *flag,
               int tiles) {
// DIAG: PK2107.cu:[[@LINE+1]]:21: warning: kernel tileScan is launched with blocks of 32 threads in x: half of a 64-lane wave stays empty, and ballots see zeros in lanes 32-63 [PK2107]
  tileScan<<<tiles, 32>>>(in, out, totals);
// DIAG: PK2107.cu:[[@LINE+1]]:27: warning: kernel tileScan is launched with blocks of 32 threads in x: half of a 64-lane wave stays empty, and ballots see zeros in lanes 32-63 [PK2107]
  tileScan<<<dim3(tiles), dim3(32, 1, 1)>>>(in, out, totals);
// DIAG: PK2107.cu:[[@LINE+1]]:21: warning: kernel tileScan is launched with blocks of 96 threads in x: the last wave of each block is partly empty [PK2107]
  tileScan<<<tiles, 96>>>(in, out, totals);
// DIAG-NOT: [PK2107]
  tileScan<<<tiles, 256>>>(in, out, totals);
// DIAG: PK2107.cu:[[@LINE+1]]:24: warning: kernel anyNegative is launched with blocks of 32 threads in x: half of a 64-lane wave stays empty, and ballots see zeros in lanes 32-63 [PK2107]
  anyNegative<<<tiles, 32>>>(in, flag);
  addOffsets<<<tiles, 32>>>(out, totals);
}
// DIAG-NOT: [PK2107]
