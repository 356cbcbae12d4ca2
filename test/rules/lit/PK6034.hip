// PK6034: what only works on 64-lane waves is reported: the upper half of a
// ballot (warning), AMD builtins without a CUDA equivalent (error).
// RUN: rm -rf %t && not %pk port -q --to cuda -o %t %s 2>&1 | FileCheck %s
#include <hip/hip_runtime.h>

__global__ void halves(const int *p, unsigned *hi, int *first) {
  const unsigned long long b = __ballot(p[threadIdx.x] > 0);
  hi[threadIdx.x] = (unsigned)(b >> 32);
// CHECK: PK6034.hip:[[@LINE-1]]:{{[0-9]+}}: warning: the upper 32 bits of a ballot are the lanes 32-63 of a 64-lane wave: a CUDA warp has no such lanes (they are 0) [PK6034]
  first[threadIdx.x] = __builtin_amdgcn_readfirstlane(p[threadIdx.x]);
// CHECK: PK6034.hip:[[@LINE-1]]:{{[0-9]+}}: error: __builtin_amdgcn_readfirstlane is an AMD GPU builtin with no CUDA equivalent: not translated [PK6034]
}
