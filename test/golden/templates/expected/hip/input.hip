#include <hip/hip_runtime.h>

template <typename T>
struct DeviceBuffer {
  T *ptr = nullptr;
  explicit DeviceBuffer(size_t n) { hipMalloc(&ptr, n * sizeof(T)); }
  ~DeviceBuffer() { hipFree(ptr); }
};

// port-kernel: note: kernel reduce: logical 32-lane warps inside 64-lane waves because 'partial[w]' reads per-warp slots over a range that is not the warp count of this kernel (line 20) [PK2000]
template <typename T, int WARPS>
__global__ void reduce(const T *in, T *out) {
  __shared__ T partial[WARPS];
  T v = in[blockIdx.x * blockDim.x + threadIdx.x];
  for (int o = 16; o > 0; o >>= 1)
    v += __shfl_down(v, o, 32);
  if ((threadIdx.x & 31) == 0) partial[threadIdx.x >> 5] = v;
  __syncthreads();
  if (threadIdx.x == 0) {
    T s = 0;
    for (int w = 0; w < WARPS; ++w) s += partial[w];
    out[blockIdx.x] = s;
  }
}

template <typename T>
hipError_t run(const T *in, T *out, int blocks) {
  reduce<T, 4><<<blocks, 128>>>(in, out);
  return hipGetLastError();
}

template hipError_t run<float>(const float *, float *, int);
template hipError_t run<int>(const int *, int *, int);
