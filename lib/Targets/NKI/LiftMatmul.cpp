//===- LiftMatmul.cpp - GEMM kernels to nc_matmul tile programs -----------===//
// Rules: PK5040, PK5041, PK5042, PK5043, PK5044
//
// A kernel is lifted to an NKI GEMM when its per-thread program is proven to
// compute, for every element (row, col) of an M x N output C that it stores,
//   C[row * N + col] = alpha * sum_k A[row, k] * B[k, col]  (+ beta * C[...])
// with A an M x K row-major array, B a K x N row-major array or given as its
// N x K row-major transpose (a col-major B), and the stores of all threads
// covering C.  Two program structures are recognised:
//
//  * WMMA from global memory: fill_fragment(acc, 0); a loop over K in steps
//    of 16 loading an A and a B fragment through pointers `P + off` with a
//    size parameter as leading dimension and accumulating with mma_sync; an
//    optional element-wise `acc.x[i] *= s`; store_matrix_sync into C.  The
//    fragment offsets are decomposed as polynomials over the thread and
//    block indices and the size parameters (row * ld + col).
//
//  * Scalar multiply-accumulate over staged tiles (shared-memory tiles and
//    register blocking): the per-thread program is executed symbolically.
//    Shared-memory and register arrays are defined by stores whose indices
//    are free variables (thread indices, cooperative loop indices, element
//    loops); a read of such an array is resolved to the value the writer of
//    that element stored (the writer's variables solved from the read's
//    indices), so an accumulation `acc += As[..] * Bs[..]` inside the K
//    loops becomes a sum over k of products of two global loads with their
//    zero-fill guards.  The sum is then matched against A[row, k] * B[k, col]
//    where (row, col) is the guarded element of the final store.
//    WMMA fragments over staged tiles are executed the same way: a fragment
//    load defines a 16x16 array read from a shared tile (transposed for a
//    col_major fragment), mma_sync a 16-deep sum, store_matrix_sync a
//    shared float tile of accumulator tiles.  Arrays of fragments (warp
//    tiles of several fragments) are defined by calls in loops over each
//    whole dimension, their indices becoming variables of the definition;
//    loops 'for (kk = 0; kk < T; kk += 16)' that split the K tile join the
//    sum over k.
//
// Facts that depend on the sizes and the launch (the launch covers every
// element of C, blocks have the number of threads the staging loops assume,
// reads of staged tiles stay inside them, K a multiple of the fragment K
// when no zero fill guards it) become trace-time assertions of the NKI
// kernel; the launch dimensions become parameters.  The coverage assertion
// checks rows and columns separately (linear in M + N) when they depend on
// different block, thread and loop indices, and enumerates every (row, col)
// of the launch only when they share one.
//
// The tile program: C in tiles of 128 rows (the stationary free size) by
// 512 columns (the moving free size; 128 when B is transposed), K in tiles
// of 128 (the partition / contraction limit); A tiles are transposed to
// [K, M] with nc_transpose (through a PSUM tile of A's dtype: a transpose
// keeps its input's dtype) to be the stationary operand, B
// tiles [K, N] are the moving operand; nc_matmul accumulates into one PSUM
// tile per C tile, evicted with tensor_copy; alpha with tensor_scalar, beta
// * C with tensor_scalar and tensor_tensor.  Ragged edges are min()-bounded.
//
// A kernel with the GEMM shape that fails a proof is reported:
//   PK5040 structure outside the recognised ones; PK5041 operand layout;
//   PK5042 K accumulation; PK5043 epilogue; PK5044 output coverage/guard.
//
//===----------------------------------------------------------------------===//
#include "LiftMatmul.h"
#include "Lift.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/Attr.h"
#include "clang/AST/Decl.h"
#include "clang/AST/DeclTemplate.h"
#include "clang/AST/Expr.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/RecursiveASTVisitor.h"
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

using namespace pk;
using namespace pk::nki;
using namespace clang;

namespace {

//===----------------------------------------------------------------------===//
// Integer polynomials over atoms (thread/block indices, size parameters,
// loop variables, template parameters, x // c and x % c of such).
//===----------------------------------------------------------------------===//

using Mono = std::vector<std::string>;

struct Poly {
  std::map<Mono, int64_t> T;

  static Poly c(int64_t V) {
    Poly P;
    if (V)
      P.T[{}] = V;
    return P;
  }
  static Poly atom(const std::string &A) {
    Poly P;
    P.T[{A}] = 1;
    return P;
  }
  Poly operator+(const Poly &O) const {
    Poly R = *this;
    for (const auto &[M, V] : O.T)
      if (!(R.T[M] += V))
        R.T.erase(M);
    return R;
  }
  Poly operator*(int64_t K) const {
    Poly R;
    if (K)
      for (const auto &[M, V] : T)
        R.T[M] = V * K;
    return R;
  }
  Poly operator-(const Poly &O) const { return *this + O * -1; }
  Poly operator*(const Poly &O) const {
    Poly R;
    for (const auto &[M1, V1] : T)
      for (const auto &[M2, V2] : O.T) {
        Mono M = M1;
        M.insert(M.end(), M2.begin(), M2.end());
        std::sort(M.begin(), M.end());
        if (!(R.T[M] += V1 * V2))
          R.T.erase(M);
      }
    return R;
  }
  bool operator==(const Poly &O) const { return T == O.T; }
  bool operator!=(const Poly &O) const { return T != O.T; }
  std::optional<int64_t> constant() const {
    if (T.empty())
      return 0;
    if (T.size() == 1 && T.begin()->first.empty())
      return T.begin()->second;
    return std::nullopt;
  }
  /// The single atom this polynomial is (coefficient 1), if any.
  std::optional<std::string> single() const {
    if (T.size() == 1 && T.begin()->first.size() == 1 && T.begin()->second == 1)
      return T.begin()->first[0];
    return std::nullopt;
  }
  bool mentions(const std::string &A) const {
    for (const auto &[M, V] : T)
      for (const std::string &X : M)
        if (X == A || X.find(A) != std::string::npos)
          return true;
    return false;
  }
  std::set<std::string> atoms() const {
    std::set<std::string> S;
    for (const auto &[M, V] : T)
      S.insert(M.begin(), M.end());
    return S;
  }
  /// Splits into Q * A + R where no term of R contains the atom \p A (one
  /// occurrence of A is taken out of each term of Q).
  void divide(const std::string &A, Poly &Q, Poly &R) const {
    Q = Poly();
    R = Poly();
    for (const auto &[M, V] : T) {
      auto It = std::find(M.begin(), M.end(), A);
      if (It == M.end()) {
        R.T[M] = V;
        continue;
      }
      Mono M2 = M;
      M2.erase(M2.begin() + (It - M.begin()));
      Q.T[M2] = V;
    }
  }
  /// Replaces atoms (whole atoms only).
  Poly subst(const std::map<std::string, Poly> &S) const {
    Poly R;
    for (const auto &[M, V] : T) {
      Poly Term = Poly::c(V);
      for (const std::string &A : M) {
        auto It = S.find(A);
        Term = Term * (It == S.end() ? Poly::atom(A) : It->second);
      }
      R = R + Term;
    }
    return R;
  }
  std::string py() const {
    if (T.empty())
      return "0";
    std::string S;
    bool First = true;
    for (const auto &[M, V] : T) {
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

std::string paren(const std::string &S) {
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
std::set<std::string> pyNamesIn(const std::string &S) {
  std::set<std::string> R;
  for (size_t I = 0; I < S.size();) {
    if (std::isalpha((unsigned char)S[I]) || S[I] == '_') {
      size_t J = I;
      while (J < S.size() && (std::isalnum((unsigned char)S[J]) || S[J] == '_'))
        ++J;
      R.insert(S.substr(I, J - I));
      I = J;
    } else {
      ++I;
    }
  }
  return R;
}

std::set<std::string> pyNamesIn(const Poly &P) {
  std::set<std::string> R;
  for (const std::string &A : P.atoms())
    for (const std::string &N : pyNamesIn(A))
      R.insert(N);
  return R;
}

/// The generators (in order) that \p Names depend on, directly or through
/// the ranges of other generators.
std::vector<size_t> genClosure(const std::vector<CoverGen> &Gens,
                               std::set<std::string> Names) {
  std::vector<bool> In(Gens.size(), false);
  for (bool Changed = true; Changed;) {
    Changed = false;
    for (size_t I = 0; I < Gens.size(); ++I)
      if (!In[I] && Names.count(Gens[I].Var)) {
        In[I] = Changed = true;
        Names.insert(Gens[I].Uses.begin(), Gens[I].Uses.end());
      }
  }
  std::vector<size_t> R;
  for (size_t I = 0; I < Gens.size(); ++I)
    if (In[I])
      R.push_back(I);
  return R;
}

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
                            const std::string &Full) {
  std::vector<std::string> Pre;
  auto Args = [](const std::string &Range) {
    std::vector<std::string> A;
    if (Range.rfind("range(", 0) != 0 || Range.back() != ')')
      return A;
    llvm::SmallVector<llvm::StringRef, 3> Parts;
    llvm::StringRef(Range).substr(6, Range.size() - 7).split(Parts, ", ");
    for (llvm::StringRef P : Parts)
      A.push_back(P.str());
    return A;
  };
  // A generator `V in range(0, X, s)` (s > 1) that Row and Col read only as
  // (V // s) becomes `V_w_ in range((X + s - 1) // s)`.
  for (CoverGen &G : Gens) {
    std::vector<std::string> A = Args(G.Range);
    if (A.size() != 3 || A[0] != "0" || A[2].empty() ||
        !std::all_of(A[2].begin(), A[2].end(), ::isdigit) || A[2] == "1")
      continue;
    std::string From = "(" + G.Var + " // " + A[2] + ")", To = G.Var + "_w_";
    bool Only = true;
    for (const Poly *P : {&Row, &Col})
      for (const std::string &At : P->atoms()) {
        std::string Rest = At;
        for (size_t K; (K = Rest.find(From)) != std::string::npos;)
          Rest.replace(K, From.size(), To);
        Only = Only && !pyNamesIn(Rest).count(G.Var);
      }
    if (!Only)
      continue;
    auto Rename = [&](const Poly &P) {
      Poly R;
      for (const auto &[M, V] : P.T) {
        Poly Term = Poly::c(V);
        for (std::string At : M) {
          for (size_t K; (K = At.find(From)) != std::string::npos;)
            At.replace(K, From.size(), To);
          // A renamed atom that is the bare index is that index.
          if (At == "(" + To + ")")
            At = To;
          Term = Term * Poly::atom(At);
        }
        R = R + Term;
      }
      return R;
    };
    Row = Rename(Row);
    Col = Rename(Col);
    G.Range = "range((" + A[1] + " + " + A[2] + " - 1) // " + A[2] + ")";
    G.Var = To;
    G.Uses = pyNamesIn(A[1]);
  }
  // A generator `V in range(X)` or `range(0, X, 1)` that Row reads only as
  // (V // c) and Col only as (V % c), or the reverse, becomes two.
  for (size_t I = 0; I < Gens.size(); ++I) {
    const std::string V = Gens[I].Var;
    std::vector<std::string> A = Args(Gens[I].Range);
    std::string Ext = A.size() == 1                                 ? A[0]
                      : A.size() == 3 && A[0] == "0" && A[2] == "1" ? A[1]
                                                                    : "";
    if (Ext.empty())
      continue;
    // The atoms of Row and Col that mention V, and the divisor c of the
    // (V // c) and (V % c) forms.
    auto Forms = [&](const Poly &P, const char *Op, std::string &C) {
      for (const std::string &At : P.atoms()) {
        if (!pyNamesIn(At).count(V))
          continue;
        std::string Pfx = "(" + V + " " + Op + " ";
        if (At.rfind(Pfx, 0) != 0 || At.back() != ')')
          return false;
        std::string D = At.substr(Pfx.size(), At.size() - Pfx.size() - 1);
        if (D.empty() || !std::all_of(D.begin(), D.end(), ::isdigit) ||
            (!C.empty() && C != D))
          return false;
        C = D;
      }
      return true;
    };
    if (!pyNamesIn(Row).count(V) || !pyNamesIn(Col).count(V))
      continue;
    std::string C1, C2;
    bool DivMod = Forms(Row, "//", C1) && Forms(Col, "%", C2);
    bool ModDiv = false;
    if (!DivMod) {
      C1.clear();
      C2.clear();
      ModDiv = Forms(Row, "%", C1) && Forms(Col, "//", C2);
    }
    if ((!DivMod && !ModDiv) || C1 != C2)
      continue;
    std::string Q = V + "_q_", R = V + "_r_";
    std::map<std::string, Poly> Sub = {
        {"(" + V + " // " + C1 + ")", Poly::atom(Q)},
        {"(" + V + " % " + C1 + ")", Poly::atom(R)}};
    Row = Row.subst(Sub);
    Col = Col.subst(Sub);
    Pre.push_back(paren(Ext) + " % " + C1 + " == 0");
    std::set<std::string> Uses = pyNamesIn(Ext);
    Gens[I] = CoverGen{Q, "range(" + paren(Ext) + " // " + C1 + ")", Uses,
                       Gens[I].Launch};
    Gens.insert(Gens.begin() + I + 1,
                CoverGen{R, "range(" + C1 + ")", {}, true});
    ++I;
  }
  std::vector<size_t> R = genClosure(Gens, pyNamesIn(Row));
  std::vector<size_t> C = genClosure(Gens, pyNamesIn(Col));
  std::set<size_t> Both(R.begin(), R.end());
  for (size_t I : C)
    if (Both.count(I))
      return Full;
  Both.insert(C.begin(), C.end());
  // A generator neither side uses multiplies the pairs; it must not be an
  // empty loop (launch dimensions are at least 1).
  for (size_t I = 0; I < Gens.size(); ++I)
    if (!Both.count(I) && !Gens[I].Launch)
      return Full;
  auto Set = [&](const Poly &P, const std::vector<size_t> &Is) {
    std::string S = "{" + P.py();
    for (size_t I : Is)
      S += " for " + Gens[I].Var + " in " + Gens[I].Range;
    return S + "}";
  };
  std::string Split = "len({r_ for r_ in " + Set(Row, R) + " if " + RowOk +
                      "}) == " + RowCount + " and len({c_ for c_ in " +
                      Set(Col, C) + " if " + ColOk + "}) == " + ColCount;
  if (Pre.empty())
    return Split;
  return "(" + llvm::join(Pre, " and ") + " and " + Split + ") or " + Full;
}

//===----------------------------------------------------------------------===//
// Helpers on the AST.
//===----------------------------------------------------------------------===//

const Expr *stripCastsAndSubst(const Expr *E) {
  while (true) {
    E = E->IgnoreParenImpCasts();
    if (auto *C = dyn_cast<ExplicitCastExpr>(E)) {
      if (C->getType()->isIntegerType() &&
          C->getSubExpr()->getType()->isIntegerType()) {
        E = C->getSubExpr();
        continue;
      }
    }
    if (auto *S = dyn_cast<SubstNonTypeTemplateParmExpr>(E)) {
      E = S->getReplacement();
      continue;
    }
    return E;
  }
}

/// threadIdx.x -> "tid_x", blockIdx.y -> "bid_y", blockDim.x -> "block_x",
/// gridDim.y -> "grid_y".
std::optional<std::string> builtinAtom(const Expr *E) {
  E = E->IgnoreParenImpCasts();
  if (auto *P = dyn_cast<PseudoObjectExpr>(E))
    E = P->getSyntacticForm()->IgnoreParenImpCasts();
  const Expr *Base = nullptr;
  std::string Field;
  if (auto *M = dyn_cast<MSPropertyRefExpr>(E)) {
    Base = M->getBaseExpr();
    Field = M->getPropertyDecl()->getName().str();
  } else if (auto *M = dyn_cast<MemberExpr>(E)) {
    Base = M->getBase();
    Field = M->getMemberDecl()->getName().str();
  } else {
    return std::nullopt;
  }
  Base = Base->IgnoreParenImpCasts();
  if (auto *O = dyn_cast<OpaqueValueExpr>(Base))
    if (O->getSourceExpr())
      Base = O->getSourceExpr()->IgnoreParenImpCasts();
  auto *D = dyn_cast<DeclRefExpr>(Base);
  if (!D || Field.size() != 1 || Field[0] < 'x' || Field[0] > 'z')
    return std::nullopt;
  std::string N = D->getDecl()->getName().str();
  const char *P = N == "threadIdx"  ? "tid_"
                  : N == "blockIdx" ? "bid_"
                  : N == "blockDim" ? "block_"
                  : N == "gridDim"  ? "grid_"
                                    : nullptr;
  if (!P)
    return std::nullopt;
  return std::string(P) + Field;
}

/// The callee's name of a (possibly dependent or overloaded) call.
std::string calleeName(const CallExpr *C) {
  if (const FunctionDecl *F = C->getDirectCallee())
    return F->getNameAsString();
  const Expr *E = C->getCallee()->IgnoreParenImpCasts();
  if (auto *U = dyn_cast<UnresolvedLookupExpr>(E))
    return U->getName().getAsString();
  if (auto *D = dyn_cast<DeclRefExpr>(E))
    return D->getDecl()->getNameAsString();
  return "";
}

bool isBarrier(const clang::Stmt *S) {
  auto *C = dyn_cast<CallExpr>(S);
  return C && calleeName(C) == "__syncthreads";
}

/// A statement without its implicit wrappers (cleanups of temporaries).
const clang::Stmt *unwrap(const clang::Stmt *S) {
  if (auto *E = dyn_cast_or_null<Expr>(S))
    return E->IgnoreImplicit();
  return S;
}

bool isZeroLiteral(const Expr *E) {
  E = E->IgnoreImplicit()->IgnoreParenImpCasts();
  if (auto *F = dyn_cast<FloatingLiteral>(E))
    return F->getValue().isZero();
  if (auto *I = dyn_cast<IntegerLiteral>(E))
    return I->getValue() == 0;
  if (auto *C = dyn_cast<CallExpr>(E)) {
    std::string N = calleeName(C);
    if ((N == "__float2half" || N == "__float2bfloat16" ||
         N == "__float2half_rn" || N == "__float2bfloat16_rn") &&
        C->getNumArgs() == 1)
      return isZeroLiteral(C->getArg(0));
  }
  if (auto *C = dyn_cast<CXXFunctionalCastExpr>(E))
    return isZeroLiteral(C->getSubExpr());
  if (auto *C = dyn_cast<CXXConstructExpr>(E))
    return C->getNumArgs() == 1 && isZeroLiteral(C->getArg(0));
  return false;
}

/// Does the kernel have the shape of a GEMM: a WMMA mma_sync, or a
/// floating `+=` of a product reading a shared or local array?
class GemmShape : public RecursiveASTVisitor<GemmShape> {
public:
  bool Mma = false, Mac = false, Shared = false;
  unsigned Depth = 0;
  bool VisitVarDecl(VarDecl *V) {
    Shared = Shared || V->hasAttr<CUDASharedAttr>();
    return true;
  }
  /// mma_sync inside a loop (a K loop): a lone mma_sync is not a GEMM.
  bool TraverseForStmt(ForStmt *F) {
    ++Depth;
    bool R = RecursiveASTVisitor::TraverseForStmt(F);
    --Depth;
    return R;
  }
  bool VisitCallExpr(CallExpr *C) {
    if (Depth && calleeName(C) == "mma_sync")
      Mma = true;
    return true;
  }
  bool VisitBinaryOperator(BinaryOperator *B) {
    if (B->getOpcode() != BO_AddAssign)
      return true;
    if (!B->getLHS()->getType()->isFloatingType() &&
        !B->getLHS()->getType()->isDependentType())
      return true;
    auto *M = dyn_cast<BinaryOperator>(B->getRHS()->IgnoreParenImpCasts());
    if (!M || M->getOpcode() != BO_Mul)
      return true;
    // Both factors elements of local arrays (staged tiles, registers).
    int Staged = 0;
    for (const Expr *Op : {M->getLHS(), M->getRHS()})
      if (auto *A = dyn_cast<ArraySubscriptExpr>(Op->IgnoreParenImpCasts())) {
        const Expr *Base = A->getBase()->IgnoreParenImpCasts();
        while (auto *A2 = dyn_cast<ArraySubscriptExpr>(Base))
          Base = A2->getBase()->IgnoreParenImpCasts();
        if (auto *D = dyn_cast<DeclRefExpr>(Base))
          if (auto *V = dyn_cast<VarDecl>(D->getDecl()))
            if (!isa<ParmVarDecl>(V) && V->getType()->isArrayType())
              ++Staged;
      }
    Mac = Mac || Staged == 2;
    return true;
  }
};

//===----------------------------------------------------------------------===//
// What a proof produces: a GEMM description, emitted as a tile program.
//===----------------------------------------------------------------------===//

using Gemm = GemmSpec;

struct Refused {
  Refusal R;
};

[[noreturn]] void refuse(RuleId Rule, SourceLocation Loc, std::string Msg) {
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
          return *P * -1;
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
        return *L + *R;
      case BO_Sub:
        return *L - *R;
      case BO_Mul:
        return *L * *R;
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
    for (const auto &[M, V] : P.T) {
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

bool condsOf(IntEval &IE, const Expr *E, Conds &Out, bool Negated = false) {
  E = stripCastsAndSubst(E);
  if (auto *U = dyn_cast<UnaryOperator>(E))
    if (U->getOpcode() == UO_LNot)
      return condsOf(IE, U->getSubExpr(), Out, !Negated);
  auto *B = dyn_cast<BinaryOperator>(E);
  if (!B)
    return false;
  BinaryOperatorKind Op = B->getOpcode();
  if ((Op == BO_LAnd && !Negated) || (Op == BO_LOr && Negated))
    return condsOf(IE, B->getLHS(), Out, Negated) &&
           condsOf(IE, B->getRHS(), Out, Negated);
  if (Negated) {
    // !(a >= b) is a < b, !(a > b) is a <= b, i.e. a < b + 1.
    if (Op == BO_GE)
      Op = BO_LT;
    else if (Op == BO_GT)
      Op = BO_LE;
    else
      return false;
  }
  auto L = IE.eval(B->getLHS()), R = IE.eval(B->getRHS());
  if (!L || !R)
    return false;
  switch (Op) {
  case BO_LT:
    Out.push_back({*L, *R});
    return true;
  case BO_GT:
    Out.push_back({*R, *L});
    return true;
  case BO_LE:
    Out.push_back({*L, *R + Poly::c(1)});
    return true;
  case BO_GE:
    Out.push_back({*R, *L + Poly::c(1)});
    return true;
  default:
    return false;
  }
}

//===----------------------------------------------------------------------===//
// The emitted tile program.
//===----------------------------------------------------------------------===//

Access acc2(const std::string &T, const std::string &P0, const std::string &P1,
            const std::string &F0, const std::string &F1) {
  Access A;
  A.Tensor = T;
  A.Slices = {{P0, P1}, {F0, F1}};
  return A;
}

void emitGemm(const FunctionDecl *FD, const Gemm &G, Kernel &K) {
  K.Name = FD->getNameAsString();
  for (const ParmVarDecl *P : FD->parameters()) {
    Param Pa;
    Pa.Name = P->getName().str();
    Pa.PyName = pyName(Pa.Name);
    if (!P->getType()->isPointerType()) {
      Pa.Ty = *scalarDtypeOf(P->getType());
      K.Params.push_back(Pa);
      continue;
    }
    Pa.IsTensor = true;
    Pa.Ty = *dtypeOf(P->getType()->getPointeeType());
    if (P == G.A)
      Pa.Shape = G.ATransposed ? std::vector<std::string>{G.K, G.M}
                               : std::vector<std::string>{G.M, G.K};
    else if (P == G.B)
      Pa.Shape = G.BTransposed ? std::vector<std::string>{G.N, G.K}
                               : std::vector<std::string>{G.K, G.N};
    else
      Pa.Shape = {G.M, G.N};
    Pa.R = P == G.C ? (G.Beta.empty() ? Param::Out : Param::InOut) : Param::In;
    K.Params.push_back(Pa);
  }
  K.Launch = {"grid_x", "grid_y", "block_x", "block_y"};
  Builder B(K.Body);
  for (const auto &[V, E] : G.Assigns)
    B.assign(V, E);
  for (const auto &[C, W] : G.Checks)
    B.check(C, W);
  DType TA = *dtypeOf(G.A->getType()->getPointeeType());
  DType TB = *dtypeOf(G.B->getType()->getPointeeType());
  std::string A = pyName(G.A->getName()), Bn = pyName(G.B->getName()),
              C = pyName(G.C->getName());
  std::string Out = C + (G.Beta.empty() ? "" : "_out");
  {
    Op O;
    O.Kind = OpKind::Alloc;
    O.Alloc = Tensor{Out, Mem::HBM, DType::F32, {G.M, G.N}};
    B.op(O);
  }
  K.Returns = {Out};
  std::string NT = G.BTransposed ? "128" : "512";
  B.open("m0", "0", G.M, "128");
  B.assign("m1", "min(" + G.M + ", m0 + 128)");
  B.assign("nm", "m1 - m0");
  B.open("n0", "0", G.N, NT);
  B.assign("n1", "min(" + G.N + ", n0 + " + NT + ")");
  B.assign("nn", "n1 - n0");
  std::string Acc = B.alloc("acc", Mem::PSUM, DType::F32, {"128", NT});
  // Zeroed first: a K of 0 sums to 0 (alpha * 0 + beta * C), and every
  // nc_matmul then accumulates.
  B.op(OpKind::Memset, acc2(Acc, "0", "nm", "0", "nn"), {Operand::scalar("0.0")});
  B.open("k0", "0", G.K, "128");
  B.assign("k1", "min(" + G.K + ", k0 + 128)");
  B.assign("nk", "k1 - k0");
  auto T = [](Access A) { return Operand::tile(std::move(A)); };
  // Stationary: the A tile [m, k] transposed to [k, m] (an A given as
  // its K x M transpose is loaded as it is).
  std::string AtS;
  if (G.ATransposed) {
    AtS = B.alloc("a_t", Mem::SBUF, TA, {"128", "128"});
    B.op(OpKind::DmaCopy, acc2(AtS, "0", "nk", "0", "nm"),
         {T(acc2(A, "k0", "k1", "m0", "m1"))});
  } else {
    std::string At = B.alloc("a", Mem::SBUF, TA, {"128", "128"});
    B.op(OpKind::DmaCopy, acc2(At, "0", "nm", "0", "nk"),
         {T(acc2(A, "m0", "m1", "k0", "k1"))});
    // A transpose writes its input's dtype: the PSUM tile has A's.
    std::string AtP = B.alloc("a_t", Mem::PSUM, TA, {"128", "128"});
    B.op(OpKind::Transpose, acc2(AtP, "0", "nk", "0", "nm"),
         {T(acc2(At, "0", "nm", "0", "nk"))});
    AtS = B.alloc("a_t", Mem::SBUF, TA, {"128", "128"});
    B.op(OpKind::TensorCopy, acc2(AtS, "0", "nk", "0", "nm"),
         {T(acc2(AtP, "0", "nk", "0", "nm"))});
  }
  // Moving: the B tile [k, n].
  std::string Bm;
  if (!G.BTransposed) {
    Bm = B.alloc("b", Mem::SBUF, TB, {"128", NT});
    B.op(OpKind::DmaCopy, acc2(Bm, "0", "nk", "0", "nn"),
         {T(acc2(Bn, "k0", "k1", "n0", "n1"))});
  } else {
    std::string Bt = B.alloc("bt", Mem::SBUF, TB, {"128", "128"});
    B.op(OpKind::DmaCopy, acc2(Bt, "0", "nn", "0", "nk"),
         {T(acc2(Bn, "n0", "n1", "k0", "k1"))});
    std::string BP = B.alloc("b", Mem::PSUM, TB, {"128", "128"});
    B.op(OpKind::Transpose, acc2(BP, "0", "nk", "0", "nn"),
         {T(acc2(Bt, "0", "nn", "0", "nk"))});
    Bm = B.alloc("b", Mem::SBUF, TB, {"128", "128"});
    B.op(OpKind::TensorCopy, acc2(Bm, "0", "nk", "0", "nn"),
         {T(acc2(BP, "0", "nk", "0", "nn"))});
  }
  B.op(OpKind::Matmul, acc2(Acc, "0", "nm", "0", "nn"),
       {T(acc2(AtS, "0", "nk", "0", "nm")), T(acc2(Bm, "0", "nk", "0", "nn"))});
  B.close();
  std::string R = B.alloc("res", Mem::SBUF, DType::F32, {"128", NT});
  Access RA = acc2(R, "0", "nm", "0", "nn");
  B.op(OpKind::TensorCopy, RA, {T(acc2(Acc, "0", "nm", "0", "nn"))});
  if (!G.Alpha.empty())
    B.op(OpKind::TensorScalar, RA, {T(RA), Operand::scalar(G.Alpha)},
         "nl.multiply");
  if (!G.Beta.empty()) {
    std::string Cs = B.alloc("c", Mem::SBUF, DType::F32, {"128", NT});
    Access CA = acc2(Cs, "0", "nm", "0", "nn");
    B.op(OpKind::DmaCopy, CA, {T(acc2(C, "m0", "m1", "n0", "n1"))});
    B.op(OpKind::TensorScalar, CA, {T(CA), Operand::scalar(G.Beta)},
         "nl.multiply");
    B.op(OpKind::TensorTensor, RA, {T(RA), T(CA)}, "nl.add");
  }
  B.op(OpKind::DmaCopy, acc2(Out, "m0", "m1", "n0", "n1"), {T(RA)});
  B.close();
  B.close();
  K.Family = G.Family;
}

/// The scalar of an epilogue factor: a float parameter or a constant.
std::optional<std::string> scalarOf(const Expr *E) {
  E = E->IgnoreParenImpCasts();
  if (auto *D = dyn_cast<DeclRefExpr>(E))
    if (auto *P = dyn_cast<ParmVarDecl>(D->getDecl()))
      if (P->getType()->isFloatingType())
        return pyName(P->getName());
  if (auto *F = dyn_cast<FloatingLiteral>(E))
    return pyFloat(F->getValueAsApproximateDouble());
  return std::nullopt;
}

//===----------------------------------------------------------------------===//
// Structure 1: WMMA fragments loaded from global memory.
//===----------------------------------------------------------------------===//

struct Frag {
  std::string Use;    ///< matrix_a, matrix_b, accumulator
  std::string Layout; ///< row_major, col_major ("" for the accumulator)
  std::string Ty;     ///< element type spelling
  int64_t Mi = 0, Ni = 0, Ki = 0;
};

std::optional<Frag> fragOf(QualType T) {
  auto *TS = T.getCanonicalType()->getAs<TemplateSpecializationType>();
  const ClassTemplateSpecializationDecl *CT = nullptr;
  if (auto *RT = T.getCanonicalType()->getAs<RecordType>())
    CT = dyn_cast<ClassTemplateSpecializationDecl>(RT->getDecl());
  (void)TS;
  if (!CT || CT->getName() != "fragment")
    return std::nullopt;
  const TemplateArgumentList &Args = CT->getTemplateArgs();
  if (Args.size() < 5)
    return std::nullopt;
  Frag F;
  auto TypeName = [](const TemplateArgument &A) {
    return A.getKind() == TemplateArgument::Type
               ? A.getAsType().getCanonicalType().getAsString()
               : std::string();
  };
  F.Use = TypeName(Args[0]);
  auto Pos = F.Use.rfind("::");
  if (Pos != std::string::npos)
    F.Use = F.Use.substr(Pos + 2);
  for (unsigned I = 1; I <= 3; ++I)
    if (Args[I].getKind() != TemplateArgument::Integral)
      return std::nullopt;
  F.Mi = Args[1].getAsIntegral().getExtValue();
  F.Ni = Args[2].getAsIntegral().getExtValue();
  F.Ki = Args[3].getAsIntegral().getExtValue();
  F.Ty = TypeName(Args[4]);
  if (Args.size() > 5) {
    F.Layout = TypeName(Args[5]);
    Pos = F.Layout.rfind("::");
    if (Pos != std::string::npos)
      F.Layout = F.Layout.substr(Pos + 2);
  }
  return F;
}

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

Gemm WmmaGemm::run() {
  auto *Body = dyn_cast<CompoundStmt>(FD->getBody());
  Gemm G;
  const CallExpr *LoadA = nullptr, *LoadB = nullptr, *Store = nullptr;
  const VarDecl *AccV = nullptr;
  const ForStmt *KLoop = nullptr;
  std::string KVar;
  Poly KStep;
  std::optional<std::string> Alpha;
  bool Filled = false;
  for (const clang::Stmt *S0 : Body->body()) {
    const clang::Stmt *S = unwrap(S0);
    if (auto *DS = dyn_cast<DeclStmt>(S)) {
      for (const Decl *D : DS->decls()) {
        auto *V = dyn_cast<VarDecl>(D);
        if (!V)
          continue;
        if (V->hasAttr<CUDASharedAttr>())
          refuse(RuleId::PK5040, V->getLocation(),
                 "shared array '" + V->getNameAsString() +
                     "' in a WMMA kernel: WMMA GEMMs whose fragments or "
                     "results go through shared memory are not lifted "
                     "(fragments loaded from and stored to global memory "
                     "are)");
        if (auto F = fragOf(V->getType())) {
          Frags[V] = *F;
          continue;
        }
        if (V->getType()->isIntegerType() && V->hasInit() &&
            V->getType().isConstQualified()) {
          auto P = IE.eval(V->getInit());
          if (!P)
            refuse(RuleId::PK5044, V->getLocation(),
                   "'" + V->getNameAsString() +
                       "' is not an integer expression of the thread, "
                       "block and size variables");
          IE.Env[V] = *P;
          continue;
        }
        refuse(RuleId::PK5040, V->getLocation(),
               "local '" + V->getNameAsString() +
                   "' is not part of a recognised WMMA GEMM");
      }
      continue;
    }
    if (auto *I = dyn_cast<IfStmt>(S)) {
      const clang::Stmt *Th = I->getThen();
      if (auto *CS = dyn_cast<CompoundStmt>(Th))
        if (CS->size() == 1)
          Th = CS->body_front();
      if (!isa<ReturnStmt>(Th) || I->getElse() || !Exits.empty() ||
          !condsOf(IE, I->getCond(), Exits, /*Negated=*/true))
        refuse(RuleId::PK5044, I->getIfLoc(),
               "only one early return on tile bounds ('if (row >= M || col "
               ">= N) return;') is lifted in a WMMA GEMM");
      ExitLoc = I->getIfLoc();
      continue;
    }
    if (auto *C = dyn_cast<CallExpr>(S)) {
      std::string N = calleeName(C);
      if (N == "fill_fragment" && C->getNumArgs() == 2 &&
          fragVar(C->getArg(0)) && isZeroLiteral(C->getArg(1)) && !KLoop) {
        Filled = true;
        continue;
      }
      if (N == "store_matrix_sync" && C->getNumArgs() == 4 && KLoop && !Store) {
        Store = C;
        continue;
      }
      refuse(RuleId::PK5040, C->getBeginLoc(),
             "call '" + N + "' is not part of a recognised WMMA GEMM");
    }
    if (auto *F = dyn_cast<ForStmt>(S)) {
      // for (int v = 0; v < E; ++v) acc.x[v] *= s;  (after the K loop)
      if (KLoop && !Alpha) {
        auto *CS = dyn_cast<CompoundStmt>(F->getBody());
        const clang::Stmt *B1 =
            CS && CS->size() == 1 ? CS->body_front() : F->getBody();
        auto *MA = dyn_cast<CompoundAssignOperator>(unwrap(B1));
        std::optional<std::string> Sc;
        if (MA && MA->getOpcode() == BO_MulAssign)
          Sc = scalarOf(MA->getRHS());
        auto *Cond = dyn_cast<BinaryOperator>(F->getCond());
        auto *NE =
            Cond ? dyn_cast<MemberExpr>(Cond->getRHS()->IgnoreParenImpCasts())
                 : nullptr;
        auto *X = MA ? dyn_cast<ArraySubscriptExpr>(
                           MA->getLHS()->IgnoreParenImpCasts())
                     : nullptr;
        auto *XM = X ? dyn_cast<MemberExpr>(X->getBase()->IgnoreParenImpCasts())
                     : nullptr;
        // The loop runs over every element: from 0 by one, indexing x[] with
        // its own variable.
        auto *IDS = dyn_cast_or_null<DeclStmt>(F->getInit());
        auto *IV = IDS && IDS->isSingleDecl()
                       ? dyn_cast<VarDecl>(IDS->getSingleDecl())
                       : nullptr;
        auto *IInc = dyn_cast_or_null<UnaryOperator>(F->getInc());
        auto *CV =
            Cond ? dyn_cast<DeclRefExpr>(Cond->getLHS()->IgnoreParenImpCasts())
                 : nullptr;
        auto *XV = X ? dyn_cast<DeclRefExpr>(X->getIdx()->IgnoreParenImpCasts())
                     : nullptr;
        bool Every = IV && IV->hasInit() && isZeroLiteral(IV->getInit()) &&
                     IInc && IInc->isIncrementOp() && CV &&
                     CV->getDecl() == IV && Cond->getOpcode() == BO_LT && XV &&
                     XV->getDecl() == IV;
        if (Every && Sc && NE &&
            NE->getMemberDecl()->getName() == "num_elements" && XM &&
            XM->getMemberDecl()->getName() == "x" && AccV &&
            fragVar(XM->getBase()) == AccV && fragVar(NE->getBase()) == AccV) {
          Alpha = Sc;
          continue;
        }
        refuse(RuleId::PK5043, F->getForLoc(),
               "after the K loop only an element-wise scaling of the "
               "accumulator ('acc.x[i] *= alpha' over acc.num_elements) is "
               "lifted");
      }
      if (KLoop)
        refuse(RuleId::PK5040, F->getForLoc(),
               "a second loop after the WMMA K loop is not lifted");
      KLoop = F;
      auto *DS = dyn_cast_or_null<DeclStmt>(F->getInit());
      auto *V = DS && DS->isSingleDecl()
                    ? dyn_cast<VarDecl>(DS->getSingleDecl())
                    : nullptr;
      auto Begin = V && V->hasInit() ? IE.eval(V->getInit()) : std::nullopt;
      auto *Inc = dyn_cast_or_null<CompoundAssignOperator>(F->getInc());
      if (!V || !Begin || Begin->constant() != 0 || !Inc ||
          Inc->getOpcode() != BO_AddAssign)
        refuse(RuleId::PK5042, F->getForLoc(),
               "the WMMA K loop is not 'for (int k = 0; k < K; k += 16)'");
      KVar = "v_" + V->getNameAsString() + "_";
      IE.Env[V] = Poly::atom(KVar);
      Conds KC;
      auto St = IE.eval(Inc->getRHS());
      if (!condsOf(IE, F->getCond(), KC) || KC.size() != 1 ||
          KC[0].first != Poly::atom(KVar) || !KC[0].second.single() || !St)
        refuse(RuleId::PK5042, F->getForLoc(),
               "the WMMA K loop is not 'for (int k = 0; k < K; k += 16)' "
               "with K a size parameter");
      G.K = *KC[0].second.single();
      KStep = *St;
      auto *LB = dyn_cast<CompoundStmt>(F->getBody());
      if (!LB || LB->size() != 3)
        refuse(RuleId::PK5040, F->getForLoc(),
               "the WMMA K loop body is not two load_matrix_sync and one "
               "mma_sync");
      auto It = LB->body_begin();
      auto *L1 = dyn_cast<CallExpr>(unwrap(*It++));
      auto *L2 = dyn_cast<CallExpr>(unwrap(*It++));
      auto *MM = dyn_cast<CallExpr>(unwrap(*It));
      if (!L1 || !L2 || !MM || calleeName(L1) != "load_matrix_sync" ||
          calleeName(L2) != "load_matrix_sync" ||
          calleeName(MM) != "mma_sync" || MM->getNumArgs() != 4)
        refuse(RuleId::PK5040, F->getForLoc(),
               "the WMMA K loop body is not two load_matrix_sync and one "
               "mma_sync");
      const VarDecl *D = fragVar(MM->getArg(0)), *Af = fragVar(MM->getArg(1)),
                    *Bf = fragVar(MM->getArg(2)), *Cf = fragVar(MM->getArg(3));
      if (!D || D != Cf || !Af || !Bf)
        refuse(RuleId::PK5042, MM->getBeginLoc(),
               "mma_sync does not accumulate into its own accumulator "
               "(mma_sync(acc, a, b, acc))");
      AccV = D;
      for (const CallExpr *L : {L1, L2}) {
        const VarDecl *FV = fragVar(L->getArg(0));
        if (FV == Af)
          LoadA = L;
        else if (FV == Bf)
          LoadB = L;
      }
      if (!LoadA || !LoadB || LoadA == LoadB)
        refuse(RuleId::PK5040, F->getForLoc(),
               "the loads of the K loop are not the fragments mma_sync "
               "multiplies");
      continue;
    }
    refuse(RuleId::PK5040, S->getBeginLoc(),
           "statement is not part of a recognised WMMA GEMM");
  }
  if (!KLoop || !Store || !Filled)
    refuse(RuleId::PK5040, FD->getLocation(),
           "the kernel does not zero an accumulator, run mma_sync over a K "
           "loop and store the accumulator");
  const Frag &FA = Frags[fragVar(LoadA->getArg(0))];
  const Frag &FB = Frags[fragVar(LoadB->getArg(0))];
  const Frag &FC = Frags[AccV];
  if (fragVar(Store->getArg(1)) != AccV)
    refuse(RuleId::PK5040, Store->getBeginLoc(),
           "the stored fragment is not the accumulator");
  int64_t T16 = FA.Mi;
  if (FA.Mi != FA.Ni || FA.Ni != FA.Ki || FC.Ty != "float" ||
      FA.Use != "matrix_a" || FB.Use != "matrix_b" || FC.Use != "accumulator" ||
      FA.Layout != "row_major" || KStep != Poly::c(FA.Ki))
    refuse(RuleId::PK5041, LoadA->getBeginLoc(),
           "lifted: square fragments (16x16x16) with a row-major A, a float "
           "accumulator and a K loop stepping by the fragment's K");
  auto *LayE = dyn_cast<DeclRefExpr>(Store->getArg(3)->IgnoreParenImpCasts());
  if (!LayE || LayE->getDecl()->getName() != "mem_row_major")
    refuse(RuleId::PK5041, Store->getBeginLoc(),
           "the accumulator is not stored row-major (wmma::mem_row_major)");
  // C[off_c + i * ldc + j]: off_c = Rc * ldc + Cc.
  auto [PC, OffC] = pointer(Store->getArg(0));
  G.N = ldParam(Store->getArg(2));
  Poly Rc, Cc;
  OffC.divide(G.N, Rc, Cc);
  if (Cc.mentions(G.N))
    refuse(RuleId::PK5041, Store->getBeginLoc(),
           "the C offset is not row * N + col");
  auto [PA, OffA] = pointer(LoadA->getArg(1));
  if (ldParam(LoadA->getArg(2)) != G.K)
    refuse(RuleId::PK5041, LoadA->getBeginLoc(),
           "A's leading dimension is not the K loop's bound " + G.K);
  Poly Ra, Ka;
  OffA.divide(G.K, Ra, Ka);
  if (Ra != Rc || Ka != Poly::atom(KVar))
    refuse(RuleId::PK5041, LoadA->getBeginLoc(),
           "the A fragment is not at (the C tile's row, k): offset " +
               OffA.py() + ", expected (" + Rc.py() + ") * " + G.K + " + " +
               KVar);
  auto [PB, OffB] = pointer(LoadB->getArg(1));
  Poly Rb, Kb;
  if (FB.Layout == "row_major") {
    if (ldParam(LoadB->getArg(2)) != G.N)
      refuse(RuleId::PK5041, LoadB->getBeginLoc(),
             "a row-major B's leading dimension is not C's (" + G.N + ")");
    OffB.divide(G.N, Rb, Kb);
    if (Rb != Poly::atom(KVar) || Kb != Cc)
      refuse(RuleId::PK5041, LoadB->getBeginLoc(),
             "the B fragment is not at (k, the C tile's column)");
  } else {
    G.BTransposed = true;
    if (ldParam(LoadB->getArg(2)) != G.K)
      refuse(RuleId::PK5041, LoadB->getBeginLoc(),
             "a col-major B's leading dimension is not K (" + G.K + ")");
    OffB.divide(G.K, Rb, Kb);
    if (Rb != Cc || Kb != Poly::atom(KVar))
      refuse(RuleId::PK5041, LoadB->getBeginLoc(),
             "the col-major B fragment is not at (the C tile's column, k)");
  }
  if (FB.Ty != FA.Ty ||
      dtypeOf(PA->getType()->getPointeeType()) !=
          dtypeOf(PB->getType()->getPointeeType()) ||
      dtypeOf(PC->getType()->getPointeeType()) != DType::F32 || PA == PB ||
      PA == PC || PB == PC)
    refuse(RuleId::PK5041, Store->getBeginLoc(),
           "A, B and C must be distinct parameters, A and B of the "
           "fragments' element type, C float");
  // The rows: Rc < M from the early return.
  std::string M;
  bool ColBound = false;
  for (const auto &[L, R] : Exits) {
    if (L == Rc && R.single())
      M = *R.single();
    else if (L == Cc && R == Poly::atom(G.N))
      ColBound = true;
    else
      refuse(RuleId::PK5044, ExitLoc,
             "the early return is not on the C tile's row and column");
  }
  if (M.empty() || !ColBound)
    refuse(RuleId::PK5044, ExitLoc.isValid() ? ExitLoc : FD->getLocation(),
           "no early return bounds the C tile's row and column by size "
           "parameters (if (row >= M || col >= N) return;)");
  for (const Poly *P : {&Rc, &Cc})
    for (const std::string &A : P->atoms()) {
      std::string S = A;
      size_t Pos;
      while ((Pos = S.find("(tid_x // 32)")) != std::string::npos)
        S.replace(Pos, 13, "w");
      if (S.find("tid_") != std::string::npos ||
          S.find("block_") != std::string::npos ||
          S.find("grid_") != std::string::npos || !P->mentions(A))
        refuse(RuleId::PK5044, Store->getBeginLoc(),
               "the C tile depends on the thread other than through its "
               "warp (threadIdx.x / 32): fragments are per warp");
    }
  G.A = PA;
  G.B = PB;
  G.C = PC;
  G.M = M;
  G.Alpha = Alpha.value_or("");
  std::string S = std::to_string(T16);
  for (const std::string *D : {&G.M, &G.N, &G.K})
    G.Checks.push_back({*D + " % " + S + " == 0",
                        *D + " is a multiple of the fragment size " + S +
                            " (the CUDA kernel reads and writes whole " + S +
                            "x" + S + " tiles)"});
  G.Checks.push_back({"block_x % 32 == 0", "blocks are whole warps"});
  G.Checks.push_back({"block_y == 1", "one-dimensional blocks"});
  // Every C tile is stored by some warp: rows and columns separately where
  // they depend on different indices (linear in M + N), else every warp.
  std::vector<CoverGen> Gens = {{"bid_x", "range(grid_x)", {}, true},
                                {"bid_y", "range(grid_y)", {}, true},
                                {"tid_x", "range(0, block_x, 32)", {}, true}};
  std::string Full =
      "len({(r_, c_) for (r_, c_) in {(" + Rc.py() + ", " + Cc.py() +
      ") for bid_x in range(grid_x) for bid_y in range(grid_y) for tid_x in "
      "range(0, block_x, 32)} if r_ < " +
      M + " and c_ < " + G.N + " and r_ % " + S + " == 0 and c_ % " + S +
      " == 0}) == (" + M + " // " + S + ") * (" + G.N + " // " + S + ")";
  std::string Cover =
      splitCoverCheck(Rc, Cc, Gens, "r_ < " + M + " and r_ % " + S + " == 0",
                      "c_ < " + G.N + " and c_ % " + S + " == 0",
                      M + " // " + S, G.N + " // " + S, Full);
  G.Checks.push_back(
      {Cover, "the launch stores every " + S + "x" + S + " tile of C"});
  G.Family = std::string("GEMM from WMMA fragments loaded from global memory "
                         "(C = ") +
             (Alpha ? "alpha * " : "") + "A * B" +
             (G.BTransposed ? "t^T" : "") +
             "; nc_matmul over K tiles of 128 into PSUM)";
  return G;
}

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

FVP mk(FV V) { return std::make_shared<const FV>(std::move(V)); }

FVP substFV(const FVP &V, const std::map<std::string, Poly> &S) {
  FV N = *V;
  N.Idx = V->Idx.subst(S);
  for (auto &[L, R] : N.Guard) {
    L = L.subst(S);
    R = R.subst(S);
  }
  for (Poly &P : N.AccIdx)
    P = P.subst(S);
  for (auto &[A, P] : N.AccSub)
    P = P.subst(S);
  if (V->L)
    N.L = substFV(V->L, S);
  if (V->R)
    N.R = substFV(V->R, S);
  return mk(std::move(N));
}

void atomsOf(const FVP &V, std::set<std::string> &Out) {
  auto Add = [&](const Poly &P) {
    auto A = P.atoms();
    Out.insert(A.begin(), A.end());
  };
  Add(V->Idx);
  for (auto &[L, R] : V->Guard) {
    Add(L);
    Add(R);
  }
  for (const Poly &P : V->AccIdx)
    Add(P);
  if (V->L)
    atomsOf(V->L, Out);
  if (V->R)
    atomsOf(V->R, Out);
}

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

FVP TiledGemm::value(const Expr *E) {
  // Copies of class-typed elements (__half) are their values.
  while (true) {
    E = E->IgnoreImplicit()->IgnoreParenImpCasts();
    auto *CE = dyn_cast<CXXConstructExpr>(E);
    if (!CE || CE->getNumArgs() != 1 || !CE->getConstructor() ||
        !(CE->getConstructor()->isCopyOrMoveConstructor()))
      break;
    E = CE->getArg(0);
  }
  if (isZeroLiteral(E))
    return mk(FV{});
  if (auto S = scalarOf(E)) {
    FV V;
    V.K = FV::Scalar;
    V.S = *S;
    return mk(V);
  }
  if (auto *C = dyn_cast<ConditionalOperator>(E)) {
    Conds G;
    if (!condsOf(IE, C->getCond(), G) || !isZeroLiteral(C->getFalseExpr()))
      refuse(RuleId::PK5041, C->getExprLoc(),
             "only a zero fill 'in bounds ? p[i] : 0' is lifted as a "
             "guarded load");
    FVP T = value(C->getTrueExpr());
    if (T->K != FV::Load)
      refuse(RuleId::PK5041, C->getExprLoc(),
             "the guarded value is not a load of a pointer parameter");
    FV N = *T;
    N.Guard.insert(N.Guard.end(), G.begin(), G.end());
    return mk(N);
  }
  if (auto *B = dyn_cast<BinaryOperator>(E)) {
    if (B->getOpcode() == BO_Add || B->getOpcode() == BO_Mul) {
      FV N;
      N.K = B->getOpcode() == BO_Add ? FV::Add : FV::Mul;
      N.L = value(B->getLHS());
      N.R = value(B->getRHS());
      return mk(N);
    }
    refuse(RuleId::PK5043, B->getOperatorLoc(),
           "operator '" + B->getOpcodeStr().str() +
               "' in a GEMM value is not lifted (only + and *)");
  }
  if (isa<ArraySubscriptExpr>(E)) {
    std::vector<Poly> Idx;
    const VarDecl *V = subscript(E, Idx);
    if (auto *P = dyn_cast_or_null<ParmVarDecl>(V)) {
      if (!P->getType()->isPointerType() || Idx.size() != 1)
        refuse(RuleId::PK5041, E->getExprLoc(), "not a pointer load");
      FV N;
      N.K = FV::Load;
      N.P = P;
      N.Idx = Idx[0];
      return mk(N);
    }
    if (!V || !Dims.count(V))
      refuse(RuleId::PK5040, E->getExprLoc(), "read of an unknown array");
    return readArray(V, Idx, E->getExprLoc());
  }
  if (const VarDecl *V = varOf(E)) {
    if (Accs.count(V)) {
      FV N;
      N.K = FV::Acc;
      N.AccV = V;
      return mk(N);
    }
    auto It = Defs.find(V);
    if (It != Defs.end() && It->second.Vars.empty())
      return It->second.V;
  }
  refuse(RuleId::PK5040, E->getExprLoc(),
         "value is not a load, a staged or register element, an "
         "accumulator, a scalar parameter or a constant");
}

FVP TiledGemm::readArray(const VarDecl *V, const std::vector<Poly> &Idx,
                         SourceLocation Loc) {
  {
    if (Shared.count(V) && Phase != 1 && Phase != 4)
      refuse(RuleId::PK5040, Loc,
             "shared array '" + V->getNameAsString() +
                 "' is read outside the compute phase of the K-tile loop "
                 "(between its two barriers) or after the barrier that "
                 "follows the store of the accumulator tiles");
    const auto &D = Dims[V];
    if (Idx.size() != D.size())
      refuse(RuleId::PK5041, Loc, "partial array subscript");
    auto It = Defs.find(V);
    for (size_t I = 0; I < D.size(); ++I) {
      bool Ext = It != Defs.end() && !It->second.Ext.empty();
      inBounds(Idx[I], Ext ? It->second.Ext[I] : D[I], Loc,
               V->getNameAsString());
    }
    if (It != Defs.end() && It->second.Tile)
      tileCovers(*It->second.Tile, It->second.TileLoops, Idx, Loc,
                 V->getNameAsString());
    if (Accs.count(V)) {
      FV N;
      N.K = FV::Acc;
      N.AccV = V;
      N.AccIdx = Idx;
      return mk(N);
    }
    if (It == Defs.end())
      refuse(RuleId::PK5040, Loc,
             "'" + V->getNameAsString() + "' is read before it is written");
    std::map<std::string, Poly> S;
    for (size_t I = 0; I < D.size(); ++I)
      S[It->second.Vars[I]] = Idx[I];
    return substFV(It->second.V, S);
  }
}

void TiledGemm::defineArray(const VarDecl *V, const std::vector<Poly> &Idx,
                            FVP Val, SourceLocation Loc) {
  const auto &D = Dims[V];
  if (Idx.size() != D.size())
    refuse(RuleId::PK5041, Loc, "partial array subscript");
  if (!Guard.empty())
    refuse(RuleId::PK5040, Loc,
           "a staged or register element is written under a condition");
  bool IsShared = Shared.count(V);
  if (IsShared && !StagedNow.insert(V).second)
    refuse(RuleId::PK5041, Loc,
           "shared array '" + V->getNameAsString() +
               "' is written by two stores in one staging phase: threads "
               "would race on its elements");
  if (IsShared && Phase != 0)
    refuse(RuleId::PK5040, Loc,
           "shared array '" + V->getNameAsString() +
               "' is written outside the staging phase of the K-tile loop "
               "(before its first barrier)");
  // Each index is a distinct free variable whose range is the dimension:
  // the store defines every element exactly once.
  Def Df;
  std::set<std::string> Seen;
  std::vector<Poly> Ext = D;
  for (size_t I = 0; I < D.size(); ++I) {
    auto A = Idx[I].single();
    if (!A || Seen.count(*A))
      refuse(RuleId::PK5041, Loc,
             "index " + Idx[I].py() + " of '" + V->getNameAsString() +
                 "' is not a variable of its own (a thread index or a loop "
                 "over the dimension)");
    Seen.insert(*A);
    Df.Vars.push_back(*A);
    const std::string &X = *A;
    std::string Dim = D[I].py();
    if (X.rfind("tid_", 0) == 0) {
      std::string Blk = "block_" + X.substr(4);
      auto DA = D[I].single();
      if (DA && !D[I].constant() && !Bound.count(*DA) && !IE.Max.count(*DA)) {
        // A template parameter sizing the tile: the program is defined
        // only when the block has exactly that many threads.
        Assigns.push_back({*DA, Blk});
        Bound.insert(*DA);
        IE.Max[*DA] = *DA;
      } else {
        check(Blk + " == " + Dim, "the block has one thread per element of '" +
                                      V->getNameAsString() + "'");
      }
      continue;
    }
    // (i // W) and (i % W) of a cooperative loop i < E: together they run
    // over [0, E / W) x [0, W) when W divides E.
    bool CoopPart = false;
    for (const LoopCtx &C : Loops) {
      if (!C.Coop || X.rfind("(" + C.Var + " ", 0) != 0)
        continue;
      std::string Rest = X.substr(C.Var.size() + 2);
      bool Div = Rest.rfind("// ", 0) == 0, Mod = Rest.rfind("% ", 0) == 0;
      int64_t W = 0, E = *C.End.constant();
      if (Div || Mod)
        W = std::atoll(Rest.c_str() + (Div ? 3 : 2));
      std::string Partner =
          "(" + C.Var + (Div ? " % " : " // ") + std::to_string(W) + ")";
      if (W <= 0 || E % W ||
          !std::any_of(Idx.begin(), Idx.end(),
                       [&](const Poly &P) { return P == Poly::atom(Partner); }))
        refuse(RuleId::PK5041, Loc,
               "index " + X + " of '" + V->getNameAsString() +
                   "' is not one of a (i / W, i % W) pair over a cooperative "
                   "loop whose bound W divides");
      // The pair covers [0, E / W) x [0, W): the whole dimension, or its
      // leading part when the row is padded (reads are then checked to stay
      // inside the part written).
      Poly W0 = Poly::c(Div ? E / W : W);
      auto DC = D[I].constant();
      if (D[I] != W0 && !(DC && *DC > *W0.constant()))
        refuse(RuleId::PK5041, Loc,
               "index " + X + " of '" + V->getNameAsString() +
                   "' does not run over the whole dimension " + Dim);
      Ext[I] = W0;
      CoopPart = true;
    }
    if (CoopPart)
      continue;
    const LoopCtx *L = nullptr;
    for (const LoopCtx &C : Loops)
      if (C.Var == X)
        L = &C;
    if (!L || L->Begin != Poly() || L->Step != Poly::c(1) || L->End != D[I])
      refuse(RuleId::PK5041, Loc,
             "index " + X + " of '" + V->getNameAsString() +
                 "' does not run over the whole dimension " + Dim);
  }
  if (IsShared) {
    std::set<std::string> At;
    atomsOf(Val, At);
    for (const std::string &A : At)
      if ((A.find("tid_") != std::string::npos ||
           std::any_of(Loops.begin(), Loops.end(),
                       [&](const LoopCtx &C) {
                         return C.Coop && A.find(C.Var) != std::string::npos;
                       })) &&
          !Seen.count(A))
        refuse(RuleId::PK5041, Loc,
               "the value staged into '" + V->getNameAsString() +
                   "' depends on a thread index that does not select the "
                   "element: threads would race");
  }
  // A 16-bit tile must hold its operand unconverted (a float staged into a
  // half tile would be rounded, which the lifted program does not do).
  QualType ET = V->getType();
  while (const ArrayType *AT = ET->getAsArrayTypeUnsafe())
    ET = AT->getElementType();
  auto EDT = dtypeOf(ET);
  if (EDT && (*EDT == DType::F16 || *EDT == DType::BF16) &&
      (Val->K != FV::Load ||
       dtypeOf(Val->P->getType()->getPointeeType()) != EDT))
    refuse(RuleId::PK5041, Loc,
           "the 16-bit array '" + V->getNameAsString() +
               "' is not filled with loads of its own element type (a "
               "conversion would round)");
  Df.V = std::move(Val);
  if (Ext != D)
    Df.Ext = Ext;
  Defs[V] = std::move(Df);
}

void TiledGemm::assign(const Expr *LHS, const Expr *RHS, BinaryOperatorKind Op,
                       SourceLocation Loc) {
  const Expr *L = LHS->IgnoreParenImpCasts();
  std::vector<Poly> Idx;
  const VarDecl *V = isa<ArraySubscriptExpr>(L) ? subscript(L, Idx) : varOf(L);
  if (!V)
    refuse(RuleId::PK5040, Loc, "store to an unknown location");
  if (Op == BO_AddAssign) {
    if (!ZeroInit.count(V) || Accs.count(V))
      refuse(RuleId::PK5042, Loc,
             "'" + V->getNameAsString() +
                 "' is not a zero-initialised accumulator updated once");
    Accum A;
    A.Loc = Loc;
    A.Term = value(RHS);
    std::set<std::string> El;
    for (const Poly &I : Idx) {
      auto X = I.single();
      if (!X || El.count(*X))
        refuse(RuleId::PK5042, Loc,
               "accumulator index " + I.py() + " is not an element loop");
      El.insert(*X);
      A.Vars.push_back(*X);
    }
    const auto &D = Dims.count(V) ? Dims[V] : std::vector<Poly>();
    for (size_t I = 0; I < A.Vars.size(); ++I) {
      const LoopCtx *Lc = nullptr;
      for (const LoopCtx &C : Loops)
        if (C.Var == A.Vars[I])
          Lc = &C;
      if (!Lc || Lc->Begin != Poly() || Lc->Step != Poly::c(1) ||
          Lc->End != D[I])
        refuse(RuleId::PK5042, Loc,
               "accumulator index " + A.Vars[I] +
                   " does not run over the whole dimension");
    }
    for (const LoopCtx &C : Loops)
      if (!El.count(C.Var))
        A.Sums.push_back(C);
    if (!Guard.empty())
      refuse(RuleId::PK5042, Loc, "the accumulation is conditional");
    Accs[V] = A;
    return;
  }
  if (Op != BO_Assign)
    refuse(RuleId::PK5040, Loc,
           "compound assignment other than the accumulation '+='");
  if (auto *P = dyn_cast<ParmVarDecl>(V)) {
    if (Out || Idx.size() != 1 || (Phase != -1 && Phase != 4))
      refuse(RuleId::PK5044, Loc,
             "only one store to global memory, after the K loop, is lifted");
    OutStore O;
    O.P = P;
    O.Idx = Idx[0];
    O.V = value(RHS);
    O.Guard = Guard;
    O.Loops = Loops;
    O.Loc = Loc;
    Out = O;
    return;
  }
  if (Accs.count(V) || ZeroInit.count(V))
    refuse(RuleId::PK5042, Loc,
           "accumulator '" + V->getNameAsString() + "' is assigned");
  if (Dims.count(V)) {
    defineArray(V, Idx, value(RHS), Loc);
    return;
  }
  if (V->getType()->isFloatingType()) {
    if (!Guard.empty())
      refuse(RuleId::PK5040, Loc, "conditional register value");
    Defs[V] = Def{{}, value(RHS)};
    return;
  }
  refuse(RuleId::PK5040, Loc, "store not part of a GEMM");
}

bool TiledGemm::uniformLoopVar(const std::string &A) const {
  for (const LoopCtx &L : Loops) {
    if (L.Var != A || L.Coop)
      continue;
    // Bounds of sizes and constants only: every lane runs the same
    // iterations.
    for (const Poly *P : {&L.Begin, &L.End, &L.Step})
      for (const std::string &X : P->atoms())
        if (X.find("tid_") != std::string::npos ||
            X.find("v_") != std::string::npos)
          return false;
    return true;
  }
  return false;
}

void TiledGemm::warpUniform(const Poly &Off, SourceLocation Loc) {
  // Terms of a loop variable (a loop over an array of fragments or over
  // the K tile, with the same iterations in every lane) must not involve
  // the thread; the rest must be uniform over each warp.
  Poly P;
  for (const auto &[M, V] : Off.T) {
    bool Loop = false, Tid = false;
    for (const std::string &A : M) {
      if (uniformLoopVar(A))
        Loop = true;
      else if (A.find("tid_") != std::string::npos)
        Tid = true;
    }
    if (Loop && Tid)
      refuse(RuleId::PK5041, Loc,
             "the fragment's tile offset " + sourceNames(Off) +
                 " multiplies a loop variable by a thread index (only a "
                 "sum of a warp-uniform offset and loop terms is lifted)");
    if (!Loop)
      P.T[M] = V;
  }
  for (const std::string &A : P.atoms()) {
    std::string R = A;
    for (size_t At; (At = R.find("tid_x")) != std::string::npos;)
      R.erase(At, 5);
    if (R.size() == A.size() || std::any_of(R.begin(), R.end(), [](char C) {
          return std::isalpha(C) || C == '_';
        }))
      refuse(RuleId::PK5041, Loc,
             "the fragment's tile offset " + P.py() +
                 " is not a function of threadIdx.x alone (a warp's offset "
                 "must be uniform over its lanes)");
  }
  check("block_x % 32 == 0", "blocks are whole warps");
  check("block_y == 1", "one-dimensional blocks");
  if (P.atoms().empty())
    return;
  check("all(len({" + P.py() +
            " for tid_x in range(w_ * 32, min(w_ * 32 + 32, block_x))}) == 1 "
            "for w_ in range((block_x + 31) // 32))",
        "the fragment offsets are uniform over the lanes of each warp");
}

const VarDecl *TiledGemm::sharedTile(const Expr *Ptr, const Expr *Ld, Poly &R0,
                                     Poly &C0, SourceLocation Loc) {
  const Expr *E = Ptr->IgnoreParenImpCasts();
  std::vector<Poly> Idx;
  const VarDecl *V = nullptr;
  if (auto *U = dyn_cast<UnaryOperator>(E); U && U->getOpcode() == UO_AddrOf)
    V = subscript(U->getSubExpr(), Idx);
  if (!V || !Shared.count(V) || Idx.size() != 2 || Dims[V].size() != 2)
    refuse(RuleId::PK5041, Loc,
           "the fragment's address is not '&S[row][col]' of a "
           "two-dimensional shared array");
  std::string Name = V->getNameAsString();
  auto L = IE.eval(Ld);
  auto W = Dims[V][1].constant();
  if (!L || !W || L->constant() != W)
    refuse(RuleId::PK5041, Ld->getExprLoc(),
           "the leading dimension is not the row length of '" + Name + "'");
  R0 = Idx[0];
  C0 = Idx[1];
  warpUniform(R0, Loc);
  warpUniform(C0, Loc);
  auto MR = IE.maxOf(R0), MC = IE.maxOf(C0);
  if (!MR || !MC)
    refuse(RuleId::PK5041, Loc,
           "the tile offset in '" + Name + "' is not bounded");
  check(paren(*MR) + " + 16 <= " + Dims[V][0].py() + " and " + paren(*MC) +
            " + 16 <= " + Dims[V][1].py(),
        "the 16x16 fragment tiles of '" + Name + "' stay inside it");
  return V;
}

void TiledGemm::tileCovers(const std::pair<Poly, Poly> &T,
                           const std::vector<LoopCtx> &TileLoops,
                           const std::vector<Poly> &Idx, SourceLocation Loc,
                           const std::string &Arr) {
  auto MR = IE.maxOf(Idx[0]), MC = IE.maxOf(Idx[1]);
  if (!MR || !MC)
    refuse(RuleId::PK5041, Loc, "the read of '" + Arr + "' is not bounded");
  std::string R0 = T.first.py(), C0 = T.second.py();
  std::string Gen = "tid_x in range(block_x)";
  for (const LoopCtx &L : TileLoops)
    Gen += " for " + L.Var + " in range(" + L.Begin.py() + ", " + L.End.py() +
           ", " + L.Step.py() + ")";
  check("{(r_, c_) for " + Gen + " for r_ in range(" + R0 + ", " + R0 +
            " + 16) for c_ in range(" + C0 + ", " + C0 +
            " + 16)} >= {(r_, c_) for r_ in range(" + *MR +
            " + 1) for c_ in range(" + *MC + " + 1)}",
        "the accumulator tiles stored to '" + Arr +
            "' cover the elements read back");
}

FragRef TiledGemm::fragArg(const CallExpr *C, unsigned I) {
  FragRef R;
  const Expr *E =
      I < C->getNumArgs() ? C->getArg(I)->IgnoreParenImpCasts() : nullptr;
  if (E && isa<ArraySubscriptExpr>(E)) {
    const Expr *B = E;
    while (auto *A = dyn_cast<ArraySubscriptExpr>(B)) {
      R.IdxE.insert(R.IdxE.begin(), A->getIdx());
      B = A->getBase()->IgnoreParenImpCasts();
    }
    R.V = subscript(E, R.Idx);
  } else if (E) {
    R.V = varOf(E);
  }
  if (!R.V || !Frags.count(R.V) || R.Idx.size() != FragDims[R.V].size())
    refuse(RuleId::PK5040, C->getExprLoc(),
           "argument " + std::to_string(I + 1) + " of '" + calleeName(C) +
               "' is not a WMMA fragment variable or an element of an array "
               "of fragments");
  return R;
}

std::vector<std::string> TiledGemm::fragLoops(const FragRef &R, RuleId Rule,
                                              SourceLocation Loc,
                                              const std::string &N) {
  std::vector<std::string> Vars;
  const std::vector<Poly> &D = FragDims[R.V];
  for (size_t I = 0; I < R.Idx.size(); ++I) {
    auto A = R.Idx[I].single();
    const LoopCtx *L = nullptr;
    if (A)
      for (const LoopCtx &C : Loops)
        if (C.Var == *A)
          L = &C;
    if (!L || L->Coop || L->KTile || L->Begin != Poly() ||
        L->Step != Poly::c(1) || L->End != D[I] ||
        std::find(Vars.begin(), Vars.end(), *A) != Vars.end())
      refuse(Rule, Loc,
             "index '" + text(R.IdxE[I]) + "' of the fragment array '" +
                 R.V->getNameAsString() + "' in '" + N +
                 "' is not the variable of a loop 'for (v = 0; v < " +
                 D[I].py() +
                 "; ++v)' over its whole dimension (each call must cover "
                 "every fragment of the array)");
    Vars.push_back(*A);
  }
  return Vars;
}

void TiledGemm::wmmaCall(const CallExpr *C) {
  std::string N = calleeName(C);
  SourceLocation Loc = C->getExprLoc();
  auto ElemDType = [](const VarDecl *V) {
    QualType T = V->getType();
    while (const ArrayType *A = T->getAsArrayTypeUnsafe())
      T = A->getElementType();
    return dtypeOf(T);
  };
  if (N == "fill_fragment" && C->getNumArgs() == 2) {
    FragRef R = fragArg(C, 0);
    const VarDecl *V = R.V;
    if (Frags[V].Use != "accumulator" || !isZeroLiteral(C->getArg(1)) ||
        Phase != -1 || KDone || !Guard.empty() || ZeroInit.count(V) ||
        Loops.size() != R.Idx.size())
      refuse(RuleId::PK5042, Loc,
             "the accumulator is not zero-filled once, unconditionally, "
             "before the K-tile loop (an array of accumulators inside the "
             "loops over its elements only)");
    fragLoops(R, RuleId::PK5042, Loc, N);
    ZeroInit.insert(V);
    return;
  }
  if (N == "load_matrix_sync" && C->getNumArgs() == 3) {
    FragRef R = fragArg(C, 0);
    const VarDecl *V = R.V;
    if (Frags[V].Use == "accumulator" || Phase != 1 || !Guard.empty())
      refuse(RuleId::PK5040, Loc,
             "an operand fragment is loaded outside the compute phase of the "
             "K-tile loop (between its two barriers) or under a condition");
    std::vector<std::string> El = fragLoops(R, RuleId::PK5040, Loc, N);
    Poly R0, C0;
    const VarDecl *Arr = sharedTile(C->getArg(1), C->getArg(2), R0, C0, Loc);
    std::string I = freshAtom("fr", 15), J = freshAtom("fc", 15);
    Def Df;
    Df.Vars = El;
    Df.Vars.push_back(I);
    Df.Vars.push_back(J);
    // Element (i, j) of a col_major fragment is at p[j * ld + i]: row j,
    // column i of the tile at p.
    bool Col = Frags[V].Layout == "col_major";
    Poly RI = Poly::atom(Col ? J : I), CJ = Poly::atom(Col ? I : J);
    Df.V = readArray(Arr, {R0 + RI, C0 + CJ}, Loc);
    if (Df.V->K != FV::Load ||
        ElemDType(Arr) != dtypeOf(Df.V->P->getType()->getPointeeType()))
      refuse(RuleId::PK5041, Loc,
             "the shared tile '" + Arr->getNameAsString() +
                 "' does not hold the global operand's elements unconverted");
    Defs[V] = std::move(Df);
    return;
  }
  if (N == "mma_sync" && C->getNumArgs() == 4) {
    FragRef D = fragArg(C, 0), A = fragArg(C, 1), B = fragArg(C, 2),
            Cc = fragArg(C, 3);
    if (D.V != Cc.V || D.Idx != Cc.Idx || Frags[D.V].Use != "accumulator" ||
        Frags[A.V].Use != "matrix_a" || Frags[B.V].Use != "matrix_b")
      refuse(RuleId::PK5042, Loc,
             "mma_sync is not 'mma_sync(acc, a, b, acc)' with a matrix_a and "
             "a matrix_b fragment");
    if (!ZeroInit.count(D.V) || Accs.count(D.V) || Phase != 1 || !Guard.empty())
      refuse(RuleId::PK5042, Loc,
             "'" + D.V->getNameAsString() +
                 "' is not a zero-filled accumulator updated once, "
                 "unconditionally, in the compute phase of the K-tile loop");
    std::vector<std::string> El = fragLoops(D, RuleId::PK5042, Loc, N);
    auto DA = Defs.find(A.V), DB = Defs.find(B.V);
    if (DA == Defs.end() || DB == Defs.end())
      refuse(RuleId::PK5040, Loc, "a fragment is used before it is loaded");
    std::string I = freshAtom("mi", 15), J = freshAtom("mj", 15),
                KK = freshAtom("mk", 15);
    // An operand element of an array of fragments: the loads ran over the
    // whole array in loops that have ended, so every element holds what
    // its load stored.
    auto Operand = [&](const FragRef &X, const Def &Df, const std::string &P,
                       const std::string &Q) {
      std::map<std::string, Poly> S;
      for (size_t K = 0; K < X.Idx.size(); ++K) {
        for (const LoopCtx &L : Loops)
          if (L.Var == Df.Vars[K])
            refuse(RuleId::PK5040, Loc,
                   "fragment '" + X.V->getNameAsString() +
                       "' is used inside the loop that loads its elements "
                       "(only the elements of earlier iterations are "
                       "loaded): load the whole array before the loops of "
                       "mma_sync");
        inBounds(X.Idx[K], FragDims[X.V][K], Loc, X.V->getNameAsString());
        S[Df.Vars[K]] = X.Idx[K];
      }
      size_t NI = X.Idx.size();
      S[Df.Vars[NI]] = Poly::atom(P);
      S[Df.Vars[NI + 1]] = Poly::atom(Q);
      return substFV(Df.V, S);
    };
    FV T;
    T.K = FV::Mul;
    T.L = Operand(A, DA->second, I, KK);
    T.R = Operand(B, DB->second, KK, J);
    Accum Ac;
    Ac.Loc = Loc;
    Ac.Vars = El;
    Ac.Vars.push_back(I);
    Ac.Vars.push_back(J);
    Ac.Term = mk(T);
    for (const LoopCtx &L : Loops)
      if (std::find(El.begin(), El.end(), L.Var) == El.end())
        Ac.Sums.push_back(L);
    LoopCtx L;
    L.Var = KK;
    L.End = Poly::c(16);
    L.Step = Poly::c(1);
    Ac.Sums.push_back(L);
    Accs[D.V] = Ac;
    return;
  }
  if (N == "store_matrix_sync" && C->getNumArgs() == 4) {
    FragRef R = fragArg(C, 1);
    const VarDecl *V = R.V;
    if (!Accs.count(V) || !KDone || Phase != -1 ||
        Loops.size() != R.Idx.size() || !Guard.empty())
      refuse(RuleId::PK5044, Loc,
             "the accumulator is not stored to a shared tile once, "
             "unconditionally, after the K-tile loop (an array of "
             "accumulators inside the loops over its elements only)");
    std::vector<std::string> El = fragLoops(R, RuleId::PK5044, Loc, N);
    auto *L = dyn_cast<DeclRefExpr>(C->getArg(3)->IgnoreParenImpCasts());
    if (!L || L->getDecl()->getName() != "mem_row_major")
      refuse(RuleId::PK5041, Loc,
             "the accumulator is stored column-major (only mem_row_major is "
             "lifted)");
    Poly R0, C0;
    const VarDecl *Arr = sharedTile(C->getArg(0), C->getArg(2), R0, C0, Loc);
    if (ElemDType(Arr) != DType::F32)
      refuse(RuleId::PK5043, Loc,
             "the accumulator tile '" + Arr->getNameAsString() +
                 "' is not float (the stored values would be rounded)");
    StagedNow.insert(Arr);
    // The accumulated term may depend on the thread only through the
    // tile's offsets: an element read back at (r, c) is then the same for
    // every warp (and every fragment of its array) whose tile holds it
    // (those offsets cancel).
    std::set<std::string> TA, OA = R0.atoms();
    atomsOf(Accs[V].Term, TA);
    for (const std::string &A : C0.atoms())
      OA.insert(A);
    for (const std::string &A : TA)
      if (A.find("tid_") != std::string::npos && !OA.count(A))
        refuse(RuleId::PK5041, Loc,
               "the accumulator depends on the thread through " + A +
                   ", not only through the offset of the tile it is stored "
                   "at");
    OA.insert(El.begin(), El.end());
    std::map<std::string, Poly> W;
    for (const std::string &A : OA)
      W[A] = Poly::atom("v_w" + std::to_string(Fresh++) + "_");
    std::string P = "v_tr" + std::to_string(Fresh++) + "_",
                Q = "v_tc" + std::to_string(Fresh++) + "_";
    FV Acc;
    Acc.K = FV::Acc;
    Acc.AccV = V;
    for (const std::string &E : El)
      Acc.AccIdx.push_back(W[E]);
    Acc.AccIdx.push_back(Poly::atom(P) - R0.subst(W));
    Acc.AccIdx.push_back(Poly::atom(Q) - C0.subst(W));
    Acc.AccSub = W;
    Def Df;
    Df.Vars = {P, Q};
    Df.V = mk(Acc);
    Df.Tile = std::make_pair(R0, C0);
    Df.TileLoops = Loops;
    Defs[Arr] = std::move(Df);
    Phase = 3;
    return;
  }
  refuse(RuleId::PK5040, Loc,
         "call to '" + N + "' is not part of a WMMA GEMM over shared tiles");
}

void TiledGemm::forLoop(const ForStmt *F) {
  auto *DS = dyn_cast_or_null<DeclStmt>(F->getInit());
  auto *V = DS && DS->isSingleDecl() ? dyn_cast<VarDecl>(DS->getSingleDecl())
                                     : nullptr;
  if (!V || !V->hasInit() || !V->getType()->isIntegerType())
    refuse(RuleId::PK5040, F->getForLoc(),
           "loop is not 'for (int v = begin; v < end; v += step)'");
  LoopCtx L;
  L.Var = "v_" + V->getNameAsString() + std::to_string(Fresh++) + "_";
  LoopNames[L.Var] = V->getNameAsString();
  L.Begin = ieval(V->getInit());
  Poly Atom = Poly::atom(L.Var);
  IE.Env[V] = Atom;
  Conds C;
  if (!condsOf(IE, F->getCond(), C) || C.size() != 1 || C[0].first != Atom)
    refuse(RuleId::PK5040, F->getForLoc(), "loop condition is not 'v < end'");
  L.End = C[0].second;
  const Expr *Inc = F->getInc() ? F->getInc()->IgnoreParenImpCasts() : nullptr;
  if (auto *U = dyn_cast_or_null<UnaryOperator>(Inc);
      U && U->isIncrementOp() && varOf(U->getSubExpr()) == V)
    L.Step = Poly::c(1);
  else if (auto *CA = dyn_cast_or_null<CompoundAssignOperator>(Inc);
           CA && CA->getOpcode() == BO_AddAssign && varOf(CA->getLHS()) == V)
    L.Step = ieval(CA->getRHS());
  else
    refuse(RuleId::PK5040, F->getForLoc(), "loop increment is not 'v += step'");
  // Which kind: a cooperative loop (begin = thread index, step = threads),
  // the K-tile loop (contains barriers), or a loop from 0 by 1.
  bool HasBarrier = false;
  std::function<void(const clang::Stmt *)> Find = [&](const clang::Stmt *S) {
    if (!S)
      return;
    if (isBarrier(S))
      HasBarrier = true;
    for (const clang::Stmt *C : S->children())
      Find(C);
  };
  Find(F->getBody());
  if (L.Begin == Poly::atom("tid_x")) {
    auto St = L.Step.constant();
    auto En = L.End.constant();
    if (!St || !En || HasBarrier)
      refuse(RuleId::PK5040, F->getForLoc(),
             "a cooperative loop 'for (i = threadIdx.x; i < E; i += T)' "
             "needs constant E and T");
    check("block_x == " + std::to_string(*St),
          "the block has the " + std::to_string(*St) +
              " threads the cooperative staging loops assume");
    L.Coop = true;
    L.Begin = Poly();
    L.Step = Poly::c(1);
    IE.Max[L.Var] = std::to_string(*En - 1);
  } else if (HasBarrier) {
    if (Phase != -1 || !Loops.empty())
      refuse(RuleId::PK5040, F->getForLoc(),
             "only one K-tile loop with barriers, at the top level, is "
             "lifted");
    L.KTile = true;
  } else {
    auto St = L.Step.constant();
    if (L.Begin != Poly() || !St || *St <= 0)
      refuse(RuleId::PK5040, F->getForLoc(),
             "loop is not 'for (int v = 0; v < end; v += step)' with a "
             "constant step");
    auto En = L.End.constant();
    if (*St != 1 && En && *En > 0)
      IE.Max[L.Var] = std::to_string((*En - 1) / *St * *St);
    else if (auto M = IE.maxOf(L.End))
      IE.Max[L.Var] = *M + " - 1";
  }
  Loops.push_back(L);
  if (L.KTile)
    Phase = 0;
  exec(F->getBody());
  if (L.KTile) {
    if (Phase != 2)
      refuse(RuleId::PK5040, F->getForLoc(),
             "the K-tile loop is not 'stage; __syncthreads(); compute; "
             "__syncthreads();'");
    Phase = -1;
    KDone = true;
    StagedNow.clear();
    // Staged values do not outlive their iteration.
    for (const VarDecl *S : Shared)
      Defs.erase(S);
  }
  Loops.pop_back();
  IE.Env.erase(V);
}

void TiledGemm::exec(const clang::Stmt *S) {
  S = unwrap(S);
  if (auto *CS = dyn_cast<CompoundStmt>(S)) {
    for (const clang::Stmt *X : CS->body())
      exec(X);
    return;
  }
  if (auto *AS = dyn_cast<AttributedStmt>(S))
    return exec(AS->getSubStmt());
  if (isa<NullStmt>(S))
    return;
  if (isBarrier(S)) {
    if (Phase == 0 && Loops.size() == 1)
      Phase = 1;
    else if (Phase == 1 && Loops.size() == 1)
      Phase = 2;
    else if (Phase == 3 && Loops.empty())
      Phase = 4;
    else
      refuse(RuleId::PK5040, S->getBeginLoc(),
             "barrier outside 'stage; __syncthreads(); compute; "
             "__syncthreads();' in the K-tile loop");
    return;
  }
  if (Phase == 2)
    refuse(RuleId::PK5040, S->getBeginLoc(),
           "statement after the K-tile loop's second barrier");
  if (auto *DS = dyn_cast<DeclStmt>(S)) {
    for (const Decl *D : DS->decls()) {
      auto *V = dyn_cast<VarDecl>(D);
      if (!V)
        refuse(RuleId::PK5040, D->getLocation(), "declaration not lifted");
      if (V->hasAttr<CUDASharedAttr>()) {
        Dims[V] = dimsOf(V);
        Shared.insert(V);
        continue;
      }
      QualType T = V->getType();
      // A fragment, or an array of fragments (a warp tile of several
      // 16x16 fragments) with constant dimensions.
      std::vector<Poly> FDims;
      QualType FT = T;
      while (const ArrayType *A = FT->getAsArrayTypeUnsafe()) {
        auto *CA = dyn_cast<ConstantArrayType>(A);
        if (!CA) {
          QualType E = A->getElementType();
          while (const ArrayType *A2 = E->getAsArrayTypeUnsafe())
            E = A2->getElementType();
          if (fragOf(E))
            refuse(RuleId::PK5040, V->getLocation(),
                   "array of WMMA fragments '" + V->getNameAsString() +
                       "' without constant dimensions");
          break;
        }
        FDims.push_back(Poly::c(CA->getSize().getSExtValue()));
        FT = CA->getElementType();
      }
      if (auto F = fragOf(FT)) {
        if (F->Mi != 16 || F->Ni != 16 || F->Ki != 16 ||
            (F->Use != "accumulator" && F->Layout != "row_major" &&
             F->Layout != "col_major"))
          refuse(RuleId::PK5040, V->getLocation(),
                 "WMMA fragment '" + V->getNameAsString() +
                     "' is not a 16x16x16 accumulator or row- or col-major "
                     "operand (the shapes and layouts lifted from shared "
                     "tiles)");
        Frags[V] = *F;
        FragDims[V] = FDims;
        Dims[V] = FDims;
        Dims[V].push_back(Poly::c(16));
        Dims[V].push_back(Poly::c(16));
        continue;
      }
      if (T->isArrayType()) {
        Dims[V] = dimsOf(V);
        if (V->hasInit()) {
          auto *IL = dyn_cast<InitListExpr>(V->getInit()->IgnoreImplicit());
          bool AllZero = IL != nullptr;
          if (IL)
            for (const Expr *E : IL->inits())
              AllZero = AllZero &&
                        (isa<ImplicitValueInitExpr>(E) || isZeroLiteral(E));
          if (!AllZero)
            refuse(RuleId::PK5040, V->getLocation(),
                   "array initialiser other than '= {}' or zeros");
          ZeroInit.insert(V);
        }
        continue;
      }
      if (T->isIntegerType()) {
        if (!V->hasInit() || !T.isConstQualified())
          refuse(RuleId::PK5040, V->getLocation(),
                 "integer local '" + V->getNameAsString() +
                     "' is not a const with an initialiser");
        IE.Env[V] = ieval(V->getInit());
        continue;
      }
      if (T->isFloatingType() || T->isDependentType()) {
        if (V->hasInit() && isZeroLiteral(V->getInit())) {
          ZeroInit.insert(V);
          continue;
        }
        if (V->hasInit()) {
          if (!Guard.empty())
            refuse(RuleId::PK5040, V->getLocation(),
                   "conditional register value");
          Defs[V] = Def{{}, value(V->getInit())};
        }
        continue;
      }
      refuse(RuleId::PK5040, V->getLocation(),
             "local '" + V->getNameAsString() + "' is not lifted");
    }
    return;
  }
  if (auto *F = dyn_cast<ForStmt>(S))
    return forLoop(F);
  if (auto *I = dyn_cast<IfStmt>(S)) {
    Conds C;
    if (I->getElse() || !condsOf(IE, I->getCond(), C))
      refuse(RuleId::PK5044, I->getIfLoc(),
             "condition is not a conjunction of bounds 'a < b' without else");
    size_t N = Guard.size();
    Guard.insert(Guard.end(), C.begin(), C.end());
    exec(I->getThen());
    Guard.resize(N);
    return;
  }
  if (auto *B = dyn_cast<BinaryOperator>(S))
    if (B->isAssignmentOp())
      return assign(B->getLHS(), B->getRHS(), B->getOpcode(), B->getExprLoc());
  // An assignment of a class-typed element (__half, __nv_bfloat16).
  if (auto *O = dyn_cast<CXXOperatorCallExpr>(S))
    if ((O->getOperator() == OO_Equal || O->getOperator() == OO_PlusEqual) &&
        O->getNumArgs() == 2)
      return assign(O->getArg(0), O->getArg(1),
                    O->getOperator() == OO_Equal ? BO_Assign : BO_AddAssign,
                    O->getOperatorLoc());
  if (auto *C = dyn_cast<CallExpr>(S))
    if (!Frags.empty())
      return wmmaCall(C);
  if (isa<ReturnStmt>(S))
    refuse(RuleId::PK5040, S->getBeginLoc(),
           "early return in a GEMM over shared tiles: the tiles are proven "
           "only when every thread of the block stages, reaches the barriers "
           "and stores under a 'row < M && col < N' guard");
  refuse(RuleId::PK5040, S->getBeginLoc(),
         "statement not part of a recognised tiled GEMM");
}

/// Linear terms of the epilogue: coefficient (Python) times acc or old C.
struct Lin {
  std::vector<std::string> Coef;
  bool Acc = false; ///< else: the old value of C
};

bool linear(const FVP &V, std::vector<Lin> &Out,
            const std::function<bool(const FV &)> &IsAcc,
            const std::function<bool(const FV &)> &IsOld) {
  if (V->K == FV::Add)
    return linear(V->L, Out, IsAcc, IsOld) && linear(V->R, Out, IsAcc, IsOld);
  if (V->K == FV::Mul) {
    const FVP *S = nullptr, *X = nullptr;
    if (V->L->K == FV::Scalar) {
      S = &V->L;
      X = &V->R;
    } else if (V->R->K == FV::Scalar) {
      S = &V->R;
      X = &V->L;
    } else {
      return false;
    }
    size_t N = Out.size();
    if (!linear(*X, Out, IsAcc, IsOld))
      return false;
    for (size_t I = N; I < Out.size(); ++I)
      Out[I].Coef.push_back((*S)->S);
    return true;
  }
  if (IsAcc(*V)) {
    Out.push_back(Lin{{}, true});
    return true;
  }
  if (IsOld(*V)) {
    Out.push_back(Lin{{}, false});
    return true;
  }
  return false;
}

Gemm TiledGemm::prove() {
  if (!Out)
    refuse(RuleId::PK5044, FD->getLocation(),
           "the kernel stores no element of C");
  const OutStore &O = *Out;
  // The guard: row < M && col < N, C[row * N + col].
  if (O.Guard.size() != 2)
    refuse(RuleId::PK5044, O.Loc,
           "the store of C is not guarded by 'row < M && col < N'");
  Gemm G;
  Poly Row, Col;
  bool Found = false;
  for (int Sw = 0; Sw < 2 && !Found; ++Sw) {
    const auto &RC = O.Guard[Sw], &CC = O.Guard[1 - Sw];
    if (!RC.second.single() || !CC.second.single())
      continue;
    if (O.Idx == RC.first * CC.second + CC.first) {
      Row = RC.first;
      Col = CC.first;
      G.M = *RC.second.single();
      G.N = *CC.second.single();
      Found = true;
    }
  }
  if (!Found)
    refuse(RuleId::PK5041, O.Loc,
           "the store of C is not C[row * N + col] under 'row < M && col < "
           "N' with M and N size parameters");
  // The epilogue: alpha * acc + beta * C[same].
  const VarDecl *AccV = nullptr;
  std::vector<Poly> AccIdx;
  std::map<std::string, Poly> AccSub;
  std::vector<Lin> Terms;
  bool Lin0 = linear(
      O.V, Terms,
      [&](const FV &V) {
        if (V.K != FV::Acc || (AccV && AccV != V.AccV))
          return false;
        AccV = V.AccV;
        AccIdx = V.AccIdx;
        AccSub = V.AccSub;
        return true;
      },
      [&](const FV &V) {
        return V.K == FV::Load && V.P == O.P && V.Idx == O.Idx &&
               V.Guard.empty();
      });
  int NA = 0, NC = 0;
  for (const Lin &L : Terms)
    (L.Acc ? NA : NC)++;
  if (!Lin0 || NA != 1 || NC > 1)
    refuse(RuleId::PK5043, O.Loc,
           "the stored value is not 'alpha * acc + beta * C[same element]' "
           "(alpha, beta scalar parameters or constants, each optional)");
  for (const Lin &L : Terms) {
    std::string S = llvm::join(L.Coef, " * ");
    (L.Acc ? G.Alpha : G.Beta) = L.Acc ? S : (S.empty() ? "1.0" : S);
  }
  // The accumulator: sum over (k0 by S0 below K) x (k below S0) of
  // A[row * K + k0 + k] * B[(k0 + k) * N + col] (or Bt[col * K + k0 + k]).
  const Accum &A = Accs[AccV];
  std::map<std::string, Poly> ElemS = AccSub;
  for (size_t I = 0; I < A.Vars.size(); ++I)
    ElemS[A.Vars[I]] = AccIdx[I];
  FVP Term = substFV(A.Term, ElemS);
  // The K loops: the K-tile loop, then loops each splitting the step of the
  // one around it ('for (kk = 0; kk < T; kk += 16)' around the 16 of an
  // mma_sync), the last by 1: together they run over every k below K.
  bool Chain = A.Sums.size() >= 2 && A.Sums[0].KTile &&
               A.Sums[0].Begin == Poly() && A.Sums[0].End.single() &&
               A.Sums.back().Step == Poly::c(1);
  for (size_t I = 1; Chain && I < A.Sums.size(); ++I)
    Chain = A.Sums[I].Begin == Poly() && A.Sums[I].End == A.Sums[I - 1].Step;
  if (!Chain)
    refuse(RuleId::PK5042, A.Loc,
           "the accumulation does not run over 'for (k0 = 0; k0 < K; k0 += "
           "T)' and 'for (k = 0; k < T; ++k)' (or loops 'for (kk = 0; kk < "
           "T; kk += S)' between them, each within the step of the one "
           "around it)");
  for (size_t I = 1; I + 1 < A.Sums.size(); ++I) {
    auto En = A.Sums[I].End.constant(), St = A.Sums[I].Step.constant();
    if (!En || !St || *St <= 0 || *En % *St)
      refuse(RuleId::PK5042, A.Loc,
             "a loop over k steps by " + A.Sums[I].Step.py() +
                 " through a K tile of " + A.Sums[I].End.py() +
                 ": the steps do not split the tile evenly, so k runs past "
                 "it or leaves part of it out");
  }
  G.K = *A.Sums[0].End.single();
  Poly KK;
  for (const LoopCtx &L : A.Sums)
    KK = KK + Poly::atom(L.Var);
  if (Term->K != FV::Mul || Term->L->K != FV::Load || Term->R->K != FV::Load)
    refuse(RuleId::PK5042, A.Loc,
           "the accumulated value is not a product of two staged loads");
  Poly KP = Poly::atom(G.K);
  const FV *LA = nullptr, *LB = nullptr;
  for (const FV *X : {Term->L.get(), Term->R.get()}) {
    if (X->Idx == Row * KP + KK)
      LA = X;
    else if (X->Idx == KK * Poly::atom(G.N) + Col)
      LB = X;
    else if (X->Idx == Col * KP + KK) {
      LB = X;
      G.BTransposed = true;
    }
  }
  if (!LA || !LB || LA == LB)
    refuse(RuleId::PK5041, A.Loc,
           "the product's operands are not A[row * " + G.K +
               " + k] and B[k * " + G.N + " + col] (or B[col * " + G.K +
               " + k]): " + Term->L->Idx.py() + " and " + Term->R->Idx.py());
  Conds KBound = {{KK, KP}};
  auto Allowed = [&](const FV *X, const std::pair<Poly, Poly> &C) {
    return C == KBound[0] ||
           (X == LA && C == std::make_pair(Row, Poly::atom(G.M))) ||
           (X == LB && C == std::make_pair(Col, Poly::atom(G.N)));
  };
  int KGuards = 0;
  for (const FV *X : {LA, LB}) {
    for (const auto &C : X->Guard)
      if (!Allowed(X, C))
        refuse(RuleId::PK5042, A.Loc,
               "a staged load is guarded by " + C.first.py() + " < " +
                   C.second.py() + ", not a bound of its row, column or k");
    for (const auto &C : X->Guard)
      KGuards += C == KBound[0];
  }
  std::string Step = A.Sums[0].Step.py();
  if (KGuards == 0)
    check(G.K + " % " + paren(Step) + " == 0",
          "K is a multiple of the K tile (no zero fill past K)");
  else if (KGuards != 2)
    refuse(RuleId::PK5042, A.Loc,
           "only one of the staged operands is zero-filled past K");
  G.A = LA->P;
  G.B = LB->P;
  G.C = O.P;
  for (const ParmVarDecl *P : {G.A, G.B, G.C})
    if (!P->getType()->isPointerType() ||
        !dtypeOf(P->getType()->getPointeeType()))
      refuse(RuleId::PK5041, P->getLocation(), "pointer without NKI dtype");
  if (G.A == G.B || G.A == G.C || G.B == G.C ||
      dtypeOf(G.C->getType()->getPointeeType()) != DType::F32 ||
      dtypeOf(G.A->getType()->getPointeeType()) !=
          dtypeOf(G.B->getType()->getPointeeType()))
    refuse(RuleId::PK5041, O.Loc,
           "A, B and C must be distinct, A and B of one element type, C "
           "float");
  // Coverage: every (row, col) of C is stored by some thread.
  std::string Gen = "for bid_x in range(grid_x) for bid_y in range(grid_y) "
                    "for tid_x in range(block_x) for tid_y in range(block_y)";
  for (const LoopCtx &L : O.Loops)
    Gen += " for " + L.Var + " in range(" + L.Begin.py() + ", " + L.End.py() +
           ", " + L.Step.py() + ")";
  for (const Poly *P : {&Row, &Col})
    for (const std::string &X : P->atoms())
      if (X.find("tid_z") != std::string::npos ||
          X.find("bid_z") != std::string::npos)
        refuse(RuleId::PK5044, O.Loc, "a 3-D launch is not lifted");
  // Rows and columns separately where they depend on different indices
  // (linear in M + N), else every (row, col) of every thread.
  std::vector<CoverGen> Gens = {{"bid_x", "range(grid_x)", {}, true},
                                {"bid_y", "range(grid_y)", {}, true},
                                {"tid_x", "range(block_x)", {}, true},
                                {"tid_y", "range(block_y)", {}, true}};
  for (const LoopCtx &L : O.Loops) {
    CoverGen CG{L.Var,
                "range(" + L.Begin.py() + ", " + L.End.py() + ", " +
                    L.Step.py() + ")",
                {}};
    for (const Poly *B : {&L.Begin, &L.End, &L.Step})
      for (const std::string &N : pyNamesIn(*B))
        CG.Uses.insert(N);
    Gens.push_back(CG);
  }
  std::string Full = "len({(" + Row.py() + ", " + Col.py() + ") " + Gen +
                     " if " + Row.py() + " < " + G.M + " and " + Col.py() +
                     " < " + G.N + "}) == " + G.M + " * " + G.N;
  std::string Cover = splitCoverCheck(Row, Col, Gens, "r_ < " + G.M,
                                      "c_ < " + G.N, G.M, G.N, Full);
  Checks.push_back({Cover, "the launch stores every element of C"});
  G.Assigns = Assigns;
  G.Checks = Checks;
  bool Reg = false;
  for (const auto &[V, D] : Dims)
    Reg = Reg || (!Shared.count(V) && !D.empty());
  G.Family =
      std::string(!Frags.empty() ? "WMMA GEMM"
                  : Reg          ? "register-blocked GEMM"
                                 : "GEMM") +
      " over shared-memory tiles (C = " + (G.Alpha.empty() ? "" : "alpha * ") +
      "A * B" + (G.BTransposed ? "t^T" : "") +
      (G.Beta.empty() ? "" : " + beta * C") +
      "; nc_matmul over K tiles of 128 into PSUM)";
  return G;
}

Gemm TiledGemm::run() {
  exec(FD->getBody());
  return prove();
}

} // namespace

void nki::emitGemmSpec(const FunctionDecl *FD, const GemmSpec &G, Kernel &K) {
  emitGemm(FD, G, K);
}

bool nki::liftMatmul(TargetContext &TC, const FunctionDecl *FD, Kernel &K,
                     std::optional<Refusal> &Why) {
  Why.reset();
  if (!FD->hasBody())
    return false;
  GemmShape Sh;
  Sh.TraverseStmt(FD->getBody());
  if (!Sh.Mma && !Sh.Mac)
    return false;
  // WMMA fragments loaded from or stored to shared tiles: the symbolic
  // execution of the staged path, with the fragment operations.
  bool Staged = !Sh.Mma || Sh.Shared;
  try {
    for (const ParmVarDecl *P : FD->parameters()) {
      QualType T = P->getType();
      if (T->isPointerType() ? !dtypeOf(T->getPointeeType()) : !dtypeOf(T))
        refuse(RuleId::PK5041, P->getLocation(),
               "parameter '" + P->getNameAsString() + "' of type '" +
                   T.getAsString() + "' has no NKI dtype");
    }
    Gemm G =
        Staged ? TiledGemm(TC.Ctx(), FD).run() : WmmaGemm(TC.Ctx(), FD).run();
    emitGemm(FD, G, K);
    return true;
  } catch (const Refused &R) {
    Why = R.R;
    return false;
  }
}
