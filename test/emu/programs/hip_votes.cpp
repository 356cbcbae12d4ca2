// HIP's votes without a mask (__ballot, __any, __all) run on the lanes the
// EXEC mask holds: in a divergent if, each branch's vote sees only the lanes
// of that branch, and lanes that returned early take part in none.
// Usage: hip_votes
#include <cstdio>

__global__ void branch_votes(int* out) {
  int t = threadIdx.x;
  if (t % 4 == 0) {
    out[t] = __popcll(__ballot(1));            // 16 lanes of 64
    out[64 + t] = __all(t % 4 == 0);           // true for every lane here
    out[128 + t] = __any(t % 4 != 0);          // false for every lane here
  } else {
    out[t] = 100 + __popcll(__ballot(1));      // 48 lanes
    out[64 + t] = __all(t % 4 != 0);
    out[128 + t] = __any(t % 4 == 0);
  }
}

// After a bounds check, the ballot holds the surviving lanes only.
__global__ void ragged_ballot(int n, int* out) {
  int t = threadIdx.x;
  if (t >= n) return;
  out[t] = __popcll(__ballot(t < n));
}

int main() {
  int* out;
  hipMallocManaged((void**)&out, 192 * sizeof(int));
  pkemu::launch(branch_votes, 1, 64, 0, 0, out);
  hipDeviceSynchronize();
  int ok = 1;
  for (int t = 0; t < 64; ++t) {
    ok &= out[t] == (t % 4 == 0 ? 16 : 148);
    ok &= out[64 + t] == 1 && out[128 + t] == 0;
  }
  printf("branch_votes: ballot=%d/%d all=%d any=%d\n", out[0], out[1], out[64], out[128]);
  pkemu::launch(ragged_ballot, 1, 64, 0, 0, 40, out);
  hipDeviceSynchronize();
  for (int t = 0; t < 40; ++t) ok &= out[t] == 40;
  printf("ragged_ballot: %d\n", out[0]);
  printf("hip_votes: %s\n", ok ? "PASS" : "FAIL");
  return 0;
}
