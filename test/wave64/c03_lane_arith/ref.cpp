void block_stats_ref(const float *x, float limit, float *maxOut, int *anyNeg,
                     int *allBelow) {
  for (int b = 0; b < 6; ++b) {
    float m = x[b * 128];
    int a = 0, c = 1;
    for (int i = b * 128; i < (b + 1) * 128; ++i) {
      m = x[i] > m ? x[i] : m;
      a |= x[i] < 0.0f;
      c &= x[i] < limit;
    }
    maxOut[b] = m;
    anyNeg[b] = a;
    allBelow[b] = c;
  }
}
