// Histogram equalisation of a low-contrast 8-bit image and a compaction of
// its bright pixels, with CUB's device-wide scans and reductions (the
// two-call temporary-storage protocol) around hand-written kernels; each
// stage is checked against the host.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <vector>

#include <cub/cub.cuh>
#include "image_kernels.cuh"

int main() {
  const int width = 133, height = 91, n = width * height;
  std::vector<unsigned char> img(n);
  for (int y = 0; y < height; ++y)
    for (int x = 0; x < width; ++x) {
      // Values crowded into [70, 150): a washed-out image.
      float v = 110.0f + 30.0f * sinf(x * 0.07f) * cosf(y * 0.11f) + (float)((x * 7 + y * 3) % 9);
      img[y * width + x] = (unsigned char)v;
    }

  unsigned char *dImg, *dOut, *dLut, *dMin, *dMax, *dValues;
  unsigned int *dHist, *dCdf;
  int *dFlags, *dOffsets, *dIndex, *dCount;
  CUDA_TRY(cudaMalloc(&dImg, n));
  CUDA_TRY(cudaMalloc(&dOut, n));
  CUDA_TRY(cudaMalloc(&dLut, NUM_BINS));
  CUDA_TRY(cudaMalloc(&dMin, 1));
  CUDA_TRY(cudaMalloc(&dMax, 1));
  CUDA_TRY(cudaMalloc(&dHist, NUM_BINS * sizeof(unsigned int)));
  CUDA_TRY(cudaMalloc(&dCdf, NUM_BINS * sizeof(unsigned int)));
  CUDA_TRY(cudaMalloc(&dFlags, n * sizeof(int)));
  CUDA_TRY(cudaMalloc(&dOffsets, n * sizeof(int)));
  CUDA_TRY(cudaMalloc(&dIndex, n * sizeof(int)));
  CUDA_TRY(cudaMalloc(&dValues, n));
  CUDA_TRY(cudaMalloc(&dCount, sizeof(int)));
  CUDA_TRY(cudaMemcpy(dImg, img.data(), n, cudaMemcpyHostToDevice));
  CUDA_TRY(cudaMemset(dHist, 0, NUM_BINS * sizeof(unsigned int)));

  const int threads = 256, blocks = (n + threads - 1) / threads;
  histogram256<<<24, threads>>>(dImg, n, dHist);
  CUDA_TRY(cudaGetLastError());

  // Temporary storage large enough for every device-wide call below.
  size_t tempBytes = 0, bytes = 0;
  CUDA_TRY(cub::DeviceScan::InclusiveSum(nullptr, bytes, dHist, dCdf, NUM_BINS));
  tempBytes = bytes > tempBytes ? bytes : tempBytes;
  CUDA_TRY(cub::DeviceReduce::Min(nullptr, bytes, dImg, dMin, n));
  tempBytes = bytes > tempBytes ? bytes : tempBytes;
  CUDA_TRY(cub::DeviceReduce::Max(nullptr, bytes, dImg, dMax, n));
  tempBytes = bytes > tempBytes ? bytes : tempBytes;
  CUDA_TRY(cub::DeviceScan::ExclusiveSum(nullptr, bytes, dFlags, dOffsets, n));
  tempBytes = bytes > tempBytes ? bytes : tempBytes;
  CUDA_TRY(cub::DeviceReduce::Sum(nullptr, bytes, dFlags, dCount, n));
  tempBytes = bytes > tempBytes ? bytes : tempBytes;
  void *dTemp = nullptr;
  CUDA_TRY(cudaMalloc(&dTemp, tempBytes));

  CUDA_TRY(cub::DeviceScan::InclusiveSum(dTemp, tempBytes, dHist, dCdf, NUM_BINS));
  CUDA_TRY(cub::DeviceReduce::Min(dTemp, tempBytes, dImg, dMin, n));
  CUDA_TRY(cub::DeviceReduce::Max(dTemp, tempBytes, dImg, dMax, n));
  buildLut<<<1, NUM_BINS>>>(dCdf, dMin, n, dLut);
  CUDA_TRY(cudaGetLastError());
  constexpr int kLutBlock = 128, kLutItems = 4;
  applyLut<kLutBlock, kLutItems>
      <<<(n + kLutBlock * kLutItems - 1) / (kLutBlock * kLutItems), kLutBlock>>>(dOut, dImg,
                                                                               dLut, n);
  CUDA_TRY(cudaGetLastError());

  // Compaction of the pixels brighter than 140 in the original image.
  BrighterThan pred = {140};
  markFlags<<<blocks, threads>>>(dImg, n, pred, dFlags);
  CUDA_TRY(cudaGetLastError());
  CUDA_TRY(cub::DeviceScan::ExclusiveSum(dTemp, tempBytes, dFlags, dOffsets, n));
  CUDA_TRY(cub::DeviceReduce::Sum(dTemp, tempBytes, dFlags, dCount, n));
  scatterSelected<<<blocks, threads>>>(dImg, dFlags, dOffsets, n, dIndex, dValues);
  CUDA_TRY(cudaGetLastError());
  CUDA_TRY(cudaDeviceSynchronize());

  // ---- host reference ----
  bool ok = true;
  std::vector<unsigned int> hist(NUM_BINS, 0), cdf(NUM_BINS), gotHist(NUM_BINS), gotCdf(NUM_BINS);
  for (unsigned char v : img) ++hist[v];
  unsigned int acc = 0;
  unsigned char lo = 255, hi = 0;
  for (int b = 0; b < NUM_BINS; ++b) cdf[b] = acc += hist[b];
  for (unsigned char v : img) { lo = v < lo ? v : lo; hi = v > hi ? v : hi; }
  CUDA_TRY(cudaMemcpy(gotHist.data(), dHist, NUM_BINS * sizeof(unsigned int), cudaMemcpyDeviceToHost));
  CUDA_TRY(cudaMemcpy(gotCdf.data(), dCdf, NUM_BINS * sizeof(unsigned int), cudaMemcpyDeviceToHost));
  unsigned char gotLo, gotHi;
  CUDA_TRY(cudaMemcpy(&gotLo, dMin, 1, cudaMemcpyDeviceToHost));
  CUDA_TRY(cudaMemcpy(&gotHi, dMax, 1, cudaMemcpyDeviceToHost));
  ok &= gotHist == hist && gotCdf == cdf && gotLo == lo && gotHi == hi;
  printf("histogram/cdf %s, range [%d, %d] (host [%d, %d])\n",
         gotHist == hist && gotCdf == cdf ? "match" : "DIFFER", gotLo, gotHi, lo, hi);

  std::vector<unsigned char> out(n);
  CUDA_TRY(cudaMemcpy(out.data(), dOut, n, cudaMemcpyDeviceToHost));
  const unsigned int cdfMin = cdf[lo];
  int lutErrors = 0;
  unsigned char outLo = 255, outHi = 0;
  for (int i = 0; i < n; ++i) {
    float mapped = cdf[img[i]] > cdfMin ? (float)(cdf[img[i]] - cdfMin) * (255.0f / (float)(n - cdfMin)) : 0.0f;
    int want = (int)std::fmin(std::nearbyint(mapped), 255.0f);
    if (std::abs((int)out[i] - want) > 1) ++lutErrors; // rounding at .5 may differ
    outLo = out[i] < outLo ? out[i] : outLo;
    outHi = out[i] > outHi ? out[i] : outHi;
  }
  printf("equalised: %d pixels off, output range [%d, %d]\n", lutErrors, outLo, outHi);
  ok &= lutErrors == 0 && outLo == 0 && outHi == 255;

  int count = 0;
  CUDA_TRY(cudaMemcpy(&count, dCount, sizeof(int), cudaMemcpyDeviceToHost));
  std::vector<int> index(count > 0 ? count : 1);
  std::vector<unsigned char> values(count > 0 ? count : 1);
  if (count > 0) {
    CUDA_TRY(cudaMemcpy(index.data(), dIndex, count * sizeof(int), cudaMemcpyDeviceToHost));
    CUDA_TRY(cudaMemcpy(values.data(), dValues, count, cudaMemcpyDeviceToHost));
  }
  int k = 0;
  bool compactOk = true;
  for (int i = 0; i < n; ++i)
    if (pred(img[i])) {
      if (k >= count || index[k] != i || values[k] != img[i]) compactOk = false;
      ++k;
    }
  compactOk = compactOk && k == count && count > 0;
  printf("compaction: %d of %d pixels selected (host %d) %s\n", count, n, k, compactOk ? "ok" : "WRONG");
  ok &= compactOk;

  // One-pass compaction with warp-aggregated atomics: the same set of
  // pixels, in whatever order the warps reserved their slots.
  {
    int *dIndex2, *dCounter;
    CUDA_TRY(cudaMalloc(&dIndex2, n * sizeof(int)));
    CUDA_TRY(cudaMalloc(&dCounter, sizeof(int)));
    CUDA_TRY(cudaMemset(dCounter, 0, sizeof(int)));
    compactWarpAggregated<<<blocks, threads>>>(dImg, n, pred, dIndex2, dCounter);
    CUDA_TRY(cudaGetLastError());
    int count2 = 0;
    CUDA_TRY(cudaMemcpy(&count2, dCounter, sizeof(int), cudaMemcpyDeviceToHost));
    std::vector<int> index2(count2 > 0 ? count2 : 1);
    if (count2 > 0)
      CUDA_TRY(cudaMemcpy(index2.data(), dIndex2, count2 * sizeof(int), cudaMemcpyDeviceToHost));
    index2.resize(count2 > 0 ? count2 : 0);
    std::sort(index2.begin(), index2.end());
    bool aggOk = count2 == count && std::equal(index2.begin(), index2.end(), index.begin());
    printf("warp-aggregated compaction: %d selected %s\n", count2, aggOk ? "ok" : "WRONG");
    ok &= aggOk;
    CUDA_TRY(cudaFree(dIndex2));
    CUDA_TRY(cudaFree(dCounter));
  }

  void *bufs[] = {dImg, dOut, dLut, dMin, dMax, dValues, dHist, dCdf, dFlags, dOffsets, dIndex, dCount, dTemp};
  for (void *p : bufs) CUDA_TRY(cudaFree(p));
  printf("%s\n", ok ? "PASS" : "FAIL");
  return ok ? 0 : 1;
}
