//===- Wave64WarpSync.cpp - implicit warp-synchronous shared memory -------===//
// Rules: PK2007, PK2109
//
// Class 9: `vs[i] += vs[i + 16]` on volatile shared memory reads another
// lane's slot and writes its own with no __syncwarp, relying on the lanes
// of a warp running in lockstep.  Each such step is a site (PK2007 splits it
// into a read and a write with wave barriers between) and blocks native
// warps: the unrolled steps are laid out for 32 lanes.
//
//===----------------------------------------------------------------------===//
#include "Wave64Internal.h"

#include "clang/AST/Decl.h"
#include "clang/Basic/SourceManager.h"
#include "llvm/Support/FormatVariadic.h"

using namespace pk;
using namespace pk::w64;
using namespace clang;

bool Walker::readsOtherSlot(const Stmt *X, const VarDecl *VD,
                            const std::string &Own) {
  if (!X)
    return false;
  if (const auto *A = dyn_cast<ArraySubscriptExpr>(X))
    if (rootVar(A->getBase()) == VD && text(A->getIdx()) != Own)
      return true;
  for (const Stmt *C : X->children())
    if (readsOtherSlot(C, VD, Own))
      return true;
  return false;
}

void Walker::volatileStep(const BinaryOperator *BO) {
  // vs[i] op= vs[j] / vs[i] = f(vs[i], vs[j]) on volatile shared memory.
  const auto *L =
      dyn_cast<ArraySubscriptExpr>(BO->getLHS()->IgnoreParenImpCasts());
  if (!L)
    return;
  QualType ET = L->getType();
  if (!ET.isVolatileQualified())
    return;
  const VarDecl *VD = rootVar(L->getBase());
  if (!VD)
    return;
  Space S = spaceOf(L->getBase());
  if (S != Space::Shared && !isa<ParmVarDecl>(VD))
    return;
  if (!readsOtherSlot(BO->getRHS(), VD, text(L->getIdx())))
    return;
  if (!I.SiteStmts.insert(BO).second)
    return;
  W64Site &X = I.site(W64Site::VolatileStep, BO,
                      I.entityFor(SM().getSpellingLoc(BO->getBeginLoc()), Ent));
  X.Name = VD->getName().str();
  I.hazard(W64Class::WarpSync, BO->getBeginLoc(),
           llvm::formatv("'{0}' reads another lane's volatile shared-memory "
                         "slot and writes its own with no __syncwarp: "
                         "implicit warp-synchronous code",
                         text(BO))
               .str());
  block(BO->getBeginLoc(),
        llvm::formatv("warp-synchronous step '{0}' is unrolled for 32 lanes",
                      text(BO))
            .str());
}
