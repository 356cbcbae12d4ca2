/*===- cub/cub.cuh - CUB block, warp and device primitives -----------------===*
 *
 * Declarations for parsing CUDA sources without a toolkit (see
 * __pk_cuda_prelude.h), following the CUB API reference: the collective
 * classes with their template parameters (and CUB's defaults), temporary
 * storage and member functions, the device-wide algorithms, the functors and
 * the algorithm enumerators.  Nothing here is compiled to code.
 *===-----------------------------------------------------------------------===*/
#ifndef __PK_CUB_CUH
#define __PK_CUB_CUH

#include <cuda_runtime.h>

namespace cub {

enum BlockReduceAlgorithm {
  BLOCK_REDUCE_RAKING_COMMUTATIVE_ONLY,
  BLOCK_REDUCE_RAKING,
  BLOCK_REDUCE_WARP_REDUCTIONS
};
enum BlockScanAlgorithm { BLOCK_SCAN_RAKING, BLOCK_SCAN_RAKING_MEMOIZE, BLOCK_SCAN_WARP_SCANS };
enum BlockLoadAlgorithm {
  BLOCK_LOAD_DIRECT, BLOCK_LOAD_STRIPED, BLOCK_LOAD_VECTORIZE, BLOCK_LOAD_TRANSPOSE,
  BLOCK_LOAD_WARP_TRANSPOSE, BLOCK_LOAD_WARP_TRANSPOSE_TIMESLICED
};
enum BlockStoreAlgorithm {
  BLOCK_STORE_DIRECT, BLOCK_STORE_STRIPED, BLOCK_STORE_VECTORIZE, BLOCK_STORE_TRANSPOSE,
  BLOCK_STORE_WARP_TRANSPOSE, BLOCK_STORE_WARP_TRANSPOSE_TIMESLICED
};

struct Sum { template <typename T> __host__ __device__ T operator()(const T &a, const T &b) const; };
struct Max { template <typename T> __host__ __device__ T operator()(const T &a, const T &b) const; };
struct Min { template <typename T> __host__ __device__ T operator()(const T &a, const T &b) const; };

template <typename T, int BLOCK_DIM_X, BlockReduceAlgorithm ALGORITHM = BLOCK_REDUCE_WARP_REDUCTIONS,
          int BLOCK_DIM_Y = 1, int BLOCK_DIM_Z = 1, int LEGACY_PTX_ARCH = 0>
class BlockReduce {
public:
  struct TempStorage { T items[BLOCK_DIM_X * BLOCK_DIM_Y * BLOCK_DIM_Z]; };
  __device__ BlockReduce();
  __device__ BlockReduce(TempStorage &temp_storage);
  __device__ T Sum(T input);
  __device__ T Sum(T input, int num_valid);
  template <int ITEMS_PER_THREAD> __device__ T Sum(T (&inputs)[ITEMS_PER_THREAD]);
  template <typename ReductionOp> __device__ T Reduce(T input, ReductionOp reduction_op);
  template <typename ReductionOp> __device__ T Reduce(T input, ReductionOp reduction_op, int num_valid);
  template <int ITEMS_PER_THREAD, typename ReductionOp>
  __device__ T Reduce(T (&inputs)[ITEMS_PER_THREAD], ReductionOp reduction_op);
};

template <typename T, int BLOCK_DIM_X, BlockScanAlgorithm ALGORITHM = BLOCK_SCAN_RAKING,
          int BLOCK_DIM_Y = 1, int BLOCK_DIM_Z = 1, int LEGACY_PTX_ARCH = 0>
class BlockScan {
public:
  struct TempStorage { T items[BLOCK_DIM_X * BLOCK_DIM_Y * BLOCK_DIM_Z]; };
  __device__ BlockScan();
  __device__ BlockScan(TempStorage &temp_storage);
  __device__ void InclusiveSum(T input, T &output);
  __device__ void InclusiveSum(T input, T &output, T &block_aggregate);
  __device__ void ExclusiveSum(T input, T &output);
  __device__ void ExclusiveSum(T input, T &output, T &block_aggregate);
  template <typename ScanOp> __device__ void InclusiveScan(T input, T &output, ScanOp scan_op);
  template <typename ScanOp>
  __device__ void InclusiveScan(T input, T &output, ScanOp scan_op, T &block_aggregate);
  template <typename ScanOp>
  __device__ void ExclusiveScan(T input, T &output, T initial_value, ScanOp scan_op);
  template <typename ScanOp>
  __device__ void ExclusiveScan(T input, T &output, T initial_value, ScanOp scan_op,
                                T &block_aggregate);
};

template <typename T, int LOGICAL_WARP_THREADS = 32, int LEGACY_PTX_ARCH = 0>
class WarpReduce {
public:
  struct TempStorage { T items[LOGICAL_WARP_THREADS]; };
  __device__ WarpReduce(TempStorage &temp_storage);
  __device__ T Sum(T input);
  __device__ T Sum(T input, int valid_items);
  template <typename ReductionOp> __device__ T Reduce(T input, ReductionOp reduction_op);
  template <typename ReductionOp>
  __device__ T Reduce(T input, ReductionOp reduction_op, int valid_items);
};

template <typename T, int LOGICAL_WARP_THREADS = 32, int LEGACY_PTX_ARCH = 0>
class WarpScan {
public:
  struct TempStorage { T items[LOGICAL_WARP_THREADS]; };
  __device__ WarpScan(TempStorage &temp_storage);
  __device__ void InclusiveSum(T input, T &inclusive_output);
  __device__ void ExclusiveSum(T input, T &exclusive_output);
  template <typename ScanOp> __device__ void InclusiveScan(T input, T &inclusive_output, ScanOp scan_op);
  template <typename ScanOp>
  __device__ void ExclusiveScan(T input, T &exclusive_output, T initial_value, ScanOp scan_op);
};

template <typename T, int BLOCK_DIM_X, int ITEMS_PER_THREAD,
          BlockLoadAlgorithm ALGORITHM = BLOCK_LOAD_DIRECT, int BLOCK_DIM_Y = 1, int BLOCK_DIM_Z = 1>
class BlockLoad {
public:
  struct TempStorage { T items[BLOCK_DIM_X * BLOCK_DIM_Y * BLOCK_DIM_Z * ITEMS_PER_THREAD]; };
  __device__ BlockLoad();
  __device__ BlockLoad(TempStorage &temp_storage);
  template <typename InputIteratorT> __device__ void Load(InputIteratorT block_itr, T (&items)[ITEMS_PER_THREAD]);
  template <typename InputIteratorT>
  __device__ void Load(InputIteratorT block_itr, T (&items)[ITEMS_PER_THREAD], int valid_items);
};

template <typename T, int BLOCK_DIM_X, int ITEMS_PER_THREAD,
          BlockStoreAlgorithm ALGORITHM = BLOCK_STORE_DIRECT, int BLOCK_DIM_Y = 1, int BLOCK_DIM_Z = 1>
class BlockStore {
public:
  struct TempStorage { T items[BLOCK_DIM_X * BLOCK_DIM_Y * BLOCK_DIM_Z * ITEMS_PER_THREAD]; };
  __device__ BlockStore();
  __device__ BlockStore(TempStorage &temp_storage);
  template <typename OutputIteratorT> __device__ void Store(OutputIteratorT block_itr, T (&items)[ITEMS_PER_THREAD]);
  template <typename OutputIteratorT>
  __device__ void Store(OutputIteratorT block_itr, T (&items)[ITEMS_PER_THREAD], int valid_items);
};

struct NullType {};

template <typename KeyT, int BLOCK_DIM_X, int ITEMS_PER_THREAD, typename ValueT = NullType>
class BlockRadixSort {
public:
  struct TempStorage { KeyT keys[BLOCK_DIM_X * ITEMS_PER_THREAD]; };
  __device__ BlockRadixSort();
  __device__ BlockRadixSort(TempStorage &temp_storage);
  __device__ void Sort(KeyT (&keys)[ITEMS_PER_THREAD], int begin_bit = 0, int end_bit = sizeof(KeyT) * 8);
  __device__ void SortDescending(KeyT (&keys)[ITEMS_PER_THREAD], int begin_bit = 0,
                                 int end_bit = sizeof(KeyT) * 8);
};

struct DeviceReduce {
  template <typename InputIteratorT, typename OutputIteratorT, typename NumItemsT>
  static cudaError_t Sum(void *d_temp_storage, size_t &temp_storage_bytes, InputIteratorT d_in,
                         OutputIteratorT d_out, NumItemsT num_items, cudaStream_t stream = 0);
  template <typename InputIteratorT, typename OutputIteratorT, typename NumItemsT>
  static cudaError_t Max(void *d_temp_storage, size_t &temp_storage_bytes, InputIteratorT d_in,
                         OutputIteratorT d_out, NumItemsT num_items, cudaStream_t stream = 0);
  template <typename InputIteratorT, typename OutputIteratorT, typename NumItemsT>
  static cudaError_t Min(void *d_temp_storage, size_t &temp_storage_bytes, InputIteratorT d_in,
                         OutputIteratorT d_out, NumItemsT num_items, cudaStream_t stream = 0);
  template <typename InputIteratorT, typename OutputIteratorT, typename ReductionOpT, typename T,
            typename NumItemsT>
  static cudaError_t Reduce(void *d_temp_storage, size_t &temp_storage_bytes, InputIteratorT d_in,
                            OutputIteratorT d_out, NumItemsT num_items, ReductionOpT reduction_op,
                            T init, cudaStream_t stream = 0);
};

struct DeviceScan {
  template <typename InputIteratorT, typename OutputIteratorT, typename NumItemsT>
  static cudaError_t InclusiveSum(void *d_temp_storage, size_t &temp_storage_bytes,
                                  InputIteratorT d_in, OutputIteratorT d_out, NumItemsT num_items,
                                  cudaStream_t stream = 0);
  template <typename InputIteratorT, typename OutputIteratorT, typename NumItemsT>
  static cudaError_t ExclusiveSum(void *d_temp_storage, size_t &temp_storage_bytes,
                                  InputIteratorT d_in, OutputIteratorT d_out, NumItemsT num_items,
                                  cudaStream_t stream = 0);
};

struct DeviceRadixSort {
  template <typename KeyT, typename NumItemsT>
  static cudaError_t SortKeys(void *d_temp_storage, size_t &temp_storage_bytes,
                              const KeyT *d_keys_in, KeyT *d_keys_out, NumItemsT num_items,
                              int begin_bit = 0, int end_bit = sizeof(KeyT) * 8,
                              cudaStream_t stream = 0);
  template <typename KeyT, typename ValueT, typename NumItemsT>
  static cudaError_t SortPairs(void *d_temp_storage, size_t &temp_storage_bytes,
                               const KeyT *d_keys_in, KeyT *d_keys_out, const ValueT *d_values_in,
                               ValueT *d_values_out, NumItemsT num_items, int begin_bit = 0,
                               int end_bit = sizeof(KeyT) * 8, cudaStream_t stream = 0);
};

} // namespace cub

#endif /* __PK_CUB_CUH */
