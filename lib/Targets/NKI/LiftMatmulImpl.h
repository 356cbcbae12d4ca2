//===- LiftMatmulImpl.h - internals of the GEMM lifter --------------------===//
// Rules: PK5040, PK5041
//
// Shared by the files of the GEMM lifter (LiftMatmul*.cpp): integer
// polynomials, the coverage checks, the AST helpers, the integer evaluator,
// the emitter and the WMMA fragments.
//===----------------------------------------------------------------------===//
#ifndef PK_NKI_LIFTMATMULIMPL_H
#define PK_NKI_LIFTMATMULIMPL_H

#include "Lift.h"
#include "LiftMatmul.h"

#include "pk/DynamicVisitor.h"
#include "pk/Polynomial.h"
#include "clang/AST/ASTContext.h"
#include "clang/AST/Attr.h"
#include "clang/AST/Decl.h"
#include "clang/AST/DeclTemplate.h"
#include "clang/AST/Expr.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/Stmt.h"
#include "clang/Basic/SourceManager.h"
#include "clang/Lex/Lexer.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/Support/FormatVariadic.h"
#include <algorithm>
#include <cctype>
#include <functional>
#include <map>
#include <set>

namespace pk {
namespace nki {
namespace gemm {

using namespace clang;

//===----------------------------------------------------------------------===//
// Integer polynomials over atoms (thread/block indices, size parameters,
// loop variables, template parameters, x // c and x % c of such).
//===----------------------------------------------------------------------===//

using Mono = std::vector<std::string>;

/// Polynomials over named atoms (pk/Polynomial.h), printed as Python.
struct Poly : Polynomial<std::string> {
  using Base = Polynomial<std::string>;
  Poly() = default;
  Poly(Base B) : Base(std::move(B)) {}

  static Poly c(int64_t V) { return Base::constant(V); }
  static Poly atom(const std::string &A) { return Base::atom(A); }
  Poly operator+(const Poly &O) const { return Base::operator+(O); }
  Poly operator-(const Poly &O) const { return Base::operator-(O); }
  Poly operator*(int64_t K) const { return Base::operator*(K); }
  Poly operator*(const Poly &O) const { return Base::operator*(O); }
  std::optional<int64_t> constant() const { return asConstant(); }
  /// Whether an atom contains \p A (the name inside x // c and x % c
  /// atoms too).
  bool mentions(const std::string &A) const {
    for (const auto &[M, V] : *this)
      for (const std::string &X : M)
        if (X.find(A) != std::string::npos)
          return true;
    return false;
  }
  void divide(const std::string &A, Poly &Q, Poly &R) const {
    Base BQ, BR;
    Base::divide(A, BQ, BR);
    Q = BQ;
    R = BR;
  }
  Poly subst(const std::map<std::string, Poly> &S) const {
    return Base::subst(S);
  }
  std::string py() const {
    if (empty())
      return "0";
    std::string S;
    bool First = true;
    for (const auto &[M, V] : *this) {
      int64_t A = V;
      if (!First)
        S += A < 0 ? " - " : " + ";
      else if (A < 0)
        S += "-";
      if (A < 0)
        A = -A;
      std::string F;
      if (A != 1 || M.empty())
        F = std::to_string(A);
      for (const std::string &X : M)
        F += (F.empty() ? "" : " * ") + X;
      S += F;
      First = false;
    }
    return S;
  }
};

inline std::string paren(const std::string &S) {
  for (char C : S)
    if (C == ' ')
      return "(" + S + ")";
  return S;
}

//===----------------------------------------------------------------------===//
// Coverage checks that stay linear in the sizes.
//===----------------------------------------------------------------------===//

/// A generator of a trace-time set comprehension: `for Var in Range`, and
/// the names its range mentions.
struct CoverGen {
  std::string Var, Range;
  std::set<std::string> Uses;
  bool Launch = false; ///< over a launch dimension (never empty)
};

/// The Python names in \p S (identifiers, not attribute or call syntax).
std::set<std::string> pyNamesIn(const std::string &S);
std::set<std::string> pyNamesIn(const Poly &P);

/// The generators (in order) that \p Names depend on, directly or through
/// the ranges of other generators.
std::vector<size_t> genClosure(const std::vector<CoverGen> &Gens,
                               std::set<std::string> Names);

/// A check that the (row, col) pairs the launch produces cover an R x C
/// grid.  \p Full enumerates every block, thread and loop iteration at
/// trace time (quadratic in the sizes).  When Row and Col depend on
/// disjoint generators, the pairs are the product of the rows and the
/// columns, and two linear checks suffice: the rows cover R and the columns
/// cover C.  A thread index that Row reads only as (t // c) and Col only as
/// (t % c) (or the reverse) counts as two independent indices when its
/// range is a whole number of c: the check is then `(range % c == 0 and
/// <rows> and <cols>) or <Full>`; a warp index read as (t // 32) over
/// `range(0, block_x, 32)` is first the index of the warp.  \p RowOk / \p ColOk
/// filter (a Python condition on r_ / c_), \p RowCount / \p ColCount are the
/// expected counts.  Returns \p Full when no split applies.
std::string splitCoverCheck(Poly Row, Poly Col, std::vector<CoverGen> Gens,
                            const std::string &RowOk, const std::string &ColOk,
                            const std::string &RowCount,
                            const std::string &ColCount,
                            const std::string &Full);

//===----------------------------------------------------------------------===//
// Helpers on the AST.
//===----------------------------------------------------------------------===//

const Expr *stripCastsAndSubst(const Expr *E);
/// threadIdx.x -> "tid_x", blockIdx.y -> "bid_y", blockDim.x -> "block_x",
/// gridDim.y -> "grid_y".
std::optional<std::string> builtinAtom(const Expr *E);
/// The callee's name of a (possibly dependent or overloaded) call.
std::string calleeName(const CallExpr *C);
bool isBarrier(const clang::Stmt *S);
/// A statement without its implicit wrappers (cleanups of temporaries).
const clang::Stmt *unwrap(const clang::Stmt *S);
bool isZeroLiteral(const Expr *E);

//===----------------------------------------------------------------------===//
// What a proof produces: a GEMM description, emitted as a tile program.
//===----------------------------------------------------------------------===//

using Gemm = GemmSpec;

struct Refused {
  Refusal R;
};

[[noreturn]] inline void refuse(RuleId Rule, SourceLocation Loc,
                                std::string Msg) {
  throw Refused{Refusal{Rule, Loc, std::move(Msg)}};
}

//===----------------------------------------------------------------------===//
// Integer expressions.
//===----------------------------------------------------------------------===//

class IntEval {
public:
  std::map<const VarDecl *, Poly> Env;
  /// Upper bounds (inclusive, Python) of atoms, for bound proofs.
  std::map<std::string, std::string> Max;

  /// A result beyond 64-bit integers is no value the lifter knows.
  static std::optional<Poly> known(Poly P) {
    if (P.overflowed())
      return std::nullopt;
    return P;
  }

  std::optional<Poly> eval(const Expr *E) {
    E = stripCastsAndSubst(E);
    if (auto A = builtinAtom(E))
      return Poly::atom(*A);
    if (!E->isValueDependent() && E->getType()->isIntegerType()) {
      Expr::EvalResult R;
      if (E->EvaluateAsInt(R, *Ctx))
        return Poly::c(R.Val.getInt().getExtValue());
    }
    if (auto *I = dyn_cast<IntegerLiteral>(E))
      return Poly::c(I->getValue().getSExtValue());
    if (auto *D = dyn_cast<DeclRefExpr>(E)) {
      const ValueDecl *VD = D->getDecl();
      if (auto *T = dyn_cast<NonTypeTemplateParmDecl>(VD))
        return Poly::atom(pyName(T->getName()));
      if (auto *P = dyn_cast<ParmVarDecl>(VD)) {
        if (P->getType()->isIntegerType())
          return Poly::atom(pyName(P->getName()));
        return std::nullopt;
      }
      if (auto *V = dyn_cast<VarDecl>(VD)) {
        auto It = Env.find(V);
        if (It != Env.end())
          return It->second;
      }
      return std::nullopt;
    }
    if (auto *U = dyn_cast<UnaryOperator>(E)) {
      if (U->getOpcode() == UO_Minus)
        if (auto P = eval(U->getSubExpr()))
          return known(*P * -1);
      if (U->getOpcode() == UO_Plus)
        return eval(U->getSubExpr());
      return std::nullopt;
    }
    if (auto *B = dyn_cast<BinaryOperator>(E)) {
      auto L = eval(B->getLHS());
      auto R = eval(B->getRHS());
      if (!L || !R)
        return std::nullopt;
      switch (B->getOpcode()) {
      case BO_Add:
        return known(*L + *R);
      case BO_Sub:
        return known(*L - *R);
      case BO_Mul:
        return known(*L * *R);
      case BO_Div:
      case BO_Rem:
      case BO_Shr:
      case BO_And: {
        auto C = R->constant();
        if (!C || *C <= 0)
          return std::nullopt;
        int64_t D = *C;
        bool Div = B->getOpcode() == BO_Div || B->getOpcode() == BO_Shr;
        if (B->getOpcode() == BO_Shr) {
          if (D > 30)
            return std::nullopt;
          D = int64_t(1) << D;
        }
        if (B->getOpcode() == BO_And) {
          if ((D + 1) & D) // a low-bit mask 2^s - 1
            return std::nullopt;
          D = D + 1;
        }
        if (auto LC = L->constant())
          return Poly::c(Div ? *LC / D : *LC % D);
        return divAtom(*L, D, Div);
      }
      default:
        return std::nullopt;
      }
    }
    return std::nullopt;
  }

  /// (L // D) or (L % D) as an atom; its upper bound when L's is known.
  Poly divAtom(const Poly &L, int64_t D, bool Div) {
    std::string A =
        "(" + L.py() + (Div ? " // " : " % ") + std::to_string(D) + ")";
    if (!Max.count(A)) {
      if (!Div)
        Max[A] = std::to_string(D - 1);
      else if (auto M = maxOf(L))
        Max[A] = "(" + *M + " // " + std::to_string(D) + ")";
    }
    return Poly::atom(A);
  }

  /// The largest value of \p P (a Python expression) when every atom is
  /// non-negative with a known bound and every coefficient is positive.
  std::optional<std::string> maxOf(const Poly &P) {
    Poly R;
    std::map<std::string, Poly> S;
    for (const auto &[M, V] : P) {
      if (V < 0)
        return std::nullopt;
      for (const std::string &A : M) {
        auto It = Max.find(A);
        if (It == Max.end())
          return std::nullopt;
        S[A] = Poly::atom(paren(It->second));
      }
    }
    return P.subst(S).py();
  }

  ASTContext *Ctx = nullptr;
};

/// A conjunction of `L < R` conditions.
using Conds = std::vector<std::pair<Poly, Poly>>;

bool condsOf(IntEval &IE, const Expr *E, Conds &Out, bool Negated = false);

//===----------------------------------------------------------------------===//
// The emitted tile program.
//===----------------------------------------------------------------------===//

Access acc2(const std::string &T, const std::string &P0, const std::string &P1,
            const std::string &F0, const std::string &F1);
void emitGemm(const FunctionDecl *FD, const Gemm &G, Kernel &K);
/// The scalar of an epilogue factor: a float parameter or a constant.
std::optional<std::string> scalarOf(const Expr *E);

//===----------------------------------------------------------------------===//
// Structure 1: WMMA fragments loaded from global memory.
//===----------------------------------------------------------------------===//

struct Frag {
  std::string Use;    ///< matrix_a, matrix_b, accumulator
  std::string Layout; ///< row_major, col_major ("" for the accumulator)
  std::string Ty;     ///< element type spelling
  int64_t Mi = 0, Ni = 0, Ki = 0;
};

std::optional<Frag> fragOf(QualType T);

class WmmaGemm {
public:
  WmmaGemm(ASTContext &Ctx, const FunctionDecl *FD) : FD(FD) { IE.Ctx = &Ctx; }
  Gemm run();

private:
  const FunctionDecl *FD;
  IntEval IE;
  std::map<const VarDecl *, Frag> Frags;
  Conds Exits; ///< the thread continues only when all hold
  SourceLocation ExitLoc;

  const VarDecl *fragVar(const Expr *E) {
    E = E->IgnoreParenImpCasts();
    if (auto *D = dyn_cast<DeclRefExpr>(E))
      if (auto *V = dyn_cast<VarDecl>(D->getDecl()))
        if (Frags.count(V))
          return V;
    return nullptr;
  }
  /// `P + off` or `&P[off]` with P a pointer parameter.
  std::pair<const ParmVarDecl *, Poly> pointer(const Expr *E) {
    E = E->IgnoreParenImpCasts();
    if (auto *U = dyn_cast<UnaryOperator>(E))
      if (U->getOpcode() == UO_AddrOf)
        if (auto *A = dyn_cast<ArraySubscriptExpr>(
                U->getSubExpr()->IgnoreParenImpCasts()))
          if (auto *D =
                  dyn_cast<DeclRefExpr>(A->getBase()->IgnoreParenImpCasts()))
            if (auto *P = dyn_cast<ParmVarDecl>(D->getDecl()))
              if (auto I = IE.eval(A->getIdx()))
                return {P, *I};
    if (auto *D = dyn_cast<DeclRefExpr>(E))
      if (auto *P = dyn_cast<ParmVarDecl>(D->getDecl()))
        return {P, Poly()};
    if (auto *B = dyn_cast<BinaryOperator>(E))
      if (B->getOpcode() == BO_Add) {
        auto L = pointer(B->getLHS());
        if (L.first)
          if (auto I = IE.eval(B->getRHS()))
            return {L.first, L.second + *I};
      }
    const Expr *S = E;
    if (auto *D = dyn_cast<DeclRefExpr>(S))
      if (isa<VarDecl>(D->getDecl()) && !isa<ParmVarDecl>(D->getDecl()))
        refuse(RuleId::PK5040, E->getExprLoc(),
               "a WMMA fragment is loaded or stored through a local array "
               "(shared-memory staging of WMMA fragments is not lifted)");
    if (auto *U = dyn_cast<UnaryOperator>(E))
      if (U->getOpcode() == UO_AddrOf)
        refuse(RuleId::PK5040, E->getExprLoc(),
               "a WMMA fragment is loaded or stored through a local array "
               "(shared-memory staging of WMMA fragments is not lifted)");
    refuse(RuleId::PK5041, E->getExprLoc(),
           "the fragment's address is not a pointer parameter plus an "
           "offset over the thread, block and size variables");
  }
  std::string ldParam(const Expr *E) {
    auto P = IE.eval(E);
    if (!P || !P->single() || P->mentions("tid_") || P->mentions("bid_") ||
        P->mentions("block_") || P->mentions("grid_"))
      refuse(RuleId::PK5041, E->getExprLoc(),
             "the leading dimension of a WMMA load or store is not a size "
             "parameter of the kernel, so the matrix's shape is not "
             "recovered");
    return *P->single();
  }
};

} // namespace gemm
} // namespace nki
} // namespace pk

#endif
