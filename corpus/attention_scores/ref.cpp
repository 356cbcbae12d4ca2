// CPU reference for attention_scores.
#include <cmath>
#include <vector>

void attention_scores_ref(const float *Q, const float *Kmat, float *P, int seqQ,
                          int seqK, int headDim, float scale) {
  std::vector<double> s(seqK);
  for (int i = 0; i < seqQ; ++i) {
    double m = -1e300;
    for (int j = 0; j < seqK; ++j) {
      double dot = 0.0;
      for (int d = 0; d < headDim; ++d)
        dot += (double)Q[i * headDim + d] * Kmat[j * headDim + d];
      s[j] = dot * scale;
      m = s[j] > m ? s[j] : m;
    }
    double sum = 0.0;
    for (int j = 0; j < seqK; ++j)
      sum += std::exp(s[j] - m);
    for (int j = 0; j < seqK; ++j)
      P[i * seqK + j] = (float)(std::exp(s[j] - m) / sum);
  }
}
