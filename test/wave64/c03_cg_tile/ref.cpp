void tile_stats_ref(const float *in, float *sum, int *positive) {
  for (int b = 0; b < 3; ++b) {
    double s = 0.0;
    int p = 0;
    for (int i = b * 128; i < (b + 1) * 128; ++i) {
      s += in[i];
      p += in[i] > 0.0f;
    }
    sum[b] = (float)s;
    positive[b] = p;
  }
}
