//===- reduce.h - cooperative_groups::reduce --------------------*- C++ -*-===//
// Rules: none (emulator runtime)
//
// pkemu: cooperative_groups::reduce.
//
//===----------------------------------------------------------------------===//
#pragma once
#include "../cooperative_groups.h"

namespace cooperative_groups {
// Butterfly reduction over the tile: every thread receives the result.
template <unsigned N, class T, class Op>
PKEMU_HD inline T reduce(const thread_block_tile<N> &g, T v, Op op,
                         PKEMU_LOC_PARAMS) {
  if (N <= (unsigned)warpSize) {
    for (unsigned o = 1; o < N; o <<= 1)
      v = op(v, g.shfl_xor(v, o, PKEMU_LOC));
    return v;
  }
  // A tile of several warps: each warp's butterfly, its lane 0 writes the
  // warp's value to a slot per warp of the block, and after the block's
  // barrier every thread combines its tile's slots in warp order.
  const unsigned W = (unsigned)warpSize;
  const unsigned long long full = W == 64 ? ~0ull : ((1ull << W) - 1);
  for (unsigned o = 1; o < W; o <<= 1)
    v = op(v, ::pkemu::detail::shfl(::pkemu::detail::kShflXor,
                                    ::pkemu::detail::kSyncForm, full, v,
                                    (std::int64_t)o, (int)W,
                                    "cg::reduce", PKEMU_LOC));
#ifdef PKEMU_PARSE
  __shared__ T pkemu_cg_slots[1024 / 32];
#else
  PKEMU_SHARED(pkemu_cg_slots, T[1024 / 32]);
#endif
  const unsigned rank = details::block_rank();
  if (__lane_id() == 0)
    pkemu_cg_slots[rank / W] = v;
  __syncthreads(PKEMU_LOC);
  const unsigned first = rank / N * (N / W);
  T r = pkemu_cg_slots[first];
  for (unsigned w = 1; w < N / W; ++w)
    r = op(r, pkemu_cg_slots[first + w]);
  __syncthreads(PKEMU_LOC);
  return r;
}
// Over a coalesced group (binary_partition, labeled_partition,
// coalesced_threads): every member combines the members' values in rank
// order, read through the group's shuffles.
template <class T, class Op>
PKEMU_HD inline T reduce(const coalesced_group &g, T v, Op op,
                         PKEMU_LOC_PARAMS) {
  T r = g.shfl(v, 0, PKEMU_LOC);
  for (unsigned k = 1; k < (unsigned)g.size(); ++k)
    r = op(r, g.shfl(v, k, PKEMU_LOC));
  return r;
}
} // namespace cooperative_groups
