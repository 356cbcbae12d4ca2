// CPU reference for compact_positive: per block of 192 elements, the
// positive values in input order and their number.
void compact_positive_ref(const float *in, float *out, int *counts, int n) {
  const int block = 192, grid = 6;
  for (int b = 0; b < grid; ++b) {
    int s = 0;
    for (int i = b * block; i < (b + 1) * block && i < n; ++i)
      if (in[i] > 0.0f)
        out[b * block + s++] = in[i];
    counts[b] = s;
  }
}
