// PK1018: cache-hinted loads and stores become helpers of the same
// arguments: streaming hints on scalars are clang's nontemporal builtins,
// other hints and any hint on HIP's vector classes plain accesses, __ldcv on
// a scalar a volatile load (on a vector it is flagged).  __ldg is HIP's own
// and stays.  A nested call keeps its own edit.
// RUN: rm -rf %t && %pk port -q --to hip --report %t/r.json -o %t %s 2>&1 \
// RUN:   | FileCheck %s --check-prefix=DIAG
// RUN: FileCheck %s --match-full-lines --input-file=%t/hip/PK1018.hip
// RUN: FileCheck %s --check-prefix=REPORT --input-file=%t/r.json
// REPORT: "replacement": "pk_ldcs",
// REPORT-NEXT: "rule": "PK1018",
// REPORT-NEXT: "why": "__ldcs() has no HIP counterpart for const float: pk_ldcs() is a nontemporal (streaming) load (a cache hint changes caching, not the value)"
#include <cuda_runtime.h>
// CHECK: template <typename T> struct pk_cache_hint_id { using type = T; };
// CHECK: template <typename T> __device__ inline T pk_ldca(const T *p) {
// CHECK-NEXT:   return *p;
// CHECK: template <typename T> __device__ inline T pk_ldcs(const T *p) {
// CHECK-NEXT:   if constexpr (__is_arithmetic(T))
// CHECK-NEXT:     return __builtin_nontemporal_load(p);
// CHECK-NEXT:   else
// CHECK-NEXT:     return *p;
// CHECK: template <typename T> __device__ inline T pk_ldcv(const T *p) {
// CHECK-NEXT:   if constexpr (__is_arithmetic(T))
// CHECK-NEXT:     return *(const volatile T *)p;
// CHECK: __device__ inline void pk_stcs(T *p, typename pk_cache_hint_id<T>::type v) {
// CHECK-NEXT:   if constexpr (__is_arithmetic(T))
// CHECK-NEXT:     __builtin_nontemporal_store(v, p);
// CHECK-NEXT:   else
// CHECK-NEXT:     *p = v;

__global__ void stream(const float *x, float *y, const float4 *v, float4 *w,
                       const int *flags) {
  int i = threadIdx.x;
  float a = __ldcs(x + i);
// CHECK: float a = pk_ldcs(x + i);
  float b = __ldcg(&x[i]) + __ldlu(x) + __ldca(x + 1) + __ldg(x + 2);
// CHECK: float b = pk_ldcg(&x[i]) + pk_ldlu(x) + pk_ldca(x + 1) + __ldg(x + 2);
  int f = __ldcv(flags);
// CHECK: int f = pk_ldcv(flags);
  __stcs(y + i, a + b + f);
// CHECK: pk_stcs(y + i, a + b + f);
  __stwt(y, a);
// CHECK: pk_stwt(y, a);
  float4 q = __ldcs(v + i);
// CHECK: float4 q = pk_ldcs(v + i);
  __stcs(w + i, q);
// CHECK: pk_stcs(w + i, q);
  __stcg(w, __ldcg(v));
// CHECK: pk_stcg(w, pk_ldcg(v));
// DIAG: PK1018.cu:[[@LINE+1]]:14: warning: __ldcv() is not translated to HIP: a load that must bypass the caches on a vector or class type {{.*}} [PK1018]
  float4 r = __ldcv(v);
  __stwb(w + 1, r);
// CHECK: pk_stwb(w + 1, r);
}

// In a template whose element type is a parameter: the helpers choose per
// instantiation (nontemporal for arithmetic types), so the spelling is the
// same for each; __ldcv has no form for class types and is flagged.
template <typename T>
__device__ void copy_streaming(const T *in, T *out, int i) {
  __stcs(out + i, __ldcs(in + i));
// CHECK: pk_stcs(out + i, pk_ldcs(in + i));
// DIAG: PK1018.cu:[[@LINE+1]]:12: warning: __ldcv() is not translated to HIP: its element type depends on a template parameter{{.*}} [PK1018]
  out[0] = __ldcv(in);
}
__global__ void copies(const float *x, float *y, const float4 *v, float4 *w) {
  copy_streaming(x, y, threadIdx.x);
  copy_streaming(v, w, threadIdx.x);
}
// DIAG-NOT: warning
