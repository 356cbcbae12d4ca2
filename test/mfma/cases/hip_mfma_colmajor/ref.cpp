// CPU reference for mfma_colmajor: column-major A, B and C.
void mfma_colmajor_ref(const pk_half *A, const pk_half *B, float *C, int M,
                       int K) {
  const int N = 32;
  for (int i = 0; i < M; ++i)
    for (int j = 0; j < N; ++j) {
      double acc = 0.0;
      for (int k = 0; k < K; ++k)
        acc += (double)pk_half_to_float(A[k * M + i]) *
               (double)pk_half_to_float(B[j * K + k]);
      C[j * M + i] = (float)acc;
    }
}
