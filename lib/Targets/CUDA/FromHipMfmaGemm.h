//===- FromHipMfmaGemm.h - the recogniser of hand-written MFMA GEMMs ------===//
// Rules: PK6042, PK6043, PK6044
//
// What FromHipMfmaBuiltins.cpp's pass runs on each kernel with an MFMA
// builtin: the lane polynomials and their arithmetic, the index evaluator
// (FromHipMfmaLanes.cpp) and the match of the fragment pattern with its WMMA
// rewrite (FromHipMfmaMatch.cpp).
//
//===----------------------------------------------------------------------===//
#ifndef PK_TARGETS_CUDA_FROMHIPMFMAGEMM_H
#define PK_TARGETS_CUDA_FROMHIPMFMAGEMM_H

#include "FromHip.h"
#include "pk/DynamicVisitor.h"
#include "pk/Polynomial.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/Attr.h"
#include "clang/AST/ExprCXX.h"
#include "clang/Basic/SourceManager.h"
#include "clang/Lex/Lexer.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FormatVariadic.h"

#include <map>
#include <optional>
#include <set>

namespace pk::cuda::mfmagemm {

using namespace clang;

// Digits of the thread index: threadIdx.x = R + 16 * Q + 64 * W, and the
// element (or register) number E of the operand loop.
enum : int { DR = -1, DQ = -2, DW = -3, DE = -4 };

/// Polynomials over atom ids (pk/Polynomial.h; digits negative).
using Poly = Polynomial<int>;
using Mono = Poly::Mono;

inline Poly constant(int64_t C) { return Poly::constant(C); }
inline Poly atom(int Id) { return Poly::atom(Id); }
inline Poly add(const Poly &A, const Poly &B, int64_t S = 1) {
  return A + B * S;
}
inline Poly mul(const Poly &A, const Poly &B) { return A * B; }
inline Poly scale(const Poly &A, int64_t S) { return A * S; }
inline std::optional<int64_t> asConstant(const Poly &P) {
  return P.asConstant();
}
bool hasDigit(const Poly &P, std::initializer_list<int> Ds);

struct Failure {
  SourceLocation Loc; ///< what is not recognised
  std::string Why;
  SourceLocation Call; ///< the builtin
};

/// One recognised kernel: the edits that map it to WMMA.
struct Mapping {
  const FunctionDecl *FD = nullptr;
  SourceLocation Call;
  unsigned GuardAt = 0, RegionBegin = 0, RegionEnd = 0;
  std::string File, Indent, Region;
  std::string Notes; ///< leading dimensions that are only known at run time
  std::set<const TypedefNameDecl *> VectorTypes;
};

class Recogniser {
public:
  Recogniser(TargetContext &TC, const FunctionDecl *FD) : TC(TC), FD(FD) {}

  std::optional<Mapping> run(std::vector<Failure> &Fails);
  SourceLocation CallLoc;

private:
  TargetContext &TC;
  const FunctionDecl *FD;
  std::vector<std::string> AtomText;
  std::map<std::string, int> AtomIds;
  std::map<const VarDecl *, Poly> VarPoly;
  const VarDecl *Digit = nullptr; ///< the element/register loop variable
  const VarDecl *K0 = nullptr;    ///< the K loop's counter
  std::string Err;
  SourceLocation ErrLoc;
  std::set<const TypedefNameDecl *> VecTypes;

  const SourceManager &SM() const { return TC.SM(); }
  const LangOptions &LO() const { return TC.Ctx().getLangOpts(); }

  bool fail(const Stmt *S, std::string Why) {
    if (Err.empty()) {
      Err = std::move(Why);
      ErrLoc = S ? S->getBeginLoc() : SourceLocation();
    }
    return false;
  }

  std::string text(const Stmt *S) const {
    CharSourceRange R = SM().getExpansionRange(S->getSourceRange());
    return Lexer::getSourceText(R, SM(), LO()).str();
  }
  static std::string squeeze(llvm::StringRef S) {
    std::string R;
    for (char C : S)
      if (!isspace((unsigned char)C))
        R += C;
    return R;
  }

  int atomId(const std::string &Key, const std::string &Text) {
    auto It = AtomIds.find(Key);
    if (It != AtomIds.end())
      return It->second;
    AtomText.push_back(Text);
    return AtomIds[Key] = (int)AtomText.size() - 1;
  }

  /// True when \p V is assigned, incremented or has its address taken in
  /// the function body.
  bool modified(const VarDecl *V) const;

  /// True when \p E is spelled with a wave-width macro (WARP_SIZE,
  /// WAVE_SIZE, ...), whose 64 PK6033 narrows to 32 in the output.
  bool waveWidthMacro(const Expr *E) const;

  static const Expr *strip(const Expr *E) {
    while (true) {
      E = E->IgnoreParenImpCasts();
      if (const auto *C = dyn_cast<ExplicitCastExpr>(E)) {
        if (C->getType()->isIntegerType() &&
            C->getSubExpr()->getType()->isIntegerType()) {
          E = C->getSubExpr();
          continue;
        }
      }
      return E;
    }
  }

  bool isThreadX(const std::string &S) const {
    return S == "threadIdx.x" || S == "hipThreadIdx_x";
  }
  std::optional<std::string> uniformBuiltin(const std::string &S) const {
    for (const char *B : {"blockIdx", "blockDim", "gridDim"})
      for (const char *C : {"x", "y", "z"}) {
        std::string Cuda = std::string(B) + "." + C;
        std::string Hip = std::string("hip") + (char)toupper(B[0]) +
                          std::string(B + 1) + "_" + C;
        if (S == Cuda || S == Hip)
          return Cuda;
      }
    return std::nullopt;
  }

public:
  /// The value of \p E as a polynomial, or nullopt (Err says why).
  std::optional<Poly> eval(const Expr *E0);

  /// Printed form of a lane-independent polynomial.
  std::string print(const Poly &P) const;

  /// Splits \p P into its lane-independent part and the coefficients of the
  /// digits R, Q and E.
  bool split(const Expr *E, const Poly &P, Poly &Base, Poly &CR, Poly &CQ,
             Poly &CE);
};

} // namespace pk::cuda::mfmagemm

#endif
