/*===- cooperative_groups.h - cooperative groups ---------------------------===*
 *
 * Declarations for parsing CUDA sources without a toolkit (see
 * __pk_cuda_prelude.h), following the cooperative groups section of the
 * CUDA programming guide: group handles, their member functions, the
 * partitioning functions and grid/cluster synchronization.
 *===-----------------------------------------------------------------------===*/
#ifndef __PK_COOPERATIVE_GROUPS_H
#define __PK_COOPERATIVE_GROUPS_H

#include "vector_types.h"

#ifdef __cplusplus
namespace cooperative_groups {

class thread_group {
public:
  __device__ void sync() const;
  __device__ unsigned long long size() const;
  __device__ unsigned long long num_threads() const;
  __device__ unsigned long long thread_rank() const;
  __device__ bool is_valid() const;
  __device__ unsigned int get_type() const;
};

class thread_block : public thread_group {
public:
  __device__ void sync() const;
  __device__ unsigned int size() const;
  __device__ unsigned int num_threads() const;
  __device__ unsigned int thread_rank() const;
  __device__ dim3 group_index() const;
  __device__ dim3 thread_index() const;
  __device__ dim3 group_dim() const;
  __device__ dim3 dim_threads() const;
};

class grid_group : public thread_group {
public:
  __device__ void sync() const;
  __device__ bool is_valid() const;
  __device__ unsigned long long size() const;
  __device__ unsigned long long num_threads() const;
  __device__ unsigned long long thread_rank() const;
  __device__ unsigned long long block_rank() const;
  __device__ unsigned long long num_blocks() const;
  __device__ dim3 group_dim() const;
  __device__ dim3 dim_blocks() const;
  __device__ dim3 block_index() const;
};

class cluster_group : public thread_group {
public:
  __device__ void sync() const;
  __device__ unsigned int block_rank() const;
  __device__ unsigned int num_blocks() const;
  __device__ dim3 block_index() const;
  __device__ void *map_shared_rank(void *addr, int rank) const;
  template <typename T> __device__ T *map_shared_rank(T *addr, int rank) const;
};

/* Warp-level groups: the coalesced set of active threads and fixed tiles. */
class coalesced_group : public thread_group {
public:
  __device__ void sync() const;
  __device__ unsigned int size() const;
  __device__ unsigned int num_threads() const;
  __device__ unsigned int thread_rank() const;
  __device__ unsigned int meta_group_rank() const;
  __device__ unsigned int meta_group_size() const;
  template <typename T> __device__ T shfl(T var, int srcRank) const;
  template <typename T> __device__ T shfl_up(T var, unsigned int delta) const;
  template <typename T> __device__ T shfl_down(T var, unsigned int delta) const;
  __device__ int any(int predicate) const;
  __device__ int all(int predicate) const;
  __device__ unsigned int ballot(int predicate) const;
  template <typename T> __device__ unsigned int match_any(T value) const;
  template <typename T> __device__ unsigned int match_all(T value, int &pred) const;
};

template <unsigned int Size, typename ParentT = void>
class thread_block_tile : public thread_group {
public:
  static constexpr unsigned int num_threads() { return Size; }
  static constexpr unsigned int size() { return Size; }
  __device__ void sync() const;
  __device__ unsigned int thread_rank() const;
  __device__ unsigned int meta_group_rank() const;
  __device__ unsigned int meta_group_size() const;
  template <typename T> __device__ T shfl(T var, int srcRank) const;
  template <typename T> __device__ T shfl_up(T var, unsigned int delta) const;
  template <typename T> __device__ T shfl_down(T var, unsigned int delta) const;
  template <typename T> __device__ T shfl_xor(T var, unsigned int laneMask) const;
  __device__ int any(int predicate) const;
  __device__ int all(int predicate) const;
  __device__ unsigned int ballot(int predicate) const;
  template <typename T> __device__ unsigned int match_any(T value) const;
  template <typename T> __device__ unsigned int match_all(T value, int &pred) const;
  /* A tile of a typed parent converts to the parent-erased tile. */
  template <typename P>
  __device__ thread_block_tile(const thread_block_tile<Size, P> &) {}
  thread_block_tile() = default;
};

__device__ thread_block this_thread_block();
__device__ grid_group this_grid();
__device__ cluster_group this_cluster();
__device__ coalesced_group coalesced_threads();

__device__ thread_group tiled_partition(const thread_group &parent, unsigned int tilesz);
__device__ thread_group tiled_partition(const thread_block &parent, unsigned int tilesz);
__device__ coalesced_group tiled_partition(const coalesced_group &parent, unsigned int tilesz);
template <unsigned int Size, typename ParentT>
__device__ thread_block_tile<Size, ParentT> tiled_partition(const ParentT &parent);
__device__ coalesced_group binary_partition(const coalesced_group &g, bool pred);
template <unsigned int Size, typename ParentT>
__device__ thread_block_tile<Size> binary_partition(const thread_block_tile<Size, ParentT> &g,
                                                    bool pred);
template <typename TyGroup> __device__ coalesced_group labeled_partition(const TyGroup &g,
                                                                         int label);

template <typename TyGroup> __device__ void sync(const TyGroup &g) { g.sync(); }
template <typename TyGroup> __device__ unsigned long long thread_rank(const TyGroup &g) {
  return g.thread_rank();
}
template <typename TyGroup> __device__ unsigned long long group_size(const TyGroup &g) {
  return g.num_threads();
}

} // namespace cooperative_groups
#endif /* __cplusplus */

#endif /* __PK_COOPERATIVE_GROUPS_H */
