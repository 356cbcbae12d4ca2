// CPU reference for axpy.
void axpy_ref(float *y, const float *x, float a, int n) {
  for (int i = 0; i < n; ++i)
    y[i] = a * x[i] + y[i];
}
