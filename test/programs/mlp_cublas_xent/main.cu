// Forward and the last layer's backward of a two-layer MLP classifier
// (Linear -> ReLU -> LayerNorm -> Linear -> softmax cross-entropy),
// activations row-major as llm.c keeps them, GEMMs through cuBLAS; every
// tensor is checked against a CPU reference.
#include <cmath>
#include <cstdio>
#include <vector>

#include "layers.cuh"

static bool check_tensor(const char *name, const std::vector<float> &got,
                         const std::vector<float> &ref, float tol) {
  int bad = 0;
  float maxdiff = 0.0f;
  for (size_t i = 0; i < ref.size(); ++i) {
    float d = std::fabs(got[i] - ref[i]);
    maxdiff = std::fmax(maxdiff, d);
    if (d > tol * (1.0f + std::fabs(ref[i]))) {
      if (bad < 3)
        printf("  %s[%zu]: %f vs %f\n", name, i, got[i], ref[i]);
      ++bad;
    }
  }
  printf("%-8s %6zu values, max diff %.3g%s\n", name, ref.size(), maxdiff, bad ? "  MISMATCH" : "");
  return bad == 0;
}

static std::vector<float> to_host(const float *d, size_t n) {
  std::vector<float> h(n);
  cudaCheck(cudaMemcpy(h.data(), d, n * sizeof(float), cudaMemcpyDeviceToHost));
  return h;
}

static float *to_device(const std::vector<float> &h) {
  float *d;
  cudaCheck(cudaMalloc(&d, h.size() * sizeof(float)));
  cudaCheck(cudaMemcpy(d, h.data(), h.size() * sizeof(float), cudaMemcpyHostToDevice));
  return d;
}

int main() {
  const int B = 37, C = 48, H = 70, V = 13;
  unsigned long long state = 1337ULL;
  auto rnd = [&state]() {
    state ^= state >> 12; state ^= state << 25; state ^= state >> 27;
    return (float)((state * 0x2545F4914F6CDD1DULL) >> 40) / 16777216.0f * 2.0f - 1.0f;
  };
  std::vector<float> x(B * C), w1(H * C), b1(H), w2(V * H), b2(V), lnw(H), lnb(H);
  for (float &v : x) v = rnd();
  for (float &v : w1) v = rnd() * 0.3f;
  for (float &v : b1) v = rnd() * 0.1f;
  for (float &v : w2) v = rnd() * 0.3f;
  for (float &v : b2) v = rnd() * 0.1f;
  for (float &v : lnw) v = 1.0f + 0.2f * rnd();
  for (float &v : lnb) v = 0.1f * rnd();
  std::vector<int> targets(B);
  for (int b = 0; b < B; ++b) targets[b] = (b * 5 + 3) % V;

  // ---- CPU reference ----
  std::vector<float> h_ref(B * H), logits_ref(B * V), probs_ref(B * V), losses_ref(B);
  std::vector<float> mean_ref(B), rstd_ref(B);
  std::vector<float> dlogits_ref(B * V), dw2_ref(V * H, 0.0f), db2_ref(V, 0.0f);
  for (int b = 0; b < B; ++b)
    for (int o = 0; o < H; ++o) {
      float acc = b1[o];
      for (int c = 0; c < C; ++c) acc += x[b * C + c] * w1[o * C + c];
      h_ref[b * H + o] = std::fmax(acc, 0.0f);
    }
  // Layer norm of the hidden activations, in place.
  for (int b = 0; b < B; ++b) {
    double m = 0.0, var = 0.0;
    for (int o = 0; o < H; ++o) m += h_ref[b * H + o];
    m /= H;
    for (int o = 0; o < H; ++o) var += (h_ref[b * H + o] - m) * (h_ref[b * H + o] - m);
    var /= H;
    const double s = 1.0 / std::sqrt(var + 1e-5);
    for (int o = 0; o < H; ++o)
      h_ref[b * H + o] = (float)((h_ref[b * H + o] - m) * s * lnw[o] + lnb[o]);
    mean_ref[b] = (float)m;
    rstd_ref[b] = (float)s;
  }
  double mean_loss_ref = 0.0;
  for (int b = 0; b < B; ++b) {
    float mx = -INFINITY;
    for (int v = 0; v < V; ++v) {
      float acc = b2[v];
      for (int o = 0; o < H; ++o) acc += h_ref[b * H + o] * w2[v * H + o];
      logits_ref[b * V + v] = acc;
      mx = std::fmax(mx, acc);
    }
    double sum = 0.0;
    for (int v = 0; v < V; ++v) sum += std::exp(logits_ref[b * V + v] - mx);
    for (int v = 0; v < V; ++v) {
      probs_ref[b * V + v] = (float)(std::exp(logits_ref[b * V + v] - mx) / sum);
      dlogits_ref[b * V + v] = (probs_ref[b * V + v] - (v == targets[b] ? 1.0f : 0.0f)) / B;
    }
    losses_ref[b] = -std::log(probs_ref[b * V + targets[b]]);
    mean_loss_ref += losses_ref[b] / B;
  }
  for (int v = 0; v < V; ++v)
    for (int b = 0; b < B; ++b) {
      db2_ref[v] += dlogits_ref[b * V + v];
      for (int o = 0; o < H; ++o) dw2_ref[v * H + o] += dlogits_ref[b * V + v] * h_ref[b * H + o];
    }

  // ---- GPU ----
  cublasHandle_t handle;
  cublasCheck(cublasCreate(&handle));
  float *d_x = to_device(x), *d_w1 = to_device(w1), *d_b1 = to_device(b1);
  float *d_w2 = to_device(w2), *d_b2 = to_device(b2);
  float *d_lnw = to_device(lnw), *d_lnb = to_device(lnb), *d_mean, *d_rstd;
  cudaCheck(cudaMalloc(&d_mean, B * sizeof(float)));
  cudaCheck(cudaMalloc(&d_rstd, B * sizeof(float)));
  float *d_h, *d_logits, *d_probs, *d_losses, *d_dlogits, *d_dw2, *d_db2;
  int *d_targets;
  cudaCheck(cudaMalloc(&d_h, B * H * sizeof(float)));
  cudaCheck(cudaMalloc(&d_logits, B * V * sizeof(float)));
  cudaCheck(cudaMalloc(&d_probs, B * V * sizeof(float)));
  cudaCheck(cudaMalloc(&d_losses, B * sizeof(float)));
  cudaCheck(cudaMalloc(&d_dlogits, B * V * sizeof(float)));
  cudaCheck(cudaMalloc(&d_dw2, V * H * sizeof(float)));
  cudaCheck(cudaMalloc(&d_db2, V * sizeof(float)));
  cudaCheck(cudaMalloc(&d_targets, B * sizeof(int)));
  cudaCheck(cudaMemcpy(d_targets, targets.data(), B * sizeof(int), cudaMemcpyHostToDevice));
  cudaCheck(cudaMemset(d_dw2, 0, V * H * sizeof(float)));
  cudaCheck(cudaMemset(d_db2, 0, V * sizeof(float)));

  const int block_size = 128;
  matmul_forward(handle, d_h, d_x, d_w1, B, C, H);
  bias_activation_kernel<true><<<CEIL_DIV(B * H, block_size), block_size>>>(d_h, d_b1, B, H);
  cudaCheck(cudaGetLastError());
  const int rows_per_block = 4;
  dim3 ln_block(WARP_SIZE, rows_per_block);
  layernorm_forward_kernel<<<CEIL_DIV(B, rows_per_block), ln_block>>>(d_h, d_mean, d_rstd, d_h,
                                                                      d_lnw, d_lnb, B, H);
  cudaCheck(cudaGetLastError());
  matmul_forward(handle, d_logits, d_h, d_w2, B, H, V);
  bias_activation_kernel<false><<<CEIL_DIV(B * V, block_size), block_size>>>(d_logits, d_b2, B, V);
  cudaCheck(cudaGetLastError());
  softmax_crossentropy_forward_kernel<<<CEIL_DIV(B * WARP_SIZE, block_size), block_size>>>(
      d_probs, d_losses, d_logits, d_targets, B, V);
  cudaCheck(cudaGetLastError());
  crossentropy_softmax_backward_kernel<<<CEIL_DIV(B * V, block_size), block_size>>>(
      d_dlogits, d_probs, d_targets, B, V);
  cudaCheck(cudaGetLastError());
  // Two accumulation steps (as with gradient accumulation): the gradients
  // must come out doubled.
  for (int step = 0; step < 2; ++step) {
    matmul_backward_weight(handle, d_dw2, d_dlogits, d_h, B, H, V);
    bias_backward_kernel<64><<<V, 64>>>(d_db2, d_dlogits, B, V);
    cudaCheck(cudaGetLastError());
  }
  cudaCheck(cudaDeviceSynchronize());

  bool ok = true;
  ok &= check_tensor("hidden", to_host(d_h, B * H), h_ref, 1e-4f);
  ok &= check_tensor("ln mean", to_host(d_mean, B), mean_ref, 1e-5f);
  ok &= check_tensor("ln rstd", to_host(d_rstd, B), rstd_ref, 1e-4f);
  ok &= check_tensor("logits", to_host(d_logits, B * V), logits_ref, 1e-4f);
  ok &= check_tensor("probs", to_host(d_probs, B * V), probs_ref, 1e-4f);
  std::vector<float> losses = to_host(d_losses, B);
  ok &= check_tensor("losses", losses, losses_ref, 1e-4f);
  for (float &v : dw2_ref) v *= 2.0f;
  for (float &v : db2_ref) v *= 2.0f;
  ok &= check_tensor("dlogits", to_host(d_dlogits, B * V), dlogits_ref, 1e-5f);
  ok &= check_tensor("dw2", to_host(d_dw2, V * H), dw2_ref, 1e-4f);
  ok &= check_tensor("db2", to_host(d_db2, V), db2_ref, 1e-4f);
  double mean_loss = 0.0;
  for (float l : losses) mean_loss += l / B;
  printf("mean loss %.6f (reference %.6f)\n", mean_loss, mean_loss_ref);

  cublasCheck(cublasDestroy(handle));
  float *bufs[] = {d_x, d_w1, d_b1, d_w2, d_b2, d_h, d_logits, d_probs, d_losses, d_dlogits,
                   d_dw2, d_db2, d_lnw, d_lnb, d_mean, d_rstd};
  for (float *p : bufs) cudaCheck(cudaFree(p));
  cudaCheck(cudaFree(d_targets));
  printf("%s\n", ok ? "PASS" : "FAIL");
  return ok ? 0 : 1;
}
