// CPU reference for sgemm_tiled<16>.
void sgemm_tiled_ref(const float *A, const float *B, float *C, int M, int N,
                     int K, float alpha, float beta) {
  for (int i = 0; i < M; ++i)
    for (int j = 0; j < N; ++j) {
      double acc = 0.0;
      for (int k = 0; k < K; ++k)
        acc += (double)A[i * K + k] * B[k * N + j];
      C[i * N + j] = (float)(alpha * acc + beta * C[i * N + j]);
    }
}
