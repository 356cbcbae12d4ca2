// PK3011: inline PTX other than the ported mma.sync m16n8k16 form (PK3002) is
// left in place and reported with the instructions it contains; an mma.sync
// whose operands do not have the expected form is reported with the reason.
// RUN: rm -rf %t && %pk port -q --to hip -o %t %s 2>&1 \
// RUN:   | FileCheck %s --check-prefix=DIAG
// RUN: FileCheck %s --match-full-lines --input-file=%t/hip/PK3011.hip

#include <cuda_runtime.h>
#include <stdint.h>

// Swap the 16-bit halves of a word.
__device__ __forceinline__ unsigned swapHalves(unsigned v) {
  unsigned r;
// DIAG: PK3011.cu:[[@LINE+1]]:3: warning: inline PTX 'prmt.b32' is left in place: AMD GPUs do not run PTX, and only 'mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32' is ported [PK3011]
  asm("prmt.b32 %0, %1, %1, 0x1032;" : "=r"(r) : "r"(v));
// CHECK:   // port-kernel: warning: inline PTX 'prmt.b32' is left in place: {{.*}} [PK3011]
// CHECK-NEXT:   asm("prmt.b32 %0, %1, %1, 0x1032;" : "=r"(r) : "r"(v));
  return r;
}

__global__ void stageAndMultiply(const uint32_t *A, float *C) {
  __shared__ uint32_t tile[256];
  uint32_t r0, r1, r2, r3;
  const unsigned addr = (unsigned)__cvta_generic_to_shared(tile + threadIdx.x);
  // An asynchronous copy global -> shared, then a wait.
// DIAG: PK3011.cu:[[@LINE+1]]:3: warning: inline PTX 'cp.async.ca.shared.global', 'cp.async.wait_all' is left in place: {{.*}} [PK3011]
  asm volatile("cp.async.ca.shared.global [%0], [%1], 4;\n"
               "cp.async.wait_all;\n" ::"r"(addr), "l"(A + threadIdx.x));
// DIAG: PK3011.cu:[[@LINE+1]]:3: warning: inline PTX 'ldmatrix.sync.aligned.m8n8.x4.shared.b16' is left in place: {{.*}} [PK3011]
  asm volatile("ldmatrix.sync.aligned.m8n8.x4.shared.b16 {%0, %1, %2, %3}, [%4];"
               : "=r"(r0), "=r"(r1), "=r"(r2), "=r"(r3)
               : "r"(addr));
// CHECK:   asm volatile("ldmatrix.sync.aligned.m8n8.x4.shared.b16 {%0, %1, %2, %3}, [%4];"
  // C is read from the write-only outputs: not the usual operand form.
  float e[4];
// DIAG: PK3011.cu:[[@LINE+1]]:3: warning: inline PTX 'mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32' is left in place: %0 is read but is a write-only output [PK3011]
  asm volatile("mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 "
               "{%0, %1, %2, %3}, {%4, %5, %6, %7}, {%8, %9}, {%0, %1, %2, %3};"
               : "=f"(e[0]), "=f"(e[1]), "=f"(e[2]), "=f"(e[3])
               : "r"(r0), "r"(r1), "r"(r2), "r"(r3), "r"(r0), "r"(r1));
// CHECK:   asm volatile("mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 "
  // The usual form is ported (PK3002), not reported.
  float d[4] = {0.f, 0.f, 0.f, 0.f};
// DIAG-NOT: [PK3011]
  asm volatile("mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 "
               "{%0, %1, %2, %3}, {%4, %5, %6, %7}, {%8, %9}, {%0, %1, %2, %3};"
               : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3])
               : "r"(r0), "r"(r1), "r"(r2), "r"(r3), "r"(r0), "r"(r1));
// CHECK:   __pk_mma_m16n8k16_f16f32(d[0], d[1], d[2], d[3], r0, r1, r2, r3, r0, r1, d[0], d[1], d[2], d[3]);
  C[swapHalves(threadIdx.x) & 31] = e[0] + e[1] + e[2] + e[3] + d[0] + d[3];
}

// Host code: its inline assembly is the host's (x86), not PTX: no PK3011.
static inline unsigned long long hostCycles() {
  unsigned lo, hi;
// DIAG-NOT: PK3011.cu:[[@LINE+1]]:{{.*}}[PK3011]
  asm volatile("rdtsc" : "=a"(lo), "=d"(hi));
  return ((unsigned long long)hi << 32) | lo;
}
