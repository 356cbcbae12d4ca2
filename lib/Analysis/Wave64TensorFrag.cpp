//===- Wave64TensorFrag.cpp - tensor-core fragment elements ---------------===//
// Rules: PK2110
//
// Class 10: code that reads the elements of a WMMA fragment by position
// assumes NVIDIA's layout (8 accumulator elements per lane over 32 lanes);
// AMD's MFMA holds 4 per lane over 64 lanes.  A loop over every element
// (i < frag.num_elements) that does not depend on the lane is layout-free.
// The fragments themselves are ported by the MFMA rules (HIP/Mfma.cpp).
//
//===----------------------------------------------------------------------===//
#include "Wave64Internal.h"

#include "clang/AST/DeclCXX.h"
#include "clang/AST/Stmt.h"
#include "llvm/Support/FormatVariadic.h"

using namespace pk;
using namespace pk::w64;
using namespace clang;

void Walker::fragmentElement(const ArraySubscriptExpr *ASE, const Val &X) {
  const auto *ME = dyn_cast<MemberExpr>(ASE->getBase()->IgnoreParenImpCasts());
  if (!ME)
    return;
  QualType BT = ME->getBase()->IgnoreImpCasts()->getType();
  const CXXRecordDecl *RD = BT->getAsCXXRecordDecl();
  if (!RD || RD->getName() != "fragment" ||
      ME->getMemberDecl()->getName() != "x")
    return;
  bool ElementWise = false;
  if (const auto *DRE =
          dyn_cast<DeclRefExpr>(ASE->getIdx()->IgnoreParenImpCasts()))
    for (const ForStmt *FS : Loops)
      if (FS->getCond() &&
          text(FS->getCond()).find("num_elements") != std::string::npos &&
          FS->getInit() &&
          text(FS->getInit()).find(DRE->getDecl()->getName().str()) !=
              std::string::npos &&
          !(X.Dep & (D_TID | D_LANE)))
        ElementWise = true;
  if (!ElementWise)
    I.hazard(W64Class::TensorFrag, ASE->getBeginLoc(),
             llvm::formatv("'{0}' reads a tensor-core fragment element by "
                           "position: NVIDIA's m16n16k16 accumulator holds "
                           "8 elements per lane over 32 lanes, AMD's MFMA "
                           "4 per lane over 64 lanes",
                           text(ASE))
                 .str());
}
