// Idioms of the CUDA sample suites that the emulator must run as nvcc
// builds them: a kernel parameter with a default argument (launched without
// it), cooperative-groups tile shuffles of a 16-byte vector type, the
// profiler's start/stop bracket and the device's clock().
#include <cooperative_groups.h>
#include <cstdio>
#include <cuda_profiler_api.h>
#include <cuda_runtime.h>

namespace cg = cooperative_groups;

// Scans each row of 32 values; the per-row totals only when asked for.
__global__ void rowScan(int *data, int width, int *rowTotals = NULL) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  int lane = threadIdx.x % 32;
  int v = data[i];
  for (int d = 1; d < 32; d *= 2) {
    int n = __shfl_up_sync(0xffffffff, v, d, width);
    if (lane >= d)
      v += n;
  }
  data[i] = v;
  if (rowTotals != NULL && lane == 31)
    rowTotals[i / 32] = v;
}

// Sums four lanes' worth of counters at once: the tile shuffles a uint4.
__global__ void sumQuads(const uint4 *in, uint4 *out, long long *cycles) {
  long long start = clock64();
  clock_t c0 = clock();
  auto tile = cg::tiled_partition<32>(cg::this_thread_block());
  uint4 v = in[blockIdx.x * blockDim.x + threadIdx.x];
  for (int m = 16; m > 0; m /= 2) {
    uint4 o = tile.shfl_xor(v, m);
    v.x += o.x;
    v.y += o.y;
    v.z += o.z;
    v.w += o.w;
  }
  cg::sync(tile); // the free function (HIP port: on its tile helper)
  if (tile.thread_rank() == 0)
    out[blockIdx.x * (blockDim.x / 32) + threadIdx.x / 32] = v;
  clock_t c1 = clock();
  if (threadIdx.x == 0)
    cycles[blockIdx.x] = (clock64() - start) + (long long)(c1 - c0) * 0;
}

// A reduction written once for any group, called with the block, a
// 16-thread tile and a tile whose size is a run-time value (8): each group
// is received as a thread_group.
__device__ int groupSum(cg::thread_group g, int *scratch, int v) {
  int rank = g.thread_rank();
  for (int i = g.size() / 2; i > 0; i /= 2) {
    scratch[rank] = v;
    g.sync();
    if (rank < i)
      v += scratch[rank + i];
    g.sync();
  }
  return v;
}

__global__ void groupSums(int *out) {
  __shared__ int scratch[64];
  cg::thread_block block = cg::this_thread_block();
  int t = block.thread_rank();
  int all = groupSum(block, scratch, t);
  block.sync();
  cg::thread_block_tile<16> tile16 = cg::tiled_partition<16>(block);
  int base16 = t - tile16.thread_rank();
  int sum16 = groupSum(tile16, scratch + base16, t);
  block.sync();
  cg::thread_group tile8 = cg::tiled_partition(block, 8);
  int base8 = t - tile8.thread_rank();
  int sum8 = groupSum(tile8, scratch + base8, t);
  if (t == 0)
    out[0] = all;
  if (tile16.thread_rank() == 0)
    out[1 + t / 16] = sum16;
  if (tile8.thread_rank() == 0)
    out[5 + t / 8] = sum8;
}

// A dynamic shared array of rows (extern __shared__ T name[][N], as the
// samples' tensor-core GEMM declares its tile): a transpose through it.
__global__ void transpose32(const float *in, float *out) {
  extern __shared__ float tile[][33];
  int x = threadIdx.x, y = threadIdx.y;
  tile[y][x] = in[y * 32 + x];
  __syncthreads();
  out[y * 32 + x] = tile[x][y];
}

int main() {
  const int rows = 8, n = rows * 32;
  int h[n], totals[rows];
  for (int i = 0; i < n; ++i)
    h[i] = i % 7;
  int *d, *dTotals;
  cudaMalloc(&d, sizeof(h));
  cudaMalloc(&dTotals, sizeof(totals));
  cudaMemcpy(d, h, sizeof(h), cudaMemcpyHostToDevice);
  cudaProfilerStart();
  rowScan<<<rows, 32>>>(d, 32, dTotals); // every argument
  rowScan<<<rows, 32>>>(d, 32);          // the default: no totals
  cudaProfilerStop();
  int out[n];
  cudaMemcpy(out, d, sizeof(out), cudaMemcpyDeviceToHost);
  cudaMemcpy(totals, dTotals, sizeof(totals), cudaMemcpyDeviceToHost);
  int bad = 0;
  for (int r = 0; r < rows; ++r) {
    int s = 0, ss = 0;
    for (int l = 0; l < 32; ++l) {
      s += h[r * 32 + l];
      ss += s; // the second scan of the first scan's output
      bad += out[r * 32 + l] != ss;
    }
    bad += totals[r] != s;
  }

  const int blocks = 4, threads = 64, quads = blocks * threads;
  uint4 hq[quads], hs[blocks * 2];
  for (int i = 0; i < quads; ++i)
    hq[i] = make_uint4(i, 2 * i, 1, 1000000u + i);
  uint4 *dq, *ds;
  long long *dc;
  cudaMalloc(&dq, sizeof(hq));
  cudaMalloc(&ds, sizeof(hs));
  cudaMalloc(&dc, blocks * sizeof(long long));
  cudaMemcpy(dq, hq, sizeof(hq), cudaMemcpyHostToDevice);
  sumQuads<<<blocks, threads>>>(dq, ds, dc);
  cudaMemcpy(hs, ds, sizeof(hs), cudaMemcpyDeviceToHost);
  long long cycles[blocks];
  cudaMemcpy(cycles, dc, sizeof(cycles), cudaMemcpyDeviceToHost);
  for (int w = 0; w < blocks * 2; ++w) {
    unsigned sx = 0, sy = 0, sz = 0, sw = 0;
    for (int l = 0; l < 32; ++l) {
      uint4 q = hq[w * 32 + l];
      sx += q.x, sy += q.y, sz += q.z, sw += q.w;
    }
    bad += hs[w].x != sx || hs[w].y != sy || hs[w].z != sz || hs[w].w != sw;
  }
  for (int b = 0; b < blocks; ++b)
    bad += cycles[b] < 0;
  int sums[13], *dSums;
  cudaMalloc(&dSums, sizeof(sums));
  groupSums<<<1, 64>>>(dSums);
  cudaMemcpy(sums, dSums, sizeof(sums), cudaMemcpyDeviceToHost);
  bad += sums[0] != 64 * 63 / 2;
  for (int k = 0; k < 4; ++k)
    bad += sums[1 + k] != 16 * (16 * k) + 16 * 15 / 2;
  for (int k = 0; k < 8; ++k)
    bad += sums[5 + k] != 8 * (8 * k) + 8 * 7 / 2;
  float hm[32 * 32], ht[32 * 32], *dm, *dt;
  for (int i = 0; i < 32 * 32; ++i)
    hm[i] = (float)i;
  cudaMalloc(&dm, sizeof(hm));
  cudaMalloc(&dt, sizeof(ht));
  cudaMemcpy(dm, hm, sizeof(hm), cudaMemcpyHostToDevice);
  transpose32<<<1, dim3(32, 32), 32 * 33 * sizeof(float)>>>(dm, dt);
  cudaMemcpy(ht, dt, sizeof(ht), cudaMemcpyDeviceToHost);
  for (int y = 0; y < 32; ++y)
    for (int x = 0; x < 32; ++x)
      bad += ht[y * 32 + x] != hm[x * 32 + y];
  // Runtime API of the samples' setup code: device flags and attributes,
  // limits, stream priorities, stream-ordered allocation, registered host
  // memory.
  cudaSetDeviceFlags(cudaDeviceScheduleBlockingSync | cudaDeviceMapHost);
  int engines = 0, concurrent = 0;
  cudaDeviceGetAttribute(&engines, cudaDevAttrAsyncEngineCount, 0);
  cudaDeviceGetAttribute(&concurrent, cudaDevAttrConcurrentKernels, 0);
  bad += engines < 1 || concurrent != 1;
  size_t heap = 0;
  bad += cudaDeviceGetLimit(&heap, cudaLimitMallocHeapSize) != cudaSuccess;
  bad += heap == 0;
  int least = 1, greatest = 1, prio = 1;
  cudaDeviceGetStreamPriorityRange(&least, &greatest);
  cudaStream_t st;
  cudaStreamCreateWithPriority(&st, cudaStreamNonBlocking, greatest);
  cudaStreamGetPriority(st, &prio);
  bad += prio < greatest || prio > least;
  int *da = nullptr, hrow[32] = {0};
  bad += cudaMallocAsync(&da, 32 * sizeof(int), st) != cudaSuccess;
  cudaHostRegister(hrow, sizeof(hrow), cudaHostRegisterMapped);
  cudaMemcpyAsync(da, h, 32 * sizeof(int), cudaMemcpyHostToDevice, st);
  rowScan<<<1, 32, 0, st>>>(da, 32);
  cudaMemcpyAsync(hrow, da, sizeof(hrow), cudaMemcpyDeviceToHost, st);
  bad += cudaFreeAsync(da, st) != cudaSuccess;
  cudaStreamSynchronize(st);
  cudaHostUnregister(hrow);
  cudaStreamDestroy(st);
  for (int l = 0, s = 0; l < 32; ++l) {
    s += h[l];
    bad += hrow[l] != s;
  }
  std::printf("%s (%d mismatches)\n", bad ? "FAIL" : "PASS", bad);
  return bad != 0;
}
