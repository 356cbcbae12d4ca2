//===- scan.h - cooperative_groups scans ------------------------*- C++ -*-===//
// Rules: none (emulator runtime)
//
// pkemu: cooperative_groups scans.
//
//===----------------------------------------------------------------------===//
#pragma once
#include "../cooperative_groups.h"

namespace cooperative_groups {
template <unsigned N, class T, class Op>
PKEMU_HD inline T inclusive_scan(const thread_block_tile<N> &g, T v, Op op,
                                 PKEMU_LOC_PARAMS) {
  for (unsigned o = 1; o < N; o <<= 1) {
    T u = g.shfl_up(v, o, PKEMU_LOC);
    if (g.thread_rank() >= o)
      v = op(v, u);
  }
  return v;
}
template <unsigned N, class T>
PKEMU_HD inline T inclusive_scan(const thread_block_tile<N> &g, T v,
                                 PKEMU_LOC_PARAMS) {
  return inclusive_scan(g, v, plus<T>(), PKEMU_LOC);
}
template <unsigned N, class T, class Op>
PKEMU_HD inline T exclusive_scan(const thread_block_tile<N> &g, T v, Op op,
                                 PKEMU_LOC_PARAMS) {
  T inc = inclusive_scan(g, v, op, PKEMU_LOC);
  T r = g.shfl_up(inc, 1, PKEMU_LOC);
  return g.thread_rank() == 0 ? T() : r;
}
template <unsigned N, class T>
PKEMU_HD inline T exclusive_scan(const thread_block_tile<N> &g, T v,
                                 PKEMU_LOC_PARAMS) {
  return exclusive_scan(g, v, plus<T>(), PKEMU_LOC);
}
} // namespace cooperative_groups
