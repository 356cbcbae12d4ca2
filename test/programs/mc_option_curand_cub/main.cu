// European call and put prices by Monte Carlo from cuRAND's host API normal
// draws, pi from its uniform draws, block sums with CUB.  The device sums
// are checked against the same draws summed on the host, the prices against
// Black-Scholes within the Monte Carlo error, and put-call parity.
#include <cmath>
#include <cstdio>
#include <vector>

#include "pricing.cuh"

static double normCdf(double x) { return 0.5 * std::erfc(-x / std::sqrt(2.0)); }

static void blackScholes(const OptionParams &p, double &call, double &put) {
  double sqrtT = std::sqrt((double)p.T);
  double d1 = (std::log(p.S0 / p.K) + (p.r + 0.5 * p.sigma * p.sigma) * p.T) / (p.sigma * sqrtT);
  double d2 = d1 - p.sigma * sqrtT;
  double disc = std::exp(-p.r * p.T);
  call = p.S0 * normCdf(d1) - p.K * disc * normCdf(d2);
  put = p.K * disc * normCdf(-d2) - p.S0 * normCdf(-d1);
}

constexpr int kThreads = 128;
constexpr int kItems = 4;

template <OptionType Type>
static bool price(const char *name, const float *dZ, const std::vector<float> &z, int nPaths,
                  const OptionParams &p, float *dPartial, float *hPartial, cudaStream_t stream,
                  double expected, double &mean) {
  const int blocks = (nPaths + kThreads * kItems - 1) / (kThreads * kItems);
  priceOptionKernel<kThreads, kItems, Type><<<blocks, kThreads, 0, stream>>>(dZ, nPaths, p,
                                                                             dPartial);
  CUDA_RT_CALL(cudaGetLastError());
  CUDA_RT_CALL(cudaMemcpyAsync(hPartial, dPartial, 2 * blocks * sizeof(float),
                               cudaMemcpyDeviceToHost, stream));
  CUDA_RT_CALL(cudaStreamSynchronize(stream));
  const float *partial = hPartial;
  double sum = 0.0, sq = 0.0;
  for (int b = 0; b < blocks; ++b) {
    sum += partial[2 * b];
    sq += partial[2 * b + 1];
  }
  // The same paths on the host.
  double hostSum = 0.0;
  const double drift = (p.r - 0.5 * p.sigma * p.sigma) * p.T, vol = p.sigma * std::sqrt(p.T);
  for (int i = 0; i < nPaths; ++i) {
    double ST = p.S0 * std::exp(drift + vol * z[i]);
    hostSum += Type == OptionType::Call ? std::fmax(ST - p.K, 0.0) : std::fmax(p.K - ST, 0.0);
  }
  const double disc = std::exp(-p.r * p.T);
  mean = disc * sum / nPaths;
  const double var = sq / nPaths - (sum / nPaths) * (sum / nPaths);
  const double stderrMC = disc * std::sqrt(var / nPaths);
  const bool sameDraws = std::fabs(sum - hostSum) <= 1e-4 * std::fabs(hostSum) + 1e-3;
  const bool closeToBS = std::fabs(mean - expected) <= 5.0 * stderrMC;
  printf("%s: MC %.4f +- %.4f, Black-Scholes %.4f, host sum %.3f vs %.3f\n", name, mean,
         stderrMC, expected, sum, hostSum);
  return sameDraws && closeToBS;
}

int main() {
  const int nPaths = 20000; // even: cuRAND draws normals in pairs
  const int nPoints = 15000;
  OptionParams p = {100.0f, 105.0f, 0.03f, 0.25f, 1.5f};

  cudaStream_t stream;
  CUDA_RT_CALL(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking));

  curandGenerator_t gen;
  CURAND_CALL(curandCreateGenerator(&gen, CURAND_RNG_PSEUDO_PHILOX4_32_10));
  CURAND_CALL(curandSetStream(gen, stream));
  CURAND_CALL(curandSetPseudoRandomGeneratorSeed(gen, 20240601ULL));
  CURAND_CALL(curandSetGeneratorOffset(gen, 0ULL));

  float *dZ, *dU, *dPartial, *hPartial;
  int *dHits, *hHits;
  CUDA_RT_CALL(cudaMalloc(&dZ, nPaths * sizeof(float)));
  CUDA_RT_CALL(cudaMalloc(&dU, 2 * nPoints * sizeof(float)));
  CUDA_RT_CALL(cudaMalloc(&dPartial, 2 * nPaths * sizeof(float)));
  CUDA_RT_CALL(cudaMalloc(&dHits, sizeof(int)));
  CUDA_RT_CALL(cudaMallocHost(&hPartial, 2 * nPaths * sizeof(float)));
  CUDA_RT_CALL(cudaMallocHost(&hHits, sizeof(int)));
  CURAND_CALL(curandGenerateNormal(gen, dZ, nPaths, 0.0f, 1.0f));
  CURAND_CALL(curandGenerateUniform(gen, dU, 2 * nPoints));

  std::vector<float> z(nPaths), u(2 * nPoints);
  CUDA_RT_CALL(cudaMemcpyAsync(z.data(), dZ, nPaths * sizeof(float), cudaMemcpyDeviceToHost,
                               stream));
  CUDA_RT_CALL(cudaMemcpyAsync(u.data(), dU, 2 * nPoints * sizeof(float),
                               cudaMemcpyDeviceToHost, stream));
  CUDA_RT_CALL(cudaStreamSynchronize(stream));

  double bsCall, bsPut, call, put;
  blackScholes(p, bsCall, bsPut);
  bool ok = true;
  ok &= price<OptionType::Call>("call", dZ, z, nPaths, p, dPartial, hPartial, stream, bsCall,
                                call);
  ok &= price<OptionType::Put>("put", dZ, z, nPaths, p, dPartial, hPartial, stream, bsPut, put);
  // Put-call parity holds path by path: C - P = S0 - K exp(-rT) up to the
  // sample mean of S_T.
  double meanST = 0.0;
  for (int i = 0; i < nPaths; ++i)
    meanST += p.S0 * std::exp((p.r - 0.5 * p.sigma * p.sigma) * p.T +
                              p.sigma * std::sqrt(p.T) * z[i]);
  meanST /= nPaths;
  const double disc = std::exp(-p.r * p.T);
  const double parity = disc * (meanST - p.K);
  printf("parity: C - P = %.4f, discounted E[S_T - K] = %.4f\n", call - put, parity);
  ok &= std::fabs((call - put) - parity) < 1e-3 * p.S0;

  CUDA_RT_CALL(cudaMemsetAsync(dHits, 0, sizeof(int), stream));
  piKernel<kThreads><<<16, kThreads, 0, stream>>>(dU, nPoints, dHits);
  CUDA_RT_CALL(cudaGetLastError());
  CUDA_RT_CALL(cudaMemcpyAsync(hHits, dHits, sizeof(int), cudaMemcpyDeviceToHost, stream));
  CUDA_RT_CALL(cudaStreamSynchronize(stream));
  const int hits = *hHits;
  int hostHits = 0;
  for (int i = 0; i < nPoints; ++i)
    hostHits += u[2 * i] * u[2 * i] + u[2 * i + 1] * u[2 * i + 1] <= 1.0f;
  const double pi = 4.0 * hits / nPoints;
  printf("pi ~ %.4f from %d points (%d inside, host %d)\n", pi, nPoints, hits, hostHits);
  ok &= hits == hostHits && std::fabs(pi - M_PI) < 0.05;

  // Uniform draws lie in (0, 1].
  for (float v : u)
    if (!(v > 0.0f && v <= 1.0f))
      ok = false;

  CURAND_CALL(curandDestroyGenerator(gen));
  CUDA_RT_CALL(cudaFree(dZ));
  CUDA_RT_CALL(cudaFree(dU));
  CUDA_RT_CALL(cudaFree(dPartial));
  CUDA_RT_CALL(cudaFree(dHits));
  CUDA_RT_CALL(cudaFreeHost(hPartial));
  CUDA_RT_CALL(cudaFreeHost(hHits));
  CUDA_RT_CALL(cudaStreamDestroy(stream));
  printf("%s\n", ok ? "PASS" : "FAIL");
  return ok ? EXIT_SUCCESS : EXIT_FAILURE;
}
