// Shuffle / vote semantics at the emulated warp width (32 or 64), CUDA or HIP spelling.
// The host recomputes every expected value from the documented rules (CUDA programming guide,
// test/emu reference wave64.md) and prints PASS or the first mismatches.
#include <cstdio>
#include <cstdint>
#include <vector>

#if defined(PKEMU_LANG_HIP)
#define cudaMallocManaged hipMallocManaged
#define cudaDeviceSynchronize hipDeviceSynchronize
#define FULL (~0ull)
#define SHFL(v, s, w) __shfl(v, s, w)
#define SHFL_UP(v, d, w) __shfl_up(v, d, w)
#define SHFL_DOWN(v, d, w) __shfl_down(v, d, w)
#define SHFL_XOR(v, m, w) __shfl_xor(v, m, w)
#define BALLOT(p) __ballot(p)
#define ANY(p) __any(p)
#define ALL(p) __all(p)
#else
#define FULL 0xffffffffu
#define SHFL(v, s, w) __shfl_sync(FULL, v, s, w)
#define SHFL_UP(v, d, w) __shfl_up_sync(FULL, v, d, w)
#define SHFL_DOWN(v, d, w) __shfl_down_sync(FULL, v, d, w)
#define SHFL_XOR(v, m, w) __shfl_xor_sync(FULL, v, m, w)
#define BALLOT(p) __ballot_sync(FULL, p)
#define ANY(p) __any_sync(FULL, p)
#define ALL(p) __all_sync(FULL, p)
#endif

constexpr int kWidths[] = {64, 32, 16, 8, 4, 2};
constexpr int kArgs[] = {0, 1, 3, 5, 16, 31, 33, 70, -3};
constexpr int kNW = sizeof(kWidths) / sizeof(kWidths[0]);
constexpr int kNA = sizeof(kArgs) / sizeof(kArgs[0]);
constexpr int kPer = kNW * kNA * 4 + 8;  // results per thread

__global__ void shuffles(long long* out) {
  int lin = threadIdx.x;
  long long* o = out + (long long)lin * kPer;
  int v = 1000 + lin;
  double dv = 0.5 + lin;
  int k = 0;
  for (int wi = 0; wi < kNW; ++wi) {
    int w = kWidths[wi];
    if (w > warpSize) { k += kNA * 4; continue; }
    for (int ai = 0; ai < kNA; ++ai) {
      int a = kArgs[ai];
      o[k++] = SHFL(v, a, w);
      o[k++] = a >= 0 ? SHFL_UP(v, (unsigned)a, w) : -1;
      o[k++] = a >= 0 ? SHFL_DOWN(v, (unsigned)a, w) : -1;
      o[k++] = a >= 0 ? (long long)SHFL_XOR(dv, a, w) : -1;  // double payload
    }
  }
  int pred = lin % 3 == 0;
  // Sampled while every lane still has collectives ahead (no lane of the warp has exited yet).
  long long active = (long long)(unsigned long long)__activemask();
  o[k++] = (long long)(unsigned long long)BALLOT(pred);
  o[k++] = ANY(pred);
  o[k++] = ALL(lin < 1000);
  o[k++] = (long long)__lane_id();
  o[k++] = (long long)(unsigned long long)__lanemask_lt();
  o[k++] = sizeof(BALLOT(pred));
  o[k++] = active;
  o[k++] = warpSize;
}

static long long ref_src(int op, int l, int a, int w) {
  int seg = l & ~(w - 1);
  switch (op) {
    case 0: return seg + (a & (w - 1));
    case 1: return l - a < seg ? l : l - a;
    case 2: return (l & (w - 1)) + a >= w ? l : l + a;
    default: { int s = l ^ a; return s >= seg + w ? l : s; }
  }
}

int main(int argc, char** argv) {
  int B = argc > 1 ? atoi(argv[1]) : 96;  // threads per block (partial last warp by default)
  long long* out;
  cudaMallocManaged((void**)&out, sizeof(long long) * B * kPer);
  pkemu::launch(shuffles, 1, B, 0, 0, out);
  cudaDeviceSynchronize();
  int W = warpSize, bad = 0;
  for (int lin = 0; lin < B && bad < 10; ++lin) {
    long long* o = out + (long long)lin * kPer;
    int l = lin % W, base = lin - l, nexist = B - base < W ? B - base : W;
    auto value = [&](long long src, bool dbl) -> long long {
      if (src < 0 || src >= nexist) return 0;  // inactive / missing source lane
      return dbl ? (long long)(0.5 + base + src) : 1000 + base + src;
    };
    int k = 0;
    for (int wi = 0; wi < kNW; ++wi) {
      int w = kWidths[wi];
      if (w > W) { k += kNA * 4; continue; }
      for (int ai = 0; ai < kNA; ++ai) {
        int a = kArgs[ai];
        long long exp[4] = {value(ref_src(0, l, a, w), false), a >= 0 ? value(ref_src(1, l, a, w), false) : -1,
                            a >= 0 ? value(ref_src(2, l, a, w), false) : -1,
                            a >= 0 ? value(ref_src(3, l, a, w), true) : -1};
        for (int op = 0; op < 4; ++op, ++k)
          if (o[k] != exp[op] && bad++ < 10)
            printf("MISMATCH thread %d op %d width %d arg %d: got %lld want %lld\n", lin, op, w, a, o[k], exp[op]);
      }
    }
    unsigned long long ballot = 0;
    for (int s = 0; s < nexist; ++s) if ((base + s) % 3 == 0) ballot |= 1ull << s;
#if !defined(PKEMU_LANG_HIP)
    ballot &= 0xffffffffull;
    const long long ballot_bytes = 4;
#else
    const long long ballot_bytes = 8;
#endif
    unsigned long long live = nexist == 64 ? ~0ull : (1ull << nexist) - 1;
    long long exp2[8] = {(long long)ballot, ballot != 0, 1, l, (long long)((1ull << l) - 1), ballot_bytes,
                         (long long)live, W};
    for (int i = 0; i < 8; ++i, ++k)
      if (o[k] != exp2[i] && bad++ < 10)
        printf("MISMATCH thread %d vote %d: got %lld want %lld\n", lin, i, o[k], exp2[i]);
  }
  printf(bad ? "FAIL\n" : "PASS\n");
  return bad ? 1 : 0;
}
