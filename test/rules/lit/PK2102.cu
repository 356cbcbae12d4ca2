// PK2102 (check): a ballot, __activemask() or lane mask kept in 32 bits loses
// lanes 32-63 of a 64-lane wave; __popc/__ffs/__clz on it and comparisons
// with 0xffffffff see the low half only.
// RUN: not %pk check -q --to hip %s 2>&1 | FileCheck %s --check-prefix=DIAG

#define FULL_MASK 0xffffffffu

// DIAG: PK2102.cu:[[@LINE+1]]:37: warning: the result of 'votes' holds a lane mask in 32 bits ('unsigned int'): lanes 32-63 of a 64-lane wave are lost [PK2102]
__device__ __forceinline__ unsigned votes(bool p) {
  return __ballot_sync(FULL_MASK, p);
}

// Per block: how many elements pass, whether all of them do, and the highest
// active lane.
__global__ void countAbove(const int *x, int threshold, int *count, int *all,
                           int *bits, int *leader) {
  const int gid = blockIdx.x * blockDim.x + threadIdx.x;
  const bool pass = x[gid] >= threshold;
// DIAG: PK2102.cu:[[@LINE+1]]:12: warning: variable 'b' holds a lane mask in 32 bits ('unsigned int'): lanes 32-63 of a 64-lane wave are lost [PK2102]
  unsigned b = votes(pass);
  // A 64-bit mask and a population count of data are fine.
// DIAG-NOT: PK2102.cu:[[@LINE+1]]:{{.*}}[PK2102]
  unsigned long long wide = __ballot_sync(FULL_MASK, pass);
// DIAG-NOT: PK2102.cu:[[@LINE+1]]:{{.*}}[PK2102]
  const int set = __popc(x[gid]);
  if (threadIdx.x % 32 == 0) {
// DIAG: PK2102.cu:[[@LINE+1]]:22: warning: __popc(b) on a lane mask: 32-bit __popc sees lanes 0-31 only [PK2102]
    atomicAdd(count, __popc(b));
// DIAG: PK2102.cu:[[@LINE+1]]:22: warning: 'b == 0xffffffff' compares a lane mask with 0xffffffff: on a 64-lane wave that is not "every lane" [PK2102]
    atomicAnd(all, b == 0xffffffff);
    atomicAdd(bits, __popcll(wide) + set);
// DIAG: PK2102.cu:[[@LINE+1]]:28: warning: __clz(__activemask()) on a lane mask: 32-bit __clz sees lanes 0-31 only [PK2102]
    atomicMax(leader, 31 - __clz(__activemask()));
  }
}
// DIAG-NOT: [PK2102]
