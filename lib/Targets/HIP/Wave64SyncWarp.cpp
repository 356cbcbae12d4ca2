//===- Wave64SyncWarp.cpp - __syncwarp on 64-lane waves -------------------===//
// Rules: PK2003
//
// HIP has no __syncwarp: a wave executes in lockstep, and a wave barrier
// with block-scope fences on both sides orders its shared-memory accesses.
// The helper is also used by the tile helper (PK2005) and the split
// warp-synchronous steps (PK2007).
//
//===----------------------------------------------------------------------===//
#include "Wave64Rewrite.h"

#include "clang/AST/Expr.h"
#include "clang/AST/ExprCXX.h"

using namespace pk;
using namespace pk::hip;
using namespace clang;

const char *const Wave64Rewriter::SyncwarpHelper = R"pk(
#ifndef PK_SYNCWARP_HELPER
#define PK_SYNCWARP_HELPER
// port-kernel: a wave executes in lockstep; order its shared-memory accesses [PK2003]
__device__ static inline void __pk_syncwarp() {
  __threadfence_block();
  __builtin_amdgcn_wave_barrier();
  __threadfence_block();
}
#endif // PK_SYNCWARP_HELPER
)pk";

void Wave64Rewriter::syncwarp(const W64Site &S) {
  const auto *CE = cast<CallExpr>(S.S);
  std::string Why = "__syncwarp -> wave barrier with block-scope fences "
                    "(HIP has no __syncwarp; a wave executes in lockstep)";
  if (!TC.replace(calleeRange(CE), "__pk_syncwarp", RuleId::PK2003, Why))
    return;
  needSync(CE->getBeginLoc());
  if (CE->getNumArgs() == 1) {
    const Expr *M = CE->getArg(0);
    if (!isa<CXXDefaultArgExpr>(M))
      TC.replace(M->getSourceRange(), "", RuleId::PK2003, Why);
  }
}
