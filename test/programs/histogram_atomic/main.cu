// Third-party idiom: a shared-memory histogram with atomics, error checks
// through a local macro, no runtime include.
#include <cstdio>
#include <cstdlib>
#include <vector>

#define CUDA_CHECK(call)                                                       \
  do {                                                                         \
    cudaError_t err_ = (call);                                                 \
    if (err_ != cudaSuccess) {                                                 \
      std::fprintf(stderr, "%s:%d: %s\n", __FILE__, __LINE__,                 \
                   cudaGetErrorString(err_));                                  \
      std::exit(1);                                                            \
    }                                                                          \
  } while (0)

constexpr int kBins = 16;

__global__ void histogram(const unsigned char *in, int n, unsigned *bins) {
  __shared__ unsigned local[kBins];
  if (threadIdx.x < kBins)
    local[threadIdx.x] = 0;
  __syncthreads();
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n;
       i += gridDim.x * blockDim.x)
    atomicAdd(&local[in[i] % kBins], 1u);
  __syncthreads();
  if (threadIdx.x < kBins)
    atomicAdd(&bins[threadIdx.x], local[threadIdx.x]);
}

int main() {
  const int n = 5000;
  std::vector<unsigned char> h(n);
  std::vector<unsigned> ref(kBins, 0);
  for (int i = 0; i < n; ++i) {
    h[i] = (unsigned char)((i * 31 + 7) % 251);
    ++ref[h[i] % kBins];
  }
  unsigned char *din;
  unsigned *dbins;
  CUDA_CHECK(cudaMalloc(&din, n));
  CUDA_CHECK(cudaMalloc(&dbins, kBins * sizeof(unsigned)));
  CUDA_CHECK(cudaMemcpy(din, h.data(), n, cudaMemcpyHostToDevice));
  CUDA_CHECK(cudaMemset(dbins, 0, kBins * sizeof(unsigned)));
  histogram<<<8, 128>>>(din, n, dbins);
  CUDA_CHECK(cudaGetLastError());
  std::vector<unsigned> r(kBins);
  CUDA_CHECK(cudaMemcpy(r.data(), dbins, kBins * sizeof(unsigned),
                        cudaMemcpyDeviceToHost));
  for (int b = 0; b < kBins; ++b)
    if (r[b] != ref[b]) {
      std::printf("bin %d: got %u want %u\n", b, r[b], ref[b]);
      return 1;
    }
  std::printf("histogram_atomic: ok\n");
  return 0;
}
