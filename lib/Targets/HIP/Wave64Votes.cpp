//===- Wave64Votes.cpp - warp votes on 64-lane waves ----------------------===//
// Rules: PK2002, PK2023
//
// Ballot, any, all and activemask: HIP votes cover the 64-lane wave and have
// no mask.  Match and reduce collectives (__match_any_sync,
// __match_all_sync, __reduce_*_sync) have no HIP form before ROCm 6.2 and a
// 64-bit mask after: in logical warps they become helpers over shuffles
// within the caller's 32-lane half, whatever the ROCm version.  Logical warps (PK2002) use helpers that return the caller's
// 32-lane half of the wave ballot as a 32-bit mask; native warps (PK2023)
// vote over the whole wave (a 64-bit ballot).
//
//===----------------------------------------------------------------------===//
#include "Wave64Rewrite.h"

#include "clang/AST/Expr.h"
#include "llvm/Support/FormatVariadic.h"

using namespace pk;
using namespace pk::hip;
using namespace clang;

const char *const Wave64Rewriter::Logical32Helpers = R"pk(
#ifndef PK_LOGICAL_WARP32_HELPERS
#define PK_LOGICAL_WARP32_HELPERS
// port-kernel: 32-lane logical warps inside 64-lane waves [PK2002, PK2004]
static constexpr int pk_warpSize = 32;
__device__ static inline unsigned __pk_ballot32(int pred) {
  return (unsigned)(__ballot(pred) >> (__lane_id() & 32u));
}
__device__ static inline unsigned __pk_activemask32() { return __pk_ballot32(1); }
__device__ static inline bool __pk_any32(int pred) { return __pk_ballot32(pred) != 0u; }
__device__ static inline bool __pk_all32(int pred) {
  return __pk_ballot32(pred) == __pk_ballot32(1);
}
#endif // PK_LOGICAL_WARP32_HELPERS
)pk";

const char *const Wave64Rewriter::Logical32Collectives = R"pk(
#ifndef PK_LOGICAL_WARP32_COLLECTIVES
#define PK_LOGICAL_WARP32_COLLECTIVES
// port-kernel: match and reduce collectives of 32-lane logical warps [PK2002]
// Each lane reads every lane of its 32-lane half; the lanes of `mask` count.
template <class T> __device__ static inline unsigned __pk_match_any32(unsigned mask, T v) {
  unsigned r = 0u;
  for (int l = 0; l < 32; ++l) {
    T o = __shfl(v, l, 32);
    if (((mask >> l) & 1u) && o == v) r |= 1u << l;
  }
  return r;
}
template <class T>
__device__ static inline unsigned __pk_match_all32(unsigned mask, T v, int *pred) {
  bool same = __pk_match_any32(mask, v) == mask;
  if (pred) *pred = same;
  return same ? mask : 0u;
}
template <class T, class Op>
__device__ static inline T __pk_reduce32(unsigned mask, T v, Op op) {
  T r = v;
  bool first = true;
  for (int l = 0; l < 32; ++l) {
    T o = __shfl(v, l, 32);
    if ((mask >> l) & 1u) { r = first ? o : op(r, o); first = false; }
  }
  return r;
}
__device__ static inline unsigned __pk_reduce_add32(unsigned m, unsigned v) { return __pk_reduce32(m, v, [](unsigned a, unsigned b) { return a + b; }); }
__device__ static inline int __pk_reduce_add32(unsigned m, int v) { return __pk_reduce32(m, v, [](int a, int b) { return a + b; }); }
__device__ static inline unsigned __pk_reduce_min32(unsigned m, unsigned v) { return __pk_reduce32(m, v, [](unsigned a, unsigned b) { return b < a ? b : a; }); }
__device__ static inline int __pk_reduce_min32(unsigned m, int v) { return __pk_reduce32(m, v, [](int a, int b) { return b < a ? b : a; }); }
__device__ static inline unsigned __pk_reduce_max32(unsigned m, unsigned v) { return __pk_reduce32(m, v, [](unsigned a, unsigned b) { return a < b ? b : a; }); }
__device__ static inline int __pk_reduce_max32(unsigned m, int v) { return __pk_reduce32(m, v, [](int a, int b) { return a < b ? b : a; }); }
__device__ static inline unsigned __pk_reduce_and32(unsigned m, unsigned v) { return __pk_reduce32(m, v, [](unsigned a, unsigned b) { return a & b; }); }
__device__ static inline unsigned __pk_reduce_or32(unsigned m, unsigned v) { return __pk_reduce32(m, v, [](unsigned a, unsigned b) { return a | b; }); }
__device__ static inline unsigned __pk_reduce_xor32(unsigned m, unsigned v) { return __pk_reduce32(m, v, [](unsigned a, unsigned b) { return a ^ b; }); }
#endif // PK_LOGICAL_WARP32_COLLECTIVES
)pk";

bool Wave64Rewriter::matchReduce(const W64Site &S) {
  const auto *CE = dyn_cast_or_null<CallExpr>(S.S);
  llvm::StringRef Name = S.Name;
  if (!CE || !Name.consume_back("_sync"))
    return false;
  unsigned Args = Name == "__match_all" ? 3 : 2;
  bool Known = Name == "__match_any" || Name == "__match_all" ||
               Name == "__reduce_add" || Name == "__reduce_min" ||
               Name == "__reduce_max" || Name == "__reduce_and" ||
               Name == "__reduce_or" || Name == "__reduce_xor";
  if (!Known || CE->getNumArgs() != Args)
    return false;
  // The helper honours the mask (no PK2010 check: nothing is dropped).
  std::string New = ("__pk" + Name.drop_front(1) + "32").str();
  std::string Why = llvm::formatv(
      "{0}(mask, ...) -> {1}(mask, ...): HIP has no such collective before "
      "ROCm 6.2 and a 64-bit-mask form after; the helper computes it over "
      "shuffles within the caller's 32-lane half of the wave",
      S.Name, New);
  if (!TC.replace(calleeRange(CE), New, RuleId::PK2002, Why))
    return false;
  needLogical(CE->getBeginLoc());
  need(CE->getBeginLoc(), HelperKey{RuleId::PK2002, "logical32-collectives"},
       Logical32Collectives);
  return true;
}

void Wave64Rewriter::vote(const W64Site &S, bool Logical) {
  const auto *CE = cast<CallExpr>(S.S);
  llvm::StringRef Name = S.Name;
  bool Sync = Name.ends_with("_sync");
  if (Sync && CE->getNumArgs() != 2)
    return;
  if (Sync)
    checkMask(CE, Name);
  std::string New;
  if (Logical) {
    New = Name.starts_with("__ballot") ? "__pk_ballot32"
          : Name.starts_with("__any")  ? "__pk_any32"
          : Name.starts_with("__all")  ? "__pk_all32"
                                       : "__pk_activemask32";
  } else {
    New = Name.starts_with("__ballot") || Name == "__activemask" ? "__ballot"
          : Name.starts_with("__any")                            ? "__any"
                                                                 : "__all";
    if (!Sync && Name != "__activemask")
      return; // the HIP form already covers the wave
  }
  RuleId Rule = Logical ? RuleId::PK2002 : RuleId::PK2023;
  std::string Why =
      Logical
          ? (Name == "__activemask"
                 ? std::string("__activemask() -> the caller's 32-lane half "
                               "of the wave")
                 : llvm::formatv("{0}(mask, p) -> {1}(p): HIP votes cover "
                                 "the 64-lane wave; the helper returns the "
                                 "caller's 32-lane half, as a 32-bit mask",
                                 Name, New)
                       .str())
          : (Name == "__activemask"
                 ? std::string("__activemask() -> __ballot(1): the 64-bit "
                               "mask of the active lanes of the wave")
                 : llvm::formatv("{0}(mask, p) -> {1}(p): a vote over the "
                                 "native 64-lane warp{2}",
                                 Name, New,
                                 New == "__ballot" ? " (64-bit result)" : "")
                       .str());
  if (!TC.replace(calleeRange(CE), New, Rule, Why))
    return;
  if (Logical)
    needLogical(CE->getBeginLoc());
  if (Sync)
    removeLeadingArg(CE, Rule, Why);
  else if (Name == "__activemask" && !Logical)
    TC.insert(CE->getRParenLoc(), "1", Rule, Why);
}
