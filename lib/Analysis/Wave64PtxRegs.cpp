//===- Wave64PtxRegs.cpp - inline PTX -------------------------------------===//
// Rules: PK2006, PK2013, PK2103, PK2108, PK2110
//
// Inline PTX that reads a lane register: %laneid is a lane id (class 3,
// PK2103), %lanemask_* a lane mask (class 8, PK2108).  A single `mov` of
// one register is a site (PK2006: HIP lane queries); anything else blocks
// native warps.  Other warp instructions (shfl.sync, vote, %warpid, ...)
// have no rewrite (PK2013); mma/ldmatrix use NVIDIA's fragment layout
// (class 10, PK2110).
//
//===----------------------------------------------------------------------===//
#include "Wave64Internal.h"

#include "clang/AST/Expr.h"
#include "clang/AST/Stmt.h"
#include "clang/Basic/SourceManager.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FormatVariadic.h"

using namespace pk;
using namespace pk::w64;
using namespace clang;

void Walker::asmStmt(const GCCAsmStmt *AS) {
  llvm::StringRef T = AS->getAsmString()->getString();
  static const char *Regs[] = {"laneid",      "lanemask_lt", "lanemask_le",
                               "lanemask_eq", "lanemask_gt", "lanemask_ge"};
  for (const char *R : Regs) {
    std::string Pat = std::string("%") + R;
    size_t P = T.find(Pat);
    if (P == llvm::StringRef::npos)
      continue;
    // The whole register name (lanemask_lt, not a prefix of another).
    size_t E = P + Pat.size();
    if (E < T.size() && (llvm::isAlnum(T[E]) || T[E] == '_'))
      continue;
    laneRegister(AS, R);
    return;
  }
  warpInstruction(AS);
  for (unsigned K = 0; K < AS->getNumInputs(); ++K)
    eval(AS->getInputExpr(K));
}

void Walker::laneRegister(const GCCAsmStmt *AS, const char *R) {
  llvm::StringRef T = AS->getAsmString()->getString();
  llvm::StringRef Reg(R);
  bool Simple = AS->getNumOutputs() == 1 && AS->getNumInputs() == 0 &&
                T.trim().starts_with("mov.") && T.count(';') <= 1;
  Val V;
  if (Reg == "laneid") {
    V.Dep = D_LANE;
    V.Kind = K_LANE;
  } else {
    V.Dep = D_MASK;
    V.Kind = K_MASK | (Reg == "lanemask_lt" ? K_BELOW : 0) |
             (Reg == "lanemask_eq" ? K_LANEBIT : 0);
  }
  if (AS->getNumOutputs() >= 1)
    assignTo(AS->getOutputExpr(0), AS, V, nullptr);
  if (!Rec)
    return;
  if (Simple && !I.SiteStmts.count(AS)) {
    I.SiteStmts.insert(AS);
    W64Site &S =
        I.site(W64Site::PtxAsm, AS,
               I.entityFor(SM().getSpellingLoc(AS->getBeginLoc()), Ent));
    S.Name = R;
  } else if (!Simple)
    block(AS->getBeginLoc(), "inline PTX reads a lane register");
  hazard(Reg == "laneid" ? W64Class::LaneArith : W64Class::LaneBits,
         AS->getBeginLoc(),
         llvm::formatv("inline PTX reads %{0}: a 32-lane {1}", R,
                       Reg == "laneid" ? "lane id" : "lane mask")
             .str());
}

void Walker::warpInstruction(const GCCAsmStmt *AS) {
  llvm::StringRef T = AS->getAsmString()->getString();
  bool Warp = T.contains("%warpid") || T.contains("shfl.sync") ||
              T.contains("vote.") || T.contains("bar.warp") ||
              T.contains("redux.sync") || T.contains("match.");
  bool Mma =
      T.contains("mma.sync") || T.contains("ldmatrix") || T.contains("wmma.");
  if (!Rec || !(Warp || Mma))
    return;
  if (Warp && !I.SiteStmts.count(AS)) {
    I.SiteStmts.insert(AS);
    W64Site &S = I.site(W64Site::Unsupported, AS, Ent);
    S.Name = "inline PTX warp instruction";
  }
  block(AS->getBeginLoc(), Mma ? "inline PTX tensor-core instruction"
                               : "inline PTX warp instruction");
  I.hazard(Mma ? W64Class::TensorFrag : W64Class::LaneArith, AS->getBeginLoc(),
           Mma ? "inline PTX mma/ldmatrix: the fragment layout is NVIDIA's "
                 "32-lane layout"
               : "inline PTX warp instruction assumes 32-lane warps");
}
