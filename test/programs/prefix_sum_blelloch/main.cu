// Exclusive prefix sums of arrays of any length with the work-efficient
// (Blelloch) scan: block scans, a recursive scan of the block totals, and a
// uniform add.  Checked against a sequential scan on the host.
#include <cstdio>
#include <cstdlib>
#include <vector>

#include "scan_kernels.cuh"

// Preallocated per-level buffers for the block sums, as the classic scan
// samples keep them.
template <typename T> struct ScanPlan {
  std::vector<T *> sums;
  std::vector<T *> scanned;
  std::vector<int> counts;

  explicit ScanPlan(int n) {
    int blocks = divUp(n, ELEMS_PER_BLOCK);
    while (blocks > 1) {
      T *s, *ss;
      CUDA_SAFE_CALL(cudaMalloc(&s, blocks * sizeof(T)));
      CUDA_SAFE_CALL(cudaMalloc(&ss, blocks * sizeof(T)));
      sums.push_back(s);
      scanned.push_back(ss);
      counts.push_back(blocks);
      blocks = divUp(blocks, ELEMS_PER_BLOCK);
    }
  }
  ~ScanPlan() {
    for (size_t i = 0; i < sums.size(); ++i) {
      cudaFree(sums[i]);
      cudaFree(scanned[i]);
    }
  }
};

template <typename T>
static void prescanRecursive(ScanPlan<T> &plan, T *d_out, const T *d_in, int n, int level) {
  const int blocks = divUp(n, ELEMS_PER_BLOCK);
  if (blocks == 1) {
    prescanBlocks<T><<<1, SCAN_THREADS, SCAN_SMEM_ELEMS * sizeof(T)>>>(d_out, d_in, (T *)nullptr, n);
    CHECK_LAST_KERNEL("prescanBlocks");
    return;
  }
  T *sums = plan.sums[level];
  T *scanned = plan.scanned[level];
  prescanBlocks<T><<<blocks, SCAN_THREADS, SCAN_SMEM_ELEMS * sizeof(T)>>>(d_out, d_in, sums, n);
  CHECK_LAST_KERNEL("prescanBlocks");
  prescanRecursive(plan, scanned, sums, blocks, level + 1);
  uniformAdd<T><<<blocks, SCAN_THREADS>>>(d_out, scanned, n);
  CHECK_LAST_KERNEL("uniformAdd");
}

template <typename T>
static bool runTest(const char *label, int n, T (*gen)(int)) {
  std::vector<T> h_in(n), h_out(n), ref(n);
  for (int i = 0; i < n; ++i)
    h_in[i] = gen(i);
  T acc = T(0);
  for (int i = 0; i < n; ++i) {
    ref[i] = acc;
    acc += h_in[i];
  }

  T *d_in, *d_out;
  CUDA_SAFE_CALL(cudaMalloc(&d_in, n * sizeof(T)));
  CUDA_SAFE_CALL(cudaMalloc(&d_out, n * sizeof(T)));
  CUDA_SAFE_CALL(cudaMemcpy(d_in, h_in.data(), n * sizeof(T), cudaMemcpyHostToDevice));
  {
    ScanPlan<T> plan(n);
    prescanRecursive(plan, d_out, d_in, n, 0);
    CUDA_SAFE_CALL(cudaDeviceSynchronize());
  }
  CUDA_SAFE_CALL(cudaMemcpy(h_out.data(), d_out, n * sizeof(T), cudaMemcpyDeviceToHost));
  CUDA_SAFE_CALL(cudaFree(d_in));
  CUDA_SAFE_CALL(cudaFree(d_out));

  for (int i = 0; i < n; ++i)
    if (h_out[i] != ref[i]) {
      printf("%s (n = %d): mismatch at %d: %lld vs %lld\n", label, n, i,
             (long long)h_out[i], (long long)ref[i]);
      return false;
    }
  printf("%s (n = %d): last prefix %lld, total %lld\n", label, n, (long long)h_out[n - 1],
         (long long)acc);
  return true;
}

static double genDouble(int i) { return 0.5 * ((i * 37) % 64) - 8.0; } // exact in double

static int genSmall(int i) { return (i * 7 + 3) % 11 - 4; }
static unsigned genUnsigned(int i) { return (unsigned)((i * 2654435761u) >> 24); }

int main() {
  bool ok = true;
  ok &= runTest<int>("int, one block", 200, genSmall);
  ok &= runTest<int>("int, two levels", 10007, genSmall);
  ok &= runTest<unsigned>("unsigned, three levels", 70001, genUnsigned);
  ok &= runTest<double>("double, two levels", 3001, genDouble);
  printf("%s\n", ok ? "PASS" : "FAIL");
  return ok ? EXIT_SUCCESS : EXIT_FAILURE;
}
