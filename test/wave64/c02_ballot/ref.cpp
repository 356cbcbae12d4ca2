void count_above_ref(const int *x, int threshold, int *count, int *all) {
  for (int b = 0; b < 4; ++b) {
    int c = 0, a = 1;
    for (int i = b * 128; i < (b + 1) * 128; ++i) {
      c += x[i] >= threshold;
      a &= x[i] >= threshold;
    }
    count[b] = c;
    all[b] = a;
  }
}
