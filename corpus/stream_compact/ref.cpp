// CPU reference for compact_by_threshold: each 256-element tile is packed to
// the front of its own slot; the rest of the slot keeps its initial value.
void compact_by_threshold_ref(const float *in, float *out, int *blockCounts,
                              int n, float threshold) {
  const int tile = 256;
  const int blocks = (n + tile - 1) / tile;
  for (int b = 0; b < blocks; ++b) {
    int k = 0;
    for (int i = b * tile; i < (b + 1) * tile && i < n; ++i)
      if (in[i] > threshold)
        out[b * tile + k++] = in[i];
    blockCounts[b] = k;
  }
}
