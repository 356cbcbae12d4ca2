void ranks_ref(const int *in, int *rank, int *total) {
  for (int b = 0; b < 2; ++b) {
    int s = 0;
    for (int w = 0; w < 4; ++w) {
      int r = 0;
      for (int l = 0; l < 32; ++l) {
        const int i = b * 128 + w * 32 + l;
        const bool pass = (in[i] & 1) != 0;
        rank[i] = pass ? r : -1;
        r += pass;
      }
      s += r;
    }
    total[b] = s;
  }
}
