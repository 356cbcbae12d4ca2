// Host-only functions of many shapes (PK9901 marks each PKEMU_HOST_FN: no
// memory hooks); kernels, __device__, __host__ __device__ and constexpr
// functions and lambdas keep their hooks.
#include <cstdio>
#include <vector>

constexpr int kScale = 3;
constexpr int scaled(int x) { return x * kScale; }            // constexpr: hooked
__host__ __device__ inline int twice(int x) { return 2 * x; }  // HD: hooked
__device__ int thrice(int x) { return 3 * x; }                 // device: hooked

__global__ void fill(int *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = thrice(i) + twice(i) + scaled(1);
}

[[nodiscard]] static inline int expected(int i) { return 5 * i + 3; }
template <class T> T sumOf(const std::vector<T> &v) {
  T s = 0;
  for (const T &x : v) s += x;
  return s;
}
struct Checker {
  int bad = 0;
  explicit Checker(int b) : bad(b) {}
  void check(const int *p, int n) {
    auto wrong = [&](int i) { return p[i] != expected(i); };
    for (int i = 0; i < n; ++i) bad += wrong(i);
  }
  virtual ~Checker() {}
};
namespace host {
int run(int n) {
  int *d;
  cudaMallocManaged((void **)&d, n * sizeof(int));
  fill<<<(n + 63) / 64, 64>>>(d, n);
  cudaDeviceSynchronize();
  Checker c(0);
  c.check(d, n);
  cudaFree(d);
  return c.bad;
}
} // namespace host

int main() {
  std::vector<int> v{1, 2, 3};
  int bad = host::run(1000) + (sumOf(v) != 6);
  printf("%s\n", bad ? "FAIL" : "PASS");
  return bad != 0;
}
