// CPU reference for mfma_gemm: exact products of the half inputs, summed in
// double.
void mfma_gemm_ref(const pk_half *A, const pk_half *B, float *C, int M, int N,
                   int K) {
  for (int i = 0; i < M; ++i)
    for (int j = 0; j < N; ++j) {
      double acc = 0.0;
      for (int k = 0; k < K; ++k)
        acc += (double)pk_half_to_float(A[i * K + k]) *
               (double)pk_half_to_float(B[k * N + j]);
      C[i * N + j] = (float)acc;
    }
}
