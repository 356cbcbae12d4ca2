// Emulator error detection scenarios (CUDA spelling). argv[1] selects the scenario; each prints
// its result and relies on the emulator for the error reports / exit status.
#include <cstdio>
#include <cstring>

// Legacy warp-synchronous reduction tail without __syncwarp: a shared-memory data race.
__global__ void racy_reduce(const float* in, float* out) {
  PKEMU_SHARED(sdata, float[64]);
  unsigned tid = threadIdx.x;
  sdata[tid] = in[tid];
  __syncthreads();
  if (tid < 32) {
    volatile float* vs = sdata;
    vs[tid] += vs[tid + 32];
    vs[tid] += vs[tid + 16];  // RACE_LINE
    vs[tid] += vs[tid + 8];
    vs[tid] += vs[tid + 4];
    vs[tid] += vs[tid + 2];
    vs[tid] += vs[tid + 1];
  }
  if (tid == 0) *out = sdata[0];
}

// The same reduction done correctly: reads and writes separated by __syncwarp.
__global__ void fixed_reduce(const float* in, float* out) {
  PKEMU_SHARED(sdata, float[64]);
  unsigned tid = threadIdx.x;
  sdata[tid] = in[tid];
  __syncthreads();
  if (tid < 32) {
    float v = sdata[tid] + sdata[tid + 32];
    __syncwarp();
    sdata[tid] = v;
    __syncwarp();
    for (int o = 16; o > 0; o >>= 1) {
      v += sdata[tid + o < 32 ? tid + o : tid] * (tid + o < 32 ? 1.f : 0.f);
      __syncwarp();
      sdata[tid] = v;
      __syncwarp();
    }
  }
  if (tid == 0) *out = sdata[0];
}

__global__ void partial_barrier(int* out) {
  if (threadIdx.x < 16) __syncthreads();  // DEADLOCK_LINE
  out[threadIdx.x] = 1;
}

__global__ void early_exit_barrier(int* out, int n) {
  if ((int)threadIdx.x >= n) return;
  __syncthreads();  // EXIT_LINE
  out[threadIdx.x] = 1;
}

__global__ void oob_shared(int* out) {
  PKEMU_SHARED(small, int[32]);
  small[threadIdx.x] = (int)threadIdx.x;  // OOB_LINE
  __syncthreads();
  out[threadIdx.x] = small[threadIdx.x % 32];
}

__global__ void uninit_shared(int* out) {
  PKEMU_SHARED(buf, int[64]);
  if (threadIdx.x < 63) buf[threadIdx.x] = 1;
  __syncthreads();
  out[threadIdx.x] = buf[(threadIdx.x + 1) % 64];  // UNINIT_LINE
}

__global__ void hang(volatile int* flag) {
  while (*flag == 0) {
  }
}

__global__ void divergent_shfl(int* out) {
  int v = threadIdx.x;
  if (threadIdx.x % 2 == 0) v = __shfl_xor_sync(0xffffffffu, v, 1);  // SHFL_LINE
  out[threadIdx.x] = v;
}

// Lanes 0-15 shuffle over the whole warp while lanes 16-31 shuffle over themselves and lane 0:
// each collective waits for a lane that waits in the other.
__global__ void crossed_shfl(int* out) {
  int v = threadIdx.x;
  if (threadIdx.x < 16)
    v = __shfl_sync(0xffffffffu, v, 0);
  else
    v = __shfl_sync(0xffff0001u, v, 16);  // CROSSED_LINE
  out[threadIdx.x] = v;
}

// atomicExch initialises a shared counter (the CUDA samples' simpleAttributes); every thread then
// counts on it and reads it. `add_first` counts on it without the exchange: one report, at the
// first atomic, and none for what the atomics wrote.
__global__ void shared_counter(int* out, int add_first) {
  PKEMU_SHARED(hits, unsigned);
  if (!add_first) atomicExch(&hits, 0u);
  __syncthreads();
  atomicAdd(&hits, 1u);  // COUNT_LINE
  __syncthreads();
  out[threadIdx.x] = (int)hits;
}

// Each block spins 2 ms of device cycles: a million of them outlast any limit, while
// many finish within one second.
__global__ void slow_blocks(long* out) {
  long start = clock64();
  while (clock64() - start < 2000000) {
  }
  if (threadIdx.x == 0) out[0] = 1;
}

int main(int argc, char** argv) {
  const char* s = argc > 1 ? argv[1] : "";
  float *in, *outf;
  int* out;
  cudaMallocManaged(&in, 64 * sizeof(float));
  cudaMallocManaged(&outf, sizeof(float));
  cudaMallocManaged(&out, 256 * sizeof(int));
  for (int i = 0; i < 64; ++i) in[i] = (float)i;
  if (!strcmp(s, "race")) {
    pkemu::launch(racy_reduce, 1, 64, 0, 0, in, outf);
    cudaDeviceSynchronize();
    printf("sum=%g\n", *outf);
  } else if (!strcmp(s, "fixed")) {
    pkemu::launch(fixed_reduce, 1, 64, 0, 0, in, outf);
    cudaDeviceSynchronize();
    printf("sum=%g\n", *outf);
  } else if (!strcmp(s, "deadlock")) {
    pkemu::launch(partial_barrier, 1, 64, 0, 0, out);
    printf("not reached\n");
  } else if (!strcmp(s, "exit")) {
    pkemu::launch(early_exit_barrier, 1, 64, 0, 0, out, 40);
    printf("not reached\n");
  } else if (!strcmp(s, "oob")) {
    pkemu::launch(oob_shared, 1, 64, 0, 0, out);
    printf("done\n");
  } else if (!strcmp(s, "uninit")) {
    pkemu::launch(uninit_shared, 1, 64, 0, 0, out);
    printf("done\n");
  } else if (!strcmp(s, "timeout")) {
    *out = 0;
    pkemu::launch(hang, 1, 32, 0, 0, (volatile int*)out);
    printf("not reached\n");
  } else if (!strcmp(s, "slow")) {
    pkemu::launch(slow_blocks, 1000000, 1, 0, 0, (long*)out);
    printf("not reached\n");
  } else if (!strcmp(s, "divergent")) {
    pkemu::launch(divergent_shfl, 1, 32, 0, 0, out);
    printf("not reached\n");
  } else if (!strcmp(s, "exch_init") || !strcmp(s, "add_first")) {
    pkemu::launch(shared_counter, 1, 64, 0, 0, out, !strcmp(s, "add_first") ? 1 : 0);
    cudaDeviceSynchronize();
    printf("%s: %d\n", s, out[63]);
  } else if (!strcmp(s, "crossed")) {
    pkemu::launch(crossed_shfl, 1, 32, 0, 0, out);
    printf("not reached\n");
  } else {
    printf("unknown scenario\n");
    return 2;
  }
  return 0;
}
