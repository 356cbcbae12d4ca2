// A linear layer y = W x + b with a GELU, checked against the CPU at three
// block sizes for the bias-GELU kernel, through cublasSgemv and through the
// cuBLASLt GELU_BIAS epilogue; then benchmarked for 100,000 launches per
// variant, as kernel-development harnesses do.  Validate it with
// --stop-at=All.results.match: the benchmark measures nothing on an emulator.
#include "common.h"

__device__ inline float gelu(float x) {
  return 0.5f * x * (1.0f + tanhf(0.7978845608f * (x + 0.044715f * x * x * x)));
}
__global__ void bias_gelu(float *y, const float *b, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] = gelu(y[i] + b[i]);
}

static void linear_sgemv(float *y, const float *W, const float *x, const float *b, int rows,
                         int cols, int block) {
  const float one = 1.0f, zero = 0.0f;
  // W is rows x cols row-major: cols x rows column-major, transposed.
  cublasCheck(cublasSgemv(cublas_handle, CUBLAS_OP_T, cols, rows, &one, W, cols, x, 1, &zero, y, 1));
  bias_gelu<<<(rows + block - 1) / block, block>>>(y, b, rows);
  cudaCheck(cudaGetLastError());
}

static void linear_lt(float *y, const float *W, const float *x, const float *b, int rows, int cols) {
  cublasLtMatmulDesc_t desc;
  cublasCheck(cublasLtMatmulDescCreate(&desc, CUBLAS_COMPUTE_32F, CUDA_R_32F));
  cublasOperation_t t = CUBLAS_OP_T, n = CUBLAS_OP_N;
  cublasCheck(cublasLtMatmulDescSetAttribute(desc, CUBLASLT_MATMUL_DESC_TRANSA, &t, sizeof(t)));
  cublasCheck(cublasLtMatmulDescSetAttribute(desc, CUBLASLT_MATMUL_DESC_TRANSB, &n, sizeof(n)));
  cublasLtEpilogue_t epi = CUBLASLT_EPILOGUE_GELU_BIAS;
  cublasCheck(cublasLtMatmulDescSetAttribute(desc, CUBLASLT_MATMUL_DESC_EPILOGUE, &epi, sizeof(epi)));
  cublasCheck(cublasLtMatmulDescSetAttribute(desc, CUBLASLT_MATMUL_DESC_BIAS_POINTER, &b, sizeof(b)));
  cublasLtMatrixLayout_t A, B, C;
  cublasCheck(cublasLtMatrixLayoutCreate(&A, CUDA_R_32F, cols, rows, cols));
  cublasCheck(cublasLtMatrixLayoutCreate(&B, CUDA_R_32F, cols, 1, cols));
  cublasCheck(cublasLtMatrixLayoutCreate(&C, CUDA_R_32F, rows, 1, rows));
  cublasLtMatmulPreference_t pref;
  cublasCheck(cublasLtMatmulPreferenceCreate(&pref));
  cublasCheck(cublasLtMatmulPreferenceSetAttribute(pref, CUBLASLT_MATMUL_PREF_MAX_WORKSPACE_BYTES,
                                                   &lt_workspace_size, sizeof(lt_workspace_size)));
  cublasLtMatmulHeuristicResult_t heur;
  int found = 0;
  cublasCheck(cublasLtMatmulAlgoGetHeuristic(cublaslt_handle, desc, A, B, C, C, pref, 1, &heur, &found));
  if (found != 1) { std::printf("no algorithm\n"); std::exit(EXIT_FAILURE); }
  const float one = 1.0f, zero = 0.0f;
  cublasCheck(cublasLtMatmul(cublaslt_handle, desc, &one, W, A, x, B, &zero, y, C, y, C, &heur.algo,
                             lt_workspace, lt_workspace_size, 0));
  cublasCheck(cublasLtMatmulPreferenceDestroy(pref));
  cublasCheck(cublasLtMatrixLayoutDestroy(A));
  cublasCheck(cublasLtMatrixLayoutDestroy(B));
  cublasCheck(cublasLtMatrixLayoutDestroy(C));
  cublasCheck(cublasLtMatmulDescDestroy(desc));
}

int main() {
  setup_main();
  const int rows = 1000, cols = 333;
  float *W = make_random((size_t)rows * cols), *x = make_random(cols), *b = make_random(rows);
  float *ref = (float *)std::malloc(rows * sizeof(float));
  for (int r = 0; r < rows; ++r) {
    double acc = 0.0;
    for (int c = 0; c < cols; ++c) acc += (double)W[(size_t)r * cols + c] * x[c];
    float v = (float)acc + b[r];
    ref[r] = 0.5f * v * (1.0f + tanhf(0.7978845608f * (v + 0.044715f * v * v * v)));
  }
  float *dW, *dx, *db, *dy;
  cudaCheck(cudaMalloc(&dW, (size_t)rows * cols * sizeof(float)));
  cudaCheck(cudaMalloc(&dx, cols * sizeof(float)));
  cudaCheck(cudaMalloc(&db, rows * sizeof(float)));
  cudaCheck(cudaMalloc(&dy, rows * sizeof(float)));
  cudaCheck(cudaMemcpy(dW, W, (size_t)rows * cols * sizeof(float), cudaMemcpyHostToDevice));
  cudaCheck(cudaMemcpy(dx, x, cols * sizeof(float), cudaMemcpyHostToDevice));
  cudaCheck(cudaMemcpy(db, b, rows * sizeof(float), cudaMemcpyHostToDevice));

  const int blocks[] = {32, 128, 512};
  for (int block : blocks) {
    std::printf("Checking block size %d.\n", block);
    cudaCheck(cudaMemset(dy, 0, rows * sizeof(float)));
    linear_sgemv(dy, dW, dx, db, rows, cols, block);
    validate_result(dy, ref, "sgemv+bias_gelu", rows, 1e-4f);
  }
  std::printf("Checking cuBLASLt GELU_BIAS.\n");
  cudaCheck(cudaMemset(dy, 0, rows * sizeof(float)));
  linear_lt(dy, dW, dx, db, rows, cols);
  validate_result(dy, ref, "cublasLt", rows, 1e-4f);
  std::printf("All results match. Starting benchmarks.\n\n");

  for (int block : blocks) {
    float ms = benchmark_kernel(100000, linear_sgemv, dy, dW, dx, db, rows, cols, block);
    std::printf("block_size %4d | time %.4f ms\n", block, ms);
  }
  float ms = benchmark_kernel(100000, linear_lt, dy, dW, dx, db, rows, cols);
  std::printf("cuBLASLt | time %.4f ms\n", ms);
  cudaCheck(cudaFree(dW));
  cudaCheck(cudaFree(dx));
  cudaCheck(cudaFree(db));
  cudaCheck(cudaFree(dy));
  cublasCheck(cublasLtDestroy(cublaslt_handle));
  cublasCheck(cublasDestroy(cublas_handle));
  return 0;
}
