//===- LiftSym.h - kernel-model values as seen by the NKI lifters ---------===//
// Rules: PK5001
//
// What the lifters that read the kernel model (rows, maps, contractions)
// share: a size as a trace-time Python expression, the NKI dtype of a model
// value, and which launch coordinates a kernel reads.
//
//===----------------------------------------------------------------------===//
#ifndef PK_NKI_LIFTSYM_H
#define PK_NKI_LIFTSYM_H

#include "TileProgram.h"
#include "pk/BuiltinVars.h"
#include "pk/KernelModel.h"

#include "pk/DynamicVisitor.h"
#include <optional>
#include <set>
#include <string>

namespace pk {
namespace nki {

/// The Python expression of an integer value of the parameters and the
/// grid (`n`, `(rows * cols)`, `grid_x`); none for anything else.
std::optional<PyExpr> pySize(km::SymP S);

/// The NKI dtype of a model value type.
DType dtypeOfSym(km::Ty T);

/// Which launch coordinates a kernel reads, in itself or in the device
/// functions it calls: Thread[d] for threadIdx/blockDim, Block[d] for
/// blockIdx/gridDim.
class LaunchDims : public DynamicASTVisitor {
public:
  bool Thread[3] = {false, false, false}, Block[3] = {false, false, false};
  bool VisitExpr(clang::Expr *E) override {
    if (std::optional<BuiltinIndex> BI = builtinIndex(E)) {
      llvm::StringRef V = BI->Var;
      unsigned D = BI->Dim;
      if (V == "threadIdx" || V == "blockDim")
        Thread[D] = true;
      if (V == "blockIdx" || V == "gridDim")
        Block[D] = true;
    }
    return true;
  }
  bool VisitCallExpr(clang::CallExpr *C) override {
    if (auto *F = C->getDirectCallee())
      if (F->getDefinition() && F->getDefinition()->hasBody() &&
          Seen.insert(F).second)
        TraverseStmt(F->getDefinition()->getBody());
    return true;
  }

private:
  std::set<const clang::FunctionDecl *> Seen;
};

} // namespace nki
} // namespace pk

#endif
