//===- cub_impl.h - CUB and hipCUB collectives for the emulator -*- C++ -*-===//
// Rules: none (emulator runtime)
//
// Included by cub/cub.cuh (namespace cub, logical warp 32) and by
// hipcub/hipcub.hpp (namespace hipcub, logical warp = the wave,
// PKEMU_DEFAULT_WARP) with PKEMU_CUB_NS and PKEMU_CUB_WARP defined.
//
// Warp collectives (WarpReduce, WarpScan) are shuffle trees over their
// logical warp, through the emulator's shuffles, so a width wider than the
// hardware warp, or a lane that does not take part, is reported as it would
// fail on a GPU.  Block collectives (BlockReduce, BlockScan, BlockLoad,
// BlockStore) go through the TempStorage the program places in shared
// memory and the emulator's __syncthreads: every thread of the block must
// call them, as CUB requires.  Results are valid where CUB says they are
// (the block aggregate in thread 0, the warp aggregate in lane 0).  The
// combination order is sequential, not CUB's tree: floating-point sums may
// differ in the last bits.  The device-wide algorithms (DeviceReduce,
// DeviceScan) run on the CPU in issue order, with CUB's two-call temporary
// storage protocol.
//
//===----------------------------------------------------------------------===//
#ifndef PKEMU_CUB_NS
#error                                                                         \
    "define PKEMU_CUB_NS and PKEMU_CUB_WARP before including pkemu/cub_impl.h"
#endif

namespace PKEMU_CUB_NS {

enum BlockReduceAlgorithm {
  BLOCK_REDUCE_RAKING_COMMUTATIVE_ONLY,
  BLOCK_REDUCE_RAKING,
  BLOCK_REDUCE_WARP_REDUCTIONS
};
enum BlockScanAlgorithm {
  BLOCK_SCAN_RAKING,
  BLOCK_SCAN_RAKING_MEMOIZE,
  BLOCK_SCAN_WARP_SCANS
};
enum BlockLoadAlgorithm {
  BLOCK_LOAD_DIRECT,
  BLOCK_LOAD_STRIPED,
  BLOCK_LOAD_VECTORIZE,
  BLOCK_LOAD_TRANSPOSE,
  BLOCK_LOAD_WARP_TRANSPOSE,
  BLOCK_LOAD_WARP_TRANSPOSE_TIMESLICED
};
enum BlockStoreAlgorithm {
  BLOCK_STORE_DIRECT,
  BLOCK_STORE_STRIPED,
  BLOCK_STORE_VECTORIZE,
  BLOCK_STORE_TRANSPOSE,
  BLOCK_STORE_WARP_TRANSPOSE,
  BLOCK_STORE_WARP_TRANSPOSE_TIMESLICED
};

struct Sum {
  template <typename T>
  __host__ __device__ T operator()(const T &a, const T &b) const {
    return a + b;
  }
};
struct Max {
  template <typename T>
  __host__ __device__ T operator()(const T &a, const T &b) const {
    return a < b ? b : a;
  }
};
struct Min {
  template <typename T>
  __host__ __device__ T operator()(const T &a, const T &b) const {
    return b < a ? b : a;
  }
};

namespace pkemu_detail {
template <int X, int Y, int Z> __device__ inline int linear_tid() {
  return (int)threadIdx.x + X * ((int)threadIdx.y + Y * (int)threadIdx.z);
}
__device__ inline int lane_tid() {
  return (int)(threadIdx.x +
               blockDim.x * (threadIdx.y + blockDim.y * threadIdx.z));
}
template <class T> __device__ inline T shfl_down(T v, int off, int width) {
#if defined(PKEMU_LANG_HIP)
  return __shfl_down(v, (unsigned)off, width);
#else
  return __shfl_down_sync(0xffffffffu, v, (unsigned)off, width);
#endif
}
template <class T> __device__ inline T shfl_up(T v, int off, int width) {
#if defined(PKEMU_LANG_HIP)
  return __shfl_up(v, (unsigned)off, width);
#else
  return __shfl_up_sync(0xffffffffu, v, (unsigned)off, width);
#endif
}
} // namespace pkemu_detail

template <typename T, int LOGICAL_WARP_THREADS = PKEMU_CUB_WARP,
          int LEGACY_PTX_ARCH = 0>
class WarpReduce {
  static_assert(LOGICAL_WARP_THREADS > 0 &&
                    (LOGICAL_WARP_THREADS & (LOGICAL_WARP_THREADS - 1)) == 0,
                "the emulator's WarpReduce takes power-of-two logical warps");

public:
  struct TempStorage {
    T unused;
  };
  __device__ WarpReduce(TempStorage &) {}
  __device__ T Sum(T input) { return Reduce(input, PKEMU_CUB_NS::Sum()); }
  __device__ T Sum(T input, int valid_items) {
    return Reduce(input, PKEMU_CUB_NS::Sum(), valid_items);
  }
  template <typename ReductionOp> __device__ T Reduce(T input, ReductionOp op) {
    return Reduce(input, op, LOGICAL_WARP_THREADS);
  }
  template <typename ReductionOp>
  __device__ T Reduce(T input, ReductionOp op, int valid_items) {
    int lane = pkemu_detail::lane_tid() % LOGICAL_WARP_THREADS;
    T v = input;
    for (int off = LOGICAL_WARP_THREADS / 2; off > 0; off /= 2) {
      T o = pkemu_detail::shfl_down(v, off, LOGICAL_WARP_THREADS);
      if (lane + off < valid_items)
        v = op(v, o);
    }
    return v;
  }
};

template <typename T, int LOGICAL_WARP_THREADS = PKEMU_CUB_WARP,
          int LEGACY_PTX_ARCH = 0>
class WarpScan {
  static_assert(LOGICAL_WARP_THREADS > 0 &&
                    (LOGICAL_WARP_THREADS & (LOGICAL_WARP_THREADS - 1)) == 0,
                "the emulator's WarpScan takes power-of-two logical warps");

public:
  struct TempStorage {
    T unused;
  };
  __device__ WarpScan(TempStorage &) {}
  __device__ void InclusiveSum(T input, T &out) {
    InclusiveScan(input, out, PKEMU_CUB_NS::Sum());
  }
  __device__ void ExclusiveSum(T input, T &out) {
    ExclusiveScan(input, out, T(), PKEMU_CUB_NS::Sum());
  }
  template <typename ScanOp>
  __device__ void InclusiveScan(T input, T &out, ScanOp op) {
    int lane = pkemu_detail::lane_tid() % LOGICAL_WARP_THREADS;
    T v = input;
    for (int off = 1; off < LOGICAL_WARP_THREADS; off *= 2) {
      T o = pkemu_detail::shfl_up(v, off, LOGICAL_WARP_THREADS);
      if (lane >= off)
        v = op(o, v);
    }
    out = v;
  }
  template <typename ScanOp>
  __device__ void ExclusiveScan(T input, T &out, T init, ScanOp op) {
    int lane = pkemu_detail::lane_tid() % LOGICAL_WARP_THREADS;
    T inc;
    InclusiveScan(input, inc, op);
    T prev = pkemu_detail::shfl_up(inc, 1, LOGICAL_WARP_THREADS);
    out = lane == 0 ? init : op(init, prev);
  }
};

template <typename T, int BLOCK_DIM_X,
          BlockReduceAlgorithm ALGORITHM = BLOCK_REDUCE_WARP_REDUCTIONS,
          int BLOCK_DIM_Y = 1, int BLOCK_DIM_Z = 1, int LEGACY_PTX_ARCH = 0>
class BlockReduce {
  enum { THREADS = BLOCK_DIM_X * BLOCK_DIM_Y * BLOCK_DIM_Z };

public:
  struct TempStorage {
    T items[THREADS];
  };
  __device__ BlockReduce(TempStorage &t) : temp(t) {}
  __device__ T Sum(T input) {
    return Reduce(input, PKEMU_CUB_NS::Sum(), THREADS);
  }
  __device__ T Sum(T input, int num_valid) {
    return Reduce(input, PKEMU_CUB_NS::Sum(), num_valid);
  }
  template <int N> __device__ T Sum(T (&inputs)[N]) {
    return Reduce(inputs, PKEMU_CUB_NS::Sum());
  }
  template <typename Op> __device__ T Reduce(T input, Op op) {
    return Reduce(input, op, THREADS);
  }
  template <int N, typename Op> __device__ T Reduce(T (&inputs)[N], Op op) {
    T v = inputs[0];
    for (int i = 1; i < N; ++i)
      v = op(v, inputs[i]);
    return Reduce(v, op, THREADS);
  }
  template <typename Op> __device__ T Reduce(T input, Op op, int num_valid) {
    int t = pkemu_detail::linear_tid<BLOCK_DIM_X, BLOCK_DIM_Y, BLOCK_DIM_Z>();
    if (t < num_valid)
      temp.items[t] = input;
    __syncthreads();
    if (t != 0)
      return input; // CUB: the aggregate is valid in thread 0 only
    T v = temp.items[0];
    for (int i = 1; i < num_valid && i < THREADS; ++i)
      v = op(v, temp.items[i]);
    return v;
  }

private:
  TempStorage &temp;
};

template <typename T, int BLOCK_DIM_X,
          BlockScanAlgorithm ALGORITHM = BLOCK_SCAN_RAKING, int BLOCK_DIM_Y = 1,
          int BLOCK_DIM_Z = 1, int LEGACY_PTX_ARCH = 0>
class BlockScan {
  enum { THREADS = BLOCK_DIM_X * BLOCK_DIM_Y * BLOCK_DIM_Z };

public:
  struct TempStorage {
    T items[THREADS];
  };
  __device__ BlockScan(TempStorage &t) : temp(t) {}
  __device__ void InclusiveSum(T in, T &out) {
    T a;
    InclusiveScan(in, out, PKEMU_CUB_NS::Sum(), a);
  }
  __device__ void InclusiveSum(T in, T &out, T &agg) {
    InclusiveScan(in, out, PKEMU_CUB_NS::Sum(), agg);
  }
  __device__ void ExclusiveSum(T in, T &out) {
    T a;
    ExclusiveScan(in, out, T(), PKEMU_CUB_NS::Sum(), a);
  }
  __device__ void ExclusiveSum(T in, T &out, T &agg) {
    ExclusiveScan(in, out, T(), PKEMU_CUB_NS::Sum(), agg);
  }
  template <typename Op> __device__ void InclusiveScan(T in, T &out, Op op) {
    T a;
    InclusiveScan(in, out, op, a);
  }
  template <typename Op>
  __device__ void InclusiveScan(T in, T &out, Op op, T &agg) {
    int t = share(in);
    T v = temp.items[0];
    for (int i = 1; i <= t; ++i)
      v = op(v, temp.items[i]);
    out = v;
    agg = aggregate(op);
  }
  template <typename Op>
  __device__ void ExclusiveScan(T in, T &out, T init, Op op) {
    T a;
    ExclusiveScan(in, out, init, op, a);
  }
  template <typename Op>
  __device__ void ExclusiveScan(T in, T &out, T init, Op op, T &agg) {
    int t = share(in);
    T v = init;
    for (int i = 0; i < t; ++i)
      v = op(v, temp.items[i]);
    out = v;
    agg = aggregate(op);
  }

private:
  __device__ int share(T in) {
    int t = pkemu_detail::linear_tid<BLOCK_DIM_X, BLOCK_DIM_Y, BLOCK_DIM_Z>();
    temp.items[t] = in;
    __syncthreads();
    return t;
  }
  template <typename Op> __device__ T aggregate(Op op) {
    T v = temp.items[0];
    for (int i = 1; i < THREADS; ++i)
      v = op(v, temp.items[i]);
    __syncthreads(); // every thread has read the inputs before any reuse
    return v;
  }
  TempStorage &temp;
};

template <typename T, int BLOCK_DIM_X, int ITEMS_PER_THREAD,
          BlockLoadAlgorithm ALGORITHM = BLOCK_LOAD_DIRECT, int BLOCK_DIM_Y = 1,
          int BLOCK_DIM_Z = 1>
class BlockLoad {
  enum { THREADS = BLOCK_DIM_X * BLOCK_DIM_Y * BLOCK_DIM_Z };

public:
  struct TempStorage {
    T unused;
  };
  __device__ BlockLoad() {}
  __device__ BlockLoad(TempStorage &) {}
  template <typename It>
  __device__ void Load(It itr, T (&items)[ITEMS_PER_THREAD]) {
    Load(itr, items, THREADS * ITEMS_PER_THREAD);
  }
  template <typename It>
  __device__ void Load(It itr, T (&items)[ITEMS_PER_THREAD], int valid) {
    int t = pkemu_detail::linear_tid<BLOCK_DIM_X, BLOCK_DIM_Y, BLOCK_DIM_Z>();
    for (int i = 0; i < ITEMS_PER_THREAD; ++i) {
      int idx = ALGORITHM == BLOCK_LOAD_STRIPED ? i * THREADS + t
                                                : t * ITEMS_PER_THREAD + i;
      if (idx < valid)
        items[i] = itr[idx];
    }
  }
  /// The guarded load that fills the items past \p valid with \p oob.
  template <typename It, typename D>
  __device__ void Load(It itr, T (&items)[ITEMS_PER_THREAD], int valid, D oob) {
    for (int i = 0; i < ITEMS_PER_THREAD; ++i)
      items[i] = (T)oob;
    Load(itr, items, valid);
  }
};

template <typename T, int BLOCK_DIM_X, int ITEMS_PER_THREAD,
          BlockStoreAlgorithm ALGORITHM = BLOCK_STORE_DIRECT,
          int BLOCK_DIM_Y = 1, int BLOCK_DIM_Z = 1>
class BlockStore {
  enum { THREADS = BLOCK_DIM_X * BLOCK_DIM_Y * BLOCK_DIM_Z };

public:
  struct TempStorage {
    T unused;
  };
  __device__ BlockStore() {}
  __device__ BlockStore(TempStorage &) {}
  template <typename It>
  __device__ void Store(It itr, T (&items)[ITEMS_PER_THREAD]) {
    Store(itr, items, THREADS * ITEMS_PER_THREAD);
  }
  template <typename It>
  __device__ void Store(It itr, T (&items)[ITEMS_PER_THREAD], int valid) {
    int t = pkemu_detail::linear_tid<BLOCK_DIM_X, BLOCK_DIM_Y, BLOCK_DIM_Z>();
    for (int i = 0; i < ITEMS_PER_THREAD; ++i) {
      int idx = ALGORITHM == BLOCK_STORE_STRIPED ? i * THREADS + t
                                                 : t * ITEMS_PER_THREAD + i;
      if (idx < valid)
        itr[idx] = items[i];
    }
  }
};

namespace pkemu_detail {
/// CUB's protocol: a null temporary storage asks for its size.
inline bool size_query(void *d_temp, size_t &bytes) {
  if (d_temp)
    return false;
  bytes = 16;
  return true;
}
template <class In, class Out, class N, class Op, class T>
__attribute__((no_sanitize("thread"))) void reduce(In in, Out out, N n, Op op,
                                                   T init) {
  T v = init;
  for (N i = 0; i < n; ++i)
    v = op(v, (T)in[i]);
  out[0] = v;
}
template <class In, class Out, class N>
__attribute__((no_sanitize("thread"))) void scan(In in, Out out, N n,
                                                 bool inclusive) {
  if (n <= 0)
    return;
  auto v = in[0];
  decltype(v) acc{};
  for (N i = 0; i < n; ++i) {
    v = in[i];
    if (inclusive) {
      acc = i ? acc + v : v;
      out[i] = acc;
    } else {
      out[i] = acc;
      acc = acc + v;
    }
  }
}
} // namespace pkemu_detail

struct DeviceReduce {
  template <typename In, typename Out, typename N, typename Op, typename T>
  static PKEMU_CUB_ERROR_T Reduce(void *d_temp, size_t &bytes, In in, Out out,
                                  N n, Op op, T init, PKEMU_CUB_STREAM_T = 0) {
    if (!pkemu_detail::size_query(d_temp, bytes))
      pkemu_detail::reduce(in, out, n, op, init);
    return PKEMU_CUB_ERROR_T(0);
  }
  template <typename In, typename Out, typename N>
  static PKEMU_CUB_ERROR_T Sum(void *d_temp, size_t &bytes, In in, Out out, N n,
                               PKEMU_CUB_STREAM_T s = 0) {
    typedef typename std::remove_cv<
        typename std::remove_reference<decltype(in[0])>::type>::type T;
    return Reduce(d_temp, bytes, in, out, n, PKEMU_CUB_NS::Sum(), T(), s);
  }
  template <typename In, typename Out, typename N>
  static PKEMU_CUB_ERROR_T Max(void *d_temp, size_t &bytes, In in, Out out, N n,
                               PKEMU_CUB_STREAM_T s = 0) {
    typedef typename std::remove_cv<
        typename std::remove_reference<decltype(in[0])>::type>::type T;
    return Reduce(d_temp, bytes, in, out, n, PKEMU_CUB_NS::Max(),
                  std::numeric_limits<T>::lowest(), s);
  }
  template <typename In, typename Out, typename N>
  static PKEMU_CUB_ERROR_T Min(void *d_temp, size_t &bytes, In in, Out out, N n,
                               PKEMU_CUB_STREAM_T s = 0) {
    typedef typename std::remove_cv<
        typename std::remove_reference<decltype(in[0])>::type>::type T;
    return Reduce(d_temp, bytes, in, out, n, PKEMU_CUB_NS::Min(),
                  std::numeric_limits<T>::max(), s);
  }
};

struct DeviceScan {
  template <typename In, typename Out, typename N>
  static PKEMU_CUB_ERROR_T InclusiveSum(void *d_temp, size_t &bytes, In in,
                                        Out out, N n, PKEMU_CUB_STREAM_T = 0) {
    if (!pkemu_detail::size_query(d_temp, bytes))
      pkemu_detail::scan(in, out, n, true);
    return PKEMU_CUB_ERROR_T(0);
  }
  template <typename In, typename Out, typename N>
  static PKEMU_CUB_ERROR_T ExclusiveSum(void *d_temp, size_t &bytes, In in,
                                        Out out, N n, PKEMU_CUB_STREAM_T = 0) {
    if (!pkemu_detail::size_query(d_temp, bytes))
      pkemu_detail::scan(in, out, n, false);
    return PKEMU_CUB_ERROR_T(0);
  }
};

} // namespace PKEMU_CUB_NS
