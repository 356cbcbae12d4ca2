// CPU reference for attention_wmma: exact products of the half inputs,
// summed in double; softmax in double.
#include <cmath>

void attention_wmma_ref(const pk_half *Q, const pk_half *K, float *P, int seqQ,
                        float scale) {
  const int D = 32, SK = 64;
  double s[64];
  for (int i = 0; i < seqQ; ++i) {
    double m = -1e300;
    for (int j = 0; j < SK; ++j) {
      double dot = 0.0;
      for (int d = 0; d < D; ++d)
        dot += (double)pk_half_to_float(Q[i * D + d]) *
               (double)pk_half_to_float(K[j * D + d]);
      s[j] = dot * (double)scale;
      m = s[j] > m ? s[j] : m;
    }
    double sum = 0.0;
    for (int j = 0; j < SK; ++j)
      sum += std::exp(s[j] - m);
    for (int j = 0; j < SK; ++j)
      P[i * SK + j] = (float)(std::exp(s[j] - m) / sum);
  }
}
