// PK1017: CUDA 12's scoped atomics become clang's __hip_atomic_* builtins
// with the same memory order and the matching HIP scope (cluster -> agent,
// no scope -> system).  The call is edited in pieces, so its operands keep
// their own edits; the forms that return through a pointer use a helper
// macro.  Orders, scopes and `weak` that are not constants, and relaxed
// fences, are flagged and left in place.
// RUN: rm -rf %t && %pk port -q --to hip --report %t/r.json -o %t %s 2>&1 \
// RUN:   | FileCheck %s --check-prefix=DIAG
// RUN: FileCheck %s --match-full-lines --input-file=%t/hip/PK1017.hip
// RUN: FileCheck %s --check-prefix=REPORT --input-file=%t/r.json
// REPORT: "replacement": "__hip_atomic_fetch_add",
// REPORT-NEXT: "rule": "PK1017",
// REPORT-NEXT: "why": "__nv_atomic_fetch_add() -> clang's HIP atomic builtin with the same memory order and the matching HIP scope"
// REPORT: "why": "__nv_atomic_add() -> clang's HIP atomic builtin with the same memory order and the matching HIP scope (AMD GPUs have no thread-block clusters: the cluster scope becomes the device scope, which is at least as strong)"
#include <cuda_runtime.h>
// CHECK: #define pk_nv_atomic_exchange(p, v, r, order, scope) {{ *}}\
// CHECK-NEXT:   ((void)(*(r) = __hip_atomic_exchange((p), *(v), (order), (scope))))
// CHECK: #define pk_nv_atomic_load(p, r, order, scope) {{ *}}\
// CHECK-NEXT:   ((void)(*(r) = __hip_atomic_load((p), (order), (scope))))

// Calls in templates whose arguments depend on the template's parameters:
// one spelling serves every instantiation, each of which calls CUDA's
// function, so they are rewritten the same way.
template <typename T>
__device__ T bump(T *p, T v) {
  __nv_atomic_add(p, v, __NV_ATOMIC_RELAXED);
// CHECK: (void)__hip_atomic_fetch_add(p, v, __ATOMIC_RELAXED, __HIP_MEMORY_SCOPE_SYSTEM);
  return __nv_atomic_fetch_add(p, v, __NV_ATOMIC_RELAXED, __NV_THREAD_SCOPE_BLOCK);
// CHECK: return __hip_atomic_fetch_add(p, v, __ATOMIC_RELAXED, __HIP_MEMORY_SCOPE_WORKGROUP);
}
template <typename T>
__device__ T peek(const T *p, T *r) {
  __nv_atomic_load(p, r, __NV_ATOMIC_ACQUIRE, __NV_THREAD_SCOPE_DEVICE);
// CHECK: pk_nv_atomic_load(p, r, __ATOMIC_ACQUIRE, __HIP_MEMORY_SCOPE_AGENT);
  return __nv_atomic_load_n(p, __NV_ATOMIC_ACQUIRE);
// CHECK: return __hip_atomic_load(p, __ATOMIC_ACQUIRE, __HIP_MEMORY_SCOPE_SYSTEM);
}
// An instantiation that finds a user's function of that name through its
// argument type (app::__nv_atomic_fetch_add) is not CUDA's atomic: flagged,
// left as written.
namespace app {
struct Tally { int n; };
__device__ Tally __nv_atomic_fetch_add(Tally *, Tally, int, int);
} // namespace app
template <typename T>
__device__ T add_to(T *p, T v) {
// DIAG: PK1017.cu:[[@LINE+1]]:10: warning: __nv_atomic_fetch_add() in a template is not translated to HIP: in 'add_to<app::Tally>' it does not call CUDA's __nv_atomic_fetch_add() [PK1017]
  return __nv_atomic_fetch_add(p, v, __NV_ATOMIC_RELAXED, __NV_THREAD_SCOPE_DEVICE);
// CHECK: return __nv_atomic_fetch_add(p, v, __NV_ATOMIC_RELAXED, __NV_THREAD_SCOPE_DEVICE);
}
__global__ void templated(unsigned *c, float *f, app::Tally *t) {
  bump(c, 1u);
  bump(f, 2.f);
  float r;
  peek(f, &r);
  add_to(c, 3u);
  add_to(t, app::Tally{1});
}

__global__ void counters(unsigned *c, int *flag, float *acc, int order) {
  __nv_atomic_fetch_add(c, 1u, __NV_ATOMIC_RELAXED, __NV_THREAD_SCOPE_DEVICE);
// CHECK: __hip_atomic_fetch_add(c, 1u, __ATOMIC_RELAXED, __HIP_MEMORY_SCOPE_AGENT);
  unsigned old = __nv_atomic_fetch_max(c + 1, 7u, __NV_ATOMIC_ACQ_REL, __NV_THREAD_SCOPE_BLOCK);
// CHECK: unsigned old = __hip_atomic_fetch_max(c + 1, 7u, __ATOMIC_ACQ_REL, __HIP_MEMORY_SCOPE_WORKGROUP);
  __nv_atomic_add(acc, 0.5f, __NV_ATOMIC_RELAXED, __NV_THREAD_SCOPE_CLUSTER);
// CHECK: (void)__hip_atomic_fetch_add(acc, 0.5f, __ATOMIC_RELAXED, __HIP_MEMORY_SCOPE_AGENT);
  int f = __nv_atomic_load_n(flag, __NV_ATOMIC_ACQUIRE);
// CHECK: int f = __hip_atomic_load(flag, __ATOMIC_ACQUIRE, __HIP_MEMORY_SCOPE_SYSTEM);
  __nv_atomic_store_n(flag + 1, f + (int)old, __NV_ATOMIC_RELEASE, __NV_THREAD_SCOPE_SYSTEM);
// CHECK: __hip_atomic_store(flag + 1, f + (int)old, __ATOMIC_RELEASE, __HIP_MEMORY_SCOPE_SYSTEM);
  int r, v = 3;
  __nv_atomic_load(flag, &r, __NV_ATOMIC_SEQ_CST, __NV_THREAD_SCOPE_THREAD);
// CHECK: pk_nv_atomic_load(flag, &r, __ATOMIC_SEQ_CST, __HIP_MEMORY_SCOPE_SINGLETHREAD);
  __nv_atomic_store(flag + 2, &v, __NV_ATOMIC_RELAXED, __NV_THREAD_SCOPE_DEVICE);
// CHECK: __hip_atomic_store(flag + 2, *(&v), __ATOMIC_RELAXED, __HIP_MEMORY_SCOPE_AGENT);
  __nv_atomic_exchange(flag + 3, &v, &r, __NV_ATOMIC_ACQ_REL, __NV_THREAD_SCOPE_DEVICE);
// CHECK: pk_nv_atomic_exchange(flag + 3, &v, &r, __ATOMIC_ACQ_REL, __HIP_MEMORY_SCOPE_AGENT);
  int e = 0;
  bool ok = __nv_atomic_compare_exchange_n(flag + 4, &e, 1, false, __NV_ATOMIC_ACQUIRE, __NV_ATOMIC_RELAXED, __NV_THREAD_SCOPE_DEVICE);
// CHECK: bool ok = __hip_atomic_compare_exchange_strong(flag + 4, &e, 1, __ATOMIC_ACQUIRE, __ATOMIC_RELAXED, __HIP_MEMORY_SCOPE_AGENT);
  ok = ok && __nv_atomic_compare_exchange(flag + 5, &e, &v, true, __NV_ATOMIC_SEQ_CST, __NV_ATOMIC_SEQ_CST, __NV_THREAD_SCOPE_BLOCK);
// CHECK: ok = ok && __hip_atomic_compare_exchange_weak(flag + 5, &e, *(&v), __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST, __HIP_MEMORY_SCOPE_WORKGROUP);
  __nv_atomic_thread_fence(__NV_ATOMIC_SEQ_CST, __NV_THREAD_SCOPE_DEVICE);
// CHECK: __builtin_amdgcn_fence(__ATOMIC_SEQ_CST, "agent");
  __nv_atomic_thread_fence(__NV_ATOMIC_RELEASE);
// CHECK: __builtin_amdgcn_fence(__ATOMIC_RELEASE, "");
// DIAG: PK1017.cu:[[@LINE+1]]:3: warning: __nv_atomic_fetch_or() is not translated to HIP: its memory order is not a constant __NV_ATOMIC_* value; write it with __hip_atomic_* (order, scope) [PK1017]
  __nv_atomic_fetch_or(c + 2, 1u, order, __NV_THREAD_SCOPE_DEVICE);
// CHECK: __nv_atomic_fetch_or(c + 2, 1u, order, __NV_THREAD_SCOPE_DEVICE);
// DIAG: PK1017.cu:[[@LINE+1]]:3: warning: __nv_atomic_thread_fence() is not translated to HIP: a relaxed fence has no AMDGPU counterpart {{.*}} [PK1017]
  __nv_atomic_thread_fence(__NV_ATOMIC_RELAXED, __NV_THREAD_SCOPE_BLOCK);
  if (ok)
    acc[1] = (float)r;
}
// DIAG-NOT: warning
