void checked_copy_ref(float *out, const float *in, int n) {
  for (int i = 0; i < n; ++i) out[i] = in[i];
}
