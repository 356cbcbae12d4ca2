void compact_ref(const float *in, float *out, int *kept) {
  for (int b = 0; b < 3; ++b) {
    int k = 0;
    for (int i = b * 128; i < (b + 1) * 128; ++i)
      if (in[i] > 0.25f)
        out[b * 128 + k++] = in[i];
    kept[b] = k;
  }
}
