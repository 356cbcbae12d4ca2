// CPU reference for lds_padding: C = A * B with B given transposed (Bt).
void lds_padding_ref(const pk_bf16 *A, const pk_bf16 *Bt, float *C, int M, int N, int K) {
  for (int i = 0; i < M; ++i)
    for (int j = 0; j < N; ++j) {
      double acc = 0.0;
      for (int k = 0; k < K; ++k)
        acc += (double)pk_bf16_to_float(A[i * K + k]) * (double)pk_bf16_to_float(Bt[j * K + k]);
      C[i * N + j] = (float)acc;
    }
}
