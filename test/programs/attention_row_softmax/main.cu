// Causal attention of a small GPT-style layer (B = 2, NH = 3, T = 45,
// HS = 20) with the row softmax fused into one kernel per query row, run at
// two block sizes and checked against a host implementation.
#include <cmath>
#include <cstdio>
#include <vector>

#include "attention.cuh"

static void attentionHost(std::vector<float> &out, std::vector<float> &att,
                          const std::vector<float> &qkv, int B, int T, int NH, int HS) {
  const int C = NH * HS;
  const float scale = 1.0f / std::sqrt((float)HS);
  for (int b = 0; b < B; ++b)
    for (int h = 0; h < NH; ++h)
      for (int t = 0; t < T; ++t) {
        const float *qt = &qkv[((size_t)b * T + t) * 3 * C + h * HS];
        float *attRow = &att[(((size_t)b * NH + h) * T + t) * T];
        double mx = -1e30, sum = 0.0;
        std::vector<double> s(t + 1);
        for (int j = 0; j <= t; ++j) {
          const float *kj = &qkv[((size_t)b * T + j) * 3 * C + C + h * HS];
          double d = 0.0;
          for (int i = 0; i < HS; ++i)
            d += (double)qt[i] * kj[i];
          s[j] = d * scale;
          mx = std::fmax(mx, s[j]);
        }
        for (int j = 0; j <= t; ++j)
          sum += s[j] = std::exp(s[j] - mx);
        for (int j = 0; j < T; ++j)
          attRow[j] = j <= t ? (float)(s[j] / sum) : 0.0f;
        float *ot = &out[(((size_t)b * NH + h) * T + t) * HS];
        for (int i = 0; i < HS; ++i) {
          double acc = 0.0;
          for (int j = 0; j <= t; ++j)
            acc += attRow[j] * (double)qkv[((size_t)b * T + j) * 3 * C + 2 * C + h * HS + i];
          ot[i] = (float)acc;
        }
      }
}

template <typename S> struct StorageName;
template <> struct StorageName<float> { static const char *get() { return "float"; } };
template <> struct StorageName<__half> { static const char *get() { return "half"; } };

template <typename S, int BLOCK_SIZE>
static bool runAndCheck(const std::vector<float> &qkv, const std::vector<float> &outRef,
                        const std::vector<float> &attRef, int B, int T, int NH, int HS,
                        float tolOut, float tolAtt) {
  const size_t nQKV = qkv.size(), nOut = (size_t)B * NH * T * HS, nAtt = (size_t)B * NH * T * T;
  float *dQKV, *dOut, *dAtt;
  S *dQ, *dK, *dV;
  CHECK_CUDA(cudaMalloc(&dQKV, nQKV * sizeof(float)));
  CHECK_CUDA(cudaMalloc(&dQ, nOut * sizeof(S)));
  CHECK_CUDA(cudaMalloc(&dK, nOut * sizeof(S)));
  CHECK_CUDA(cudaMalloc(&dV, nOut * sizeof(S)));
  CHECK_CUDA(cudaMalloc(&dOut, nOut * sizeof(float)));
  CHECK_CUDA(cudaMalloc(&dAtt, nAtt * sizeof(float)));
  CHECK_CUDA(cudaMemcpy(dQKV, qkv.data(), nQKV * sizeof(float), cudaMemcpyHostToDevice));

  attentionForward<S, BLOCK_SIZE>(dOut, dAtt, dQ, dK, dV, dQKV, B, T, NH, HS);
  CHECK_CUDA(cudaDeviceSynchronize());

  std::vector<float> out(nOut), att(nAtt);
  CHECK_CUDA(cudaMemcpy(out.data(), dOut, nOut * sizeof(float), cudaMemcpyDeviceToHost));
  CHECK_CUDA(cudaMemcpy(att.data(), dAtt, nAtt * sizeof(float), cudaMemcpyDeviceToHost));
  CHECK_CUDA(cudaFree(dQKV));
  CHECK_CUDA(cudaFree(dQ));
  CHECK_CUDA(cudaFree(dK));
  CHECK_CUDA(cudaFree(dV));
  CHECK_CUDA(cudaFree(dOut));
  CHECK_CUDA(cudaFree(dAtt));

  double maxOut = 0.0, maxAtt = 0.0, worstRow = 0.0;
  for (size_t i = 0; i < nOut; ++i)
    maxOut = std::fmax(maxOut, std::fabs(out[i] - outRef[i]));
  for (size_t i = 0; i < nAtt; ++i)
    maxAtt = std::fmax(maxAtt, std::fabs(att[i] - attRef[i]));
  for (size_t r = 0; r < (size_t)B * NH * T; ++r) {
    double s = 0.0;
    for (int j = 0; j < T; ++j)
      s += att[r * T + j];
    worstRow = std::fmax(worstRow, std::fabs(s - 1.0));
  }
  const bool ok = maxOut < tolOut && maxAtt < tolAtt && worstRow < 1e-5;
  printf("%-5s block %3d: max |out - ref| %.3g, max |att - ref| %.3g, max |row sum - 1| %.3g %s\n",
         StorageName<S>::get(), BLOCK_SIZE, maxOut, maxAtt, worstRow, ok ? "ok" : "WRONG");
  return ok;
}

int main() {
  const int B = 2, NH = 3, T = 45, HS = 20, C = NH * HS;
  std::vector<float> qkv((size_t)B * T * 3 * C);
  for (size_t i = 0; i < qkv.size(); ++i)
    qkv[i] = std::sin(0.37f * (float)i) * (1.0f + 0.5f * std::cos(0.011f * (float)i));

  std::vector<float> outRef((size_t)B * NH * T * HS), attRef((size_t)B * NH * T * T);
  attentionHost(outRef, attRef, qkv, B, T, NH, HS);

  bool ok = true;
  ok &= runAndCheck<float, 32>(qkv, outRef, attRef, B, T, NH, HS, 1e-4f, 1e-5f);
  ok &= runAndCheck<float, 128>(qkv, outRef, attRef, B, T, NH, HS, 1e-4f, 1e-5f);
  // Half storage: inputs rounded to 11 significant bits, math in float.
  ok &= runAndCheck<__half, 64>(qkv, outRef, attRef, B, T, NH, HS, 3e-3f, 1e-3f);
  printf("%s\n", ok ? "PASS" : "FAIL");
  return ok ? 0 : 1;
}
