//===- Wave64LaneRegs.cpp - inline PTX lane registers ---------------------===//
// Rules: PK2006
//
// `asm("mov.u32 %0, %%laneid;" : "=r"(x))` and the %lanemask_* registers
// become HIP lane queries: the lane's position in its 32-lane logical warp
// (helpers) or in the 64-lane wave.
//
//===----------------------------------------------------------------------===//
#include "Wave64Rewrite.h"

#include "clang/AST/Stmt.h"
#include "llvm/Support/FormatVariadic.h"

using namespace pk;
using namespace pk::hip;
using namespace clang;

const char *const Wave64Rewriter::LaneHelpers = R"pk(
#ifndef PK_LOGICAL_LANE32_HELPERS
#define PK_LOGICAL_LANE32_HELPERS
// port-kernel: lane id and lane masks of a 32-lane logical warp [PK2006]
__device__ static inline unsigned __pk_lane32() { return __lane_id() & 31u; }
__device__ static inline unsigned __pk_lanemask32(unsigned long long m) {
  return (unsigned)(m >> (__lane_id() & 32u));
}
#endif // PK_LOGICAL_LANE32_HELPERS
)pk";

void Wave64Rewriter::ptx(const W64Site &S, bool Logical) {
  const auto *AS = cast<GCCAsmStmt>(S.S);
  if (AS->getNumOutputs() != 1)
    return;
  std::string Out = TC.text(AS->getOutputExpr(0));
  llvm::StringRef R = S.Name;
  std::string Q;
  if (Logical) {
    if (R == "laneid")
      Q = "__pk_lane32()";
    else {
      llvm::StringRef Kind = R.drop_front(9); // lt, le, ...
      Q = Kind == "lt"   ? "__pk_lanemask32(__lanemask_lt())"
          : Kind == "gt" ? "__pk_lanemask32(__lanemask_gt())"
          : Kind == "eq" ? "__pk_lanemask32(__lanemask_eq())"
          : Kind == "le" ? "__pk_lanemask32(__lanemask_lt() | __lanemask_eq())"
                         : "__pk_lanemask32(__lanemask_gt() | __lanemask_eq())";
    }
  } else {
    if (R == "laneid")
      Q = "__lane_id()";
    else {
      llvm::StringRef Kind = R.drop_front(9);
      Q = Kind == "lt"   ? "__lanemask_lt()"
          : Kind == "gt" ? "__lanemask_gt()"
          : Kind == "eq" ? "__lanemask_eq()"
          : Kind == "le" ? "(__lanemask_lt() | __lanemask_eq())"
                         : "(__lanemask_gt() | __lanemask_eq())";
    }
  }
  std::string Why =
      llvm::formatv("inline PTX %{0} -> {1}: {2}", R, Q,
                    Logical ? "the lane's position in its 32-lane logical warp"
                            : "the lane's position in the 64-lane wave")
          .str();
  if (TC.replace(AS->getSourceRange(), Out + " = " + Q, RuleId::PK2006, Why) &&
      Logical)
    need(AS->getBeginLoc(), HelperKey{RuleId::PK2006, "lane32"}, LaneHelpers);
}
