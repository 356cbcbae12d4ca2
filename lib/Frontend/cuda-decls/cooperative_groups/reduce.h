/*===- cooperative_groups/reduce.h - group-wide reduce and functors --------===*
 *
 * Declarations for parsing CUDA sources without a toolkit (see
 * __pk_cuda_prelude.h), following the cooperative groups collectives section
 * of the CUDA programming guide.
 *===-----------------------------------------------------------------------===*/
#ifndef __PK_COOPERATIVE_GROUPS_REDUCE_H
#define __PK_COOPERATIVE_GROUPS_REDUCE_H

#include "../cooperative_groups.h"
#include <type_traits>

#ifdef __cplusplus
namespace cooperative_groups {

template <typename T> struct plus {
  __device__ T operator()(const T &a, const T &b) const { return a + b; }
};
template <typename T> struct less {
  __device__ T operator()(const T &a, const T &b) const { return b < a ? b : a; }
};
template <typename T> struct greater {
  __device__ T operator()(const T &a, const T &b) const { return a < b ? b : a; }
};
template <typename T> struct bit_and {
  __device__ T operator()(const T &a, const T &b) const { return a & b; }
};
template <typename T> struct bit_or {
  __device__ T operator()(const T &a, const T &b) const { return a | b; }
};
template <typename T> struct bit_xor {
  __device__ T operator()(const T &a, const T &b) const { return a ^ b; }
};

/* The result type is the value's type after decay. */
template <typename TyGroup, typename TyVal, typename TyFn>
__device__ auto reduce(const TyGroup &group, TyVal &&val, TyFn &&op)
    -> typename std::decay<TyVal>::type;

} // namespace cooperative_groups
#endif /* __cplusplus */

#endif /* __PK_COOPERATIVE_GROUPS_REDUCE_H */
