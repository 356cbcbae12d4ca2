void broken_ref(float *out, int n) {
  for (int i = 0; i < n; ++i) out[i] = 1.0f;
}
