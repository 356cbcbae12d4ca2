// Inline PTX other than the ported mma.sync form (PK3011).
#include <hip/hip_runtime.h>
#include <stdint.h>

__device__ unsigned swap_halves(unsigned v) {
  unsigned r;
  // port-kernel: warning: inline PTX 'prmt.b32' is left in place: AMD GPUs do not run PTX, and only 'mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32' is ported [PK3011]
  asm("prmt.b32 %0, %1, %1, 0x1032;" : "=r"(r) : "r"(v));
  return r;
}

__global__ void ptx_other(const uint32_t *A, float *C) {
  __shared__ uint32_t tile[256];
  uint32_t r0, r1, r2, r3;
  // port-kernel: warning: '__cvta_generic_to_shared' has no HIP counterpart: HIP 5.2.3 has no address-space conversion intrinsics [PK1010]
  const unsigned addr = (unsigned)__cvta_generic_to_shared(tile + threadIdx.x);
  // port-kernel: warning: inline PTX 'cp.async.ca.shared.global', 'cp.async.wait_all' is left in place: AMD GPUs do not run PTX, and only 'mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32' is ported [PK3011]
  asm volatile("cp.async.ca.shared.global [%0], [%1], 4;\n"
               "cp.async.wait_all;\n" ::"r"(addr), "l"(A + threadIdx.x));
  // port-kernel: warning: inline PTX 'ldmatrix.sync.aligned.m8n8.x4.shared.b16' is left in place: AMD GPUs do not run PTX, and only 'mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32' is ported [PK3011]
  asm volatile("ldmatrix.sync.aligned.m8n8.x4.shared.b16 {%0, %1, %2, %3}, [%4];"
               : "=r"(r0), "=r"(r1), "=r"(r2), "=r"(r3)
               : "r"(addr));
  float d0, d1;
  // port-kernel: warning: inline PTX 'mma.sync.aligned.m16n8k8.row.col.f32.f16.f16.f32' is left in place: AMD GPUs do not run PTX, and only 'mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32' is ported [PK3011]
  asm volatile("mma.sync.aligned.m16n8k8.row.col.f32.f16.f16.f32 "
               "{%0, %1, %2, %3}, {%4, %5}, {%6}, {%7, %8, %9, %10};"
               : "=f"(d0), "=f"(d1), "=f"(C[0]), "=f"(C[1])
               : "r"(r0), "r"(r1), "r"(r2), "f"(0.f), "f"(0.f), "f"(0.f), "f"(0.f));
  float e[4];
  // port-kernel: warning: inline PTX 'mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32' is left in place: %0 is read but is a write-only output [PK3011]
  asm volatile("mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 "
               "{%0, %1, %2, %3}, {%4, %5, %6, %7}, {%8, %9}, {%0, %1, %2, %3};"
               : "=f"(e[0]), "=f"(e[1]), "=f"(e[2]), "=f"(e[3])
               : "r"(r0), "r"(r1), "r"(r2), "r"(r3), "r"(r0), "r"(r1));
  C[swap_halves(threadIdx.x) & 31] = d0 + d1 + e[0] + e[1] + e[2] + e[3] + (float)r3;
}
