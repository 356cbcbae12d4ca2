// CPU reference for warp_tile_layouts: D = A * B + C, A col-major (K x M),
// B row-major (K x N), C and D col-major (M x N, leading dimension M).
void warp_tile_layouts_ref(const pk_bf16 *A, const pk_bf16 *B, const float *C,
                           float *D, int M, int N, int K) {
  for (int m = 0; m < M; ++m)
    for (int n = 0; n < N; ++n) {
      double acc = C[n * M + m];
      for (int k = 0; k < K; ++k)
        acc += (double)pk_bf16_to_float(A[k * M + m]) *
               (double)pk_bf16_to_float(B[k * N + n]);
      D[n * M + m] = (float)acc;
    }
}
