//===- LiftMatmulTiled.h - staged-tile GEMMs executed symbolically --------===//
// Rules: PK5040, PK5041
//
// Structure 2 of LiftMatmul.cpp: the symbolic values, array definitions and
// accumulations of a per-thread program over staged tiles, and the executor
// (LiftMatmulTiled.cpp, LiftMatmulTiledExec.cpp, LiftMatmulProve.cpp).
//===----------------------------------------------------------------------===//
#ifndef PK_NKI_LIFTMATMULTILED_H
#define PK_NKI_LIFTMATMULTILED_H

#include "LiftMatmulImpl.h"
#include <memory>

namespace pk {
namespace nki {
namespace gemm {

//===----------------------------------------------------------------------===//
// Structure 2: scalar multiply-accumulate over staged tiles, executed
// symbolically.
//===----------------------------------------------------------------------===//

struct FV;
using FVP = std::shared_ptr<const FV>;
struct FV {
  enum Kind { Zero, Scalar, Load, Acc, Add, Mul } K = Zero;
  std::string S;                  ///< Scalar: Python text
  const ParmVarDecl *P = nullptr; ///< Load
  Poly Idx;                       ///< Load
  Conds Guard;                    ///< Load: zero unless all hold
  const VarDecl *AccV = nullptr;  ///< Acc
  std::vector<Poly> AccIdx;       ///< Acc
  /// Acc read back from a shared tile: the writer warp's offset atoms,
  /// replaced in the accumulated term by fresh atoms.
  std::map<std::string, Poly> AccSub;
  FVP L, R;
};

inline FVP mk(FV V) { return std::make_shared<const FV>(std::move(V)); }

FVP substFV(const FVP &V, const std::map<std::string, Poly> &S);
void atomsOf(const FVP &V, std::set<std::string> &Out);

struct LoopCtx {
  std::string Var; ///< atom
  Poly Begin, End, Step;
  bool Coop = false;
  bool KTile = false; ///< contains barriers
};

/// An array (shared or per-thread) element definition: Arr[Vars...] = V.
struct Def {
  std::vector<std::string> Vars; ///< one per dimension
  FVP V;
  std::vector<Poly> Ext; ///< elements written per dimension (empty: all)
  /// A WMMA accumulator stored as 16x16 tiles at per-warp offsets: the
  /// (row, column) offset; reads are checked to be covered by the tiles.
  std::optional<std::pair<Poly, Poly>> Tile;
  /// The loops over an array of accumulator fragments around that store
  /// (the offset depends on their variables).
  std::vector<LoopCtx> TileLoops;
};

/// A WMMA fragment argument: a fragment variable, or an element of an array
/// of fragments with its indices.
struct FragRef {
  const VarDecl *V = nullptr;
  std::vector<Poly> Idx;
  std::vector<const Expr *> IdxE;
};

struct Accum {
  std::vector<std::string> Vars; ///< element variables (array accumulators)
  FVP Term;
  std::vector<LoopCtx> Sums;
  SourceLocation Loc;
};

struct OutStore {
  const ParmVarDecl *P = nullptr;
  Poly Idx;
  FVP V;
  Conds Guard;
  std::vector<LoopCtx> Loops; ///< element loops around the store
  SourceLocation Loc;
};

class TiledGemm {
public:
  TiledGemm(ASTContext &Ctx, const FunctionDecl *FD) : FD(FD) {
    IE.Ctx = &Ctx;
    for (const char *D : {"x", "y"}) {
      IE.Max[std::string("tid_") + D] = std::string("block_") + D + " - 1";
      IE.Max[std::string("bid_") + D] = std::string("grid_") + D + " - 1";
    }
  }
  Gemm run();

private:
  const FunctionDecl *FD;
  IntEval IE;
  std::map<const VarDecl *, std::vector<Poly>>
      Dims; ///< shared and local arrays
  std::set<const VarDecl *> Shared;
  std::map<const VarDecl *, Def> Defs;
  std::map<const VarDecl *, Accum> Accs;
  std::set<const VarDecl *> ZeroInit;
  std::set<const VarDecl *> StagedNow; ///< shared arrays written this phase
  std::vector<LoopCtx> Loops;
  Conds Guard;
  std::optional<OutStore> Out;
  std::vector<std::pair<std::string, std::string>> Checks, Assigns;
  std::set<std::string> Bound;           ///< template parameters given a value
  std::map<const VarDecl *, Frag> Frags; ///< WMMA fragments
  /// The dimensions of arrays of fragments (empty for a single fragment).
  std::map<const VarDecl *, std::vector<Poly>> FragDims;
  bool KDone = false; ///< the K-tile loop has run
  /// -1: outside the K-tile loop; 0 staging; 1 compute; 2 done; after the
  /// K-tile loop: 3 accumulator tiles stored to shared; 4 after its barrier.
  int Phase = -1;
  unsigned Fresh = 0;

  void check(std::string C, std::string W) {
    for (const auto &X : Checks)
      if (X.first == C)
        return;
    Checks.push_back({std::move(C), std::move(W)});
  }

  Poly ieval(const Expr *E) {
    auto P = IE.eval(E);
    if (!P)
      refuse(RuleId::PK5041, E->getExprLoc(),
             "index is not an integer expression of the thread, block, "
             "loop and size variables");
    return *P;
  }

  const VarDecl *varOf(const Expr *E) {
    if (auto *D = dyn_cast<DeclRefExpr>(E->IgnoreParenImpCasts()))
      return dyn_cast<VarDecl>(D->getDecl());
    return nullptr;
  }

  /// Base variable and index polynomials of a (nested) subscript.
  const VarDecl *subscript(const Expr *E, std::vector<Poly> &Idx) {
    E = E->IgnoreParenImpCasts();
    std::vector<const Expr *> Is;
    while (auto *A = dyn_cast<ArraySubscriptExpr>(E)) {
      Is.push_back(A->getIdx());
      E = A->getBase()->IgnoreParenImpCasts();
    }
    const VarDecl *V = varOf(E);
    for (auto It = Is.rbegin(); It != Is.rend(); ++It)
      Idx.push_back(ieval(*It));
    return V;
  }

  std::vector<Poly> dimsOf(const VarDecl *V) {
    std::vector<Poly> D;
    QualType T = V->getType();
    while (true) {
      if (auto *CA = dyn_cast<ConstantArrayType>(
              T.getTypePtr()->getUnqualifiedDesugaredType())) {
        D.push_back(Poly::c(CA->getSize().getSExtValue()));
        T = CA->getElementType();
      } else if (auto *DA = dyn_cast<DependentSizedArrayType>(
                     T.getTypePtr()->getUnqualifiedDesugaredType())) {
        D.push_back(ieval(DA->getSizeExpr()));
        T = DA->getElementType();
      } else {
        break;
      }
    }
    auto DT = dtypeOf(T);
    bool Float = T->isFloatingType() ||
                 (DT && (*DT == DType::F16 || *DT == DType::BF16));
    if (!Float && !T->isDependentType())
      refuse(RuleId::PK5040, V->getLocation(),
             "array '" + V->getNameAsString() +
                 "' does not hold floating-point values");
    return D;
  }

  /// The upper bound check of a read index against its dimension.
  void inBounds(const Poly &I, const Poly &D, SourceLocation Loc,
                const std::string &Arr) {
    auto M = IE.maxOf(I);
    if (!M)
      refuse(RuleId::PK5041, Loc,
             "the read of '" + Arr + "' at index " + I.py() +
                 " is not proven inside the array");
    check(*M + " < " + D.py(), "the reads of '" + Arr + "' stay inside it");
  }

  FVP value(const Expr *E);
  FVP readArray(const VarDecl *V, const std::vector<Poly> &Idx,
                SourceLocation Loc);
  void tileCovers(const std::pair<Poly, Poly> &T,
                  const std::vector<LoopCtx> &TileLoops,
                  const std::vector<Poly> &Idx, SourceLocation Loc,
                  const std::string &Arr);
  const VarDecl *sharedTile(const Expr *Ptr, const Expr *Ld, Poly &R0, Poly &C0,
                            SourceLocation Loc);
  void warpUniform(const Poly &P, SourceLocation Loc);
  std::string freshAtom(const std::string &Hint, int64_t Max) {
    std::string A = "v_" + Hint + std::to_string(Fresh++) + "_";
    IE.Max[A] = std::to_string(Max);
    return A;
  }
  void wmmaCall(const CallExpr *C);
  FragRef fragArg(const CallExpr *C, unsigned I);
  std::vector<std::string> fragLoops(const FragRef &R, RuleId Rule,
                                     SourceLocation Loc, const std::string &N);
  bool uniformLoopVar(const std::string &A) const;
  /// Source names of loop variables' atoms, for messages.
  std::map<std::string, std::string> LoopNames;
  std::string sourceNames(const Poly &P) const {
    std::map<std::string, Poly> S;
    for (const auto &[A, N] : LoopNames)
      S[A] = Poly::atom(N);
    return P.subst(S).py();
  }
  std::string text(const Expr *E) const {
    const SourceManager &SM = IE.Ctx->getSourceManager();
    return Lexer::getSourceText(
               CharSourceRange::getTokenRange(
                   SM.getExpansionRange(E->getSourceRange()).getAsRange()),
               SM, IE.Ctx->getLangOpts())
        .str();
  }
  void exec(const clang::Stmt *S);
  void forLoop(const ForStmt *F);
  void assign(const Expr *LHS, const Expr *RHS, BinaryOperatorKind Op,
              SourceLocation Loc);
  void defineArray(const VarDecl *V, const std::vector<Poly> &Idx, FVP Val,
                   SourceLocation Loc);
  Gemm prove();
};

} // namespace gemm
} // namespace nki
} // namespace pk

#endif
