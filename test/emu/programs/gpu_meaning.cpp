// Programs get the GPU's meaning where C++ would leave the fiber translation
// undefined. A local that only lane 0 assigns and __shfl_sync then
// broadcasts (warp-aggregated atomics) is uninitialised in the other lanes;
// in C++ their read is undefined, and an optimiser that assumes it never
// happens lets every lane do lane 0's work. The emulator compiles programs
// with -ftrivial-auto-var-init=pattern: such locals start with a fixed
// pattern (0xAA bytes; floats read as NaN), the broadcast is exact, and a
// result that does depend on an uninitialised local stays visibly wrong
// instead of reading as zero. __activemask() holds the lanes that reach it
// together: not those that exited, nor those at another call site.
// Usage: gpu_meaning [aggregate|uninit_sum|activemask]
#include <cmath>
#include <cstdio>
#include <cstring>

__global__ void aggregate(int* counter, int* out) {
  int lane = threadIdx.x % warpSize;
  int base;
  if (lane == 0) base = atomicAdd(counter, warpSize);
  base = __shfl_sync(0xffffffffu, base, 0);
  out[base + lane] = threadIdx.x;
}

// A ragged warp: the first active lane reserves room for the active lanes.
__global__ void aggregate_ballot(int* counter, int* out, int n) {
  int lane = threadIdx.x % warpSize;
  bool active = threadIdx.x < n;
  unsigned b = __ballot_sync(0xffffffffu, active);
  int leader = __ffs(b) - 1;
  int base;
  if (lane == leader) base = atomicAdd(counter, __popc(b));
  base = __shfl_sync(0xffffffffu, base, leader);
  if (active) out[base + __popc(b & ((1u << lane) - 1))] = threadIdx.x;
}

// After a bounds check, the surviving lanes of a ragged warp aggregate.
__global__ void aggregate_active(int n, int* counter, int* out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  unsigned mask = __activemask();
  int lane = threadIdx.x % 32;
  int leader = __ffs(mask) - 1;
  int base;
  if (lane == leader) base = atomicAdd(counter, __popc(mask));
  base = __shfl_sync(mask, base, leader);
  out[i] = base + __popc(mask & ((1u << lane) - 1));
}
// Divergent branches: each call site sees its own lanes.
__global__ void active_branches(int* out) {
  int t = threadIdx.x;
  if (t & 1)
    out[t] = __popc(__activemask());
  else
    out[t] = 100 + __popc(__activemask());
}

// A bug: the accumulator is never initialised.
__global__ void uninit_sum(const float* in, float* out) {
  float acc;
  for (int i = 0; i < 4; ++i) acc += in[i];
  out[threadIdx.x] = acc;
}

int main(int argc, char** argv) {
  const char* what = argc > 1 ? argv[1] : "aggregate";
  int *counter, *out;
  cudaMallocManaged((void**)&counter, sizeof(int));
  cudaMallocManaged((void**)&out, 256 * sizeof(int));
  if (!strcmp(what, "aggregate")) {
    *counter = 0;
    for (int i = 0; i < 256; ++i) out[i] = -1;
    pkemu::launch(aggregate, 2, 64, 0, 0, counter, out);
    cudaDeviceSynchronize();
    int seen = 0;
    for (int i = 0; i < 128; ++i) seen += out[i] >= 0;
    printf("aggregate: counter=%d slots=%d\n", *counter, seen);
    *counter = 0;
    pkemu::launch(aggregate_ballot, 1, 64, 0, 0, counter, out, 40);
    cudaDeviceSynchronize();
    printf("aggregate_ballot: counter=%d\n", *counter);
  } else if (!strcmp(what, "activemask")) {
    *counter = 0;
    pkemu::launch(aggregate_active, 1, 96, 0, 0, 70, counter, out);
    cudaDeviceSynchronize();
    int slots[70] = {0}, ok = *counter == 70;
    for (int i = 0; i < 70; ++i)
      if (out[i] >= 0 && out[i] < 70) ++slots[out[i]];
    for (int i = 0; i < 70; ++i) ok &= slots[i] == 1;
    pkemu::launch(active_branches, 1, 64, 0, 0, out);
    cudaDeviceSynchronize();
    for (int i = 0; i < 64; ++i) ok &= out[i] == ((i & 1) ? 16 : 116);
    printf("activemask: counter=%d after_exit=%d branches=%d/%d %s\n", *counter, out[1] == 16,
           out[0], out[1], ok ? "PASS" : "FAIL");
  } else if (!strcmp(what, "uninit_sum")) {
    float *in, *res;
    cudaMallocManaged((void**)&in, 4 * sizeof(float));
    cudaMallocManaged((void**)&res, 32 * sizeof(float));
    for (int i = 0; i < 4; ++i) in[i] = 1.0f;
    pkemu::launch(uninit_sum, 1, 32, 0, 0, in, res);
    cudaDeviceSynchronize();
    printf("uninit_sum: %s\n", std::isnan(res[0]) ? "nan" : res[0] == 4.0f ? "4 (as if zero)" : "other");
  }
  return 0;
}
