// Host API, atomics under parallel blocks, dynamic shared memory, cudaLaunchKernel, constant
// memory, cooperative groups (CUDA spelling). Prints one "name: ok|FAIL" line per check.
#include <cooperative_groups.h>
#include <cooperative_groups/reduce.h>
#include <cuda_runtime.h>

#include <cstdio>
#include <cstring>
namespace cg = cooperative_groups;

__constant__ float c_scale[4];
__device__ int d_counter;

static int g_bad = 0;
static void check(const char* name, bool ok) {
  printf("%s: %s\n", name, ok ? "ok" : "FAIL");
  if (!ok) ++g_bad;
}

__global__ void histogram(const int* data, int n, unsigned* bins) {
  PKEMU_SHARED(local, unsigned[16]);
  for (int i = threadIdx.x; i < 16; i += blockDim.x) local[i] = 0;
  __syncthreads();
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x)
    atomicAdd(&local[data[i] & 15], 1u);
  __syncthreads();
  for (int i = threadIdx.x; i < 16; i += blockDim.x) atomicAdd(&bins[i], local[i]);
  if (threadIdx.x == 0) atomicAdd(&d_counter, 1);
}

__global__ void atomics_misc(int* iv, float* fv, double* dv, unsigned* uv) {
  atomicAdd(fv, 0.5f);
  atomicAdd(dv, 0.25);
  atomicMax(&iv[0], (int)threadIdx.x);
  atomicMin(&iv[1], -(int)threadIdx.x);
  atomicInc(&uv[0], 9u);
  atomicOr(&uv[1], 1u << (threadIdx.x % 32));
  int old;
  do { old = iv[2]; } while (atomicCAS(&iv[2], old, old + 2) != old);
  atomicExch(&iv[3], 7);
  atomicSub(&iv[4], 1);
}

__global__ void scale_dynamic(const float* in, float* out, int n) {
  PKEMU_DYNAMIC_SHARED(buf, float);
  int t = threadIdx.x;
  buf[t] = in[blockIdx.x * blockDim.x + t] * c_scale[blockIdx.x % 4];
  __syncthreads();
  out[blockIdx.x * blockDim.x + t] = buf[blockDim.x - 1 - t];
  (void)n;
}

__global__ void axpy(float a, const float* x, float* y, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] += a * x[i];
}

__global__ void cg_reduce(const int* in, int* out) {
  auto block = cg::this_thread_block();
  auto tile = cg::tiled_partition<16>(block);
  int v = in[block.thread_rank()];
  int s = cg::reduce(tile, v, cg::plus<int>());
  int mx = cg::reduce(tile, v, cg::greater<int>());
  if (tile.thread_rank() == 0) {
    out[2 * tile.meta_group_rank()] = s;
    out[2 * tile.meta_group_rank() + 1] = mx;
  }
  block.sync();
  unsigned b = tile.ballot(v % 2 == 0);
  if (block.thread_rank() == 0) out[100] = (int)b;
  if (block.thread_rank() == 0) out[101] = (int)tile.size() + 1000 * (int)block.size();
}

// The CUDA samples' binaryPartitionCG: each tile of 32 splits into its odd and even values
// (binary_partition) and into classes of v % 3 (labeled_partition); each part's first thread
// adds the part's size and sum.
__global__ void cg_partitions(const int* in, int* out) {
  auto block = cg::this_thread_block();
  auto tile = cg::tiled_partition<32>(block);
  int v = in[block.thread_rank()];
  auto odd_even = cg::binary_partition(tile, v & 1);
  int s = cg::reduce(odd_even, v, cg::plus<int>());
  if (odd_even.thread_rank() == 0) {
    atomicAdd(&out[v & 1], (int)odd_even.size());
    atomicAdd(&out[2 + (v & 1)], s);
  }
  auto by3 = cg::labeled_partition(tile, v % 3);
  int s3 = cg::reduce(by3, v, cg::plus<int>());
  if (by3.thread_rank() == 0) atomicAdd(&out[4 + v % 3], s3);
}

__global__ void count_barrier(int* out) {
  int c = __syncthreads_count(threadIdx.x % 3 == 0);
  int a = __syncthreads_and(threadIdx.x < 1000);
  int o = __syncthreads_or(threadIdx.x == 5);
  if (threadIdx.x == 0) { out[0] = c; out[1] = a; out[2] = o; }
}

int main() {
  // Device properties.
  cudaDeviceProp prop;
  check("getDeviceProperties", cudaGetDeviceProperties(&prop, 0) == cudaSuccess);
  check("warpSize", prop.warpSize == warpSize && prop.warpSize == 32 && prop.maxThreadsPerBlock == 1024 &&
                        prop.sharedMemPerBlock == 48 * 1024 && !strcmp(prop.name, "pkemu"));
  int count = 0, ws = 0;
  cudaGetDeviceCount(&count);
  cudaDeviceGetAttribute(&ws, cudaDevAttrWarpSize, 0);
  check("deviceCount+attribute", count == 1 && ws == 32);

  // Memory.
  const int n = 1 << 14;
  int* data;
  unsigned* bins;
  check("malloc", cudaMalloc(&data, n * sizeof(int)) == cudaSuccess && cudaMalloc(&bins, 16 * sizeof(unsigned)) == 0);
  int* host = (int*)malloc(n * sizeof(int));
  for (int i = 0; i < n; ++i) host[i] = i * 7 + i / 3;
  cudaMemcpy(data, host, n * sizeof(int), cudaMemcpyHostToDevice);
  cudaMemset(bins, 0, 16 * sizeof(unsigned));
  int zero = 0;
  cudaMemcpyToSymbol(d_counter, &zero, sizeof(int));

  // Atomics under parallel blocks.
  cudaEvent_t e0, e1;
  cudaEventCreate(&e0);
  cudaEventCreate(&e1);
  cudaStream_t st;
  cudaStreamCreate(&st);
  cudaEventRecord(e0, st);
  pkemu::launch(histogram, 64, 128, 0, st, data, n, bins);
  cudaEventRecord(e1, st);
  cudaStreamSynchronize(st);
  float ms = -1;
  check("events", cudaEventElapsedTime(&ms, e0, e1) == cudaSuccess && ms >= 0);
  unsigned hb[16], want[16] = {0};
  for (int i = 0; i < n; ++i) want[host[i] & 15]++;
  cudaMemcpy(hb, bins, sizeof hb, cudaMemcpyDeviceToHost);
  check("histogram", !memcmp(hb, want, sizeof hb));
  int blocks_seen = 0;
  cudaMemcpyFromSymbol(&blocks_seen, d_counter, sizeof(int));
  check("device symbol", blocks_seen == 64);

  int* iv;
  float* fv;
  double* dv;
  unsigned* uv;
  cudaMallocManaged(&iv, 5 * sizeof(int));
  cudaMallocManaged(&fv, sizeof(float));
  cudaMallocManaged(&dv, sizeof(double));
  cudaMallocManaged(&uv, 2 * sizeof(unsigned));
  iv[0] = -1; iv[1] = 1; iv[2] = 0; iv[3] = 0; iv[4] = 0; *fv = 0; *dv = 0; uv[0] = 0; uv[1] = 0;
  pkemu::launch(atomics_misc, 4, 64, 0, 0, iv, fv, dv, uv);
  cudaDeviceSynchronize();
  check("atomics", iv[0] == 63 && iv[1] == -63 && iv[2] == 512 && iv[3] == 7 && iv[4] == -256 && *fv == 128.f &&
                       *dv == 64.0 && uv[0] == 256 % 10 && uv[1] == 0xffffffffu);

  // Dynamic shared memory + constant memory.
  float scales[4] = {1, 2, 3, 4};
  cudaMemcpyToSymbol(c_scale, scales, sizeof scales);
  float *x, *y;
  cudaMallocManaged(&x, 1024 * sizeof(float));
  cudaMallocManaged(&y, 1024 * sizeof(float));
  for (int i = 0; i < 1024; ++i) x[i] = (float)i;
  pkemu::launch(scale_dynamic, 8, 128, 128 * sizeof(float), 0, x, y, 1024);
  cudaDeviceSynchronize();
  bool dyn_ok = true;
  for (int b = 0; b < 8; ++b)
    for (int t = 0; t < 128; ++t) dyn_ok &= y[b * 128 + t] == x[b * 128 + 127 - t] * scales[b % 4];
  check("dynamic shared", dyn_ok);

  // cudaLaunchKernel with an argument array.
  for (int i = 0; i < 1024; ++i) y[i] = 1.f;
  float a = 2.f;
  int nn = 1000;
  void* args[] = {&a, &x, &y, &nn};
  check("cudaLaunchKernel", cudaLaunchKernel(axpy, dim3(8), dim3(128), args, 0, 0) == cudaSuccess);
  cudaDeviceSynchronize();
  check("cudaLaunchKernel result", y[999] == 1.f + 2.f * 999.f && y[1000] == 1.f);

  // Invalid configurations set the last error and do not run.
  pkemu::launch(axpy, 1, 2048, 0, 0, a, x, y, nn);
  cudaError_t e = cudaGetLastError();
  check("invalid block size", e == cudaErrorInvalidConfiguration &&
                                  !strcmp(cudaGetErrorName(e), "cudaErrorInvalidConfiguration"));
  check("last error cleared", cudaGetLastError() == cudaSuccess);
  pkemu::launch(scale_dynamic, 1, 32, 100 * 1024, 0, x, y, 32);
  check("too much shared memory", cudaPeekAtLastError() == cudaErrorInvalidValue);
  cudaFuncSetAttribute(scale_dynamic, cudaFuncAttributeMaxDynamicSharedMemorySize, 100 * 1024);
  cudaGetLastError();
  pkemu::launch(scale_dynamic, 1, 32, 100 * 1024, 0, x, y, 32);
  check("opt-in shared memory", cudaGetLastError() == cudaSuccess);

  // Cooperative groups.
  int *cin, *cout;
  cudaMallocManaged(&cin, 64 * sizeof(int));
  cudaMallocManaged(&cout, 128 * sizeof(int));
  for (int i = 0; i < 64; ++i) cin[i] = (i * 37) % 101;
  pkemu::launch(cg_reduce, 1, 64, 0, 0, cin, cout);
  cudaDeviceSynchronize();
  bool cg_ok = true;
  for (int t = 0; t < 4; ++t) {
    int s = 0, m = -1;
    for (int i = 16 * t; i < 16 * t + 16; ++i) s += cin[i], m = cin[i] > m ? cin[i] : m;
    cg_ok &= cout[2 * t] == s && cout[2 * t + 1] == m;
  }
  unsigned wb = 0;
  for (int i = 0; i < 16; ++i) wb |= (cin[i] % 2 == 0) << i;
  check("cg reduce", cg_ok && (unsigned)cout[100] == wb && cout[101] == 16 + 64000);

  for (int i = 0; i < 8; ++i) cout[i] = 0;
  pkemu::launch(cg_partitions, 1, 64, 0, 0, cin, cout);
  cudaDeviceSynchronize();
  int parts[7] = {0, 0, 0, 0, 0, 0, 0};
  for (int i = 0; i < 64; ++i) {
    parts[cin[i] & 1] += 1;
    parts[2 + (cin[i] & 1)] += cin[i];
    parts[4 + cin[i] % 3] += cin[i];
  }
  bool part_ok = true;
  for (int i = 0; i < 7; ++i) part_ok &= cout[i] == parts[i];
  check("cg binary/labeled partition", part_ok);

  // Stream-ordered allocation from the device's memory pool (the CUDA samples'
  // streamOrderedAllocation): attributes read back, read-only ones refused.
  {
    cudaMemPool_t pool;
    bool pool_ok = cudaDeviceGetDefaultMemPool(&pool, 0) == cudaSuccess;
    unsigned long long thr = ~0ull, got = 0, used = 1;
    pool_ok &= cudaMemPoolSetAttribute(pool, cudaMemPoolAttrReleaseThreshold, &thr) == cudaSuccess;
    pool_ok &= cudaMemPoolGetAttribute(pool, cudaMemPoolAttrReleaseThreshold, &got) == cudaSuccess && got == thr;
    pool_ok &= cudaMemPoolSetAttribute(pool, cudaMemPoolAttrUsedMemCurrent, &used) == cudaErrorInvalidValue;
    cudaGetLastError();
    cudaStream_t ps;
    cudaStreamCreate(&ps);
    float *px, *py;
    pool_ok &= cudaMallocFromPoolAsync(&px, 64 * sizeof(float), pool, ps) == cudaSuccess;
    pool_ok &= cudaMallocAsync(&py, 64 * sizeof(float), ps) == cudaSuccess;
    float ones[64];
    for (int i = 0; i < 64; ++i) ones[i] = 1.0f;
    cudaMemcpyAsync(px, ones, sizeof ones, cudaMemcpyHostToDevice, ps);
    cudaMemcpyAsync(py, ones, sizeof ones, cudaMemcpyHostToDevice, ps);
    pkemu::launch(axpy, 1, 64, 0, ps, 2.0f, (const float*)px, py, 64);
    float back[64];
    cudaMemcpyAsync(back, py, sizeof back, cudaMemcpyDeviceToHost, ps);
    cudaFreeAsync(px, ps);
    cudaFreeAsync(py, ps);
    cudaStreamSynchronize(ps);
    for (int i = 0; i < 64; ++i) pool_ok &= back[i] == 3.0f;
    cudaStreamDestroy(ps);
    check("memory pools", pool_ok);
  }

  pkemu::launch(count_barrier, 1, 100, 0, 0, cout);
  cudaDeviceSynchronize();
  check("__syncthreads_count/and/or", cout[0] == 34 && cout[1] == 1 && cout[2] == 1);

  cudaEventDestroy(e0);
  cudaEventDestroy(e1);
  cudaStreamDestroy(st);
  check("free", cudaFree(data) == cudaSuccess && cudaFree(bins) == cudaSuccess);
  check("free invalid", cudaFree(host) == cudaErrorInvalidValue);
  free(host);
  printf(g_bad ? "FAIL\n" : "PASS\n");
  return g_bad ? 1 : 0;
}
