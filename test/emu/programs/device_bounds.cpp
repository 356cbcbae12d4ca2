// Device-memory bounds scenarios (CUDA spelling). argv[1] selects the scenario; the emulator
// reports accesses outside every live cudaMalloc'd buffer (device_memory.cpp) and exits 86.
#include <cstdio>
#include <cstring>
#include <cstdlib>
#include <vector>

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

// Host memory that is not device memory: a std::vector's data and a new[]
// array passed to a kernel.
__global__ void read_host(const float* host, float* out) {
  out[threadIdx.x] = host[threadIdx.x];  // HOST_READ_LINE
}
__global__ void atomic_host(int* host) {
  atomicAdd(host, 1);  // HOST_ATOMIC_LINE
}

// Everything a kernel may use without cudaMalloc: locals indexed at run time,
// a by-value struct parameter, __shared__ and dynamic shared memory, memory
// the kernel allocates (malloc and new), registered host memory, built-in
// variables.
struct Params {
  float scale[4];
  int n;
};
__global__ void legal_memory(Params p, const float* registered, float* out) {
  PKEMU_SHARED(tile, float[32]);
  PKEMU_DYNAMIC_SHARED(dyn, float);
  float local[8];
  unsigned t = threadIdx.x;
  for (int k = 0; k < 8; ++k) local[k] = (float)(k * t);
  volatile float* vl = local;
  tile[t] = vl[t % 8] + p.scale[t % 4];
  dyn[t] = registered[t];
  __syncthreads();
  float* heap = (float*)malloc(4 * sizeof(float));
  int* obj = new int[3];
  heap[t % 4] = tile[(t + 1) % 32];
  obj[t % 3] = p.n;
  out[t] = heap[t % 4] + dyn[(t + 1) % 32] + (float)obj[t % 3] + (float)blockDim.x;
  free(heap);
  delete[] obj;
}

// __device__ and __constant__ arrays as the emulator preparation leaves them
// (PKEMU_DEVICE_VAR: each in a checked buffer of its own).
__device__ float pkemu_dv_dev_lut[16] = {1, 2, 3};  PKEMU_DEVICE_VAR(dev_lut, float[16]);  // LUT_LINE
__constant__ int pkemu_dv_const_taps[4];  PKEMU_DEVICE_VAR(const_taps, int[4]);
__global__ void read_device_array(float* out, int n) {
  unsigned i = threadIdx.x;
  if ((int)i < n) out[i] = dev_lut[i] + (float)const_taps[i % 4];  // LUT_READ_LINE
}
__global__ void write_constant_past(int k) {
  if (threadIdx.x == 0) const_taps[k] = 1;  // TAPS_WRITE_LINE
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
  } else if (!strcmp(s, "huge")) {
    // A 64 MiB buffer: the mapping that holds it is eligible for huge pages
    // (the THPeligible line of its /proc/self/smaps entry).
    const size_t n = size_t(64) << 20;
    char* buf = nullptr;
    cudaMalloc(&buf, n);
    cudaMemset(buf, 1, n);
    FILE* f = fopen("/proc/self/smaps", "r");
    char line[512];
    bool in = false;
    int eligible = -1;
    while (f && fgets(line, sizeof line, f)) {
      unsigned long lo, hi;
      if (sscanf(line, "%lx-%lx ", &lo, &hi) == 2 && strchr(line, '-') < strchr(line, ' '))
        in = lo <= (unsigned long)buf && (unsigned long)buf < hi;
      else if (in && !strncmp(line, "THPeligible:", 12))
        eligible = atoi(line + 12);
    }
    if (f) fclose(f);
    printf("huge: THPeligible %d\n", eligible);
  } else if (!strcmp(s, "host")) {
    std::vector<float> v(32, 1.0f);
    pkemu::launch(read_host, 1, 16, 0, 0, (const float*)v.data(), out);
    int* counter = new int(0);
    pkemu::launch(atomic_host, 1, 4, 0, 0, counter);
    cudaDeviceSynchronize();
    printf("host: counter=%d\n", *counter);
    delete counter;
  } else if (!strcmp(s, "legal")) {
    std::vector<float> reg(32);
    for (int i = 0; i < 32; ++i) reg[i] = (float)i;
    cudaHostRegister(reg.data(), reg.size() * sizeof(float), cudaHostRegisterDefault);
    Params p{{1, 2, 3, 4}, 7};
    float* o = nullptr;
    cudaMalloc(&o, 32 * sizeof(float));
    pkemu::launch(legal_memory, 2, 32, 32 * sizeof(float), 0, p, (const float*)reg.data(), o);
    cudaDeviceSynchronize();
    float h2[32];
    cudaMemcpy(h2, o, sizeof h2, cudaMemcpyDeviceToHost);
    bool ok = true;
    for (int t = 0; t < 32; ++t) {
      int u = (t + 1) % 32;
      float want = (float)((u % 8) * u) + (float)(u % 4 + 1) + (float)u + 7.0f + 32.0f;
      ok = ok && h2[t] == want;
    }
    cudaHostUnregister(reg.data());
    printf("legal: %s\n", ok ? "ok" : "wrong");
  } else if (!strcmp(s, "device_array") || !strcmp(s, "device_array_past")) {
    int taps[4] = {10, 20, 30, 40};
    cudaMemcpyToSymbol(const_taps, taps, sizeof taps);
    bool past = !strcmp(s, "device_array_past");
    pkemu::launch(read_device_array, 1, 32, 0, 0, out, past ? 17 : 16);
    if (past) pkemu::launch(write_constant_past, 1, 1, 0, 0, 4);
    cudaDeviceSynchronize();
    float h2[16];
    cudaMemcpy(h2, out, sizeof h2, cudaMemcpyDeviceToHost);
    printf("device array: %g %g %g %g size=%zu\n", h2[0], h2[1], h2[3], h2[15], sizeof(dev_lut));
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
