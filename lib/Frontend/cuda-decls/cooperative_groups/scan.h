/*===- cooperative_groups/scan.h - group-wide prefix scans -----------------===*
 *
 * Declarations for parsing CUDA sources without a toolkit (see
 * __pk_cuda_prelude.h).
 *===-----------------------------------------------------------------------===*/
#ifndef __PK_COOPERATIVE_GROUPS_SCAN_H
#define __PK_COOPERATIVE_GROUPS_SCAN_H

#include "reduce.h"

#ifdef __cplusplus
namespace cooperative_groups {
template <typename TyGroup, typename TyVal, typename TyFn>
__device__ auto inclusive_scan(const TyGroup &group, TyVal &&val, TyFn &&op)
    -> typename std::decay<TyVal>::type;
template <typename TyGroup, typename TyVal>
__device__ auto inclusive_scan(const TyGroup &group, TyVal &&val)
    -> typename std::decay<TyVal>::type;
template <typename TyGroup, typename TyVal, typename TyFn>
__device__ auto exclusive_scan(const TyGroup &group, TyVal &&val, TyFn &&op)
    -> typename std::decay<TyVal>::type;
template <typename TyGroup, typename TyVal>
__device__ auto exclusive_scan(const TyGroup &group, TyVal &&val)
    -> typename std::decay<TyVal>::type;
} // namespace cooperative_groups
#endif /* __cplusplus */

#endif /* __PK_COOPERATIVE_GROUPS_SCAN_H */
