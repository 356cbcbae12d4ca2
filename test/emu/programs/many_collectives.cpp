// Many warp collectives in flight at once: the lanes of a warp form G disjoint
// groups (lane l is in group l % G), and each group shuffles and votes with
// its own mask, as warp-aggregated atomics and tiled code do. The lanes of a
// warp reach their collectives in lane order, so the first lane of every group
// opens a collective that its other lanes complete later: min(G, W/2)
// collectives are pending in one warp. Usage: many_collectives G [BLOCK]
// (G a power of two, at most the warp width). Prints PASS or the mismatches.
#include <cstdio>
#include <cstdlib>

#if defined(PKEMU_LANG_HIP)
typedef unsigned long long mask_t;
#define cudaMallocManaged hipMallocManaged
#define cudaDeviceSynchronize hipDeviceSynchronize
#else
typedef unsigned mask_t;
#endif

constexpr int kRounds = 3;

__global__ void groups(int G, long long* out) {
  int lin = threadIdx.x;
  int lane = lin % warpSize, g = lane % G;
  mask_t mask = 0;
  for (int l = g; l < warpSize; l += G) mask |= (mask_t)1 << l;
  long long* o = out + (long long)lin * 2 * kRounds;
  int v = 100 + lin;
  for (int r = 0; r < kRounds; ++r) {
    // Lane g leads its group; the value moves on to the next member each round.
    int src = (g + r * G) % warpSize;
    int got = __shfl_sync(mask, v, src);
    mask_t b = __ballot_sync(mask, ((lane / G) + r) % 2 == 0);
    o[2 * r] = got;
    o[2 * r + 1] = (long long)b;
    v = got + 1;
  }
}

int main(int argc, char** argv) {
  int G = argc > 1 ? atoi(argv[1]) : 16;
  int W = warpSize;
  int B = argc > 2 ? atoi(argv[2]) : 2 * W;
  long long* out;
  cudaMallocManaged((void**)&out, sizeof(long long) * B * 2 * kRounds);
  pkemu::launch(groups, 1, B, 0, 0, G, out);
  cudaDeviceSynchronize();
  int bad = 0;
  for (int lin = 0; lin < B; ++lin) {
    int lane = lin % W, base = lin - lane, g = lane % G;
    long long v = 100 + lin;
    for (int r = 0; r < kRounds; ++r) {
      int src = (g + r * G) % W;
      // Every member of the group received v from src in the previous round.
      long long want = r == 0 ? 100 + base + src : v;
      unsigned long long ballot = 0;
      for (int l = g; l < W; l += G)
        if (((l / G) + r) % 2 == 0) ballot |= 1ull << l;
      long long* o = out + (long long)lin * 2 * kRounds + 2 * r;
      if ((o[0] != want || (unsigned long long)o[1] != ballot) && bad++ < 10)
        printf("MISMATCH thread %d round %d: got %lld %llx want %lld %llx\n", lin, r, o[0],
               (unsigned long long)o[1], want, ballot);
      v = want + 1;
    }
  }
  printf("groups=%d width=%d %s\n", G, W, bad ? "FAIL" : "PASS");
  return bad ? 1 : 0;
}
