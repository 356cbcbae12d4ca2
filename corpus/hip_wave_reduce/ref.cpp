// CPU reference for row_sums: each row summed in double.
void row_sums_ref(const float *in, float *out, int rows, int cols) {
  for (int r = 0; r < rows; ++r) {
    double s = 0.0;
    for (int c = 0; c < cols; ++c)
      s += in[(long)r * cols + c];
    out[r] = (float)s;
  }
}
