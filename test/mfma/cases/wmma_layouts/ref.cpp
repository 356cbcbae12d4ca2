// CPU reference for wmma_layouts.
void wmma_layouts_ref(const pk_half *Ar, const pk_half *Ac, const pk_half *Br,
                      const pk_half *Bc, const float *Cr, const float *Cc,
                      float *D1, float *D2) {
  for (int i = 0; i < 16; ++i)
    for (int n = 0; n < 64; ++n) {
      double s1 = Cc[n * 16 + i], s2 = Cr[i * 64 + n];
      for (int k = 0; k < 32; ++k) {
        s1 += (double)pk_half_to_float(Ac[k * 16 + i]) *
              (double)pk_half_to_float(Br[k * 64 + n]);
        s2 += (double)pk_half_to_float(Ar[i * 32 + k]) *
              (double)pk_half_to_float(Bc[n * 32 + k]);
      }
      D1[i * 64 + n] = (float)s1;
      D2[n * 16 + i] = (float)(0.5 * s2);
    }
}
