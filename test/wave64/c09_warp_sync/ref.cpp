void reduce_volatile_ref(const float *in, float *out) {
  for (int b = 0; b < 4; ++b) {
    double s = 0.0;
    for (int i = b * 256; i < (b + 1) * 256; ++i)
      s += in[i];
    out[b] = (float)s;
  }
}
