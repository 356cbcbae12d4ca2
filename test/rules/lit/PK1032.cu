// PK1032: HIP has no umin/umax/llmin/llmax/ullmin/ullmax; CUDA's calls become
// HIP's min/max templates at the type CUDA's function converts to.
// RUN: rm -rf %t && %pk port -q --cuda-path=none --to hip --report %t/r.json -o %t %s 2>&1 \
// RUN:   | FileCheck %s --check-prefix=DIAG --allow-empty
// RUN: FileCheck %s --match-full-lines --input-file=%t/hip/PK1032.hip
// RUN: FileCheck %s --check-prefix=REPORT --input-file=%t/r.json
// REPORT: "rule": "PK1032",
// REPORT-NEXT: "why": "umin -> min<unsigned int>: HIP has no umin; its min/max template at the type umin converts to"
// DIAG-NOT: warning
#include <cuda_runtime.h>

__global__ void clampAll(unsigned *u, long long *l, unsigned long long *q,
                         int n) {
  int i = threadIdx.x;
  u[i] = umin(u[i], n);
// CHECK:  u[i] = min<unsigned int>(u[i], n);
  u[i] = umax(u[i], 5);
// CHECK:  u[i] = max<unsigned int>(u[i], 5);
  l[i] = llmin(l[i], -1) + llmax(l[i], 7);
// CHECK:  l[i] = min<long long>(l[i], -1) + max<long long>(l[i], 7);
  q[i] = ullmin(q[i], 3ull) - ullmax(q[i], 1ull);
// CHECK:  q[i] = min<unsigned long long>(q[i], 3ull) - max<unsigned long long>(q[i], 1ull);
}

// The program's own function of that name is not CUDA's.
static unsigned umin3(unsigned a, unsigned b) { return a < b ? a : b; }
namespace mine {
inline unsigned umax(unsigned a, unsigned b) { return a < b ? b : a; }
}
unsigned host(unsigned a) { return umin3(a, 2) + mine::umax(a, 1); }
// CHECK: unsigned host(unsigned a) { return umin3(a, 2) + mine::umax(a, 1); }
