// Launches whose kernel is named by an overload set or by a function template
// whose arguments the launch deduces from its own arguments, in plain host
// code, in a namespace and from inside a host function template; and the
// dispatch of training code (llm.c's dev/cuda): a generic lambda over
// std::integral_constant picks the instance (`k<c.value><<<..., c.value>>>`),
// with NULL for an optional pointer argument.
#include <cstdio>
#include <cstddef>
#include <type_traits>
#include <cuda_runtime.h>

template <class T> __global__ void fill(T *d, T v) {
  d[blockIdx.x * blockDim.x + threadIdx.x] = v;
}

__global__ void scale(float *d, float s) {
  d[blockIdx.x * blockDim.x + threadIdx.x] *= s;
}
__global__ void scale(int *d, int s) {
  d[blockIdx.x * blockDim.x + threadIdx.x] *= s;
}

namespace ops {
template <class T, int N> __global__ void addN(T *d) {
  d[blockIdx.x * blockDim.x + threadIdx.x] += T(N);
}
struct Pair {
  int a, b;
};
__global__ void sumPair(int *d, Pair p) { d[threadIdx.x] += p.a + p.b; }
__global__ void sumPair(float *d, Pair p) { d[threadIdx.x] += p.a * p.b; }
} // namespace ops

// A launch in a template: which kernel it names depends on T.
template <class T> void fillAndScale(T *d, T v, T s, int n) {
  fill<<<n / 32, 32>>>(d, v);
  scale<<<n / 32, 32>>>(d, s);
}

template <int N> __global__ void addConst(int *d, const int *bias) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  d[i] += N + (bias ? bias[i] : 0);
}
template <class F> void dispatch(F launch, int block) {
  switch (block) {
  case 32:
    launch(std::integral_constant<int, 32>{});
    break;
  case 64:
    launch(std::integral_constant<int, 64>{});
    break;
  }
}
void addBlock(int *d, int n, int block) {
  auto launch = [&](auto c) {
    addConst<c.value><<<n / c.value, c.value>>>(d, NULL);
  };
  dispatch(launch, block);
}

template <class T> bool check(const char *what, T *d, int n, T want) {
  T h[64];
  cudaMemcpy(h, d, n * sizeof(T), cudaMemcpyDeviceToHost);
  for (int i = 0; i < n; ++i)
    if (h[i] != want) {
      std::printf("%s: element %d differs\n", what, i);
      return false;
    }
  return true;
}

int main() {
  const int n = 64;
  int *di;
  float *df;
  cudaMalloc(&di, n * sizeof(int));
  cudaMalloc(&df, n * sizeof(float));
  bool ok = true;

  fill<<<2, 32>>>(di, 7);           // T = int, deduced
  scale<<<2, 32>>>(di, 3);          // the int overload
  ok &= check("int", di, n, 21);
  fill<<<2, 32, 0, 0>>>(df, 1.5f);  // T = float
  scale<<<dim3(2), dim3(32)>>>(df, 2.0f);
  ok &= check("float", df, n, 3.0f);

  ops::addN<int, 5><<<2, 32>>>(di);  // every argument written
  ops::addN<float, 2><<<2, 32>>>(df);
  ok &= check("addN int", di, n, 26);
  ok &= check("addN float", df, n, 5.0f);

  ops::sumPair<<<1, 32>>>(di, ops::Pair{1, 2});
  ops::sumPair<<<1, 32>>>(df, ops::Pair{2, 4});
  ok &= check("sumPair int", di, 32, 29);
  ok &= check("sumPair float", df, 32, 13.0f);

  fillAndScale(di, 4, 5, n);
  fillAndScale(df, 0.5f, 4.0f, n);
  ok &= check("template int", di, n, 20);
  ok &= check("template float", df, n, 2.0f);

  addBlock(di, n, 32);
  addBlock(di, n, 64);
  ok &= check("lambda dispatch", di, n, 20 + 32 + 64);

  ok &= cudaGetLastError() == cudaSuccess;
  cudaFree(di);
  cudaFree(df);
  std::printf("%s\n", ok ? "PASS" : "FAIL");
  return ok ? 0 : 1;
}
