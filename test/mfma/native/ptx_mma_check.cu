// Runs test/mfma/cases/ptx_mma_gemm on an NVIDIA GPU and compares it with the
// CPU reference: checks that the case's PTX-layout register packing matches
// the hardware (nvcc -arch=sm_80 or newer).
#include "../cases/ptx_mma_gemm/ptx_mma_gemm.cu"
#include <cstdio>
#include <cmath>
#include <vector>
typedef __half pk_half;
static float pk_half_to_float(pk_half h) { return __half2float(h); }
#include "../cases/ptx_mma_gemm/ref.cpp"

int main() {
  const int M = 32, N = 48, K = 48;
  std::vector<__half> A(M * K), B(K * N);
  unsigned s = 12345;
  auto rnd = [&] { s = s * 1664525u + 1013904223u; return (float)((s >> 8) & 0xffff) / 32768.0f - 1.0f; };
  for (auto &x : A) x = __float2half(rnd());
  for (auto &x : B) x = __float2half(rnd());
  std::vector<float> C(M * N, -5.f), R(M * N);
  __half *dA, *dB; float *dC;
  cudaMalloc(&dA, A.size() * 2); cudaMalloc(&dB, B.size() * 2); cudaMalloc(&dC, C.size() * 4);
  cudaMemcpy(dA, A.data(), A.size() * 2, cudaMemcpyHostToDevice);
  cudaMemcpy(dB, B.data(), B.size() * 2, cudaMemcpyHostToDevice);
  ptx_mma_gemm<<<dim3(3, 2), 64>>>(dA, dB, dC, M, N, K);
  cudaMemcpy(C.data(), dC, C.size() * 4, cudaMemcpyDeviceToHost);
  ptx_mma_gemm_ref(A.data(), B.data(), R.data(), M, N, K);
  double maxerr = 0;
  for (int i = 0; i < M * N; ++i) maxerr = fmax(maxerr, fabs(C[i] - R[i]));
  printf("%s: max abs error %g (%s)\n", cudaGetErrorString(cudaGetLastError()), maxerr,
         maxerr < 1e-4 ? "PASS" : "FAIL");
  return maxerr < 1e-4 ? 0 : 1;
}
