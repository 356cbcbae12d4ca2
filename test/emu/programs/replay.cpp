// Launches that repeat an earlier one exactly are replayed (runtime/replay.cpp); everything
// that makes a launch more than a function of its kernel, configuration, arguments and
// device memory runs it again. argv[1] selects the scenario; each prints what it computed,
// and the test reads PKEMU_STATS_FILE for the number of replayed launches.
#include <cstdio>
#include <cstring>
#include <ctime>

constexpr int kN = 4096;

__global__ void square(float* out, const float* in, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = in[i] * in[i];
}

__global__ void bump(float* x, int n) {  // reads what it writes: never the same twice
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) x[i] += 1.0f;
}

__global__ void count(int* c, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) atomicAdd(c, 1);
}

__global__ void say(const float* in) {
  if (blockIdx.x == 0 && threadIdx.x == 0) printf("say %g\n", in[0]);
}

__global__ void stamp(long long* out) {
  if (threadIdx.x == 0) out[blockIdx.x] = clock64();
}

__constant__ float c_scale;
__global__ void scaled(float* out, const float* in, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = in[i] * c_scale;
}

__global__ void from_host(float* out, const float* host, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = host[i] + 1.0f;
}

__global__ void plus(float* out, const float* in, float k, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = in[i] + k;
}

// Spins for 2 ms of device cycles (clockRate: 1 GHz) as simpleHyperQ's kernels do.
__global__ void spin_clock(long* out) {
  unsigned start = (unsigned)clock();
  long waited = 0;
  while (waited < 2000000) waited = (long)((unsigned)clock() - start);
  out[0] = waited;
  out[1] = (long)clock();
}

// The warp-synchronous idiom: a volatile shared array, private to the block.
__global__ void block_sums(float* out, const float* in) {
  PKEMU_SHARED(buf, float[256]);
  volatile float* v = buf;
  v[threadIdx.x] = in[blockIdx.x * 256 + threadIdx.x];
  __syncthreads();
  for (int s = 128; s > 0; s >>= 1) {
    if (threadIdx.x < s) v[threadIdx.x] += v[threadIdx.x + s];
    __syncthreads();
  }
  if (threadIdx.x == 0) out[blockIdx.x] = v[0];
}

// A volatile global may be written by another block or the host: always run.
__global__ void read_flag(float* out, volatile int* flag) {
  out[threadIdx.x] = (float)*flag;
}

int main(int argc, char** argv) {
  const char* s = argc > 1 ? argv[1] : "";
  static float h[kN], got[kN];
  for (int i = 0; i < kN; ++i) h[i] = (float)(i % 97);
  float *in, *out;
  cudaMalloc(&in, kN * sizeof(float));
  cudaMalloc(&out, kN * sizeof(float));
  cudaMemcpy(in, h, sizeof h, cudaMemcpyHostToDevice);
  int bad = 0;
  if (!strcmp(s, "same")) {
    // Ten identical launches: the first two run, the others are replayed.
    for (int r = 0; r < 10; ++r) {
      cudaMemset(out, 0, kN * sizeof(float));
      pkemu::launch(square, kN / 256, 256, 0, 0, out, in, kN);
      cudaMemcpy(got, out, sizeof got, cudaMemcpyDeviceToHost);
      for (int i = 0; i < kN; ++i) bad += got[i] != h[i] * h[i];
    }
    printf("same: %d wrong\n", bad);
  } else if (!strcmp(s, "changed")) {
    // The input changes between launches of the same key: each result is the new one's.
    for (int r = 0; r < 8; ++r) {
      for (int i = 0; i < kN; ++i) h[i] = (float)((i + (r / 3)) % 89);
      cudaMemcpy(in, h, sizeof h, cudaMemcpyHostToDevice);
      pkemu::launch(square, kN / 256, 256, 0, 0, out, in, kN);
      cudaMemcpy(got, out, sizeof got, cudaMemcpyDeviceToHost);
      for (int i = 0; i < kN; ++i) bad += got[i] != h[i] * h[i];
    }
    printf("changed: %d wrong\n", bad);
  } else if (!strcmp(s, "inplace")) {
    cudaMemset(out, 0, kN * sizeof(float));
    for (int r = 0; r < 10; ++r) pkemu::launch(bump, kN / 256, 256, 0, 0, out, kN);
    cudaMemcpy(got, out, sizeof got, cudaMemcpyDeviceToHost);
    for (int i = 0; i < kN; ++i) bad += got[i] != 10.0f;
    printf("inplace: %d wrong\n", bad);
  } else if (!strcmp(s, "atomic")) {
    int* c;
    cudaMalloc(&c, sizeof(int));
    cudaMemset(c, 0, sizeof(int));
    for (int r = 0; r < 6; ++r) pkemu::launch(count, kN / 256, 256, 0, 0, c, kN);
    int total = 0;
    cudaMemcpy(&total, c, sizeof total, cudaMemcpyDeviceToHost);
    printf("atomic: %d\n", total);
  } else if (!strcmp(s, "printf")) {
    for (int r = 0; r < 5; ++r) pkemu::launch(say, 4, 64, 0, 0, in);
    cudaDeviceSynchronize();
  } else if (!strcmp(s, "clock")) {
    long long* t;
    cudaMalloc(&t, 16 * sizeof(long long));
    for (int r = 0; r < 5; ++r) pkemu::launch(stamp, 16, 32, 0, 0, t);
    printf("clock: done\n");
  } else if (!strcmp(s, "constant")) {
    // A __constant__ variable written between launches is part of the device memory.
    for (int r = 0; r < 6; ++r) {
      float k = (float)(1 + r / 2);
      cudaMemcpyToSymbol(c_scale, &k, sizeof k);
      cudaMemset(out, 0, kN * sizeof(float));  // the rest of the memory as before
      pkemu::launch(scaled, kN / 256, 256, 0, 0, out, in, kN);
      cudaMemcpy(got, out, sizeof got, cudaMemcpyDeviceToHost);
      for (int i = 0; i < kN; ++i) bad += got[i] != h[i] * k;
    }
    printf("constant: %d wrong\n", bad);
  } else if (!strcmp(s, "host")) {
    // Mapped host memory the host changes between launches: never replayed.
    float* pinned;
    cudaHostAlloc(&pinned, kN * sizeof(float), cudaHostAllocMapped);
    for (int r = 0; r < 6; ++r) {
      for (int i = 0; i < kN; ++i) pinned[i] = (float)(i + r);
      pkemu::launch(from_host, kN / 256, 256, 0, 0, out, pinned, kN);
      cudaMemcpy(got, out, sizeof got, cudaMemcpyDeviceToHost);
      for (int i = 0; i < kN; ++i) bad += got[i] != (float)(i + r) + 1.0f;
    }
    printf("host: %d wrong\n", bad);
  } else if (!strcmp(s, "args")) {
    // The same kernel with another scalar argument is another launch.
    for (int r = 0; r < 8; ++r) {
      float k = (float)(r % 3);
      pkemu::launch(plus, kN / 256, 256, 0, 0, out, in, k, kN);
      cudaMemcpy(got, out, sizeof got, cudaMemcpyDeviceToHost);
      for (int i = 0; i < kN; ++i) bad += got[i] != h[i] + k;
    }
    printf("args: %d wrong\n", bad);
  } else if (!strcmp(s, "spin")) {
    // The device's clock() counts nanoseconds of a monotonic clock (far above 10^9 once the
    // machine has run a second); the host's stays the C library's (CPU microseconds).
    long* t;
    cudaMalloc(&t, 2 * sizeof(long));
    pkemu::launch(spin_clock, 1, 1, 0, 0, t);
    long v[2];
    cudaMemcpy(v, t, sizeof v, cudaMemcpyDeviceToHost);
    long host = (long)clock();
    printf("spin: waited %s, device clock %s, host clock %s\n", v[0] >= 2000000 ? "enough" : "too little",
           v[1] > 1000000000L ? "in cycles" : "wrong", host < 1000000000L ? "in microseconds" : "wrong");
  } else if (!strcmp(s, "volatile")) {
    for (int r = 0; r < 6; ++r) {
      pkemu::launch(block_sums, kN / 256, 256, 0, 0, out, in);
      cudaMemcpy(got, out, (kN / 256) * sizeof(float), cudaMemcpyDeviceToHost);
      for (int b = 0; b < kN / 256; ++b) {
        float want = 0;
        for (int i = 0; i < 256; ++i) want += h[b * 256 + i];
        bad += got[b] != want;
      }
    }
    printf("volatile: %d wrong\n", bad);
  } else if (!strcmp(s, "flag")) {
    int* flag;
    cudaMalloc(&flag, sizeof(int));
    cudaMemset(flag, 0, sizeof(int));
    for (int r = 0; r < 6; ++r) pkemu::launch(read_flag, 1, 32, 0, 0, out, flag);
    printf("flag: done\n");
  } else {
    printf("unknown scenario\n");
    return 2;
  }
  return 0;
}
