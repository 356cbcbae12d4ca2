// k-means clustering of 3000 synthetic points in 4 dimensions around 5
// centres, iterated on the device until no label changes, and replayed on
// the host from the same initial centroids.
#include <cmath>
#include <cstdio>
#include <vector>

#include "kmeans_kernels.cuh"

struct HostKMeans {
  int n, k;
  const std::vector<float> &x;
  std::vector<float> centroids;
  std::vector<int> labels;

  int assign() {
    int changed = 0;
    for (int i = 0; i < n; ++i) {
      int best = 0;
      double bestDist = 1e300;
      for (int c = 0; c < k; ++c) {
        double s = 0.0;
        for (int d = 0; d < kDims; ++d) {
          double diff = x[d * n + i] - centroids[c * kDims + d];
          s += diff * diff;
        }
        if (s < bestDist) {
          bestDist = s;
          best = c;
        }
      }
      if (labels[i] != best) {
        labels[i] = best;
        ++changed;
      }
    }
    return changed;
  }
  void update() {
    std::vector<double> sums(k * kDims, 0.0);
    std::vector<int> counts(k, 0);
    for (int i = 0; i < n; ++i) {
      for (int d = 0; d < kDims; ++d)
        sums[labels[i] * kDims + d] += x[d * n + i];
      ++counts[labels[i]];
    }
    for (int c = 0; c < k; ++c)
      if (counts[c])
        for (int d = 0; d < kDims; ++d)
          centroids[c * kDims + d] = (float)(sums[c * kDims + d] / counts[c]);
  }
};

int main() {
  const int n = 3000, k = 5, maxIter = 20;
  const float centres[k][kDims] = {{0, 0, 0, 0},   {6, 1, -2, 3}, {-5, 4, 1, -1},
                                   {2, -6, 5, 0}, {-3, -3, -4, 6}};
  std::vector<float> x(kDims * n);
  unsigned state = 77u;
  auto uniform = [&state]() {
    state ^= state << 13;
    state ^= state >> 17;
    state ^= state << 5;
    return (state & 0xffffff) / 16777216.0f;
  };
  for (int i = 0; i < n; ++i) {
    const int c = i % k;
    for (int d = 0; d < kDims; ++d)
      x[d * n + i] = centres[c][d] + 1.6f * (uniform() + uniform() + uniform() - 1.5f);
  }
  // Initial centroids: the first k points (one from each centre), perturbed.
  std::vector<float> init(k * kDims);
  for (int c = 0; c < k; ++c)
    for (int d = 0; d < kDims; ++d)
      init[c * kDims + d] = x[d * n + (c * 7 % n)] + 0.5f;

  // Points on the device; centroids, labels, counts and the change counter
  // in managed memory, read by the host after each synchronisation.
  float *dX, *dCentroids, *dSums;
  int *dLabels, *dCounts, *dChanged;
  CUDA_CALL(cudaMalloc(&dX, kDims * n * sizeof(float)));
  CUDA_CALL(cudaMallocManaged(&dCentroids, k * kDims * sizeof(float)));
  CUDA_CALL(cudaMalloc(&dSums, k * kDims * sizeof(float)));
  CUDA_CALL(cudaMallocManaged(&dLabels, n * sizeof(int)));
  CUDA_CALL(cudaMallocManaged(&dCounts, k * sizeof(int)));
  CUDA_CALL(cudaMallocManaged(&dChanged, sizeof(int)));
  CUDA_CALL(cudaMemcpy(dX, x.data(), kDims * n * sizeof(float), cudaMemcpyHostToDevice));
  for (int t = 0; t < k * kDims; ++t)
    dCentroids[t] = init[t];
  for (int i = 0; i < n; ++i)
    dLabels[i] = -1; // unassigned

  // Enough accumulation blocks to fill the device once; the kernel strides
  // over the points.
  int device = 0, numSMs = 0, blocksPerSM = 0;
  CUDA_CALL(cudaGetDevice(&device));
  CUDA_CALL(cudaDeviceGetAttribute(&numSMs, cudaDevAttrMultiProcessorCount, device));
  CUDA_CALL(cudaOccupancyMaxActiveBlocksPerMultiprocessor(
      &blocksPerSM, accumulateClusters<kDims>, kThreads, 0));
  const int maxBlocks = (n + kThreads - 1) / kThreads;
  int accBlocks = numSMs * blocksPerSM;
  accBlocks = accBlocks < 1 ? 1 : (accBlocks > maxBlocks ? maxBlocks : accBlocks);

  HostKMeans ref{n, k, x, init, std::vector<int>(n, -1)};
  const int blocks = (n + kThreads - 1) / kThreads;
  bool ok = true;
  int iter = 0;
  for (; iter < maxIter; ++iter) {
    *dChanged = 0;
    assignClusters<kDims><<<blocks, kThreads>>>(dX, dCentroids, dLabels, dChanged, n, k);
    CUDA_CALL(cudaGetLastError());
    CUDA_CALL(cudaMemset(dSums, 0, k * kDims * sizeof(float)));
    CUDA_CALL(cudaMemset(dCounts, 0, k * sizeof(int)));
    accumulateClusters<kDims><<<accBlocks, kThreads>>>(dX, dLabels, dSums, dCounts, n, k);
    CUDA_CALL(cudaGetLastError());
    updateCentroids<kDims><<<1, 32>>>(dCentroids, dSums, dCounts, k);
    CUDA_CALL(cudaGetLastError());

    CUDA_CALL(cudaDeviceSynchronize());
    const int changed = *dChanged;
    int refChanged = ref.assign();
    ref.update();
    if (changed != refChanged) {
      printf("iteration %d: %d labels changed, host %d\n", iter, changed, refChanged);
      ok = false;
      break;
    }
    if (changed == 0)
      break;
  }

  CUDA_CALL(cudaDeviceSynchronize());
  const float *centroids = dCentroids;
  const int *labels = dLabels, *counts = dCounts;
  // The objective at the final centroids.
  double cost = 0.0;
  {
    const int redBlocks = 6;
    float *dBlockCost;
    CUDA_CALL(cudaMalloc(&dBlockCost, redBlocks * sizeof(float)));
    typedef void (*ReduceKernel)(const float *, const float *, const int *, float *,
                                 unsigned int);
    const bool pow2 = (n & (n - 1)) == 0;
    ReduceKernel reduce = pow2 ? inertiaReduce<kDims, kThreads, true>
                               : inertiaReduce<kDims, kThreads, false>;
    reduce<<<redBlocks, kThreads, kThreads * sizeof(float)>>>(dX, dCentroids, dLabels,
                                                              dBlockCost, n);
    CUDA_CALL(cudaGetLastError());
    std::vector<float> blockCost(redBlocks);
    CUDA_CALL(cudaMemcpy(blockCost.data(), dBlockCost, redBlocks * sizeof(float),
                         cudaMemcpyDeviceToHost));
    for (float c : blockCost)
      cost += c;
    CUDA_CALL(cudaFree(dBlockCost));
  }
  double refCost = 0.0;
  for (int i = 0; i < n; ++i)
    for (int d = 0; d < kDims; ++d) {
      double diff = x[d * n + i] - ref.centroids[ref.labels[i] * kDims + d];
      refCost += diff * diff;
    }
  printf("inertia %.4f (host %.4f)\n", cost, refCost);
  ok = ok && std::fabs(cost - refCost) < 1e-4 * refCost;

  int mismatched = 0;
  for (int i = 0; i < n; ++i)
    mismatched += labels[i] != ref.labels[i];
  double maxErr = 0.0;
  for (int t = 0; t < k * kDims; ++t)
    maxErr = std::fmax(maxErr, std::fabs(centroids[t] - ref.centroids[t]));
  int total = 0;
  for (int c = 0; c < k; ++c)
    total += counts[c];
  printf("converged after %d iterations (%d accumulation blocks); %d labels differ, "
         "max centroid error %.3g\n",
         iter + 1, accBlocks, mismatched, maxErr);
  for (int c = 0; c < k; ++c)
    printf("  cluster %d: %4d points at (%.3f, %.3f, %.3f, %.3f)\n", c, counts[c],
           centroids[c * kDims], centroids[c * kDims + 1], centroids[c * kDims + 2],
           centroids[c * kDims + 3]);
  ok = ok && mismatched == 0 && maxErr < 1e-3 && total == n;

  CUDA_CALL(cudaFree(dX));
  CUDA_CALL(cudaFree(dCentroids));
  CUDA_CALL(cudaFree(dSums));
  CUDA_CALL(cudaFree(dLabels));
  CUDA_CALL(cudaFree(dCounts));
  CUDA_CALL(cudaFree(dChanged));
  printf("%s\n", ok ? "PASS" : "FAIL");
  return ok ? 0 : 1;
}
