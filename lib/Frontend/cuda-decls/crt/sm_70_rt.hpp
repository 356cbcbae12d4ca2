/*===- crt/sm_70_rt.hpp - warp match functions (sm_70+) --------------------===*
 *
 * clang's __clang_cuda_intrinsics.h includes this file after defining the
 * typed __match32/__match64 helpers; the overloaded __match_any_sync and
 * __match_all_sync of the CUDA programming guide are built on them here.
 *===-----------------------------------------------------------------------===*/
#ifndef __PK_SM_70_RT_HPP
#define __PK_SM_70_RT_HPP

__device__ inline unsigned int __match_any_sync(unsigned mask, unsigned int value) {
  return __match32_any_sync(mask, value);
}
__device__ inline unsigned int __match_any_sync(unsigned mask, int value) {
  return __match32_any_sync(mask, (unsigned int)value);
}
__device__ inline unsigned int __match_any_sync(unsigned mask, unsigned long value) {
  return __match64_any_sync(mask, (unsigned long long)value);
}
__device__ inline unsigned int __match_any_sync(unsigned mask, long value) {
  return __match64_any_sync(mask, (unsigned long long)value);
}
__device__ inline unsigned int __match_any_sync(unsigned mask, unsigned long long value) {
  return __match64_any_sync(mask, value);
}
__device__ inline unsigned int __match_any_sync(unsigned mask, long long value) {
  return __match64_any_sync(mask, (unsigned long long)value);
}
__device__ inline unsigned int __match_any_sync(unsigned mask, float value) {
  return __match32_any_sync(mask, __float_as_uint(value));
}
__device__ inline unsigned int __match_any_sync(unsigned mask, double value) {
  return __match64_any_sync(mask, (unsigned long long)__double_as_longlong(value));
}
__device__ inline unsigned int __match_all_sync(unsigned mask, unsigned int value, int *pred) {
  return __match32_all_sync(mask, value, pred);
}
__device__ inline unsigned int __match_all_sync(unsigned mask, int value, int *pred) {
  return __match32_all_sync(mask, (unsigned int)value, pred);
}
__device__ inline unsigned int __match_all_sync(unsigned mask, unsigned long long value,
                                                int *pred) {
  return __match64_all_sync(mask, value, pred);
}
__device__ inline unsigned int __match_all_sync(unsigned mask, long long value, int *pred) {
  return __match64_all_sync(mask, (unsigned long long)value, pred);
}
__device__ inline unsigned int __match_all_sync(unsigned mask, float value, int *pred) {
  return __match32_all_sync(mask, __float_as_uint(value), pred);
}
__device__ inline unsigned int __match_all_sync(unsigned mask, double value, int *pred) {
  return __match64_all_sync(mask, (unsigned long long)__double_as_longlong(value), pred);
}

/* Warp-wide reductions (sm_80+), declared here with the other sync helpers. */
__device__ unsigned int __reduce_add_sync(unsigned int mask, unsigned int value);
__device__ int __reduce_add_sync(unsigned int mask, int value);
__device__ unsigned int __reduce_min_sync(unsigned int mask, unsigned int value);
__device__ int __reduce_min_sync(unsigned int mask, int value);
__device__ unsigned int __reduce_max_sync(unsigned int mask, unsigned int value);
__device__ int __reduce_max_sync(unsigned int mask, int value);
__device__ unsigned int __reduce_and_sync(unsigned int mask, unsigned int value);
__device__ unsigned int __reduce_or_sync(unsigned int mask, unsigned int value);
__device__ unsigned int __reduce_xor_sync(unsigned int mask, unsigned int value);

#endif /* __PK_SM_70_RT_HPP */
