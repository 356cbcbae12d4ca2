// Third-party idioms of CUDA 12 code: scoped atomics (__nv_atomic_*) and
// cache-hinted loads and stores on scalars and vector types (__ldcs/__stcs
// streaming copies, __ldcg, __stwt).  The HIP output must compile as emitted
// (PK1017, PK1018); the emulator has no __nv_atomic_* builtins, so the
// program is compile-checked, not validated (program.conf).
#include <cstdio>
#include <vector>

__global__ void histogram(const int *in, unsigned *bins, int *done, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    int v = __ldcg(in + i);
    __nv_atomic_fetch_add(&bins[v & 7], 1u, __NV_ATOMIC_RELAXED,
                          __NV_THREAD_SCOPE_DEVICE);
    __nv_atomic_max(&bins[8], (unsigned)v, __NV_ATOMIC_RELAXED,
                    __NV_THREAD_SCOPE_BLOCK);
  }
  __nv_atomic_thread_fence(__NV_ATOMIC_RELEASE, __NV_THREAD_SCOPE_DEVICE);
  if (threadIdx.x == 0) {
    int expected = 0, one = 1, old;
    __nv_atomic_compare_exchange_n(done + blockIdx.x, &expected, 1, false,
                                   __NV_ATOMIC_ACQ_REL, __NV_ATOMIC_RELAXED,
                                   __NV_THREAD_SCOPE_DEVICE);
    __nv_atomic_exchange(done + gridDim.x + blockIdx.x, &one, &old,
                         __NV_ATOMIC_ACQ_REL, __NV_THREAD_SCOPE_SYSTEM);
    int seen = __nv_atomic_load_n(done + blockIdx.x, __NV_ATOMIC_ACQUIRE);
    __nv_atomic_store_n(done + 2 * gridDim.x + blockIdx.x, seen + old,
                        __NV_ATOMIC_RELEASE);
  }
}

__global__ void stream_copy(const float4 *src, float4 *dst, const float *s,
                            float *t, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    __stcs(dst + i, __ldcs(src + i));
    __stwt(t + i, __ldcs(s + i) * 2.0f + __ldlu(s + i));
  }
}

int main() {
  const int n = 256, threads = 64, blocks = n / threads;
  std::vector<int> h(n);
  for (int i = 0; i < n; ++i)
    h[i] = (i * 5) % 11;
  int *din, *ddone;
  unsigned *dbins;
  cudaMalloc(&din, n * sizeof(int));
  cudaMalloc(&dbins, 9 * sizeof(unsigned));
  cudaMalloc(&ddone, 3 * blocks * sizeof(int));
  cudaMemcpy(din, h.data(), n * sizeof(int), cudaMemcpyHostToDevice);
  cudaMemset(dbins, 0, 9 * sizeof(unsigned));
  cudaMemset(ddone, 0, 3 * blocks * sizeof(int));
  histogram<<<blocks, threads>>>(din, dbins, ddone, n);
  std::vector<unsigned> bins(9);
  std::vector<int> done(3 * blocks);
  cudaMemcpy(bins.data(), dbins, 9 * sizeof(unsigned), cudaMemcpyDeviceToHost);
  cudaMemcpy(done.data(), ddone, done.size() * sizeof(int),
             cudaMemcpyDeviceToHost);
  std::vector<unsigned> ref(9, 0);
  for (int v : h) {
    ref[v & 7]++;
    ref[8] = ref[8] > (unsigned)v ? ref[8] : (unsigned)v;
  }
  for (int b = 0; b < 9; ++b)
    if (bins[b] != ref[b]) {
      std::printf("bin %d: got %u want %u\n", b, bins[b], ref[b]);
      return 1;
    }
  for (int b = 0; b < blocks; ++b)
    if (done[b] != 1 || done[blocks + b] != 1 || done[2 * blocks + b] != 1) {
      std::printf("block %d: flags %d %d %d\n", b, done[b], done[blocks + b],
                  done[2 * blocks + b]);
      return 1;
    }

  std::vector<float4> v(n);
  std::vector<float> s(n);
  for (int i = 0; i < n; ++i) {
    v[i] = make_float4(i, i + 1, i + 2, i + 3);
    s[i] = 0.5f * i;
  }
  float4 *dv, *dw;
  float *ds, *dt;
  cudaMalloc(&dv, n * sizeof(float4));
  cudaMalloc(&dw, n * sizeof(float4));
  cudaMalloc(&ds, n * sizeof(float));
  cudaMalloc(&dt, n * sizeof(float));
  cudaMemcpy(dv, v.data(), n * sizeof(float4), cudaMemcpyHostToDevice);
  cudaMemcpy(ds, s.data(), n * sizeof(float), cudaMemcpyHostToDevice);
  stream_copy<<<blocks, threads>>>(dv, dw, ds, dt, n);
  std::vector<float4> w(n);
  std::vector<float> t(n);
  cudaMemcpy(w.data(), dw, n * sizeof(float4), cudaMemcpyDeviceToHost);
  cudaMemcpy(t.data(), dt, n * sizeof(float), cudaMemcpyDeviceToHost);
  for (int i = 0; i < n; ++i)
    if (w[i].x != v[i].x || w[i].w != v[i].w || t[i] != 3.0f * s[i]) {
      std::printf("element %d differs\n", i);
      return 1;
    }
  std::printf("nv_atomics_cache_hints: ok\n");
  return 0;
}
