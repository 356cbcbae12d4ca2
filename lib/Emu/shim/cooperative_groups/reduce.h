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
  for (unsigned o = 1; o < N; o <<= 1)
    v = op(v, g.shfl_xor(v, o, PKEMU_LOC));
  return v;
}
} // namespace cooperative_groups
