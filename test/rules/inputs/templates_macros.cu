// Templates, macros, constant memory, dynamic and static shared memory,
// function templates launched with explicit arguments.
#include <cuda_runtime.h>
#include <device_launch_parameters.h>
#include <cstdio>
#include <type_traits>

#define BLOCK 128
#define IDX() (blockIdx.x * blockDim.x + threadIdx.x)
#define CUDA_TRY(expr)                                                           \
  do {                                                                           \
    cudaError_t e = (expr);                                                      \
    if (e != cudaSuccess) printf("error %s at %s:%d\n", cudaGetErrorString(e),   \
                                 __FILE__, __LINE__);                            \
  } while (0)
#define LAUNCH(kernel, grid, block, ...) kernel<<<(grid), (block)>>>(__VA_ARGS__)

template <typename T> struct Plus {
  __host__ __device__ T operator()(T a, T b) const { return a + b; }
};
template <typename T> struct Max {
  __host__ __device__ T operator()(T a, T b) const { return a > b ? a : b; }
};

template <typename T, int Block, typename Op>
__global__ void blockReduce(const T *__restrict__ in, T *out, int n, Op op) {
  __shared__ T tile[Block];
  int i = IDX();
  tile[threadIdx.x] = i < n ? in[i] : T(0);
  __syncthreads();
  for (int s = Block / 2; s > 0; s >>= 1) {
    if ((int)threadIdx.x < s) tile[threadIdx.x] = op(tile[threadIdx.x], tile[threadIdx.x + s]);
    __syncthreads();
  }
  if (threadIdx.x == 0) out[blockIdx.x] = tile[0];
}

template <typename T> __device__ __forceinline__ T clampTo(T v, T lo, T hi) {
  return v < lo ? lo : (v > hi ? hi : v);
}

template <typename T>
__global__ void dynShared(T *data, int n) {
  extern __shared__ __align__(16) unsigned char raw[];
  T *buf = reinterpret_cast<T *>(raw);
  int i = IDX();
  if (i < n) buf[threadIdx.x] = clampTo<T>(data[i], T(0), T(1));
  __syncthreads();
  if (i < n) data[i] = buf[blockDim.x - 1 - threadIdx.x];
}

__constant__ int kLut[4] = {1, 2, 3, 4};
__device__ __managed__ int managedCount;

template <typename T, typename std::enable_if<std::is_floating_point<T>::value, int>::type = 0>
void run(int n) {
  T *in, *out;
  CUDA_TRY(cudaMalloc(&in, n * sizeof(T)));
  CUDA_TRY(cudaMalloc(&out, ((n + BLOCK - 1) / BLOCK) * sizeof(T)));
  blockReduce<T, BLOCK><<<(n + BLOCK - 1) / BLOCK, BLOCK>>>(in, out, n, Plus<T>());
  blockReduce<T, BLOCK, Max<T>><<<(n + BLOCK - 1) / BLOCK, BLOCK, 0, 0>>>(in, out, n, Max<T>());
  LAUNCH(dynShared<T>, (n + BLOCK - 1) / BLOCK, BLOCK, in, n);
  dynShared<T><<<1, BLOCK, BLOCK * sizeof(T)>>>(in, n);
  CUDA_TRY(cudaGetLastError());
  CUDA_TRY(cudaFree(in));
  CUDA_TRY(cudaFree(out));
}

int main() {
  run<float>(1000);
  run<double>(1000);
  int lut[4];
  CUDA_TRY(cudaMemcpyFromSymbol(lut, kLut, sizeof(lut)));
  managedCount = 0;
  CUDA_TRY(cudaDeviceSynchronize());
  return lut[0] - 1;
}
