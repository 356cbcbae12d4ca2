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

// Buffers of more than 2 GiB span several 4 GiB slots (device_memory.cpp): the offsets are 64-bit.
__global__ void big_touch(float* buf, unsigned long long n, int* ok) {
  if (threadIdx.x != 0) return;
  unsigned long long last = n / sizeof(float) - 1, mid = (n / sizeof(float)) * 5 / 6;
  buf[0] = 1.0f;
  buf[mid] = 2.0f;   // in the lower half of the second slot: the slow path, in bounds
  buf[last] = 3.0f;  // the last float
  atomicAdd(&buf[mid], 1.0f);
  *ok = buf[0] == 1.0f && buf[mid] == 3.0f && buf[last] == 3.0f;
}
__global__ void big_read(const float* buf, unsigned long long i, float* out) {
  if (threadIdx.x == 0) *out = buf[i];  // BIG_LINE
}
__global__ void byte_read(const unsigned char* buf, unsigned long long i, unsigned char* out) {
  if (threadIdx.x == 0) *out = buf[i];  // BYTE_LINE
}

// Memory the device may use without cudaMalloc: pinned host memory and __device__ variables.
__device__ int dev_table[8];
__device__ float dev_scale = 2.0f;
__global__ void pinned_and_globals(const float* pinned_in, float* pinned_out) {
  unsigned i = threadIdx.x;
  if (i < 8) dev_table[i] = (int)i * 3;
  __syncthreads();
  pinned_out[i] = pinned_in[i] * dev_scale + (float)dev_table[i % 8];
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
  } else if (!strcmp(s, "big") || !strcmp(s, "big_past")) {
    // 3 GiB: only the touched pages take memory.
    const unsigned long long n = 3ull << 30;
    float* big = nullptr;
    int* ok = nullptr;
    cudaMalloc(&ok, sizeof(int));
    if (cudaMalloc(&big, n) != cudaSuccess) {
      printf("cudaMalloc failed\n");
      return 1;
    }
    float* res = nullptr;
    cudaMalloc(&res, sizeof(float));
    if (!strcmp(s, "big")) {
      pkemu::launch(big_touch, 1, 32, 0, 0, big, n, ok);
      cudaDeviceSynchronize();
      int h = 0;
      cudaMemcpy(&h, ok, sizeof h, cudaMemcpyDeviceToHost);
      // Host copies at 64-bit offsets, inside the buffer's second slot.
      float v = 7.0f, back = 0.0f;
      cudaError_t e1 = cudaMemcpy(big + (n / sizeof(float) - 2), &v, sizeof v, cudaMemcpyHostToDevice);
      cudaError_t e2 = cudaMemcpy(&back, big + (n / sizeof(float) - 2), sizeof back, cudaMemcpyDeviceToHost);
      cudaError_t e3 = cudaMemset(big + (n / sizeof(float)) * 5 / 6, 0, 4096);
      printf("%s\n", h == 1 && back == 7.0f && e1 == cudaSuccess && e2 == cudaSuccess && e3 == cudaSuccess
                         ? "big: ok" : "big: wrong");
    } else {
      pkemu::launch(big_read, 1, 32, 0, 0, (const float*)big, n / sizeof(float) + 1, res);
      cudaDeviceSynchronize();
      cudaFree(big);
      // 2 GiB + 1 byte: the last byte is in the second slot's lower half.
      unsigned char *odd = nullptr, *b = nullptr;
      cudaMalloc(&odd, (2ull << 30) + 1);
      cudaMalloc(&b, 1);
      pkemu::launch(byte_read, 1, 32, 0, 0, (const unsigned char*)odd, 2ull << 30, b);
      pkemu::launch(byte_read, 1, 32, 0, 0, (const unsigned char*)odd, (2ull << 30) + 1, b);
      cudaDeviceSynchronize();
      printf("done\n");
    }
  } else if (!strcmp(s, "pinned")) {
    float *pin_in = nullptr, *pin_out = nullptr;
    cudaMallocHost(&pin_in, 32 * sizeof(float));
    cudaHostAlloc((void**)&pin_out, 32 * sizeof(float), cudaHostAllocMapped);
    for (int i = 0; i < 32; ++i) pin_in[i] = (float)i;
    pkemu::launch(pinned_and_globals, 1, 32, 0, 0, (const float*)pin_in, pin_out);
    cudaDeviceSynchronize();
    bool ok = true;
    for (int i = 0; i < 32; ++i) ok = ok && pin_out[i] == 2.0f * i + (float)((i % 8) * 3);
    printf("%s\n", ok ? "pinned: ok" : "pinned: wrong");
    cudaFreeHost(pin_in);
    cudaFreeHost(pin_out);
  } else {
    printf("unknown scenario\n");
    return 2;
  }
  return 0;
}
