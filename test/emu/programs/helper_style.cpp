// Host code in the style of the CUDA sample suites' helper headers: error
// checking defined under the runtime's __DRIVER_TYPES_H__ guard, device
// selection under __CUDA_RUNTIME_H__ (compute mode, capability, SM count,
// clock rate, integrated GPUs), pinned memory from the three-argument
// cudaMallocHost and cudaHostAlloc, and tiles of a block whose
// this_thread_block takes cg::block_tile_memory. Prints PASS.
#include <cooperative_groups.h>
#include <cuda_runtime.h>

#include <cstdio>
#include <cstdlib>
namespace cg = cooperative_groups;

#ifdef __DRIVER_TYPES_H__
#define CHECK(call) checkCall((call), #call, __FILE__, __LINE__)
static void checkCall(cudaError_t e, const char* what, const char* file, int line) {
  if (e != cudaSuccess) {
    fprintf(stderr, "%s:%d: %s failed: %s (%s)\n", file, line, what, cudaGetErrorName(e), cudaGetErrorString(e));
    exit(1);
  }
}
#else
#error "the runtime's driver types are not visible"
#endif

#ifdef __CUDA_RUNTIME_H__
static int coresPerSM(int major, int minor) { return major >= 9 ? 128 : major * 16 + minor; }

// The usable device with the most SMs x cores x clock.
static int pickFastestDevice() {
  int count = 0, best = -1;
  long long bestScore = -1;
  CHECK(cudaGetDeviceCount(&count));
  for (int d = 0; d < count; ++d) {
    int mode = -1, major = 0, minor = 0, sms = 0, clock = 0, integrated = -1;
    CHECK(cudaDeviceGetAttribute(&mode, cudaDevAttrComputeMode, d));
    if (mode == cudaComputeModeProhibited) continue;
    CHECK(cudaDeviceGetAttribute(&major, cudaDevAttrComputeCapabilityMajor, d));
    CHECK(cudaDeviceGetAttribute(&minor, cudaDevAttrComputeCapabilityMinor, d));
    CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, d));
    cudaError_t e = cudaDeviceGetAttribute(&clock, cudaDevAttrClockRate, d);
    if (e == cudaErrorInvalidValue) clock = 1;
    else CHECK(e);
    CHECK(cudaDeviceGetAttribute(&integrated, cudaDevAttrIntegrated, d));
    long long score = (long long)sms * coresPerSM(major, minor) * clock;
    printf("device %d: mode %d sm_%d%d %d SMs integrated %d\n", d, mode, major, minor, sms, integrated);
    if (score > bestScore) bestScore = score, best = d;
  }
  if (best < 0) {
    fprintf(stderr, "no usable device\n");
    exit(2);
  }
  CHECK(cudaSetDevice(best));
  cudaDeviceProp prop;
  CHECK(cudaGetDeviceProperties(&prop, best));
  printf("using device %d: compute capability %d.%d\n", best, prop.major, prop.minor);
  return best;
}
#else
#error "cuda_runtime.h's guard is not set"
#endif

// Sums of 16-thread tiles of a block that was given tile memory.
__global__ void tileSums(const int* in, int* out) {
  PKEMU_SHARED(scratch, cg::block_tile_memory<128>);
  cg::thread_block block = cg::this_thread_block(scratch);
  cg::thread_block_tile<16> tile = cg::tiled_partition<16>(block);
  int v = in[block.thread_rank()];
  for (int o = tile.num_threads() / 2; o > 0; o /= 2) v += tile.shfl_down(v, o);
  if (tile.thread_rank() == 0) out[block.thread_rank() / 16] = v;
}

int main() {
  pickFastestDevice();
  const int n = 128;
  int *hin, *hout, *din, *dout;
  CHECK(cudaMallocHost(&hin, n * sizeof(int), cudaHostAllocDefault));
  CHECK(cudaMallocHost((void**)&hout, n * sizeof(int), cudaHostAllocPortable));
  int* extra;
  CHECK(cudaHostAlloc(&extra, 64, cudaHostAllocMapped));
  CHECK(cudaMalloc(&din, n * sizeof(int)));
  CHECK(cudaMalloc(&dout, n / 16 * sizeof(int)));
  for (int i = 0; i < n; ++i) hin[i] = i;
  CHECK(cudaMemcpy(din, hin, n * sizeof(int), cudaMemcpyHostToDevice));
  pkemu::launch(tileSums, 1, n, 0, 0, din, dout);
  CHECK(cudaGetLastError());
  CHECK(cudaMemcpy(hout, dout, n / 16 * sizeof(int), cudaMemcpyDeviceToHost));
  bool ok = true;
  for (int t = 0; t < n / 16; ++t) ok &= hout[t] == 16 * 16 * t + 120;
  CHECK(cudaFreeHost(hin));
  CHECK(cudaFreeHost(hout));
  CHECK(cudaFreeHost(extra));
  printf("%s\n", ok ? "PASS" : "FAIL");
  return ok ? 0 : 1;
}
