void block_scan_ref(const int *in, int *out, int *blockMax) {
  for (int b = 0; b < 3; ++b) {
    int run = 0, m = in[b * 256];
    for (int i = b * 256; i < (b + 1) * 256; ++i) {
      run += in[i];
      out[i] = run;
      m = in[i] > m ? in[i] : m;
    }
    blockMax[b] = m;
  }
}
