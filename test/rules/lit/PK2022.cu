// PK2022: a native 64-lane warp's ballots and lane masks have 64 bits: the
// variables, parameters and return types that hold them are widened, and
// __popc/__ffs/__clz, lane bits and full-mask constants on them follow.
// RUN: rm -rf %t && %pk port -q --to hip --wave64=native --report %t/r.json -o %t %s 2>&1 \
// RUN:   | FileCheck %s --check-prefix=DIAG
// RUN: FileCheck %s --match-full-lines --input-file=%t/hip/PK2022.hip
// RUN: FileCheck %s --check-prefix=REPORT --input-file=%t/r.json

// REPORT: "PK2022": {{[0-9]+}}
// REPORT: "replacement": "0xffffffffffffffffull",
// REPORT-NEXT: "rule": "PK2022",
// REPORT-NEXT: "why": "a full 64-lane wave's mask has 64 bits set"
// REPORT: "replacement": "unsigned long long",
// REPORT-NEXT: "rule": "PK2022",
// REPORT-NEXT: "why": "'warpVotes' holds a lane mask of a 64-lane wave: 64 bits"
// REPORT: "replacement": "1ull",
// REPORT-NEXT: "rule": "PK2022",
// REPORT-NEXT: "why": "a lane bit of a 64-lane wave needs a 64-bit shift"
// REPORT: "replacement": "__popcll",
// REPORT-NEXT: "rule": "PK2022",
// REPORT-NEXT: "why": "__popc of a 64-bit lane mask is __popcll"

#define FULL_MASK 0xffffffffu
// CHECK: #define FULL_MASK 0xffffffffffffffffull

// A ballot returned through a helper: its return type is widened.
__device__ unsigned warpVotes(bool p) { return __ballot_sync(FULL_MASK, p); }
// CHECK: __device__ unsigned long long warpVotes(bool p) { return __ballot(p); }

// Order-preserving compaction: ranks from lane bits, the first and last
// passing lanes from __ffs and __clz.
// DIAG: PK2022.cu:[[@LINE+1]]:1: note: kernel compact: native 64-lane warps (--wave64=native) [PK2000]
__global__ void compact(const float *in, float *out, int *kept, int *allPass) {
  __shared__ int counts[8], base[8];
  const unsigned gid = blockIdx.x * blockDim.x + threadIdx.x;
// CHECK:   const unsigned gid = blockIdx.x * blockDim.x + threadIdx.x;
  const int lane = threadIdx.x % 32;
  const int warp = threadIdx.x / 32;
  const float v = in[gid];
  const bool pass = v > 0.5f;
  unsigned ballot = warpVotes(pass);
// CHECK:   unsigned long long ballot = warpVotes(pass);
  unsigned below = (1u << lane) - 1u;
// CHECK:   unsigned long long below = (1ull << lane) - 1u;
  const int rank = __popc(ballot & below);
// CHECK:   const int rank = __popcll(ballot & below);
  const int first = __ffs(ballot) - 1;
// CHECK:   const int first = __ffsll(ballot) - 1;
  const int last = 31 - __clz(ballot);
// CHECK:   const int last = 31 - (__clzll(ballot) - 32);
  if (lane == first)
    counts[warp] = __popc(ballot);
// CHECK:     counts[warp] = __popcll(ballot);
  if (lane == last && ballot == FULL_MASK)
// CHECK:   if (lane == last && ballot == FULL_MASK)
    atomicAdd(allPass, 1);
  __syncthreads();
  if (threadIdx.x == 0) {
    int run = 0;
    for (int w = 0; w < blockDim.x / 32; ++w) {
      base[w] = run;
      run += counts[w];
    }
    kept[blockIdx.x] = run;
  }
  __syncthreads();
  if (pass)
    out[blockIdx.x * blockDim.x + base[warp] + rank] = v;
}
// DIAG-NOT: warning
