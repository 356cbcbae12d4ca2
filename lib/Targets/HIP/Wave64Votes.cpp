//===- Wave64Votes.cpp - warp votes on 64-lane waves ----------------------===//
// Rules: PK2002, PK2023
//
// Ballot, any, all and activemask: HIP votes cover the 64-lane wave and have
// no mask.  Logical warps (PK2002) use helpers that return the caller's
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
