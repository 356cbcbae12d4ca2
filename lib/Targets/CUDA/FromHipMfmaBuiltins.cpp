//===- FromHipMfmaBuiltins.cpp - hand-written MFMA GEMMs to WMMA ----------===//
// Rules: PK6042, PK6043, PK6044
//
// PK6043: a HIP kernel that computes a 16x16 tile per 64-lane wave with
// __builtin_amdgcn_mfma_f32_16x16x16f16 in the fragment pattern of AMD's
// documentation becomes an nvcuda::wmma m16n16k16 kernel:
//
//   floatx4 acc = {0, 0, 0, 0};                 fragment<accumulator> acc;
//                                               fill_fragment(acc, 0.0f);
//   for (k0 ...) {                              for (k0 ...) {
//     halfx4 a, b;                                fragment<matrix_a, ...> a;
//     for (int e = 0; e < 4; ++e) {               fragment<matrix_b, ...> b;
//       a[e] = A[ia(lane, e)];                    load_matrix_sync(a, A + ..,
//       ld); b[e] = B[ib(lane, e)];                    load_matrix_sync(b, B +
//       .., ld);
//     }
//     acc = __builtin_amdgcn_mfma_f32_16x16x16f16(a, b, acc, 0, 0, 0);
//                                                 mma_sync(acc, a, b, acc);
//   }                                           }
//   for (int r = 0; r < 4; ++r)                 store_matrix_sync(C + .., acc,
//     C[ic(lane, r)] = acc[r];                                    ld, layout);
//
// The index expressions are evaluated as polynomials over the lane's digits
// (lane = i + 16 * q: the row or column i and the K group q of the MFMA
// layout), the element or register number, and values that are the same in
// every lane of the wave (parameters, blockIdx, the K loop's counter, the
// wave number).  The mapping is taken only when it is exactly the MFMA
// layout: A[i][k] in lane i + 16 * (k / 4), element k % 4, read from
// ptr[i * ld + k] (row_major) or ptr[i + k * ld] (col_major); B[k][j] in lane
// j + 16 * (k / 4); D[i][j] in lane j + 16 * (i / 4), register i % 4.  The
// lane-independent part is the tile's address, the remaining coefficient the
// leading dimension.
//
// PK6044: a block keeps its thread count, so a 64-lane wave is two CUDA
// warps: the first warp of each wave computes the wave's tile (the matrix
// part is guarded by `threadIdx.x % 64 < 32`), the wave number stays
// `threadIdx.x / 64` and the kernel is not narrowed by PK6033.
//
// PK6042: an MFMA builtin outside this pattern is reported with the reason
// and left as written.
//
//===----------------------------------------------------------------------===//
#include "FromHip.h"
#include "RawTokens.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/Basic/SourceManager.h"
#include "clang/Lex/Lexer.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FormatVariadic.h"

#include <map>
#include <optional>
#include <set>

using namespace pk;
using namespace clang;
using pk::cuda::lex;
using pk::cuda::Tok;
namespace tok = clang::tok;

namespace {

// Digits of the thread index: threadIdx.x = R + 16 * Q + 64 * W, and the
// element (or register) number E of the operand loop.
enum : int { DR = -1, DQ = -2, DW = -3, DE = -4 };

using Mono = std::vector<int>; // sorted atom ids (digits negative)
using Poly = std::map<Mono, int64_t>;

Poly constant(int64_t C) {
  Poly P;
  if (C)
    P[{}] = C;
  return P;
}
Poly atom(int Id) { return Poly{{{Id}, 1}}; }
void addTo(Poly &P, const Mono &M, int64_t C) {
  if (!C)
    return;
  int64_t &V = P[M];
  V += C;
  if (!V)
    P.erase(M);
}
Poly add(const Poly &A, const Poly &B, int64_t S = 1) {
  Poly R = A;
  for (auto &[M, C] : B)
    addTo(R, M, S * C);
  return R;
}
Poly mul(const Poly &A, const Poly &B) {
  Poly R;
  for (auto &[MA, CA] : A)
    for (auto &[MB, CB] : B) {
      Mono M = MA;
      M.insert(M.end(), MB.begin(), MB.end());
      llvm::sort(M);
      addTo(R, M, CA * CB);
    }
  return R;
}
Poly scale(const Poly &A, int64_t S) { return mul(A, constant(S)); }
std::optional<int64_t> asConstant(const Poly &P) {
  if (P.empty())
    return 0;
  if (P.size() == 1 && P.begin()->first.empty())
    return P.begin()->second;
  return std::nullopt;
}
bool hasDigit(const Poly &P, std::initializer_list<int> Ds) {
  for (auto &[M, C] : P)
    for (int A : M)
      for (int D : Ds)
        if (A == D)
          return true;
  return false;
}

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
  bool modified(const VarDecl *V) const {
    struct W : RecursiveASTVisitor<W> {
      const VarDecl *V;
      bool Hit = false;
      static const VarDecl *ref(const Expr *E) {
        if (const auto *D = dyn_cast<DeclRefExpr>(E->IgnoreParenImpCasts()))
          return dyn_cast<VarDecl>(D->getDecl());
        return nullptr;
      }
      bool VisitBinaryOperator(BinaryOperator *B) {
        if (B->isAssignmentOp() && ref(B->getLHS()) == V)
          Hit = true;
        return true;
      }
      bool VisitUnaryOperator(UnaryOperator *U) {
        if ((U->isIncrementDecrementOp() || U->getOpcode() == UO_AddrOf) &&
            ref(U->getSubExpr()) == V)
          Hit = true;
        return true;
      }
    } Wk;
    Wk.V = V;
    Wk.TraverseStmt(FD->getBody());
    return Wk.Hit;
  }

  /// True when \p E is spelled with a wave-width macro (WARP_SIZE,
  /// WAVE_SIZE, ...), whose 64 PK6033 narrows to 32 in the output.
  bool waveWidthMacro(const Expr *E) const {
    SourceLocation L = E->getBeginLoc();
    while (L.isMacroID()) {
      std::string Up = Lexer::getImmediateMacroName(L, SM(), LO()).upper();
      llvm::StringRef U = Up;
      if ((U.contains("WARP") || U.contains("WAVE")) &&
          (U.ends_with("SIZE") || U.ends_with("WIDTH") || U.ends_with("LANES")))
        return true;
      L = SM().getImmediateMacroCallerLoc(L);
    }
    return false;
  }

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
  std::optional<Poly> eval(const Expr *E0) {
    const Expr *E = strip(E0);
    if (const auto *IL = dyn_cast<IntegerLiteral>(E))
      return constant((int64_t)IL->getValue().getZExtValue());
    if (!E->isValueDependent() && E->getType()->isIntegerType()) {
      Expr::EvalResult R;
      if (E->EvaluateAsInt(R, TC.Ctx()))
        return constant(R.Val.getInt().getSExtValue());
    }
    std::string S = squeeze(text(E));
    if (isThreadX(S))
      return add(add(atom(DR), scale(atom(DQ), 16)), scale(atom(DW), 64));
    if (auto B = uniformBuiltin(S))
      return atom(atomId(*B, *B));
    if (const auto *CE = dyn_cast<CallExpr>(E)) {
      const FunctionDecl *F = CE->getDirectCallee();
      if (F && F->getIdentifier() && F->getName() == "__lane_id" &&
          CE->getNumArgs() == 0)
        return add(atom(DR), scale(atom(DQ), 16));
      fail(E, "'" + S + "': a call in an index");
      return std::nullopt;
    }
    if (const auto *DR_ = dyn_cast<DeclRefExpr>(E)) {
      if (const auto *EC = dyn_cast<EnumConstantDecl>(DR_->getDecl()))
        return constant(EC->getInitVal().getSExtValue());
      const auto *V = dyn_cast<VarDecl>(DR_->getDecl());
      if (!V || !V->getType()->isIntegerType()) {
        fail(E, "'" + S + "' is not an integer variable");
        return std::nullopt;
      }
      if (V == Digit)
        return atom(DE);
      if (V == K0)
        return atom(
            atomId("v" + std::to_string((uintptr_t)V), V->getName().str()));
      auto It = VarPoly.find(V);
      if (It != VarPoly.end())
        return It->second;
      if (modified(V)) {
        fail(E, "'" + V->getName().str() + "' is assigned in the kernel");
        return std::nullopt;
      }
      if (isa<ParmVarDecl>(V)) {
        Poly P = atom(
            atomId("v" + std::to_string((uintptr_t)V), V->getName().str()));
        VarPoly[V] = P;
        return P;
      }
      if (!V->hasInit() || !V->isLocalVarDecl()) {
        fail(E,
             "'" + V->getName().str() + "' has no value the pattern follows");
        return std::nullopt;
      }
      std::optional<Poly> P = eval(V->getInit());
      if (!P)
        return std::nullopt;
      // A value that is the same in every lane of a wave stays a name.
      if (!hasDigit(*P, {DR, DQ, DE}))
        P = atom(
            atomId("v" + std::to_string((uintptr_t)V), V->getName().str()));
      VarPoly[V] = *P;
      return P;
    }
    if (const auto *BO = dyn_cast<BinaryOperator>(E)) {
      BinaryOperatorKind Op = BO->getOpcode();
      std::optional<Poly> L = eval(BO->getLHS());
      if (!L)
        return std::nullopt;
      std::optional<Poly> R = eval(BO->getRHS());
      if (!R)
        return std::nullopt;
      switch (Op) {
      case BO_Add:
        return add(*L, *R);
      case BO_Sub:
        return add(*L, *R, -1);
      case BO_Mul:
        return mul(*L, *R);
      case BO_Div:
      case BO_Rem:
      case BO_And:
      case BO_Shr: {
        std::optional<int64_t> C = asConstant(*R);
        if (!hasDigit(*L, {DR, DQ, DE})) {
          if (auto LC = asConstant(*L); LC && C && *C > 0 && *LC >= 0) {
            int64_t V = Op == BO_Div   ? *LC / *C
                        : Op == BO_Rem ? *LC % *C
                        : Op == BO_And ? (*LC & *C)
                                       : (*LC >> *C);
            return constant(V);
          }
          // The same in every lane of the wave: an opaque value.
          std::string T = "(" + text(E) + ")";
          return atom(atomId("x" + squeeze(T), T));
        }
        if (!C || *C <= 0) {
          fail(E, "'" + S +
                      "': lane arithmetic by a value that is not a "
                      "constant");
          return std::nullopt;
        }
        if (hasDigit(*L, {DW, DR, DQ}) && waveWidthMacro(BO->getRHS())) {
          fail(E, "'" + S +
                      "': lane arithmetic with a wave-width macro (PK6033 "
                      "narrows it to 32)");
          return std::nullopt;
        }
        int64_t D = *C;
        bool Mod = Op == BO_Rem || Op == BO_And;
        if (Op == BO_And) {
          if ((D & (D + 1)) != 0) {
            fail(E, "'" + S + "': a mask that is not 2^n - 1");
            return std::nullopt;
          }
          D = D + 1;
        } else if (Op == BO_Shr) {
          if (D > 30) {
            fail(E, "'" + S + "': a shift out of range");
            return std::nullopt;
          }
          D = int64_t(1) << D;
        }
        // L must be a sum of lane digits with non-negative coefficients;
        // its part below D must stay below D.
        Poly Low, High;
        int64_t MaxLow = 0;
        for (auto &[M, Co] : *L) {
          if (M.size() != 1 || M[0] >= 0 || M[0] == DE || Co <= 0) {
            fail(E, "'" + S + "': lane arithmetic the pattern does not follow");
            return std::nullopt;
          }
          if (Co % D == 0) {
            High[M] = Co / D;
            continue;
          }
          if (M[0] == DW) {
            fail(E, "'" + S + "': lane arithmetic the pattern does not follow");
            return std::nullopt;
          }
          Low[M] = Co;
          MaxLow += Co * ((M[0] == DR ? 16 : 4) - 1);
        }
        if (MaxLow >= D) {
          fail(E, "'" + S + "': lane arithmetic the pattern does not follow");
          return std::nullopt;
        }
        return Mod ? Low : High;
      }
      default:
        fail(E, "'" + S + "': an operator the pattern does not follow");
        return std::nullopt;
      }
    }
    if (S.find("threadIdx") != std::string::npos ||
        S.find("ThreadIdx") != std::string::npos) {
      fail(E, "'" + S + "': only the x thread index is followed");
      return std::nullopt;
    }
    fail(E, "'" + S + "': an expression the pattern does not follow");
    return std::nullopt;
  }

  /// Printed form of a lane-independent polynomial.
  std::string print(const Poly &P) const {
    std::string R;
    for (auto &[M, C] : P) {
      std::string T;
      int64_t Co = C;
      if (!R.empty()) {
        R += Co < 0 ? " - " : " + ";
        Co = Co < 0 ? -Co : Co;
      } else if (Co < 0) {
        R += "-";
        Co = -Co;
      }
      std::vector<std::string> F;
      if (Co != 1 || M.empty())
        F.push_back(std::to_string(Co));
      for (int A : M)
        F.push_back(A == DW ? "(threadIdx.x / 64)" : AtomText[A]);
      R += llvm::join(F, " * ");
    }
    return R.empty() ? "0" : R;
  }

  /// Splits \p P into its lane-independent part and the coefficients of the
  /// digits R, Q and E.
  bool split(const Expr *E, const Poly &P, Poly &Base, Poly &CR, Poly &CQ,
             Poly &CE) {
    for (auto &[M, C] : P) {
      int Found = 0, N = 0;
      Mono Rest;
      for (int A : M)
        if (A == DR || A == DQ || A == DE) {
          Found = A;
          ++N;
        } else {
          Rest.push_back(A);
        }
      if (N > 1)
        return fail(E, "an index with a product of lane digits");
      if (N == 0) {
        addTo(Base, M, C);
        continue;
      }
      if (hasDigit(Poly{{Rest, 1}}, {DW}))
        return fail(E, "an index whose lane stride depends on the wave");
      addTo(Found == DR ? CR : Found == DQ ? CQ : CE, Rest, C);
    }
    return true;
  }
};

} // namespace

namespace pk::cuda {
/// Defined below; used by the warp-width pass to leave mapped kernels alone.
bool mfmaGemmKernel(TargetContext &TC, const FunctionDecl *FD);
} // namespace pk::cuda

namespace {

bool isMfmaCall(const CallExpr *CE, llvm::StringRef &Name) {
  const FunctionDecl *F = CE->getDirectCallee();
  if (!F || !F->getIdentifier() ||
      !F->getName().starts_with("__builtin_amdgcn_mfma_"))
    return false;
  Name = F->getName();
  return true;
}

std::vector<const CallExpr *> mfmaCalls(const Stmt *S) {
  struct W : RecursiveASTVisitor<W> {
    std::vector<const CallExpr *> Calls;
    bool VisitCallExpr(CallExpr *CE) {
      llvm::StringRef N;
      if (isMfmaCall(CE, N))
        Calls.push_back(CE);
      return true;
    }
  } Wk;
  Wk.TraverseStmt(const_cast<Stmt *>(S));
  return Wk.Calls;
}

const VarDecl *refVar(const Expr *E) {
  if (!E)
    return nullptr;
  if (const auto *D = dyn_cast<DeclRefExpr>(E->IgnoreParenImpCasts()))
    return dyn_cast<VarDecl>(D->getDecl());
  return nullptr;
}

/// `for (int v = 0; v < N; ++v)`: the variable, or null.
const VarDecl *countedLoop(const ForStmt *F, int64_t N) {
  const auto *DS = dyn_cast_or_null<DeclStmt>(F->getInit());
  if (!DS || !DS->isSingleDecl())
    return nullptr;
  const auto *V = dyn_cast<VarDecl>(DS->getSingleDecl());
  Expr::EvalResult R;
  if (!V || !V->getInit() ||
      !V->getInit()->EvaluateAsInt(R, V->getASTContext()) ||
      R.Val.getInt() != 0)
    return nullptr;
  const auto *C = dyn_cast_or_null<BinaryOperator>(F->getCond());
  if (!C || C->getOpcode() != BO_LT || refVar(C->getLHS()) != V ||
      !C->getRHS()->EvaluateAsInt(R, V->getASTContext()) || R.Val.getInt() != N)
    return nullptr;
  const Expr *I = F->getInc();
  if (const auto *U = dyn_cast_or_null<UnaryOperator>(I)) {
    if (U->isIncrementOp() && refVar(U->getSubExpr()) == V)
      return V;
  } else if (const auto *B = dyn_cast_or_null<CompoundAssignOperator>(I)) {
    if (B->getOpcode() == BO_AddAssign && refVar(B->getLHS()) == V &&
        B->getRHS()->EvaluateAsInt(R, V->getASTContext()) &&
        R.Val.getInt() == 1)
      return V;
  }
  return nullptr;
}

/// The statements of a loop body (a block or one statement).
std::vector<const Stmt *> stmts(const Stmt *S) {
  if (const auto *CS = dyn_cast<CompoundStmt>(S))
    return std::vector<const Stmt *>(CS->body_begin(), CS->body_end());
  return {S};
}

/// An ext_vector_type of \p N elements whose element type satisfies \p P;
/// records the typedef it is spelled with.
bool extVector(QualType T, unsigned N, bool Half,
               std::set<const TypedefNameDecl *> &Types) {
  if (const auto *TT = T->getAs<TypedefType>())
    Types.insert(TT->getDecl());
  const auto *V = T->getAs<ExtVectorType>();
  if (!V || V->getNumElements() != N)
    return false;
  QualType E = V->getElementType();
  return Half ? E->isFloat16Type() || E->isHalfType()
              : E->isSpecificBuiltinType(BuiltinType::Float);
}

std::string halfPointee(QualType P) {
  const auto *PT = P->getAs<PointerType>();
  if (!PT)
    return "";
  QualType E = PT->getPointeeType().getUnqualifiedType();
  if (E->isFloat16Type())
    return "_Float16";
  if (const auto *R = E->getAsRecordDecl())
    if (R->getName() == "__half")
      return "__half";
  return "";
}

} // namespace

std::optional<Mapping> Recogniser::run(std::vector<Failure> &Fails) {
  auto Fail = [&](const Stmt *S, std::string Why) -> std::optional<Mapping> {
    // The place of a failed evaluation, else the statement.
    Fails.push_back({ErrLoc.isValid() ? ErrLoc : S->getBeginLoc(), Why});
    return std::nullopt;
  };
  const auto *Body = dyn_cast_or_null<CompoundStmt>(FD->getBody());
  std::vector<const CallExpr *> Calls =
      Body ? mfmaCalls(Body) : std::vector<const CallExpr *>();
  if (Calls.empty())
    return std::nullopt;
  const CallExpr *CE = Calls[0];
  CallLoc = CE->getBeginLoc();
  llvm::StringRef Name;
  isMfmaCall(CE, Name);
  if (Calls.size() > 1)
    return Fail(Calls[1], "more than one MFMA builtin in the kernel");
  if (!FD->hasAttr<CUDAGlobalAttr>())
    return Fail(CE, "the builtin is not in a __global__ kernel (the "
                    "mapping needs the kernel's wave structure)");
  if (Name != "__builtin_amdgcn_mfma_f32_16x16x16f16")
    return Fail(CE, "only __builtin_amdgcn_mfma_f32_16x16x16f16 is mapped "
                    "to WMMA (m16n16k16)");
  if (CE->getNumArgs() != 6)
    return Fail(CE, "the builtin takes six arguments");
  for (unsigned I = 3; I < 6; ++I) {
    Expr::EvalResult R;
    if (!CE->getArg(I)->EvaluateAsInt(R, TC.Ctx()) || R.Val.getInt() != 0)
      return Fail(CE, "cbsz, abid and blgp must be 0 (they reroute lanes)");
  }
  // acc = builtin(a, b, acc, 0, 0, 0); as a statement of the K loop's body.
  const VarDecl *VA = refVar(CE->getArg(0)), *VB = refVar(CE->getArg(1)),
                *Acc = refVar(CE->getArg(2));
  if (!VA || !VB || !Acc || VA == VB)
    return Fail(CE, "the operands and the accumulator must be local variables");
  size_t LoopIdx = 0;
  const ForStmt *KLoop = nullptr;
  const Stmt *MmaStmt = nullptr;
  for (size_t I = 0; I < Body->size(); ++I) {
    const auto *F = dyn_cast<ForStmt>(Body->body_begin()[I]);
    if (!F || !F->getBody())
      continue;
    for (const Stmt *S : stmts(F->getBody()))
      if (const auto *BO = dyn_cast<BinaryOperator>(S))
        if (BO->getOpcode() == BO_Assign && refVar(BO->getLHS()) == Acc &&
            BO->getRHS()->IgnoreParenImpCasts() == CE) {
          KLoop = F;
          LoopIdx = I;
          MmaStmt = S;
        }
  }
  if (!KLoop)
    return Fail(CE, "the builtin is not a statement 'acc = builtin(a, b, "
                    "acc, 0, 0, 0)' of a K loop at the top level of the "
                    "kernel");
  if (LoopIdx == 0 || LoopIdx + 1 >= Body->size())
    return Fail(KLoop, "the K loop is not between the accumulator's "
                       "declaration and its store");
  // The accumulator: declared, zero-initialised, just before the loop.
  const auto *AccDS = dyn_cast<DeclStmt>(Body->body_begin()[LoopIdx - 1]);
  if (!AccDS || !AccDS->isSingleDecl() || AccDS->getSingleDecl() != Acc)
    return Fail(KLoop,
                "the accumulator is not declared just before the K loop");
  std::set<const TypedefNameDecl *> Types;
  if (!extVector(Acc->getType(), 4, false, Types))
    return Fail(AccDS, "the accumulator is not a vector of 4 floats");
  {
    const Expr *I = Acc->getInit();
    const auto *IL =
        I ? dyn_cast<InitListExpr>(I->IgnoreParenImpCasts()) : nullptr;
    bool Zero = IL != nullptr;
    if (IL)
      for (const Expr *X : IL->inits()) {
        Expr::EvalResult R;
        if (!X->EvaluateAsRValue(R, TC.Ctx()) ||
            !(R.Val.isFloat() ? R.Val.getFloat().isZero()
                              : R.Val.isInt() && R.Val.getInt() == 0))
          Zero = false;
      }
    if (!Zero)
      return Fail(AccDS, "the accumulator does not start at zero (only "
                         "C = A * B is mapped)");
  }
  // The K loop: a uniform counter.
  const auto *KInit = dyn_cast_or_null<DeclStmt>(KLoop->getInit());
  if (!KInit || !KInit->isSingleDecl())
    return Fail(KLoop, "the K loop does not declare its counter");
  K0 = dyn_cast<VarDecl>(KInit->getSingleDecl());
  if (!K0 || !K0->getType()->isIntegerType() || !K0->getInit())
    return Fail(KLoop, "the K loop's counter is not an integer");
  {
    Digit = nullptr;
    std::optional<Poly> P = eval(K0->getInit());
    if (!P)
      return Fail(KLoop, "the K loop's start: " + Err);
    if (hasDigit(*P, {DR, DQ, DE}))
      return Fail(KLoop, "the K loop's start differs between lanes");
    const auto *Cond = dyn_cast_or_null<BinaryOperator>(KLoop->getCond());
    if (!Cond || !Cond->isComparisonOp())
      return Fail(KLoop, "the K loop's condition is not a comparison");
    std::optional<Poly> CL = eval(Cond->getLHS()), CR = eval(Cond->getRHS());
    if (!CL || !CR)
      return Fail(KLoop, "the K loop's condition: " + Err);
    if (hasDigit(*CL, {DR, DQ, DE}) || hasDigit(*CR, {DR, DQ, DE}))
      return Fail(KLoop, "the K loop's trip count differs between lanes");
    const auto *Inc = dyn_cast_or_null<CompoundAssignOperator>(KLoop->getInc());
    if (!Inc || Inc->getOpcode() != BO_AddAssign || refVar(Inc->getLHS()) != K0)
      return Fail(KLoop, "the K loop does not step its counter with +=");
    std::optional<Poly> St = eval(Inc->getRHS());
    if (!St || asConstant(*St) != std::optional<int64_t>(16))
      return Fail(KLoop, "the K loop does not step by 16 (the K of one "
                         "16x16x16 MFMA)");
    // The counter is only changed by the step.
    struct W : RecursiveASTVisitor<W> {
      const VarDecl *V;
      bool Hit = false;
      bool VisitBinaryOperator(BinaryOperator *B) {
        Hit |= B->isAssignmentOp() && refVar(B->getLHS()) == V;
        return true;
      }
      bool VisitUnaryOperator(UnaryOperator *U) {
        Hit |= (U->isIncrementDecrementOp() || U->getOpcode() == UO_AddrOf) &&
               refVar(U->getSubExpr()) == V;
        return true;
      }
    } Wk;
    Wk.V = K0;
    Wk.TraverseStmt(const_cast<Stmt *>(KLoop->getBody()));
    if (Wk.Hit)
      return Fail(KLoop, "the K loop's counter is changed in its body");
  }
  // The K loop's body: the operand declarations, their loads, the MFMA.
  struct Load {
    const ParmVarDecl *Ptr = nullptr;
    std::string Pointee;
    Poly Index;
    const Expr *At = nullptr;
  };
  std::map<const VarDecl *, Load> Loads;
  std::vector<const Stmt *> KBody = stmts(KLoop->getBody());
  if (KBody.empty() || KBody.back() != MmaStmt)
    return Fail(KLoop, "the MFMA is not the last statement of the K loop");
  for (const Stmt *S : KBody) {
    if (S == MmaStmt)
      continue;
    if (const auto *DS = dyn_cast<DeclStmt>(S)) {
      for (const Decl *D : DS->decls())
        if ((D != VA && D != VB) ||
            !extVector(cast<VarDecl>(D)->getType(), 4, true, Types) ||
            cast<VarDecl>(D)->hasInit())
          return Fail(S, "the K loop declares something other than the two "
                         "uninitialised 4 x half operands");
      continue;
    }
    const auto *EL = dyn_cast<ForStmt>(S);
    const VarDecl *EV = EL ? countedLoop(EL, 4) : nullptr;
    if (!EV)
      return Fail(S, "a statement of the K loop that is not an operand load "
                     "'for (int e = 0; e < 4; ++e) a[e] = A[...]'");
    Digit = EV;
    for (const Stmt *X : stmts(EL->getBody())) {
      const auto *BO = dyn_cast<BinaryOperator>(X);
      const auto *L =
          BO && BO->getOpcode() == BO_Assign
              ? dyn_cast<ArraySubscriptExpr>(BO->getLHS()->IgnoreParens())
              : nullptr;
      const VarDecl *Op = L ? refVar(L->getBase()) : nullptr;
      if (!Op || (Op != VA && Op != VB) || refVar(L->getIdx()) != EV)
        return Fail(X, "an operand load that is not 'a[e] = A[...]'");
      if (Loads.count(Op))
        return Fail(X, "an operand loaded twice");
      // The value: an element of a half pointer parameter (through its
      // conversion to _Float16).
      const Expr *R = BO->getRHS();
      while (true) {
        R = R->IgnoreParenImpCasts();
        if (const auto *MC = dyn_cast<CXXMemberCallExpr>(R))
          if (isa_and_nonnull<CXXConversionDecl>(MC->getMethodDecl())) {
            R = MC->getImplicitObjectArgument();
            continue;
          }
        if (const auto *M = dyn_cast<MaterializeTemporaryExpr>(R)) {
          R = M->getSubExpr();
          continue;
        }
        if (const auto *CC = dyn_cast<CXXConstructExpr>(R))
          if (CC->getNumArgs() == 1) {
            R = CC->getArg(0);
            continue;
          }
        break;
      }
      const auto *AS = dyn_cast<ArraySubscriptExpr>(R);
      const auto *PV =
          AS ? dyn_cast_or_null<ParmVarDecl>(refVar(AS->getBase())) : nullptr;
      if (!PV)
        return Fail(X,
                    "an operand load that does not read a pointer parameter");
      std::string Pointee = halfPointee(PV->getType());
      if (Pointee.empty())
        return Fail(X, "an operand load from '" + PV->getName().str() +
                           "', which does not point to __half or _Float16");
      if (modified(PV))
        return Fail(X,
                    "'" + PV->getName().str() + "' is assigned in the kernel");
      std::optional<Poly> P = eval(AS->getIdx());
      if (!P)
        return Fail(X, "an operand index the pattern does not follow: " + Err);
      Loads[Op] = {PV, Pointee, *P, AS->getIdx()};
    }
    Digit = nullptr;
  }
  if (!Loads.count(VA) || !Loads.count(VB))
    return Fail(KLoop, "an operand is not loaded in the K loop");
  // The store: for (int r = 0; r < 4; ++r) C[...] = acc[r];
  const auto *SL = dyn_cast<ForStmt>(Body->body_begin()[LoopIdx + 1]);
  const VarDecl *RV = SL ? countedLoop(SL, 4) : nullptr;
  std::vector<const Stmt *> SB =
      RV ? stmts(SL->getBody()) : std::vector<const Stmt *>();
  const auto *SA = SB.size() == 1 ? dyn_cast<BinaryOperator>(SB[0]) : nullptr;
  const auto *SLhs =
      SA && SA->getOpcode() == BO_Assign
          ? dyn_cast<ArraySubscriptExpr>(SA->getLHS()->IgnoreParens())
          : nullptr;
  const auto *SRhs =
      SLhs ? dyn_cast<ArraySubscriptExpr>(SA->getRHS()->IgnoreParenImpCasts())
           : nullptr;
  if (!SRhs || refVar(SRhs->getBase()) != Acc || refVar(SRhs->getIdx()) != RV)
    return Fail(Body->body_begin()[LoopIdx + 1],
                "the K loop is not followed by the store 'for (int r = 0; r "
                "< 4; ++r) C[...] = acc[r];'");
  const auto *CP = dyn_cast_or_null<ParmVarDecl>(refVar(SLhs->getBase()));
  if (!CP || !CP->getType()->isPointerType() ||
      !CP->getType()->getPointeeType()->isSpecificBuiltinType(
          BuiltinType::Float) ||
      CP->getType()->getPointeeType().isConstQualified() || modified(CP))
    return Fail(SA, "the result is not stored to a float pointer parameter");
  Digit = RV;
  std::optional<Poly> CIdx = eval(SLhs->getIdx());
  Digit = nullptr;
  if (!CIdx)
    return Fail(SA, "a result index the pattern does not follow: " + Err);
  // The accumulator is used only by the pattern.
  {
    struct W : RecursiveASTVisitor<W> {
      const VarDecl *V;
      unsigned N = 0;
      bool VisitDeclRefExpr(DeclRefExpr *D) {
        N += D->getDecl() == V;
        return true;
      }
    } Wk;
    Wk.V = Acc;
    Wk.TraverseStmt(const_cast<CompoundStmt *>(Body));
    if (Wk.N != 3)
      return Fail(AccDS, "the accumulator is used outside the MFMA and its "
                         "store");
  }

  // The rest of the kernel runs with the thread numbers it has on AMD (the
  // block keeps its threads, the wave number stays threadIdx.x / 64), but a
  // warp collective or warpSize would see 32 lanes instead of 64.
  {
    struct W : RecursiveASTVisitor<W> {
      std::set<const Stmt *> Skip;
      const Stmt *Hit = nullptr;
      std::string What;
      bool TraverseStmt(Stmt *S) {
        if (!S || Skip.count(S) || Hit)
          return true;
        return RecursiveASTVisitor<W>::TraverseStmt(S);
      }
      // `const int lane = __lane_id();` is the HIP lane only where the
      // mapping replaces its uses: CUDA's lane helper counts 32 lanes.
      std::set<const VarDecl *> LaneVars;
      // (and so are the variables computed from it, where only the mapping
      // uses them).
      bool VisitVarDecl(VarDecl *V) {
        Expr *I = V->getInit();
        if (!I)
          return true;
        struct R : RecursiveASTVisitor<R> {
          const std::set<const VarDecl *> *Vars;
          bool Lane = false;
          bool VisitCallExpr(CallExpr *CE) {
            Lane |= CE->getDirectCallee() &&
                    CE->getDirectCallee()->getIdentifier() &&
                    CE->getDirectCallee()->getName() == "__lane_id";
            return true;
          }
          bool VisitDeclRefExpr(DeclRefExpr *D) {
            Lane |= Vars->count(dyn_cast<VarDecl>(D->getDecl())) > 0;
            return true;
          }
        } Rd;
        Rd.Vars = &LaneVars;
        Rd.TraverseStmt(I);
        if (Rd.Lane) {
          Skip.insert(I);
          LaneVars.insert(V);
        }
        return true;
      }
      bool VisitCallExpr(CallExpr *CE) {
        const FunctionDecl *F = CE->getDirectCallee();
        if (!F || !F->getIdentifier())
          return true;
        llvm::StringRef N = F->getName();
        for (const char *P :
             {"__shfl", "__ballot", "__any", "__all", "__activemask",
              "__syncwarp", "__match", "__reduce", "__builtin_amdgcn", "__lane",
              "__pk_"})
          if (N.starts_with(P) && !Hit) {
            Hit = CE;
            What = N.str();
          }
        return true;
      }
      bool VisitDeclRefExpr(DeclRefExpr *D) {
        if (LaneVars.count(dyn_cast<VarDecl>(D->getDecl())) && !Hit) {
          Hit = D;
          What = "the __lane_id() value";
        }
        if (D->getDecl()->getIdentifier() &&
            D->getDecl()->getName() == "warpSize" && !Hit) {
          Hit = D;
          What = "warpSize";
        }
        return true;
      }
    } Wk;
    Wk.Skip = {AccDS, KLoop, Body->body_begin()[LoopIdx + 1]};
    Wk.TraverseStmt(const_cast<CompoundStmt *>(Body));
    if (Wk.Hit)
      return Fail(Wk.Hit, "the kernel also uses " + Wk.What +
                              ", which counts 32 lanes on a CUDA warp while "
                              "the mapping keeps 64-lane wave numbers");
  }

  // Layouts.  Operand X[r][c] with r the lane's row/column digit R and c the
  // K index 4 * Q + E.
  struct Side {
    std::string Layout, Ld, Base;
  };
  std::string Notes;
  auto Match = [&](const Expr *At, const Poly &P, bool EIsInner,
                   llvm::StringRef What, unsigned MinLd, llvm::StringRef Row,
                   llvm::StringRef Col) -> std::optional<Side> {
    Poly Base, CRr, CQ, CEe;
    if (!split(At, P, Base, CRr, CQ, CEe)) {
      Fails.push_back({ErrLoc, Err});
      return std::nullopt;
    }
    auto Bad = [&](std::string Why) -> std::optional<Side> {
      Fails.push_back({At->getBeginLoc(), (What + ": " + Why).str()});
      return std::nullopt;
    };
    if (CQ != scale(CEe, 4))
      return Bad("the lane's K group (lane / 16) does not step 4 elements");
    Side S;
    Poly Ld;
    // EIsInner: the element digit walks the contiguous dimension in the
    // row-major form (A: ptr[i * ld + k]; B, D: ptr[r * ld + j] with the
    // register/element along rows).
    bool ROne = CRr == constant(1), EOne = CEe == constant(1);
    if (EOne == ROne)
      return Bad("the index is not ptr[row * ld + col] nor ptr[row + col * "
                 "ld] of the MFMA layout");
    if (EIsInner ? EOne : ROne) {
      S.Layout = Row.str();
      Ld = EIsInner ? CRr : CEe;
    } else {
      S.Layout = Col.str();
      Ld = EIsInner ? CEe : CRr;
    }
    if (hasDigit(Ld, {DW, DR, DQ, DE}) || Ld.empty())
      return Bad("the leading dimension differs between waves or is 0");
    if (auto C = asConstant(Ld)) {
      if (*C <= 0 || *C % MinLd)
        return Bad(llvm::formatv("a leading dimension of {0} (WMMA needs a "
                                 "positive multiple of {1})",
                                 *C, MinLd)
                       .str());
    } else {
      Notes += llvm::formatv("{0}'s leading dimension {1} must be a multiple "
                             "of {2} and its tiles 32-byte aligned at run "
                             "time; ",
                             What, print(Ld), MinLd)
                   .str();
    }
    S.Ld = print(Ld);
    S.Base = print(Base);
    return S;
  };
  const Load &LA = Loads[VA], &LB = Loads[VB];
  std::optional<Side> SAa =
      Match(LA.At, LA.Index, true, "A operand", 8, "row_major", "col_major");
  if (!SAa)
    return std::nullopt;
  std::optional<Side> SBb =
      Match(LB.At, LB.Index, false, "B operand", 8, "row_major", "col_major");
  if (!SBb)
    return std::nullopt;
  std::optional<Side> SCc = Match(SLhs->getIdx(), *CIdx, false, "result", 4,
                                  "mem_row_major", "mem_col_major");
  if (!SCc)
    return std::nullopt;

  // The rewrite.
  Mapping M;
  M.FD = FD;
  M.Call = CE->getBeginLoc();
  M.VectorTypes = Types;
  M.Notes = Notes;
  SourceLocation B = AccDS->getBeginLoc(), E = SL->getEndLoc();
  if (B.isMacroID() || E.isMacroID() || !TC.isUserLoc(B))
    return Fail(AccDS, "the pattern is written through macros");
  M.File = TC.fileOf(B);
  M.RegionBegin = SM().getFileOffset(B);
  M.RegionEnd = SM().getFileOffset(
      Lexer::getLocForEndOfToken(SM().getExpansionLoc(E), 0, SM(), LO()));
  llvm::StringRef Buf = TC.contents(M.File);
  if (!isa<CompoundStmt>(SL->getBody())) {
    size_t P = M.RegionEnd;
    while (P < Buf.size() && (Buf[P] == ' ' || Buf[P] == '\t'))
      ++P;
    if (P >= Buf.size() || Buf[P] != ';')
      return Fail(SL, "the store loop does not end with ';'");
    M.RegionEnd = P + 1;
  }
  size_t LS = Buf.take_front(M.RegionBegin).rfind('\n');
  LS = LS == llvm::StringRef::npos ? 0 : LS + 1;
  llvm::StringRef Ind = Buf.slice(LS, M.RegionBegin);
  if (!Ind.trim().empty())
    return Fail(AccDS, "the accumulator's declaration does not start a line");
  M.GuardAt = LS;
  M.Indent = Ind.str();
  std::string I1 = M.Indent + "  ", I2 = I1 + "  ";
  auto Ptr = [&](const Load &L, const Side &S) {
    std::string P = L.Ptr->getName().str() + " + " + S.Base;
    if (S.Base == "0")
      P = L.Ptr->getName().str();
    if (L.Pointee != "__half")
      P = "reinterpret_cast<const __half *>(" + P + ")";
    return P;
  };
  // The K loop's header, as written.
  SourceLocation HB = KLoop->getBeginLoc(), HE = KLoop->getRParenLoc();
  std::string Header =
      Buf.slice(SM().getFileOffset(SM().getExpansionLoc(HB)),
                SM().getFileOffset(SM().getExpansionLoc(HE)) + 1)
          .str();
  std::string NA = VA->getName().str(), NB = VB->getName().str(),
              NC = Acc->getName().str();
  const std::string W = "nvcuda::wmma::";
  std::string CPtr = SCc->Base == "0" ? CP->getName().str()
                                      : CP->getName().str() + " + " + SCc->Base;
  M.Region = W + "fragment<" + W + "accumulator, 16, 16, 16, float> " + NC +
             ";\n" + I1 + W + "fill_fragment(" + NC + ", 0.0f);\n" + I1 +
             Header + " {\n" + I2 + W + "fragment<" + W +
             "matrix_a, 16, 16, 16, __half, " + W + SAa->Layout + "> " + NA +
             ";\n" + I2 + W + "fragment<" + W +
             "matrix_b, 16, 16, 16, __half, " + W + SBb->Layout + "> " + NB +
             ";\n" + I2 + W + "load_matrix_sync(" + NA + ", " + Ptr(LA, *SAa) +
             ", " + SAa->Ld + ");\n" + I2 + W + "load_matrix_sync(" + NB +
             ", " + Ptr(LB, *SBb) + ", " + SBb->Ld + ");\n" + I2 + W +
             "mma_sync(" + NC + ", " + NA + ", " + NB + ", " + NC + ");\n" +
             I1 + "}\n" + I1 + W + "store_matrix_sync(" + CPtr + ", " + NC +
             ", " + SCc->Ld + ", " + W + SCc->Layout + ");";
  return M;
}

namespace {

/// The kernels of the TU with an MFMA builtin: mapped or not.
void analyse(TargetContext &TC, std::vector<Mapping> &Maps,
             std::vector<Failure> &Fails) {
  struct W : RecursiveASTVisitor<W> {
    TargetContext &TC;
    std::vector<Mapping> &Maps;
    std::vector<Failure> &Fails;
    std::map<std::string, std::vector<cuda::HelperBlock>> Blocks;
    W(TargetContext &TC, std::vector<Mapping> &M, std::vector<Failure> &F)
        : TC(TC), Maps(M), Fails(F) {}
    bool VisitFunctionDecl(FunctionDecl *FD) {
      if (!FD->doesThisDeclarationHaveABody() ||
          !TC.isUserLoc(FD->getLocation()))
        return true;
      // port-kernel's own MFMA helpers are removed (PK6030, PK6040).
      SourceLocation L = TC.SM().getExpansionLoc(FD->getLocation());
      std::string File = TC.fileOf(L);
      auto It = Blocks.find(File);
      if (It == Blocks.end())
        It = Blocks.emplace(File, cuda::helperBlocks(TC.contents(File))).first;
      if (cuda::inRevertedBlock(It->second, TC.SM().getFileOffset(L)))
        return true;
      Recogniser R(TC, FD);
      size_t N = Fails.size();
      if (std::optional<Mapping> M = R.run(Fails))
        Maps.push_back(std::move(*M));
      for (size_t I = N; I < Fails.size(); ++I)
        Fails[I].Call = R.CallLoc;
      return true;
    }
  } Wk(TC, Maps, Fails);
  Wk.TraverseDecl(TC.Ctx().getTranslationUnitDecl());
}

} // namespace

bool cuda::mfmaGemmKernel(TargetContext &TC, const FunctionDecl *FD) {
  if (TC.PF.Language != Lang::HIP)
    return false;
  std::vector<Failure> Fails;
  Recogniser R(TC, FD);
  return R.run(Fails).has_value();
}

void cuda::fromHipMfmaBuiltins(TargetContext &TC) {
  if (TC.PF.Language != Lang::HIP)
    return;
  std::vector<Mapping> Maps;
  std::vector<Failure> Fails;
  analyse(TC, Maps, Fails);
  for (const Failure &F : Fails) {
    SourceLocation L = TC.SM().getExpansionLoc(F.Call);
    if (!TC.isUserLoc(L))
      continue;
    std::string Where;
    SourceLocation W = TC.SM().getExpansionLoc(F.Loc);
    if (W.isValid() && W != L)
      Where =
          llvm::formatv(" (line {0})", TC.SM().getExpansionLineNumber(W)).str();
    TC.finding(L, RuleId::PK6042, Severity::Error,
               "an MFMA builtin whose fragment pattern is not recognised, "
               "not translated: " +
                   F.Why + Where);
  }
  std::set<const TypedefNameDecl *> Types;
  std::map<std::string, std::vector<std::pair<unsigned, unsigned>>> Regions;
  for (const Mapping &M : Maps) {
    TC.edit(M.File, M.GuardAt, 0, M.Indent + "if (threadIdx.x % 64 < 32) {\n  ",
            RuleId::PK6044,
            "a block keeps its thread count, so each 64-lane wave is two "
            "32-lane warps: the wave's tile is computed by its first warp "
            "(the wave number stays threadIdx.x / 64)");
    std::string Why =
        "the MFMA operand loads, __builtin_amdgcn_mfma_f32_16x16x16f16 K "
        "loop and result store follow AMD's 16x16x16 lane layout exactly: "
        "WMMA m16n16k16 fragments, load_matrix_sync, mma_sync and "
        "store_matrix_sync over the same tiles";
    if (!M.Notes.empty())
      Why += " (" + llvm::StringRef(M.Notes).drop_back(2).str() + ")";
    TC.edit(M.File, M.RegionBegin, M.RegionEnd - M.RegionBegin, M.Region,
            RuleId::PK6043, Why);
    TC.edit(M.File, M.RegionEnd, 0, "\n" + M.Indent + "}", RuleId::PK6044,
            "the end of the first warp's matrix part");
    if (!M.Notes.empty())
      TC.finding(TC.SM().getExpansionLoc(M.Call), RuleId::PK6043,
                 Severity::Warning,
                 "WMMA's requirements that the MFMA code does not show: " +
                     llvm::StringRef(M.Notes).drop_back(2).str());
    TC.Helpers[M.File][HelperKey{RuleId::PK6040, "mma"}] =
        "\n#include <mma.h> // port-kernel: WMMA fragments [PK6040]\n";
    Types.insert(M.VectorTypes.begin(), M.VectorTypes.end());
    Regions[M.File].push_back({M.RegionBegin, M.RegionEnd});
  }
  // The vector typedefs of the operands (clang's ext_vector_type, which
  // nvcc's host compilers reject) go when nothing else names them.
  for (const TypedefNameDecl *TD : Types) {
    SourceLocation L = TD->getBeginLoc();
    if (L.isMacroID() || !TC.isUserLoc(L))
      continue;
    std::string File = TC.fileOf(L);
    llvm::StringRef Buf = TC.contents(File);
    unsigned B = TC.SM().getFileOffset(L);
    unsigned E = TC.SM().getFileOffset(
        Lexer::getLocForEndOfToken(TC.SM().getExpansionLoc(TD->getEndLoc()), 0,
                                   TC.SM(), TC.Ctx().getLangOpts()));
    size_t Semi = Buf.find(';', E);
    if (Semi == llvm::StringRef::npos)
      continue;
    bool Used = false;
    llvm::StringRef N = TD->getName();
    for (const Tok &T : lex(Buf, TC.Ctx().getLangOpts())) {
      if (T.Kind != tok::raw_identifier || T.Text != N ||
          (T.Off >= B && T.Off < Semi))
        continue;
      bool Inside = false;
      for (auto &R : Regions[File])
        Inside |= T.Off >= R.first && T.Off < R.second;
      Used |= !Inside;
    }
    if (Used)
      continue;
    size_t LE = Buf.find('\n', Semi);
    LE = LE == llvm::StringRef::npos ? Buf.size() : LE + 1;
    size_t LS = Buf.take_front(B).rfind('\n');
    LS = LS == llvm::StringRef::npos ? 0 : LS + 1;
    if (!Buf.slice(LS, B).trim().empty() ||
        !Buf.slice(Semi + 1, LE).trim().empty())
      continue;
    TC.edit(File, LS, LE - LS, "", RuleId::PK6043,
            llvm::formatv("'{0}' is the MFMA operand vector type (clang's "
                          "ext_vector_type): WMMA fragments replace it",
                          N)
                .str());
  }
}
