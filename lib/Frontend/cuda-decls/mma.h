/*===- mma.h - warp matrix multiply-accumulate (nvcuda::wmma) --------------===*
 *
 * Declarations for parsing CUDA sources without a toolkit (see
 * __pk_cuda_prelude.h), following the warp matrix functions section of the
 * CUDA programming guide.  A fragment holds num_elements values of its
 * storage type per thread; the per-thread count is not needed for parsing,
 * so one generic upper bound is used for every shape.
 *===-----------------------------------------------------------------------===*/
#ifndef __PK_MMA_H
#define __PK_MMA_H

#include "cuda_fp16.h"
#include "cuda_bf16.h"

#ifdef __cplusplus
namespace nvcuda {
namespace wmma {

/* Matrix roles and layouts. */
struct matrix_a {};
struct matrix_b {};
struct accumulator {};
struct row_major {};
struct col_major {};
enum layout_t { mem_row_major, mem_col_major };

namespace experimental {
namespace precision {
struct u4 {};
struct s4 {};
struct b1 {};
} // namespace precision
enum bmmaBitOp { bmmaBitOpXOR = 1, bmmaBitOpAND = 2 };
enum bmmaAccumulateOp { bmmaAccumulateOpPOPC = 1 };
} // namespace experimental

namespace precision {
struct tf32 {};
} // namespace precision

/* Element type seen by the program for each fragment type argument. */
template <typename T> struct __pk_storage { typedef T type; };
template <> struct __pk_storage<precision::tf32> { typedef float type; };
template <> struct __pk_storage<experimental::precision::u4> { typedef int type; };
template <> struct __pk_storage<experimental::precision::s4> { typedef int type; };
template <> struct __pk_storage<experimental::precision::b1> { typedef int type; };

template <typename Use, int m, int n, int k, typename T, typename Layout = void>
class fragment {
public:
  typedef typename __pk_storage<T>::type element_type;
  typedef element_type storage_element_type;
  enum { num_elements = 8 };
  element_type x[num_elements];
};

template <typename Use, int m, int n, int k, typename T, typename Layout>
__device__ void fill_fragment(fragment<Use, m, n, k, T, Layout> &a,
                              const typename fragment<Use, m, n, k, T, Layout>::element_type &v);

/* Operand fragments: the layout is part of the fragment type. */
template <typename Use, int m, int n, int k, typename T, typename Layout>
__device__ void load_matrix_sync(fragment<Use, m, n, k, T, Layout> &a,
                                 const typename fragment<Use, m, n, k, T, Layout>::element_type *p,
                                 unsigned ldm);
/* Accumulator fragments: the layout is given at run time. */
template <int m, int n, int k, typename T>
__device__ void load_matrix_sync(fragment<accumulator, m, n, k, T, void> &a, const T *p,
                                 unsigned ldm, layout_t layout);
template <int m, int n, int k, typename T>
__device__ void store_matrix_sync(T *p, const fragment<accumulator, m, n, k, T, void> &a,
                                  unsigned ldm, layout_t layout);

template <int m, int n, int k, typename TA, typename LA, typename TB, typename LB,
          typename TC, typename TD>
__device__ void mma_sync(fragment<accumulator, m, n, k, TD, void> &d,
                         const fragment<matrix_a, m, n, k, TA, LA> &a,
                         const fragment<matrix_b, m, n, k, TB, LB> &b,
                         const fragment<accumulator, m, n, k, TC, void> &c,
                         bool satf = false);

__device__ float __float_to_tf32(float in);

} // namespace wmma
} // namespace nvcuda
#endif /* __cplusplus */

#endif /* __PK_MMA_H */
