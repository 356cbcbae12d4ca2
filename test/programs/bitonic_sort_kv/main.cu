// Key-value bitonic sort of arrays whose length is not a power of two
// (padded on the device), ascending and descending, unsigned and float keys;
// the values are the original indices, so the host checks both the order
// and that every pair stayed together.
#include <algorithm>
#include <cfloat>
#include <climits>
#include <cstdio>
#include <vector>

#include "bitonic.cuh"

template <typename K>
static bool checkSorted(const char *name, const std::vector<K> &in, const std::vector<K> &key,
                        const std::vector<int> &val, uint n, uint dir) {
  std::vector<K> ref(in);
  if (dir)
    std::sort(ref.begin(), ref.end());
  else
    std::sort(ref.begin(), ref.end(), [](K a, K b) { return a > b; });
  std::vector<char> seen(n, 0);
  for (uint i = 0; i < n; ++i) {
    if (key[i] != ref[i]) {
      printf("%s: key[%u] wrong\n", name, i);
      return false;
    }
    if (val[i] < 0 || (uint)val[i] >= n || seen[val[i]] || in[val[i]] != key[i]) {
      printf("%s: value[%u] = %d does not belong to its key\n", name, i, val[i]);
      return false;
    }
    seen[val[i]] = 1;
  }
  printf("%s: %u pairs sorted %s\n", name, n, dir ? "ascending" : "descending");
  return true;
}

template <typename K>
static bool runSort(const char *name, const std::vector<K> &hKey, uint dir, K padKey) {
  const uint n = (uint)hKey.size();
  const uint paddedN = std::max(nextPow2(n), SHARED_SIZE_LIMIT);
  std::vector<int> hVal(n);
  for (uint i = 0; i < n; ++i)
    hVal[i] = (int)i;

  K *dKey, *dTmpKey;
  int *dVal, *dTmpVal;
  checkCuda(cudaMalloc(&dKey, paddedN * sizeof(K)));
  checkCuda(cudaMalloc(&dTmpKey, paddedN * sizeof(K)));
  checkCuda(cudaMalloc(&dVal, paddedN * sizeof(int)));
  checkCuda(cudaMalloc(&dTmpVal, paddedN * sizeof(int)));
  checkCuda(cudaMemcpy(dKey, hKey.data(), n * sizeof(K), cudaMemcpyHostToDevice));
  checkCuda(cudaMemcpy(dVal, hVal.data(), n * sizeof(int), cudaMemcpyHostToDevice));
  if (paddedN > n) {
    padTail<K, int><<<(paddedN - n + 127) / 128, 128>>>(dKey, dVal, n, paddedN, padKey);
    checkCuda(cudaGetLastError());
  }
  cudaEvent_t start, stop;
  checkCuda(cudaEventCreate(&start));
  checkCuda(cudaEventCreate(&stop));
  checkCuda(cudaEventRecord(start));
  bitonicSort<K, int>(dKey, dVal, dTmpKey, dTmpVal, paddedN, dir);
  checkCuda(cudaEventRecord(stop));
  checkCuda(cudaEventSynchronize(stop));
  float ms = 0.0f;
  checkCuda(cudaEventElapsedTime(&ms, start, stop));
  checkCuda(cudaEventDestroy(start));
  checkCuda(cudaEventDestroy(stop));
  if (ms < 0.0f) {
    printf("%s: negative elapsed time\n", name);
    return false;
  }

  std::vector<K> outKey(n);
  std::vector<int> outVal(n);
  checkCuda(cudaMemcpy(outKey.data(), dKey, n * sizeof(K), cudaMemcpyDeviceToHost));
  checkCuda(cudaMemcpy(outVal.data(), dVal, n * sizeof(int), cudaMemcpyDeviceToHost));
  checkCuda(cudaFree(dKey));
  checkCuda(cudaFree(dTmpKey));
  checkCuda(cudaFree(dVal));
  checkCuda(cudaFree(dTmpVal));
  return checkSorted(name, hKey, outKey, outVal, n, dir);
}

int main() {
  bool ok = true;
  {
    // Distinct keys: a multiplicative hash of the index is a permutation.
    std::vector<uint> keys(1000);
    for (uint i = 0; i < keys.size(); ++i)
      keys[i] = (i * 2654435761u) ^ 0x5bd1e995u;
    ok &= runSort<uint>("uint", keys, 1, UINT_MAX);
    ok &= runSort<uint>("uint", keys, 0, 0u);
  }
  {
    std::vector<float> keys(1500);
    for (uint i = 0; i < keys.size(); ++i)
      keys[i] = (float)((i * 7919u) % 1511u) * 0.25f - 150.0f; // distinct
    ok &= runSort<float>("float", keys, 1, FLT_MAX);
  }
  {
    std::vector<uint> keys(200); // shorter than one chunk
    for (uint i = 0; i < keys.size(); ++i)
      keys[i] = (i * 37u + 11u) % 211u;
    ok &= runSort<uint>("uint short", keys, 1, UINT_MAX);
  }
  printf("%s\n", ok ? "PASS" : "FAIL");
  return ok ? 0 : 1;
}
