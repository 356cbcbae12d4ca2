void tile_scan_ref(const float *in, float *out, float *totals) {
  for (int b = 0; b < 4; ++b) {
    float s = 0.0f;
    for (int i = b * 32; i < (b + 1) * 32; ++i) {
      s += in[i];
      out[i] = s;
    }
    totals[b] = s;
  }
}
