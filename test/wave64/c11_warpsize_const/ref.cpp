void block_sum_ws_ref(const float *in, float *out) {
  for (int b = 0; b < 3; ++b) {
    double s = 0.0;
    for (int i = b * 192; i < (b + 1) * 192; ++i)
      s += in[i];
    out[b] = (float)s;
  }
}
