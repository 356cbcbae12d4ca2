void neighbour_diff_ref(const float *x, float *diff, float *first) {
  for (int i = 0; i < 256; ++i) {
    const int lane = i % 32;
    diff[i] = lane == 31 ? 0.0f : x[i + 1] - x[i];
    first[i] = x[i - lane];
  }
}
