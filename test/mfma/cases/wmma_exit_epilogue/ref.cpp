// CPU reference for wmma_exit_epilogue: C = relu(scale[row / 16] * (A * B) + bias).
void wmma_exit_epilogue_ref(const pk_half *A, const pk_half *B, const float *scale,
                            const float *bias, float *C, int M, int N, int K) {
  for (int i = 0; i < M; ++i)
    for (int j = 0; j < N; ++j) {
      double acc = 0.0;
      for (int k = 0; k < K; ++k)
        acc += (double)pk_half_to_float(A[i * K + k]) * (double)pk_half_to_float(B[k * N + j]);
      const float v = scale[i / 16] * (float)acc + bias[j];
      C[i * N + j] = v > 0.0f ? v : 0.0f;
    }
}
