//===- Wave64CoopGroups.cpp - cooperative-groups tiles --------------------===//
// Rules: PK2005
//
// thread_block_tile<N> and tiled_partition<N>: HIP before ROCm 6 has no tile
// votes; the tile helper __pk_tile<N> keeps N-lane tiles inside the 64-lane
// wave (a 32-thread tile is the logical warp, or the whole wave under native
// warps).  cg::reduce with a standard operator becomes a butterfly over the
// tile, and <cooperative_groups/reduce.h> is dropped.  Tile shuffles take
// any trivially copyable value, as CUDA's do: HIP's __shfl* have scalar
// overloads only, so other values (uint4, float2, structs) are shuffled as
// 32-bit words (__pk_tile_shfl).
//
//===----------------------------------------------------------------------===//
#include "Wave64Rewrite.h"

#include "clang/AST/DeclCXX.h"
#include "clang/AST/Expr.h"
#include "clang/Basic/SourceManager.h"
#include "clang/Lex/Lexer.h"
#include "llvm/Support/FormatVariadic.h"

using namespace pk;
using namespace pk::hip;
using namespace clang;

const char *const Wave64Rewriter::TileHelpers = R"pk(
#ifndef PK_TILE_HELPERS
#define PK_TILE_HELPERS
// port-kernel: cooperative-groups tiles of N lanes inside a 64-lane wave [PK2005]
// A tile shuffles any trivially copyable value, as CUDA's tiles do; HIP's
// __shfl* have overloads for these scalars only: other types (uint4,
// float2, structs, __half) move as 32-bit words, each from the same lane.
template <class T> struct __pk_shfl_scalar { static constexpr bool value = false; };
template <> struct __pk_shfl_scalar<int> { static constexpr bool value = true; };
template <> struct __pk_shfl_scalar<unsigned> { static constexpr bool value = true; };
template <> struct __pk_shfl_scalar<long> { static constexpr bool value = true; };
template <> struct __pk_shfl_scalar<unsigned long> { static constexpr bool value = true; };
template <> struct __pk_shfl_scalar<long long> { static constexpr bool value = true; };
template <> struct __pk_shfl_scalar<unsigned long long> { static constexpr bool value = true; };
template <> struct __pk_shfl_scalar<float> { static constexpr bool value = true; };
template <> struct __pk_shfl_scalar<double> { static constexpr bool value = true; };
template <class T, class F> __device__ static inline T __pk_tile_shfl(T v, F f) {
  if constexpr (__pk_shfl_scalar<T>::value) {
    return f(v);
  } else {
    constexpr unsigned W = (sizeof(T) + 3) / 4;
    int w[W] = {};
    __builtin_memcpy(w, &v, sizeof(T));
    for (unsigned i = 0; i < W; ++i)
      w[i] = f(w[i]);
    __builtin_memcpy(&v, w, sizeof(T));
    return v;
  }
}
template <unsigned N> struct __pk_tile_mask { typedef unsigned type; };
template <> struct __pk_tile_mask<64> { typedef unsigned long long type; };
template <unsigned N> struct __pk_tile {
  static_assert(N <= 64 && (N & (N - 1)) == 0, "tile size: a power of two up to 64");
  typedef typename __pk_tile_mask<N>::type mask_type;
  __device__ unsigned thread_rank() const { return __lane_id() & (N - 1); }
  __device__ unsigned size() const { return N; }
  __device__ unsigned num_threads() const { return N; }
  __device__ unsigned meta_group_rank() const {
    return (threadIdx.x + blockDim.x * (threadIdx.y + blockDim.y * threadIdx.z)) / N;
  }
  __device__ unsigned meta_group_size() const {
    return (blockDim.x * blockDim.y * blockDim.z + N - 1) / N;
  }
  __device__ void sync() const { __pk_syncwarp(); }
  template <class T> __device__ T shfl(T v, int src) const {
    return __pk_tile_shfl(v, [=](auto x) { return __shfl(x, src & (int)(N - 1), N); });
  }
  template <class T> __device__ T shfl_up(T v, unsigned d) const {
    return __pk_tile_shfl(v, [=](auto x) { return __shfl_up(x, d, N); });
  }
  template <class T> __device__ T shfl_down(T v, unsigned d) const {
    return __pk_tile_shfl(v, [=](auto x) { return __shfl_down(x, d, N); });
  }
  template <class T> __device__ T shfl_xor(T v, int m) const {
    return __pk_tile_shfl(v, [=](auto x) { return __shfl_xor(x, m, N); });
  }
  __device__ mask_type ballot(int pred) const {
    unsigned long long b = __ballot(pred) >> (__lane_id() & (64u - N));
    return (mask_type)(N == 64 ? b : b & ((1ull << (N & 63u)) - 1ull));
  }
  __device__ bool any(int pred) const { return ballot(pred) != 0; }
  __device__ bool all(int pred) const { return ballot(pred) == ballot(1); }
  // Passed where a thread_group is taken (`void f(cg::thread_group g)`): the
  // same lanes as HIP's tile of N threads of the block.
  __device__ operator cooperative_groups::thread_group() const {
    return cooperative_groups::tiled_partition(cooperative_groups::this_thread_block(), N);
  }
};
template <class T> struct __pk_plus { __device__ T operator()(T a, T b) const { return a + b; } };
template <class T> struct __pk_less { __device__ T operator()(T a, T b) const { return b < a ? b : a; } };
template <class T> struct __pk_greater { __device__ T operator()(T a, T b) const { return a < b ? b : a; } };
template <class T> struct __pk_bit_and { __device__ T operator()(T a, T b) const { return a & b; } };
template <class T> struct __pk_bit_or { __device__ T operator()(T a, T b) const { return a | b; } };
template <class T> struct __pk_bit_xor { __device__ T operator()(T a, T b) const { return a ^ b; } };
template <unsigned N, class T, class Op>
__device__ static inline T __pk_reduce(const __pk_tile<N> &t, T v, Op op) {
  for (unsigned o = N / 2; o > 0; o >>= 1)
    v = op(v, t.shfl_xor(v, (int)o));
  return v;
}
#endif // PK_TILE_HELPERS
)pk";

void Wave64Rewriter::tile(const W64Site &S, bool Logical) {
  unsigned N = 0;
  llvm::StringRef(S.Name).getAsInteger(10, N);
  unsigned M = (!Logical && N == 32) ? 64 : N;
  std::string Why =
      N == 32 ? llvm::formatv("a tile of 32 threads -> __pk_tile<{0}>: {1}", M,
                              Logical ? "a 32-lane logical warp of the wave"
                                      : "the native 64-lane warp")
                    .str()
              : llvm::formatv("a tile of {0} threads -> __pk_tile<{0}> "
                              "(HIP before ROCm 6 has no tile votes)",
                              N)
                    .str();
  std::string Text;
  if (S.S)
    Text = llvm::formatv("__pk_tile<{0}>()", M).str();
  else
    Text = llvm::formatv("__pk_tile<{0}>", M).str();
  std::string F = TC.fileOf(S.Loc);
  if (!TC.isUserFile(F))
    return;
  unsigned B = SM().getFileOffset(S.Loc);
  unsigned E =
      SM().getFileOffset(Lexer::getLocForEndOfToken(S.End, 0, SM(), LO()));
  if (E <= B)
    return;
  TC.edit(F, B, E - B, Text, RuleId::PK2005, Why);
  TC.Helpers[F][HelperKey{RuleId::PK2005, "tile"}] = TileHelpers;
  TC.Helpers[F][HelperKey{RuleId::PK2003, "syncwarp"}] = SyncwarpHelper;
}

void Wave64Rewriter::reduce(const W64Site &S) {
  const auto *CE = cast<CallExpr>(S.S);
  if (CE->getNumArgs() != 3)
    return;
  std::string Op = TC.text(CE->getArg(2));
  llvm::StringRef O(Op);
  size_t Lt = O.find('<');
  llvm::StringRef Head = O.take_front(Lt);
  size_t Colon = Head.rfind("::");
  llvm::StringRef Fn =
      Colon == llvm::StringRef::npos ? Head : Head.drop_front(Colon + 2);
  Fn = Fn.trim();
  // The operator: one of cooperative_groups' function objects (HIP has
  // none: __pk_<op>), or the program's own (a function, a lambda, a function
  // object), which the butterfly calls as cg::reduce does.  Like cg::reduce,
  // the butterfly assumes the operator is associative and commutative.
  bool CgOp = false;
  QualType OT = CE->getArg(2)->getType();
  if (const CXXRecordDecl *RD = OT.isNull() ? nullptr : OT->getAsCXXRecordDecl())
    for (const DeclContext *DC = RD->getDeclContext(); DC; DC = DC->getParent())
      if (const auto *NS = dyn_cast<NamespaceDecl>(DC))
        CgOp |= NS->getName() == "cooperative_groups";
  if (!CgOp && Lt != llvm::StringRef::npos && O.starts_with("cg::"))
    CgOp = true; // dependent: spelled through the namespace alias
  bool Known = Lt != llvm::StringRef::npos &&
               (Fn == "plus" || Fn == "less" || Fn == "greater" ||
                Fn == "bit_and" || Fn == "bit_or" || Fn == "bit_xor");
  if (CgOp && !Known) {
    TC.finding(CE->getBeginLoc(), RuleId::PK2013, Severity::Warning,
               "cg::reduce with this cooperative-groups operator has no HIP "
               "lowering; left as is");
    return;
  }
  std::string Why = "cg::reduce -> __pk_reduce: a butterfly over the tile "
                    "(HIP before ROCm 6 has no cg::reduce)";
  if (!TC.replace(calleeRange(CE), "__pk_reduce", RuleId::PK2005, Why))
    return;
  if (CgOp)
    TC.replace(CE->getArg(2)->getSourceRange(),
               ("__pk_" + Fn + O.drop_front(Lt)).str(), RuleId::PK2005, Why);
  std::string F = fileAt(CE->getBeginLoc());
  if (TC.isUserFile(F)) {
    TC.Helpers[F][HelperKey{RuleId::PK2005, "tile"}] = TileHelpers;
    TC.Helpers[F][HelperKey{RuleId::PK2003, "syncwarp"}] = SyncwarpHelper;
  }
  ReducesLowered = true;
}

void Wave64Rewriter::dropReduceInclude() {
  // <cooperative_groups/reduce.h> is no longer needed.
  for (UnportedInclude &U : TC.Facts.UnportedIncludes)
    if (!U.Handled && U.Header == "cooperative_groups/reduce.h") {
      TC.edit(U.File, U.Begin, U.End - U.Begin, "", RuleId::PK2005,
              "cg::reduce is lowered to __pk_reduce; the header is not "
              "needed");
      U.Handled = true;
    }
}
