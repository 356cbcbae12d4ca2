// A linear layer + GELU forward through cuBLAS (Sgemm and GemmEx), checked
// against a CPU reference; prints PASS or FAIL and exits 0.
#include <cmath>
#include <cstring>
#include <vector>
#include "matmul.cuh"

static float gelu_ref(float x) {
  return 0.5f * x * (1.0f + tanhf(sqrtf(2.0f / M_PI) * (x + 0.044715f * x * x * x)));
}

int main() {
  const int N = 24, C = 40, OC = 72;
  std::vector<float> inp(N * C), w(OC * C), b(OC);
  unsigned s = 12345u;
  auto rnd = [&]() { s = s * 1664525u + 1013904223u; return ((s >> 8) & 0xffff) / 65536.0f - 0.5f; };
  for (float &x : inp) x = rnd();
  for (float &x : w) x = rnd();
  for (float &x : b) x = rnd();

  float *d_inp, *d_w, *d_b, *d_out, *d_sq;
  cudaCheck(cudaMalloc(&d_inp, N * C * sizeof(float)));
  cudaCheck(cudaMalloc(&d_w, OC * C * sizeof(float)));
  cudaCheck(cudaMalloc(&d_b, OC * sizeof(float)));
  cudaCheck(cudaMalloc(&d_out, N * OC * sizeof(float)));
  cudaCheck(cudaMalloc(&d_sq, N * sizeof(float)));
  cudaCheck(cudaMemcpy(d_inp, inp.data(), N * C * sizeof(float), cudaMemcpyHostToDevice));
  cudaCheck(cudaMemcpy(d_w, w.data(), OC * C * sizeof(float), cudaMemcpyHostToDevice));
  cudaCheck(cudaMemcpy(d_b, b.data(), OC * sizeof(float), cudaMemcpyHostToDevice));

  cublasHandle_t handle;
  cublasCheck(cublasCreate(&handle));
  cublasCheck(cublasSetMathMode(handle, CUBLAS_DEFAULT_MATH));

  std::vector<float> ref(N * OC), ref_sq(N, 0.0f);
  for (int n = 0; n < N; ++n)
    for (int o = 0; o < OC; ++o) {
      float acc = b[o];
      for (int c = 0; c < C; ++c) acc += inp[n * C + c] * w[o * C + c];
      ref[n * OC + o] = gelu_ref(acc);
      ref_sq[n] += ref[n * OC + o] * ref[n * OC + o];
    }

  bool ok = true;
  for (int variant = 0; variant < 2; ++variant) {
    cudaCheck(cudaMemset(d_out, 0, N * OC * sizeof(float)));
    matmul_forward(handle, d_out, d_inp, d_w, d_b, N, C, OC, variant == 1);
    row_sumsq<<<ceil_div(N * 32, 128), 128>>>(d_out, d_sq, N, OC);
    cudaCheck(cudaDeviceSynchronize());
    std::vector<float> out(N * OC), sq(N);
    cudaCheck(cudaMemcpy(out.data(), d_out, N * OC * sizeof(float), cudaMemcpyDeviceToHost));
    cudaCheck(cudaMemcpy(sq.data(), d_sq, N * sizeof(float), cudaMemcpyDeviceToHost));
    for (int i = 0; i < N * OC; ++i)
      if (std::fabs(out[i] - ref[i]) > 1e-4f) {
        std::printf("variant %d: out[%d] = %f, expected %f\n", variant, i, out[i], ref[i]);
        ok = false;
        break;
      }
    for (int n = 0; n < N; ++n)
      if (std::fabs(sq[n] - ref_sq[n]) > 1e-3f * (1.0f + ref_sq[n])) {
        std::printf("variant %d: sumsq[%d] = %f, expected %f\n", variant, n, sq[n], ref_sq[n]);
        ok = false;
        break;
      }
  }
  // The CUDA samples' simpleCUBLAS / batchCUBLAS path: matrices moved with
  // cublasSet/GetVector and Set/GetMatrix, a batched GEMM over device arrays
  // of matrix pointers, a managed buffer attached to a stream.
  {
    const int M = 3, K = 4, B = 2;  // C[b] = A[b] (M x K) * X (K x 1), column-major
    std::vector<float> hA(M * K * B), hX(K), hC(M * B, -1.0f);
    for (int i = 0; i < M * K * B; ++i) hA[i] = 0.25f * (float)((i * 5) % 7) - 0.5f;
    for (int i = 0; i < K; ++i) hX[i] = 1.0f + (float)i;
    float *dA, *dX, *dC;
    cudaCheck(cudaMalloc(&dA, M * K * B * sizeof(float)));
    cudaCheck(cudaMalloc(&dX, K * sizeof(float)));
    cudaCheck(cudaMalloc(&dC, M * B * sizeof(float)));
    cublasCheck(cublasSetMatrix(M, K * B, sizeof(float), hA.data(), M, dA, M));
    cublasCheck(cublasSetVector(K, sizeof(float), hX.data(), 1, dX, 1));
    const float *hAp[B] = {dA, dA + M * K}, *hXp[B] = {dX, dX};
    float *hCp[B] = {dC, dC + M};
    const float **dAp, **dXp;
    float **dCp;
    cudaCheck(cudaMallocManaged(&dAp, sizeof hAp));
    cudaCheck(cudaMallocManaged(&dXp, sizeof hXp));
    cudaCheck(cudaMallocManaged(&dCp, sizeof hCp));
    cudaStream_t stream;
    cudaCheck(cudaStreamCreate(&stream));
    cudaCheck(cudaStreamAttachMemAsync(stream, dAp, 0, cudaMemAttachGlobal));
    std::memcpy(dAp, hAp, sizeof hAp);
    std::memcpy(dXp, hXp, sizeof hXp);
    std::memcpy(dCp, hCp, sizeof hCp);
    const float one = 1.0f, zero = 0.0f;
    cublasCheck(cublasSgemmBatched(handle, CUBLAS_OP_N, CUBLAS_OP_N, M, 1, K, &one, dAp, M,
                                   dXp, K, &zero, dCp, M, B));
    cudaCheck(cudaDeviceSynchronize());
    cublasCheck(cublasGetMatrix(M, 1, sizeof(float), dC, M, hC.data(), M));
    cublasCheck(cublasGetVector(M, sizeof(float), dC + M, 1, hC.data() + M, 1));
    for (int b = 0; b < B; ++b)
      for (int i = 0; i < M; ++i) {
        float want = 0.0f;
        for (int k = 0; k < K; ++k) want += hA[b * M * K + k * M + i] * hX[k];
        if (std::fabs(hC[b * M + i] - want) > 1e-5f) {
          std::printf("batched: C[%d][%d] = %f, expected %f\n", b, i, hC[b * M + i], want);
          ok = false;
        }
      }
    cudaCheck(cudaStreamDestroy(stream));
    cudaFree(dA); cudaFree(dX); cudaFree(dC); cudaFree(dAp); cudaFree(dXp); cudaFree(dCp);
  }
  cublasCheck(cublasDestroy(handle));
  cudaFree(d_inp); cudaFree(d_w); cudaFree(d_b); cudaFree(d_out); cudaFree(d_sq);
  std::printf("%s\n", ok ? "PASS" : "FAIL");
  return 0;
}
