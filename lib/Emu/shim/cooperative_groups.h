//===- cooperative_groups.h - cooperative groups ----------------*- C++ -*-===//
// Rules: none (emulator runtime)
//
// pkemu: cooperative groups (thread_block, thread_block_tile<N>,
// tiled_partition, coalesced_group, reduce).
//
//===----------------------------------------------------------------------===//
#pragma once
#include "pkemu/prelude.h"

namespace cooperative_groups {

namespace details {
PKEMU_HD inline unsigned block_threads() {
  return blockDim.x * blockDim.y * blockDim.z;
}
PKEMU_HD inline unsigned block_rank() {
  return threadIdx.x + blockDim.x * (threadIdx.y + blockDim.y * threadIdx.z);
}
struct group_maker;
} // namespace details

// A group of any kind, as code receives it by value (`void f(thread_group
// g)` called with a block or a tile, or what tiled_partition(g, n) returns):
// it keeps the kind it was made as, so its rank and barrier are those of the
// block, tile, coalesced group or grid it stands for.
class thread_group {
public:
  PKEMU_HD unsigned long long size() const { return n_; }
  PKEMU_HD unsigned long long num_threads() const { return n_; }
  PKEMU_HD unsigned long long thread_rank() const;
  PKEMU_HD void sync(PKEMU_LOC_PARAMS) const;

protected:
  enum class kind : unsigned char { block, tile, coalesced, grid };
  PKEMU_HD explicit thread_group(unsigned n, kind k = kind::block,
                                 unsigned long long lanes = 0)
      : n_(n), pk_kind_(k), pk_lanes_(lanes) {}
  unsigned n_;
  kind pk_kind_;
  unsigned long long pk_lanes_; ///< a coalesced group's lanes
  friend struct details::group_maker;
};
namespace details {
struct group_maker {
  static PKEMU_HD thread_group tile(unsigned n) {
    return thread_group(n, thread_group::kind::tile);
  }
};
} // namespace details

class thread_block : public thread_group {
public:
  PKEMU_HD thread_block() : thread_group(details::block_threads()) {}
  PKEMU_HD void sync(PKEMU_LOC_PARAMS) const { __syncthreads(PKEMU_LOC); }
  PKEMU_HD unsigned thread_rank() const { return details::block_rank(); }
  PKEMU_HD dim3 group_index() const {
    return dim3(blockIdx.x, blockIdx.y, blockIdx.z);
  }
  PKEMU_HD dim3 thread_index() const {
    return dim3(threadIdx.x, threadIdx.y, threadIdx.z);
  }
  PKEMU_HD dim3 group_dim() const { return blockDim; }
  PKEMU_HD dim3 dim_threads() const { return blockDim; }
};
PKEMU_HD inline thread_block this_thread_block() { return thread_block(); }

// The __shared__ scratch memory that CUDA 11.1+ (cg::experimental) and CUDA
// 12 give this_thread_block(scratch) for tiles of more than 32 threads. The
// emulator's tiles keep their state in the runtime: the object only takes
// its place in shared memory, and the block it gives is this_thread_block().
template <unsigned MaxBlockSize = 1024> struct block_tile_memory {
  alignas(16) unsigned long long pkemu_scratch[(MaxBlockSize + 31) / 32];
};
template <unsigned MaxBlockSize>
PKEMU_HD inline thread_block
this_thread_block(block_tile_memory<MaxBlockSize> &) {
  return thread_block();
}
namespace experimental {
template <unsigned TileCommunicationSize = 8, unsigned MaxBlockSize = 1024>
struct block_tile_memory {
  alignas(16) unsigned long long pkemu_scratch[(MaxBlockSize + 31) / 32];
};
template <unsigned TileCommunicationSize, unsigned MaxBlockSize>
PKEMU_HD inline thread_block this_thread_block(
    block_tile_memory<TileCommunicationSize, MaxBlockSize> &) {
  return thread_block();
}
} // namespace experimental

class grid_group : public thread_group {
public:
  PKEMU_HD grid_group() : thread_group(0, kind::grid) {}
  // A barrier across the whole grid of a cooperative launch.
  PKEMU_HD void sync(PKEMU_LOC_PARAMS) const {
    ::pkemu::detail::grid_sync(PKEMU_LOC);
  }
  PKEMU_HD unsigned long long thread_rank() const {
    unsigned long long b =
        blockIdx.x +
        (unsigned long long)gridDim.x *
            (blockIdx.y + (unsigned long long)gridDim.y * blockIdx.z);
    return b * details::block_threads() + details::block_rank();
  }
  PKEMU_HD unsigned long long size() const {
    return (unsigned long long)gridDim.x * gridDim.y * gridDim.z *
           details::block_threads();
  }
  PKEMU_HD unsigned long long num_threads() const { return size(); }
  PKEMU_HD bool is_valid() const {
    return ::pkemu::detail::grid_is_cooperative();
  }
  PKEMU_HD unsigned long long block_rank() const {
    return blockIdx.x +
           (unsigned long long)gridDim.x *
               (blockIdx.y + (unsigned long long)gridDim.y * blockIdx.z);
  }
  PKEMU_HD unsigned long long num_blocks() const {
    return (unsigned long long)gridDim.x * gridDim.y * gridDim.z;
  }
  PKEMU_HD dim3 group_dim() const { return gridDim; }
  PKEMU_HD dim3 dim_blocks() const { return gridDim; }
  PKEMU_HD dim3 block_index() const {
    return dim3(blockIdx.x, blockIdx.y, blockIdx.z);
  }
};
PKEMU_HD inline grid_group this_grid() { return grid_group(); }

// Tiles of up to a warp are lanes of one warp. A tile of more threads than
// a warp (CUDA 11+: tiled_partition<128> of a block, with block_tile_memory)
// is N / warpSize whole warps: its rank is the thread's place among them,
// its sync() is the block's barrier (every tile of the block syncs at the
// same place, as such code does), cg::reduce combines its warps through
// shared memory, and the lane collectives (shfl, ballot, any, all), which
// CUDA does not define for such tiles either, are reported.
template <unsigned N> class thread_block_tile : public thread_group {
  static_assert(N >= 1 && N <= 1024 && (N & (N - 1)) == 0,
                "tile size must be a power of two <= 1024");

public:
  PKEMU_HD thread_block_tile() : thread_group(N, kind::tile) {}
  static constexpr unsigned num_threads_v = N;
  PKEMU_HD unsigned long long num_threads() const { return N; }
  PKEMU_HD unsigned long long size() const { return N; }
  PKEMU_HD unsigned thread_rank() const {
    return N <= (unsigned)warpSize ? __lane_id() & (N - 1)
                                   : details::block_rank() % N;
  }
  PKEMU_HD unsigned long long meta_group_rank() const {
    return details::block_rank() / N;
  }
  PKEMU_HD unsigned long long meta_group_size() const {
    return (details::block_threads() + N - 1) / N;
  }
  // Lanes of the caller's warp that form this tile.
  PKEMU_HD unsigned long long tile_mask(const char *file, int line) const {
    if (N > (unsigned)warpSize)
      ::pkemu::detail::fatal(
          "invalid tile",
          "a lane collective (shfl, ballot, any, all) of a tile larger than "
          "the warp, which CUDA defines for tiles of up to 32 threads",
          file, line);
    unsigned long long m = N == 64 ? ~0ull : ((1ull << N) - 1);
    return m << (__lane_id() & ~(N - 1));
  }
  PKEMU_HD void sync(PKEMU_LOC_PARAMS) const {
    if (N > (unsigned)warpSize) {
      __syncthreads(PKEMU_LOC);
      return;
    }
    ::pkemu::detail::coll(
        ::pkemu::detail::coll_kind(::pkemu::detail::kSyncWarp, 0,
                                   ::pkemu::detail::kSyncForm),
        tile_mask(PKEMU_LOC), 0, 0, warpSize, nullptr, nullptr,
        "thread_block_tile::sync", PKEMU_LOC);
  }
#define PKEMU_TILE_SHFL(NAME, OP, ARGT)                                        \
  template <class T> PKEMU_HD T NAME(T var, ARGT a, PKEMU_LOC_PARAMS) const {  \
    return ::pkemu::detail::shfl(                                              \
        ::pkemu::detail::OP, ::pkemu::detail::kSyncForm, tile_mask(PKEMU_LOC), \
        var, (std::int64_t)a, (int)N, "thread_block_tile::" #NAME, PKEMU_LOC); \
  }
  PKEMU_TILE_SHFL(shfl, kShflIdx, int)
  PKEMU_TILE_SHFL(shfl_up, kShflUp, unsigned)
  PKEMU_TILE_SHFL(shfl_down, kShflDown, unsigned)
  PKEMU_TILE_SHFL(shfl_xor, kShflXor, unsigned)
#undef PKEMU_TILE_SHFL
#if defined(PKEMU_LANG_HIP)
  using ballot_t = unsigned long long;
#else
  using ballot_t = unsigned;
#endif
  PKEMU_HD ballot_t ballot(int pred, PKEMU_LOC_PARAMS) const {
    unsigned long long b = ::pkemu::detail::vote(
        ::pkemu::detail::kBallot, ::pkemu::detail::kSyncForm,
        tile_mask(PKEMU_LOC), pred, "thread_block_tile::ballot", PKEMU_LOC);
    return (ballot_t)(b >> (__lane_id() & ~(N - 1)));
  }
  PKEMU_HD bool any(int pred, PKEMU_LOC_PARAMS) const {
    return ::pkemu::detail::vote(::pkemu::detail::kAny,
                                 ::pkemu::detail::kSyncForm,
                                 tile_mask(PKEMU_LOC), pred,
                                 "thread_block_tile::any", PKEMU_LOC) != 0;
  }
  PKEMU_HD bool all(int pred, PKEMU_LOC_PARAMS) const {
    return ::pkemu::detail::vote(::pkemu::detail::kAll,
                                 ::pkemu::detail::kSyncForm,
                                 tile_mask(PKEMU_LOC), pred,
                                 "thread_block_tile::all", PKEMU_LOC) != 0;
  }
};

// The lanes of the caller's warp that are active where it was created:
// coalesced_threads() is a non-_sync ballot of its own per call site, which
// completes for the lanes that reach it together (lanes that exited, wait at a
// barrier or at another non-_sync collective are inactive). Ranks are
// positions among those lanes.
class coalesced_group : public thread_group {
public:
  PKEMU_HD explicit coalesced_group(unsigned long long m)
      : thread_group((unsigned)__builtin_popcountll(m), kind::coalesced, m),
        mask_(m) {}
  PKEMU_HD unsigned long long size() const { return n_; }
  PKEMU_HD unsigned long long num_threads() const { return n_; }
  PKEMU_HD unsigned thread_rank() const {
    return (unsigned)__builtin_popcountll(mask_ & ((1ull << __lane_id()) - 1));
  }
  PKEMU_HD unsigned long long meta_group_rank() const { return 0; }
  PKEMU_HD unsigned long long meta_group_size() const { return 1; }
  // The lanes of the caller's warp in the group.
  PKEMU_HD unsigned long long lane_mask() const { return mask_; }
  PKEMU_HD void sync(PKEMU_LOC_PARAMS) const {
    ::pkemu::detail::coll(
        ::pkemu::detail::coll_kind(::pkemu::detail::kSyncWarp, 0,
                                   ::pkemu::detail::kSyncForm),
        mask_, 0, 0, warpSize, nullptr, nullptr, "coalesced_group::sync",
        PKEMU_LOC);
  }
  template <class T>
  PKEMU_HD T shfl(T var, unsigned src_rank, PKEMU_LOC_PARAMS) const {
    return lane_shfl(var, lane_of(src_rank % n_), "coalesced_group::shfl",
                     PKEMU_LOC);
  }
  template <class T>
  PKEMU_HD T shfl_up(T var, unsigned delta, PKEMU_LOC_PARAMS) const {
    unsigned r = thread_rank();
    return lane_shfl(var, lane_of(r >= delta ? r - delta : r),
                     "coalesced_group::shfl_up", PKEMU_LOC);
  }
  template <class T>
  PKEMU_HD T shfl_down(T var, unsigned delta, PKEMU_LOC_PARAMS) const {
    unsigned r = thread_rank();
    return lane_shfl(var, lane_of(r + delta < n_ ? r + delta : r),
                     "coalesced_group::shfl_down", PKEMU_LOC);
  }
#if defined(PKEMU_LANG_HIP)
  using ballot_t = unsigned long long;
#else
  using ballot_t = unsigned;
#endif
  // Bit i is the predicate of the thread of rank i.
  PKEMU_HD ballot_t ballot(int pred, PKEMU_LOC_PARAMS) const {
    unsigned long long b = ::pkemu::detail::vote(
        ::pkemu::detail::kBallot, ::pkemu::detail::kSyncForm, mask_, pred,
        "coalesced_group::ballot", PKEMU_LOC);
    unsigned long long r = 0;
    unsigned k = 0;
    for (unsigned long long m = mask_; m; m &= m - 1, ++k)
      if (b & (1ull << __builtin_ctzll(m)))
        r |= 1ull << k;
    return (ballot_t)r;
  }
  PKEMU_HD bool any(int pred, PKEMU_LOC_PARAMS) const {
    return ::pkemu::detail::vote(::pkemu::detail::kAny,
                                 ::pkemu::detail::kSyncForm, mask_, pred,
                                 "coalesced_group::any", PKEMU_LOC) != 0;
  }
  PKEMU_HD bool all(int pred, PKEMU_LOC_PARAMS) const {
    return ::pkemu::detail::vote(::pkemu::detail::kAll,
                                 ::pkemu::detail::kSyncForm, mask_, pred,
                                 "coalesced_group::all", PKEMU_LOC) != 0;
  }

private:
  // The lane of the thread of rank r.
  PKEMU_HD unsigned lane_of(unsigned r) const {
    unsigned long long m = mask_;
    for (unsigned i = 0; i < r && m; ++i)
      m &= m - 1;
    return m ? (unsigned)__builtin_ctzll(m) : __lane_id();
  }
  template <class T>
  PKEMU_HD T lane_shfl(T var, unsigned lane, const char *name, const char *file,
                       int line) const {
    return ::pkemu::detail::shfl(
        ::pkemu::detail::kShflIdx, ::pkemu::detail::kSyncForm, mask_, var,
        (std::int64_t)lane, warpSize, name, file, line);
  }
  unsigned long long mask_;
};
PKEMU_HD inline coalesced_group coalesced_threads(PKEMU_LOC_PARAMS) {
  return coalesced_group(::pkemu::detail::coll(
      ::pkemu::detail::coll_kind(::pkemu::detail::kBallot, 4,
                                 ::pkemu::detail::kSiteForm),
      0, 1, 0, warpSize, nullptr, nullptr, "coalesced_threads", PKEMU_LOC));
}

// binary_partition(g, pred) and labeled_partition(g, label) (CUDA 11+):
// the threads of g, a tile of up to a warp or a coalesced group, whose
// predicate (label) is the caller's, as a coalesced group: a ballot (a
// match) over g's lanes, which every thread of g must reach. HIP declares
// binary_partition only from ROCm 6 with HIP_ENABLE_WARP_SYNC_BUILTINS and
// labeled_partition not at all (PK1013 flags both in ports).
#if !defined(PKEMU_LANG_HIP) || defined(HIP_ENABLE_WARP_SYNC_BUILTINS)
namespace details {
PKEMU_HD inline unsigned long long lanes_of(const coalesced_group &g,
                                            const char *, int) {
  return g.lane_mask();
}
template <unsigned N>
PKEMU_HD inline unsigned long long lanes_of(const thread_block_tile<N> &g,
                                            const char *file, int line) {
  return g.tile_mask(file, line);
}
} // namespace details
template <class Parent>
PKEMU_HD inline coalesced_group binary_partition(const Parent &g, bool pred,
                                                 PKEMU_LOC_PARAMS) {
  const unsigned long long m = details::lanes_of(g, PKEMU_LOC);
  const unsigned long long b = ::pkemu::detail::vote(
      ::pkemu::detail::kBallot, ::pkemu::detail::kSyncForm, m, pred,
      "binary_partition", PKEMU_LOC);
  return coalesced_group(pred ? (m & b) : (m & ~b));
}
template <class Parent, class Label>
PKEMU_HD inline coalesced_group labeled_partition(const Parent &g, Label label,
                                                  PKEMU_LOC_PARAMS) {
  static_assert(sizeof(Label) <= 8, "labeled_partition: a label of at most "
                                    "8 bytes (CUDA takes an integer)");
  const unsigned long long m = details::lanes_of(g, PKEMU_LOC);
  return coalesced_group(
      m &
      ::pkemu::detail::coll(
          ::pkemu::detail::coll_kind(::pkemu::detail::kMatchAny, sizeof(Label),
                                     ::pkemu::detail::kSyncForm),
          m, ::pkemu::detail::to_bits(label), 0, warpSize, nullptr, nullptr,
          "labeled_partition", PKEMU_LOC));
}
#endif

template <unsigned N, class Parent>
PKEMU_HD inline thread_block_tile<N> tiled_partition(const Parent &) {
  return thread_block_tile<N>();
}
// tiled_partition(parent, n): tiles whose size is a run-time value, as a
// thread_group; n a power of two no larger than the warp.
PKEMU_HD inline thread_group
tiled_partition(const thread_group &, unsigned tilesz, PKEMU_LOC_PARAMS) {
  if (tilesz == 0 || (tilesz & (tilesz - 1)) != 0 ||
      tilesz > (unsigned)warpSize)
    ::pkemu::detail::fatal("invalid tile",
                           "tiled_partition(group, n) with n not a power of "
                           "two no larger than the warp width",
                           PKEMU_LOC);
  return details::group_maker::tile(tilesz);
}

PKEMU_HD inline unsigned long long thread_group::thread_rank() const {
  switch (pk_kind_) {
  case kind::tile:
    return n_ <= (unsigned)warpSize ? __lane_id() & (n_ - 1)
                                    : details::block_rank() % n_;
  case kind::coalesced:
    return (unsigned)__builtin_popcountll(pk_lanes_ &
                                          ((1ull << __lane_id()) - 1));
  case kind::grid:
    return grid_group().thread_rank();
  case kind::block:
    break;
  }
  return details::block_rank();
}

PKEMU_HD inline void thread_group::sync(const char *file, int line) const {
  unsigned long long lanes = pk_lanes_;
  switch (pk_kind_) {
  case kind::block:
    __syncthreads(file, line);
    return;
  case kind::grid:
    ::pkemu::detail::grid_sync(file, line);
    return;
  case kind::tile: {
    if (n_ > (unsigned)warpSize) {
      __syncthreads(file, line); // several warps: see thread_block_tile
      return;
    }
    unsigned long long m = n_ == 64 ? ~0ull : ((1ull << n_) - 1);
    lanes = m << (__lane_id() & ~(n_ - 1));
    break;
  }
  case kind::coalesced:
    break;
  }
  ::pkemu::detail::coll(::pkemu::detail::coll_kind(::pkemu::detail::kSyncWarp,
                                                   0,
                                                   ::pkemu::detail::kSyncForm),
                        lanes, 0, 0, warpSize, nullptr, nullptr,
                        "thread_group::sync", file, line);
}
namespace experimental {
template <unsigned N, class Parent>
PKEMU_HD inline thread_block_tile<N> tiled_partition(const Parent &p) {
  return ::cooperative_groups::tiled_partition<N>(p);
}
} // namespace experimental
namespace details {
// A group of this header reports where it syncs; any other group type with
// a sync() (the HIP port's tile helper __pk_tile<N>) is synced as HIP's
// cooperative_groups::sync does.
template <class G>
PKEMU_HD inline auto group_sync(const G &g, const char *file, int line, int)
    -> decltype(g.sync(file, line)) {
  return g.sync(file, line);
}
template <class G>
PKEMU_HD inline void group_sync(const G &g, const char *, int, long) {
  g.sync();
}
} // namespace details
template <class G> PKEMU_HD inline void sync(const G &g, PKEMU_LOC_PARAMS) {
  details::group_sync(g, PKEMU_LOC, 0);
}

template <class T> struct plus {
  PKEMU_HD T operator()(const T &a, const T &b) const { return a + b; }
};
template <class T> struct less {
  PKEMU_HD T operator()(const T &a, const T &b) const { return b < a ? b : a; }
};
template <class T> struct greater {
  PKEMU_HD T operator()(const T &a, const T &b) const { return a < b ? b : a; }
};
template <class T> struct bit_and {
  PKEMU_HD T operator()(const T &a, const T &b) const { return a & b; }
};
template <class T> struct bit_or {
  PKEMU_HD T operator()(const T &a, const T &b) const { return a | b; }
};
template <class T> struct bit_xor {
  PKEMU_HD T operator()(const T &a, const T &b) const { return a ^ b; }
};

} // namespace cooperative_groups
