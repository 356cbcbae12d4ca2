// Device-memory bounds scenarios (CUDA spelling). argv[1] selects the scenario; the emulator
// reports accesses outside every live cudaMalloc'd buffer (device_memory.cpp) and exits 86.
#include <cstdio>
#include <cstring>

// Reads 1,000 floats past the end of a 16-float buffer.
__global__ void read_past(const float* in, float* out) {
  unsigned i = threadIdx.x;
  out[i] = in[i + 1000];  // PAST_LINE
}

__global__ void write_before(float* buf) {
  if (threadIdx.x == 3) buf[-2] = 1.0f;  // BEFORE_LINE
}

__global__ void read_all(const float* in, float* out, int n) {
  unsigned i = threadIdx.x;
  if ((int)i < n) out[i] = in[i] * 2.0f;
}

__global__ void atomic_past(int* counter) {
  atomicAdd(&counter[threadIdx.x], 1);  // ATOMIC_LINE
}

__global__ void bytes_in_bounds(const unsigned char* in, unsigned char* out, int n) {
  for (int i = threadIdx.x; i < n; i += blockDim.x) out[i] = in[i] + 1;
}

int main(int argc, char** argv) {
  const char* s = argc > 1 ? argv[1] : "";
  float *in = nullptr, *out = nullptr;
  cudaMalloc(&in, 16 * sizeof(float));  // ALLOC_LINE
  cudaMalloc(&out, 16 * sizeof(float));
  float h[16];
  for (int i = 0; i < 16; ++i) h[i] = (float)i;
  cudaMemcpy(in, h, sizeof h, cudaMemcpyHostToDevice);
  if (!strcmp(s, "past")) {
    pkemu::launch(read_past, 1, 16, 0, 0, in, out);
    cudaDeviceSynchronize();
    printf("done\n");
  } else if (!strcmp(s, "before")) {
    pkemu::launch(write_before, 1, 16, 0, 0, in);
    cudaDeviceSynchronize();
    printf("done\n");
  } else if (!strcmp(s, "freed")) {
    cudaFree(in);
    pkemu::launch(read_all, 1, 16, 0, 0, in, out, 16);
    cudaDeviceSynchronize();
    printf("done\n");
  } else if (!strcmp(s, "atomic")) {
    int* c = nullptr;
    cudaMalloc(&c, 8 * sizeof(int));
    cudaMemset(c, 0, 8 * sizeof(int));
    pkemu::launch(atomic_past, 1, 12, 0, 0, c);
    cudaDeviceSynchronize();
    printf("done\n");
  } else if (!strcmp(s, "memcpy")) {
    static float big[1016];
    cudaError_t e = cudaMemcpy(in, big, sizeof big, cudaMemcpyHostToDevice);  // MEMCPY_LINE
    printf("memcpy: %s\n", e == cudaSuccess ? "success" : "error");
  } else if (!strcmp(s, "ok")) {
    // Exactly in bounds, odd sizes, many buffers allocated and freed (slots are reused).
    pkemu::launch(read_all, 1, 32, 0, 0, in, out, 16);
    cudaDeviceSynchronize();
    float r[16];
    cudaMemcpy(r, out, sizeof r, cudaMemcpyDeviceToHost);
    bool ok = r[15] == 30.0f;
    for (int k = 0; k < 3000; ++k) {
      int n = 1 + (k * 37) % 301;
      unsigned char *a = nullptr, *b = nullptr;
      cudaMalloc(&a, n);
      cudaMalloc(&b, n);
      cudaMemset(a, k & 0xff, n);
      if (k % 500 == 0) {
        pkemu::launch(bytes_in_bounds, 1, 64, 0, 0, a, b, n);
        unsigned char last = 0;
        cudaMemcpy(&last, b + n - 1, 1, cudaMemcpyDeviceToHost);
        ok = ok && last == (unsigned char)((k & 0xff) + 1);
      }
      cudaFree(a);
      cudaFree(b);
    }
    float* managed = nullptr;
    cudaMallocManaged(&managed, 5 * sizeof(float));
    for (int i = 0; i < 5; ++i) managed[i] = (float)i;
    pkemu::launch(read_all, 1, 8, 0, 0, managed, out, 5);
    cudaDeviceSynchronize();
    ok = ok && out[4] == 8.0f;
    printf("%s\n", ok ? "ok" : "wrong");
  } else {
    printf("unknown scenario\n");
    return 2;
  }
  return 0;
}
