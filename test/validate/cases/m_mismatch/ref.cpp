void shift_copy_ref(int *out, const int *in, int n) {
  for (int i = 0; i < n; ++i) out[i] = in[i];
}
