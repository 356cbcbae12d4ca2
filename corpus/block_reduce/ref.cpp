// CPU reference for block_reduce_sum: the same grid-strided partition,
// summed in double.
void block_reduce_sum_ref(const float *in, float *partial, int n) {
  const int blockSize = 256, grid = 6;
  for (int b = 0; b < grid; ++b) {
    double s = 0.0;
    for (int start = b * blockSize; start < n; start += blockSize * grid)
      for (int i = start; i < start + blockSize && i < n; ++i)
        s += in[i];
    partial[b] = (float)s;
  }
}
