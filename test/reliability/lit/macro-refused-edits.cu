// A warp construct inside a macro that cannot be edited without changing
// what the macro's other uses expand to (its name made by ## from a macro
// parameter) is never left as is silently: the edit is refused, nothing is
// written into the macro, and the construct is reported at the macro's use
// under the rule that would have rewritten it.  __uni_sync, which no HIP
// version has, is reported (PK2013) in a macro body and outside one.
// RUN: rm -rf %t
// RUN: %pk port -q --to hip -o %t %s 2>&1 | FileCheck %s --check-prefix=DIAG
// RUN: FileCheck %s --match-full-lines --input-file=%t/hip/macro-refused-edits.hip
// The NKI output's header names the line of the macro's use, as the
// diagnostic does (the token made by ## is spelled in no file).
// RUN: rm -rf %t-nki && %pk port -q --to nki -o %t-nki %s 2>/dev/null
// RUN: FileCheck %s --check-prefix=NKI --input-file=%t-nki/nki/macro-refused-edits.py
// NKI: # port-kernel: warning: macro-refused-edits.cu:[[#@LINE+16]]: kernel 'votes' is not lifted to NKI: __all_sync: threads exchange values here{{.*}}[PK5004]
#include <cuda_runtime.h>

#define SAME(p) __uni_sync(0xffffffffu, (p))
// CHECK: #define SAME(p) __uni_sync(0xffffffffu, (p))
#define VOTE(op, p) __##op##_sync(0xffffffffu, (p))
// CHECK: #define VOTE(op, p) __##op##_sync(0xffffffffu, (p))
#define SHFL(kind, v, o) __shfl_##kind##_sync(0xffffffffu, (v), (o))
// CHECK: #define SHFL(kind, v, o) __shfl_##kind##_sync(0xffffffffu, (v), (o))

__global__ void votes(const int *in, int *out) {
  int v = in[threadIdx.x];
  out[threadIdx.x] = SAME(v > 0);
// DIAG: macro-refused-edits.cu:[[@LINE-1]]:22: warning: __uni_sync: no HIP form and no rewrite for 64-lane waves; left as is [PK2013]
  out[blockDim.x + threadIdx.x] = __uni_sync(0xffffffffu, v > 1);
// DIAG: macro-refused-edits.cu:[[@LINE-1]]:35: warning: __uni_sync: no HIP form and no rewrite for 64-lane waves; left as is [PK2013]
  out[2 * blockDim.x + threadIdx.x] = VOTE(all, v > 2);
// DIAG: macro-refused-edits.cu:[[@LINE-1]]:39: warning: not translated: __all_sync(mask, p) -> {{.*}}; the construct is in a macro here, and the edit would change what the macro's other uses expand to (or its tokens are made by ## or #): port it by hand [PK2002]
  out[3 * blockDim.x + threadIdx.x] = VOTE(any, v > 3);
// DIAG: macro-refused-edits.cu:[[@LINE-1]]:39: warning: not translated: __any_sync(mask, p) -> {{.*}} [PK2002]
  out[4 * blockDim.x + threadIdx.x] = SHFL(xor, v, 1);
// DIAG: macro-refused-edits.cu:[[@LINE-1]]:39: warning: not translated: __shfl_xor_sync(mask, v, x[, w]) -> {{.*}} [PK2001]
}
// CHECK: out[2 * blockDim.x + threadIdx.x] = VOTE(all, v > 2);
