// Constructs both strategies lower: cooperative-groups tiles and cg::reduce,
// inline PTX lane registers, volatile warp-synchronous steps, legacy
// shuffles and votes, __syncwarp, and a partial mask (flagged).
#include <hip/hip_runtime.h>
#include <hip/hip_cooperative_groups.h>

#ifndef PK_LOGICAL_WARP32_HELPERS
#define PK_LOGICAL_WARP32_HELPERS
// port-kernel: 32-lane logical warps inside 64-lane waves [PK2002, PK2004]
static constexpr int pk_warpSize = 32;
__device__ static inline unsigned __pk_ballot32(int pred) {
  return (unsigned)(__ballot(pred) >> (__lane_id() & 32u));
}
__device__ static inline unsigned __pk_activemask32() { return __pk_ballot32(1); }
__device__ static inline bool __pk_any32(int pred) { return __pk_ballot32(pred) != 0u; }
__device__ static inline bool __pk_all32(int pred) {
  return __pk_ballot32(pred) == __pk_ballot32(1);
}
#endif // PK_LOGICAL_WARP32_HELPERS

#ifndef PK_SYNCWARP_HELPER
#define PK_SYNCWARP_HELPER
// port-kernel: a wave executes in lockstep; order its shared-memory accesses [PK2003]
__device__ static inline void __pk_syncwarp() {
  __threadfence_block();
  __builtin_amdgcn_wave_barrier();
  __threadfence_block();
}
#endif // PK_SYNCWARP_HELPER

#ifndef PK_TILE_HELPERS
#define PK_TILE_HELPERS
// port-kernel: cooperative-groups tiles of N lanes inside a 64-lane wave [PK2005]
// A tile shuffles any trivially copyable value, as CUDA's tiles do; HIP's
// __shfl* have overloads for these scalars only: other types (uint4,
// float2, structs, __half) move as 32-bit words, each from the same lane.
template <class T> struct __pk_shfl_scalar { static constexpr bool value = false; };
template <> struct __pk_shfl_scalar<int> { static constexpr bool value = true; };
template <> struct __pk_shfl_scalar<unsigned> { static constexpr bool value = true; };
template <> struct __pk_shfl_scalar<long> { static constexpr bool value = true; };
template <> struct __pk_shfl_scalar<unsigned long> { static constexpr bool value = true; };
template <> struct __pk_shfl_scalar<long long> { static constexpr bool value = true; };
template <> struct __pk_shfl_scalar<unsigned long long> { static constexpr bool value = true; };
template <> struct __pk_shfl_scalar<float> { static constexpr bool value = true; };
template <> struct __pk_shfl_scalar<double> { static constexpr bool value = true; };
template <class T, class F> __device__ static inline T __pk_tile_shfl(T v, F f) {
  if constexpr (__pk_shfl_scalar<T>::value) {
    return f(v);
  } else {
    constexpr unsigned W = (sizeof(T) + 3) / 4;
    int w[W] = {};
    __builtin_memcpy(w, &v, sizeof(T));
    for (unsigned i = 0; i < W; ++i)
      w[i] = f(w[i]);
    __builtin_memcpy(&v, w, sizeof(T));
    return v;
  }
}
template <unsigned N> struct __pk_tile_mask { typedef unsigned type; };
template <> struct __pk_tile_mask<64> { typedef unsigned long long type; };
template <unsigned N> struct __pk_tile {
  static_assert(N <= 64 && (N & (N - 1)) == 0, "tile size: a power of two up to 64");
  typedef typename __pk_tile_mask<N>::type mask_type;
  __device__ unsigned thread_rank() const { return __lane_id() & (N - 1); }
  __device__ unsigned size() const { return N; }
  __device__ unsigned num_threads() const { return N; }
  __device__ unsigned meta_group_rank() const {
    return (threadIdx.x + blockDim.x * (threadIdx.y + blockDim.y * threadIdx.z)) / N;
  }
  __device__ unsigned meta_group_size() const {
    return (blockDim.x * blockDim.y * blockDim.z + N - 1) / N;
  }
  __device__ void sync() const { __pk_syncwarp(); }
  template <class T> __device__ T shfl(T v, int src) const {
    return __pk_tile_shfl(v, [=](auto x) { return __shfl(x, src & (int)(N - 1), N); });
  }
  template <class T> __device__ T shfl_up(T v, unsigned d) const {
    return __pk_tile_shfl(v, [=](auto x) { return __shfl_up(x, d, N); });
  }
  template <class T> __device__ T shfl_down(T v, unsigned d) const {
    return __pk_tile_shfl(v, [=](auto x) { return __shfl_down(x, d, N); });
  }
  template <class T> __device__ T shfl_xor(T v, int m) const {
    return __pk_tile_shfl(v, [=](auto x) { return __shfl_xor(x, m, N); });
  }
  __device__ mask_type ballot(int pred) const {
    unsigned long long b = __ballot(pred) >> (__lane_id() & (64u - N));
    return (mask_type)(N == 64 ? b : b & ((1ull << (N & 63u)) - 1ull));
  }
  __device__ bool any(int pred) const { return ballot(pred) != 0; }
  __device__ bool all(int pred) const { return ballot(pred) == ballot(1); }
  // Passed where a thread_group is taken (`void f(cg::thread_group g)`): the
  // same lanes as HIP's tile of N threads of the block.
  __device__ operator cooperative_groups::thread_group() const {
    return cooperative_groups::tiled_partition(cooperative_groups::this_thread_block(), N);
  }
};
template <class T> struct __pk_plus { __device__ T operator()(T a, T b) const { return a + b; } };
template <class T> struct __pk_less { __device__ T operator()(T a, T b) const { return b < a ? b : a; } };
template <class T> struct __pk_greater { __device__ T operator()(T a, T b) const { return a < b ? b : a; } };
template <class T> struct __pk_bit_and { __device__ T operator()(T a, T b) const { return a & b; } };
template <class T> struct __pk_bit_or { __device__ T operator()(T a, T b) const { return a | b; } };
template <class T> struct __pk_bit_xor { __device__ T operator()(T a, T b) const { return a ^ b; } };
template <unsigned N, class T, class Op>
__device__ static inline T __pk_reduce(const __pk_tile<N> &t, T v, Op op) {
  for (unsigned o = N / 2; o > 0; o >>= 1)
    v = op(v, t.shfl_xor(v, (int)o));
  return v;
}
#endif // PK_TILE_HELPERS

#ifndef PK_LOGICAL_LANE32_HELPERS
#define PK_LOGICAL_LANE32_HELPERS
// port-kernel: lane id and lane masks of a 32-lane logical warp [PK2006]
__device__ static inline unsigned __pk_lane32() { return __lane_id() & 31u; }
__device__ static inline unsigned __pk_lanemask32(unsigned long long m) {
  return (unsigned)(m >> (__lane_id() & 32u));
}
#endif // PK_LOGICAL_LANE32_HELPERS

namespace cg = cooperative_groups;

__device__ float tile_sum(const __pk_tile<64> &tile, float v) {
  for (int o = tile.size() / 2; o > 0; o /= 2)
    v += tile.shfl_down(v, o);
  return v;
}

// port-kernel: note: kernel tiles: native 64-lane warps (its warp code does not depend on the data layout of 32-lane warps) [PK2000]
__global__ void tiles(const float *in, float *sum, float *total) {
  cg::thread_block block = cg::this_thread_block();
  __pk_tile<64> tile = __pk_tile<64>();
  const float v = in[blockIdx.x * blockDim.x + threadIdx.x];
  const float s = tile_sum(tile, v);
  const float r = __pk_reduce(tile, v, __pk_plus<float>());
  if (tile.thread_rank() == 0)
    atomicAdd(&sum[blockIdx.x], s);
  if (tile.thread_rank() == 0)
    atomicAdd(&total[blockIdx.x], r);
  tile.sync();
}

__device__ __forceinline__ unsigned lane_id() {
  unsigned id;
  id = __pk_lane32();
  return id;
}

__device__ __forceinline__ unsigned lanes_below() {
  unsigned m;
  m = __pk_lanemask32(__lanemask_lt());
  return m;
}

// port-kernel: note: kernel ranks: logical 32-lane warps inside 64-lane waves because 'rank[threadIdx.x]' stores a value that depends on the 32-lane warp numbering in global memory (line 43) [PK2000]
__global__ void ranks(const int *in, int *rank) {
  const unsigned b = __pk_ballot32(in[threadIdx.x] > 0);
  rank[threadIdx.x] = __popc(b & lanes_below()) + (lane_id() == 0);
}

__device__ void warp_reduce(volatile float *s, int tid) {
  { auto __pk_v = s[tid] + s[tid + 32]; __pk_syncwarp(); s[tid] = __pk_v; __pk_syncwarp(); }
  { auto __pk_v = s[tid] + s[tid + 16]; __pk_syncwarp(); s[tid] = __pk_v; __pk_syncwarp(); }
  { auto __pk_v = s[tid] + s[tid + 8]; __pk_syncwarp(); s[tid] = __pk_v; __pk_syncwarp(); }
  { auto __pk_v = s[tid] + s[tid + 4]; __pk_syncwarp(); s[tid] = __pk_v; __pk_syncwarp(); }
  { auto __pk_v = s[tid] + s[tid + 2]; __pk_syncwarp(); s[tid] = __pk_v; __pk_syncwarp(); }
  { auto __pk_v = s[tid] + s[tid + 1]; __pk_syncwarp(); s[tid] = __pk_v; __pk_syncwarp(); }
}

// port-kernel: note: kernel reduce_volatile: logical 32-lane warps inside 64-lane waves because warp-synchronous step 's[tid] += s[tid + 32]' is unrolled for 32 lanes (line 47) [PK2000]
__global__ void reduce_volatile(const float *in, float *out) {
  __shared__ float sdata[128];
  const int tid = threadIdx.x;
  sdata[tid] = in[blockIdx.x * 128 + tid];
  __syncthreads();
  if (tid < 64)
    sdata[tid] += sdata[tid + 64];
  __syncthreads();
  if (tid < 32)
    warp_reduce(sdata, tid);
  if (tid == 0)
    out[blockIdx.x] = sdata[0];
}

// port-kernel: note: kernel legacy: logical 32-lane warps inside 64-lane waves because __shfl_sync: mask 0x0000ffff names part of a 32-lane warp (line 74) [PK2000]
__global__ void legacy(const int *in, int *out) {
  int v = in[threadIdx.x];
  for (int o = 16; o > 0; o >>= 1)
    v += __shfl_xor(v, o, 32);
  const unsigned b = __pk_ballot32(v > 0);
  // port-kernel: warning: __shfl_sync: mask 0x0000ffff is not the full warp; the HIP form has no mask, so this is correct only if exactly these lanes reach the call [PK2010]
  const int half = __shfl(v, 3, 32);   // a half-warp mask
  __pk_syncwarp();
  if ((threadIdx.x & 31) == 0)
    out[threadIdx.x / 32] = v + __popc(b) + half;
}
