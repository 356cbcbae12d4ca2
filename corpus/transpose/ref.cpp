// CPU reference for transpose_padded.
void transpose_padded_ref(float *out, const float *in, int rows, int cols) {
  for (int r = 0; r < rows; ++r)
    for (int c = 0; c < cols; ++c)
      out[c * rows + r] = in[r * cols + c];
}
