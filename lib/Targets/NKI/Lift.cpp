//===- Lift.cpp - CUDA/HIP kernels to NKI tile programs -------------------===//
// Rules: PK5001, PK5002, PK5003, PK5004, PK5005, PK5006, PK5007, PK5008
//
// A kernel is lifted when its per-thread program is proven to be an
// element-wise map over a 1-D or 2-D index space: every thread index is a
// global coordinate `blockIdx.D * blockDim.D + threadIdx.D` (directly, or as
// the variable of a grid-stride loop), bounded by early returns, guards or
// loop conditions against scalar parameters; every access is the thread's
// own element (`p[gx]`, `p[gy * W + gx]` with W the x extent), a row vector
// (`p[gx]` in a 2-D space) or a column (`p[gy]`); every value is built from
// such loads, scalar parameters and constants with arithmetic and math
// functions that have a tile-level operation.  The index space becomes
// partition (y, <= 128) and free (x, <= 512) tile axes with min()-bounded
// ragged edges; each statement becomes tile operations.
//
// Before lifting, the kernel (and the device functions it calls) is scanned
// for what the element-wise model cannot express; the first such construct
// is reported with its own rule and the kernel is left out:
//   PK5002  atomics;  PK5003  data-dependent indices;  PK5004  shuffles,
//   votes, barriers and shared memory;  PK5005  tensor-core fragments;
//   PK5006  an index that is not a tile of the thread space;  PK5007  a
//   statement, call or type with no tile equivalent;  PK5008  a pointer
//   parameter whose shape is not recovered.
//
//===----------------------------------------------------------------------===//
#include "Lift.h"
#include "LiftMatmul.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/Attr.h"
#include "clang/AST/Decl.h"
#include "clang/AST/DeclTemplate.h"
#include "clang/AST/Expr.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/AST/Stmt.h"
#include "clang/AST/StmtCXX.h"
#include "clang/Frontend/ASTUnit.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/Path.h"
#include <optional>

using namespace pk;
using namespace pk::nki;
using namespace clang;

namespace {

/// Why a kernel is not lifted: the rule, the place and the message.
struct Failure {
  RuleId Rule;
  SourceLocation Loc;
  std::string Msg;
};

const Expr *strip(const Expr *E) {
  while (true) {
    E = E->IgnoreParenImpCasts();
    if (auto *C = dyn_cast<CStyleCastExpr>(E)) {
      if (C->getType()->isIntegerType() &&
          C->getSubExpr()->getType()->isIntegerType()) {
        E = C->getSubExpr();
        continue;
      }
    }
    if (auto *C = dyn_cast<CXXFunctionalCastExpr>(E)) {
      if (C->getType()->isIntegerType() &&
          C->getSubExpr()->getType()->isIntegerType()) {
        E = C->getSubExpr();
        continue;
      }
    }
    if (auto *C = dyn_cast<CXXStaticCastExpr>(E)) {
      if (C->getType()->isIntegerType() &&
          C->getSubExpr()->getType()->isIntegerType()) {
        E = C->getSubExpr();
        continue;
      }
    }
    return E;
  }
}

/// threadIdx.x and friends: the builtin variable's name and the dimension.
bool builtinIndex(const Expr *E, std::string &Var, char &Dim) {
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
    return false;
  }
  Base = Base->IgnoreParenImpCasts();
  if (auto *O = dyn_cast<OpaqueValueExpr>(Base))
    if (O->getSourceExpr())
      Base = O->getSourceExpr()->IgnoreParenImpCasts();
  auto *D = dyn_cast<DeclRefExpr>(Base);
  if (!D)
    return false;
  std::string N = D->getDecl()->getName().str();
  if (N != "threadIdx" && N != "blockIdx" && N != "blockDim" && N != "gridDim")
    return false;
  if (Field.size() != 1 || Field[0] < 'x' || Field[0] > 'z')
    return false;
  Var = N;
  Dim = Field[0];
  return true;
}

std::optional<DType> dtypeOf(QualType T) {
  T = T.getCanonicalType().getUnqualifiedType();
  if (const auto *BT = T->getAs<BuiltinType>()) {
    switch (BT->getKind()) {
    case BuiltinType::Float:
      return DType::F32;
    case BuiltinType::Half:
    case BuiltinType::Float16:
      return DType::F16;
    case BuiltinType::BFloat16:
      return DType::BF16;
    case BuiltinType::Int:
      return DType::I32;
    case BuiltinType::UInt:
      return DType::U32;
    default:
      return std::nullopt;
    }
  }
  std::string S = T.getAsString();
  if (S.find("bfloat16") != std::string::npos)
    return DType::BF16;
  if (S.find("half") != std::string::npos)
    return DType::F16;
  return std::nullopt;
}

bool isFloat(DType T) {
  return T == DType::F32 || T == DType::F16 || T == DType::BF16;
}

/// A Python name for a C identifier (keywords and the module names get a
/// trailing underscore).
std::string pyName(llvm::StringRef N) {
  static const llvm::StringSet<> Reserved = {
      "in",     "is",    "not",    "and",    "or",      "lambda", "def",
      "class",  "from",  "import", "pass",   "yield",   "with",   "as",
      "global", "del",   "elif",   "except", "raise",   "print",  "nl",
      "nisa",   "nki",   "range",  "min",    "max",     "None",   "True",
      "False",  "async", "await",  "assert", "finally", "try",    "nonlocal"};
  return Reserved.count(N) ? (N + "_").str() : N.str();
}

std::string pyFloat(double V) {
  char Buf[64];
  snprintf(Buf, sizeof Buf, "%.9g", V);
  std::string S = Buf;
  if (S.find_first_of(".eEn") == std::string::npos)
    S += ".0";
  return S;
}

//===----------------------------------------------------------------------===//
// The pre-scan: constructs outside the element-wise model.
//===----------------------------------------------------------------------===//

class Scan : public RecursiveASTVisitor<Scan> {
public:
  explicit Scan(ASTContext &Ctx) : Ctx(Ctx) {}
  std::optional<Failure> F;
  std::set<const FunctionDecl *> Seen;

  void run(const FunctionDecl *FD) {
    if (!FD || !FD->hasBody() || !Seen.insert(FD).second)
      return;
    TraverseStmt(const_cast<clang::Stmt *>(FD->getBody()));
  }

  /// The reason reported when several apply: atomics, fragments, data-
  /// dependent indices, then communication between threads.
  static int rank(RuleId R) {
    switch (R) {
    case RuleId::PK5002:
      return 0;
    case RuleId::PK5005:
      return 1;
    case RuleId::PK5003:
      return 2;
    default:
      return 3;
    }
  }
  bool fail(RuleId R, SourceLocation L, std::string M) {
    if (!F || rank(R) < rank(F->Rule))
      F = Failure{R, L, std::move(M)};
    return true; // keep looking for a reason that ranks higher
  }

  bool VisitVarDecl(VarDecl *V) {
    if (V->hasAttr<CUDASharedAttr>())
      return fail(RuleId::PK5004, V->getLocation(),
                  llvm::formatv("__shared__ array '{0}': threads of a block "
                                "communicate through shared memory, which "
                                "the lifter only models as element-wise "
                                "maps (no reduction or staging pattern is "
                                "recognised here)",
                                V->getName())
                      .str());
    std::string T = V->getType().getAsString();
    if (T.find("fragment") != std::string::npos)
      return fail(RuleId::PK5005, V->getLocation(),
                  llvm::formatv("tensor-core fragment '{0}' ({1}): WMMA "
                                "fragments are not lifted to nc_matmul",
                                V->getName(), T)
                      .str());
    return true;
  }

  bool VisitCallExpr(CallExpr *C) {
    const FunctionDecl *Callee = C->getDirectCallee();
    if (!Callee)
      return true;
    std::string N = Callee->getNameAsString();
    llvm::StringRef NR(N);
    if (NR.starts_with("atomic") || NR.starts_with("__atomic"))
      return fail(RuleId::PK5002, C->getBeginLoc(),
                  llvm::formatv("{0}: an atomic read-modify-write from "
                                "many threads has no sequential tile "
                                "equivalent the lifter can prove (contended "
                                "updates to data-dependent addresses)",
                                N)
                      .str());
    if (NR.contains("mma_sync") || NR.contains("load_matrix_sync") ||
        NR.contains("store_matrix_sync") || NR == "fill_fragment")
      return fail(RuleId::PK5005, C->getBeginLoc(),
                  llvm::formatv("{0}: tensor-core fragments are not lifted "
                                "to nc_matmul",
                                N)
                      .str());
    if (NR.starts_with("__shfl") || NR.starts_with("__ballot") ||
        NR.starts_with("__any") || NR.starts_with("__all") ||
        NR == "__syncthreads" || NR == "__syncwarp" ||
        NR.starts_with("__activemask") || NR == "reduce" || NR == "sync")
      return fail(RuleId::PK5004, C->getBeginLoc(),
                  llvm::formatv("{0}: threads exchange values here; the "
                                "lifter recognises element-wise maps only, "
                                "not this reduction or scan",
                                N)
                      .str());
    if (Callee->hasBody() && !Callee->hasAttr<CUDAGlobalAttr>())
      run(Callee->getDefinition());
    return true;
  }

  /// A store or load whose index reads memory: a scatter or gather.
  bool VisitArraySubscriptExpr(ArraySubscriptExpr *A) {
    bool Reads = false;
    std::function<void(const clang::Stmt *)> Walk = [&](const clang::Stmt *S) {
      if (!S)
        return;
      if (isa<ArraySubscriptExpr>(S))
        Reads = true;
      if (auto *U = dyn_cast<UnaryOperator>(S))
        if (U->getOpcode() == UO_Deref)
          Reads = true;
      if (auto *C = dyn_cast<CallExpr>(S))
        if (auto *Fn = C->getDirectCallee())
          if (Fn->getName().starts_with("__popc") ||
              Fn->getName().starts_with("__ballot"))
            Reads = true;
      for (const clang::Stmt *Ch : S->children())
        Walk(Ch);
    };
    Walk(A->getIdx());
    if (Reads)
      return fail(RuleId::PK5003, A->getBeginLoc(),
                  "the index of this access depends on data read at run "
                  "time (a gather or scatter): a tile access must be a "
                  "rectangle known when the kernel is traced");
    return true;
  }

private:
  ASTContext &Ctx;
};

//===----------------------------------------------------------------------===//
// The element-wise lifter.
//===----------------------------------------------------------------------===//

/// An integer index: sum of Coef * atom (atoms "gx", "gy") plus Off, with
/// coefficients and offset as Python expressions.
struct Affine {
  std::map<std::string, std::string> Terms;
  std::string Off = "0";
};

std::string pyAdd(const std::string &A, const std::string &B) {
  if (A == "0")
    return B;
  if (B == "0")
    return A;
  return "(" + A + " + " + B + ")";
}
std::string pyMul(const std::string &A, const std::string &B) {
  if (A == "1")
    return B;
  if (B == "1")
    return A;
  if (A == "0" || B == "0")
    return "0";
  return A + " * " + B;
}

/// A per-element value: a tree built from loads, scalars and operations.
struct Node {
  /// Ref: a per-row value already in a (P, 1) column tile named Text.
  enum Kind { Load, Scalar, Bin, Unary, Cast, Ref } K = Scalar;
  DType Ty = DType::F32;
  std::string Text;  ///< Scalar: Python expression; Load: parameter
  char Layout = 'e'; ///< Load: 'e' own element, 'r' row (gx), 'c' column (gy)
  std::string Fn;    ///< Bin/Unary: nl op
  bool Reverse = false;
  std::shared_ptr<Node> A, B;
};
using NodeP = std::shared_ptr<Node>;

/// What a local variable holds.
struct Value {
  /// RowPtr: `p + row * pitch` (row programs); ColVar: the column of a
  /// row program's column loop; Partial: an accumulator of a column loop
  /// (Op over the thread's columns, from Init).
  enum Kind { None, Index, Stride, Elem, RowPtr, ColVar, Partial } K = None;
  Affine Idx;
  char StrideDim = 0;
  NodeP N;
  const ParmVarDecl *Ptr = nullptr;
  std::string Pitch, Op, Tile;
};

struct TensorUse {
  const ParmVarDecl *P = nullptr;
  bool Read = false, Written = false;
  char Layout = 0; ///< 'e', 'r', 'c'
  SourceLocation FirstUse;
};

struct Store {
  const ParmVarDecl *P;
  NodeP V;
};

class ElementwiseLifter {
public:
  ElementwiseLifter(TargetContext &TC, const FunctionDecl *K) : TC(TC), K(K) {}

  TargetContext &TC;
  const FunctionDecl *K;

  std::optional<Failure> F;
  /// The bounds in force at this point ('x'/'y' -> Python bound), and
  /// those of the stores (all stores must be under the same bounds).
  std::map<char, std::string> Active;
  std::optional<std::map<char, std::string>> StoreBounds;
  /// The coordinates walked by a grid-stride loop at this point (every
  /// index below the bound is visited whatever the launch), and at the
  /// stores.
  std::set<char> ActiveStride, StoreStride;
  std::map<char, bool> Used;
  std::vector<Store> Stores;
  std::map<const ParmVarDecl *, TensorUse> Uses;
  std::map<const VarDecl *, Value> Env;

  bool fail(RuleId R, SourceLocation L, std::string M) {
    if (!F)
      F = Failure{R, L, std::move(M)};
    return false;
  }

  // --- scalar (trace-time) expressions --------------------------------
  std::optional<std::string> scalarExpr(const Expr *E) {
    E = strip(E);
    if (auto *I = dyn_cast<IntegerLiteral>(E))
      return llvm::toString(I->getValue(), 10, /*Signed=*/false);
    if (auto *FL = dyn_cast<FloatingLiteral>(E))
      return pyFloat(FL->getValueAsApproximateDouble());
    if (auto *D = dyn_cast<DeclRefExpr>(E)) {
      if (auto *P = dyn_cast<ParmVarDecl>(D->getDecl()))
        if (P->getDeclContext() == K && !P->getType()->isPointerType() &&
            dtypeOf(P->getType()))
          return pyName(P->getName());
      return std::nullopt;
    }
    if (auto *B = dyn_cast<BinaryOperator>(E)) {
      auto L = scalarExpr(B->getLHS()), R = scalarExpr(B->getRHS());
      if (!L || !R)
        return std::nullopt;
      bool Fl = B->getType()->isRealFloatingType();
      switch (B->getOpcode()) {
      case BO_Add:
        return "(" + *L + " + " + *R + ")";
      case BO_Sub:
        return "(" + *L + " - " + *R + ")";
      case BO_Mul:
        return "(" + *L + " * " + *R + ")";
      case BO_Div:
        if (Fl)
          return "(" + *L + " / " + *R + ")";
        return std::nullopt; // C and Python integer division differ
      default:
        return std::nullopt;
      }
    }
    if (auto *U = dyn_cast<UnaryOperator>(E))
      if (U->getOpcode() == UO_Minus)
        if (auto S = scalarExpr(U->getSubExpr()))
          return "(-" + *S + ")";
    return std::nullopt;
  }

  // --- index expressions ----------------------------------------------
  std::optional<char> globalCoord(const Expr *E) {
    E = strip(E);
    auto *B = dyn_cast<BinaryOperator>(E);
    if (!B || B->getOpcode() != BO_Add)
      return std::nullopt;
    auto Prod = [&](const Expr *X, char &D) {
      auto *M = dyn_cast<BinaryOperator>(strip(X));
      if (!M || M->getOpcode() != BO_Mul)
        return false;
      std::string V1, V2;
      char D1, D2;
      if (!builtinIndex(M->getLHS(), V1, D1) ||
          !builtinIndex(M->getRHS(), V2, D2) || D1 != D2)
        return false;
      if (!((V1 == "blockIdx" && V2 == "blockDim") ||
            (V1 == "blockDim" && V2 == "blockIdx")))
        return false;
      D = D1;
      return true;
    };
    auto Tid = [&](const Expr *X, char &D) {
      std::string V;
      return builtinIndex(X, V, D) && V == "threadIdx";
    };
    char D1, D2;
    if (Prod(B->getLHS(), D1) && Tid(B->getRHS(), D2) && D1 == D2)
      return D1;
    if (Tid(B->getLHS(), D1) && Prod(B->getRHS(), D2) && D1 == D2)
      return D1;
    return std::nullopt;
  }

  std::optional<char> strideOf(const Expr *E) {
    E = strip(E);
    if (auto *D = dyn_cast<DeclRefExpr>(E))
      if (auto *V = dyn_cast<VarDecl>(D->getDecl())) {
        auto It = Env.find(V);
        if (It != Env.end() && It->second.K == Value::Stride)
          return It->second.StrideDim;
      }
    auto *M = dyn_cast<BinaryOperator>(E);
    if (!M || M->getOpcode() != BO_Mul)
      return std::nullopt;
    std::string V1, V2;
    char D1, D2;
    if (!builtinIndex(M->getLHS(), V1, D1) ||
        !builtinIndex(M->getRHS(), V2, D2) || D1 != D2)
      return std::nullopt;
    if ((V1 == "blockDim" && V2 == "gridDim") ||
        (V1 == "gridDim" && V2 == "blockDim"))
      return D1;
    return std::nullopt;
  }

  std::optional<Affine> index(const Expr *E) {
    E = strip(E);
    if (auto S = scalarExpr(E)) {
      Affine A;
      A.Off = *S;
      return A;
    }
    if (auto C = globalCoord(E)) {
      Affine A;
      A.Terms[std::string("g") + *C] = "1";
      Used[*C] = true;
      return A;
    }
    if (auto *D = dyn_cast<DeclRefExpr>(E))
      if (auto *V = dyn_cast<VarDecl>(D->getDecl())) {
        auto It = Env.find(V);
        if (It != Env.end() && It->second.K == Value::Index)
          return It->second.Idx;
      }
    if (auto *B = dyn_cast<BinaryOperator>(E)) {
      if (B->getOpcode() == BO_Add) {
        auto L = index(B->getLHS());
        if (!L)
          return std::nullopt;
        if (auto R = index(B->getRHS())) {
          for (auto &[At, C] : R->Terms)
            L->Terms[At] = L->Terms.count(At) ? pyAdd(L->Terms[At], C) : C;
          L->Off = pyAdd(L->Off, R->Off);
          return L;
        }
        if (auto S = scalarExpr(B->getRHS())) {
          L->Off = pyAdd(L->Off, *S);
          return L;
        }
        return std::nullopt;
      }
      if (B->getOpcode() == BO_Mul) {
        for (int Side = 0; Side < 2; ++Side) {
          const Expr *X = Side ? B->getRHS() : B->getLHS();
          const Expr *Y = Side ? B->getLHS() : B->getRHS();
          auto L = index(X);
          auto S = scalarExpr(Y);
          if (L && S) {
            for (auto &[At, C] : L->Terms)
              C = pyMul(C, *S);
            L->Off = pyMul(L->Off, *S);
            return L;
          }
        }
      }
    }
    return std::nullopt;
  }

  // --- bounds ------------------------------------------------------------
  /// `gX >= B` (or `B <= gX`): records the extent of X.
  bool boundAtLeast(const Expr *E, bool Negated) {
    E = strip(E);
    auto *B = dyn_cast<BinaryOperator>(E);
    if (!B)
      return false;
    if (B->getOpcode() == BO_LOr && !Negated)
      return boundAtLeast(B->getLHS(), false) &&
             boundAtLeast(B->getRHS(), false);
    if (B->getOpcode() == BO_LAnd && Negated)
      return boundAtLeast(B->getLHS(), true) && boundAtLeast(B->getRHS(), true);
    BinaryOperatorKind Op = B->getOpcode();
    const Expr *IdxE = B->getLHS(), *BoundE = B->getRHS();
    if (Op == BO_LE || Op == BO_GT) {
      std::swap(IdxE, BoundE);
      Op = Op == BO_LE ? BO_GE : BO_LT;
    }
    if (Op != (Negated ? BO_LT : BO_GE))
      return false;
    auto A = index(IdxE);
    auto S = scalarExpr(BoundE);
    if (!A || !S || A->Terms.size() != 1 || A->Off != "0" ||
        A->Terms.begin()->second != "1")
      return false;
    char D = A->Terms.begin()->first[1];
    if (Active.count(D) && Active[D] != *S)
      return false;
    Active[D] = *S;
    return true;
  }

  // --- element values ------------------------------------------------------
  NodeP scalarNode(std::string S, DType T) {
    auto N = std::make_shared<Node>();
    N->K = Node::Scalar;
    N->Text = std::move(S);
    N->Ty = T;
    return N;
  }

  NodeP load(const Expr *Base, const Expr *Idx, SourceLocation Loc) {
    auto *D = dyn_cast<DeclRefExpr>(strip(Base));
    if (auto *V = D ? dyn_cast<VarDecl>(D->getDecl()) : nullptr) {
      auto It = Env.find(V);
      if (It != Env.end() && It->second.K == Value::RowPtr)
        return rowLoad(It->second, Idx, Loc);
    }
    auto *P = D ? dyn_cast<ParmVarDecl>(D->getDecl()) : nullptr;
    if (!P || !P->getType()->isPointerType()) {
      fail(RuleId::PK5007, Loc,
           "only kernel pointer parameters can be read element-wise");
      return nullptr;
    }
    auto Ty = dtypeOf(P->getType()->getPointeeType());
    if (!Ty) {
      fail(RuleId::PK5007, Loc,
           llvm::formatv("element type '{0}' of '{1}' has no NKI dtype",
                         P->getType()->getPointeeType().getAsString(),
                         P->getName())
               .str());
      return nullptr;
    }
    char L = layout(P, Idx, Loc);
    if (!L)
      return nullptr;
    TensorUse &U = use(P, Loc);
    if (U.Written) {
      fail(RuleId::PK5007, Loc,
           llvm::formatv("'{0}' is read after the thread wrote it; the "
                         "lifter reads every input before the first store",
                         P->getName())
               .str());
      return nullptr;
    }
    U.Read = true;
    auto N = std::make_shared<Node>();
    N->K = Node::Load;
    N->Ty = *Ty;
    N->Layout = L;
    N->Text = P->getName().str();
    return N;
  }

  /// x[c] with x = p + row * pitch and c the column variable.
  NodeP rowLoad(const Value &RP, const Expr *Idx, SourceLocation Loc) {
    auto *D = dyn_cast<DeclRefExpr>(strip(Idx));
    auto *V = D ? dyn_cast<VarDecl>(D->getDecl()) : nullptr;
    auto It = V ? Env.find(V) : Env.end();
    if (It == Env.end() || It->second.K != Value::ColVar) {
      fail(RuleId::PK5006, Loc,
           "a row is indexed by something other than the column of the "
           "enclosing column loop");
      return nullptr;
    }
    const ParmVarDecl *P = RP.Ptr;
    TensorUse &U = use(P, Loc);
    if (U.Written) {
      fail(RuleId::PK5007, Loc,
           llvm::formatv("'{0}' is read after it was written", P->getName())
               .str());
      return nullptr;
    }
    U.Read = true;
    U.Layout = 'e';
    RowPitch[P] = RP.Pitch;
    auto N = std::make_shared<Node>();
    N->K = Node::Load;
    N->Ty = *dtypeOf(P->getType()->getPointeeType());
    N->Layout = 'e';
    N->Text = P->getName().str();
    return N;
  }

  TensorUse &use(const ParmVarDecl *P, SourceLocation Loc) {
    TensorUse &U = Uses[P];
    if (!U.P) {
      U.P = P;
      U.FirstUse = Loc;
    }
    return U;
  }

  /// The layout of an access p[Idx]: 'e' the thread's own element, 'r' the
  /// element of its column gx (a row vector), 'c' of its row gy.
  char layout(const ParmVarDecl *P, const Expr *IdxE, SourceLocation Loc) {
    auto A = index(IdxE);
    if (!A) {
      fail(RuleId::PK5006, Loc,
           llvm::formatv("the index of '{0}' is not an affine function of "
                         "the global thread coordinates "
                         "(blockIdx * blockDim + threadIdx)",
                         P->getName())
               .str());
      return 0;
    }
    char L = 0;
    if (A->Off != "0") {
      fail(RuleId::PK5006, Loc,
           llvm::formatv("'{0}' is accessed at an offset ({1}) from the "
                         "thread's element; only aligned tiles are lifted",
                         P->getName(), A->Off)
               .str());
      return 0;
    }
    bool HasX = A->Terms.count("gx"), HasY = A->Terms.count("gy");
    if (A->Terms.size() == 1 && HasX && A->Terms["gx"] == "1")
      L = Used.count('y') ? 'r' : 'e';
    else if (A->Terms.size() == 1 && HasY && A->Terms["gy"] == "1")
      L = 'c';
    else if (A->Terms.size() == 2 && HasX && HasY && A->Terms["gx"] == "1") {
      RowPitch[P] = A->Terms["gy"];
      L = 'e';
    }
    if (!L) {
      fail(RuleId::PK5006, Loc,
           llvm::formatv("the index of '{0}' is not the thread's element, "
                         "row or column of the index space",
                         P->getName())
               .str());
      return 0;
    }
    TensorUse &U = use(P, Loc);
    if (U.Layout && U.Layout != L) {
      fail(RuleId::PK5006, Loc,
           llvm::formatv("'{0}' is accessed with two different layouts",
                         P->getName())
               .str());
      return 0;
    }
    U.Layout = L;
    return L;
  }
  std::map<const ParmVarDecl *, std::string> RowPitch;

  NodeP elem(const Expr *E) {
    while (true) {
      E = E->IgnoreParens();
      if (auto *M = dyn_cast<MaterializeTemporaryExpr>(E))
        E = M->getSubExpr();
      else if (auto *BT = dyn_cast<CXXBindTemporaryExpr>(E))
        E = BT->getSubExpr();
      else if (auto *CE = dyn_cast<CXXConstructExpr>(E);
               CE && CE->getNumArgs() == 1 &&
               CE->getConstructor()->isCopyOrMoveConstructor())
        E = CE->getArg(0);
      else if (auto *EW = dyn_cast<ExprWithCleanups>(E))
        E = EW->getSubExpr();
      else
        break;
    }
    QualType T = E->getType();
    if (auto *IC = dyn_cast<ImplicitCastExpr>(E)) {
      NodeP S = elem(IC->getSubExpr());
      if (!S)
        return nullptr;
      return castTo(S, T, E->getExprLoc());
    }
    if (auto *C = dyn_cast<ExplicitCastExpr>(E)) {
      NodeP S = elem(C->getSubExpr());
      if (!S)
        return nullptr;
      return castTo(S, T, E->getExprLoc());
    }
    if (auto S = scalarExpr(E)) {
      auto Ty = dtypeOf(T);
      if (!Ty) {
        fail(RuleId::PK5007, E->getExprLoc(),
             llvm::formatv("type '{0}' has no NKI dtype", T.getAsString())
                 .str());
        return nullptr;
      }
      return scalarNode(*S, *Ty);
    }
    if (auto *D = dyn_cast<DeclRefExpr>(E)) {
      if (auto *V = dyn_cast<VarDecl>(D->getDecl())) {
        auto It = Env.find(V);
        if (It != Env.end() && It->second.K == Value::Elem)
          return It->second.N;
        if (It != Env.end() && It->second.K == Value::Partial) {
          fail(RuleId::PK5004, E->getExprLoc(),
               llvm::formatv("'{0}' is a per-thread partial result here, "
                             "before the reduction across the row's threads",
                             V->getName())
                   .str());
          return nullptr;
        }
      }
      fail(RuleId::PK5007, E->getExprLoc(),
           llvm::formatv("'{0}' is not a value the lifter tracks",
                         D->getDecl()->getName())
               .str());
      return nullptr;
    }
    if (auto *A = dyn_cast<ArraySubscriptExpr>(E))
      return load(A->getBase(), A->getIdx(), A->getExprLoc());
    if (auto *U = dyn_cast<UnaryOperator>(E)) {
      if (U->getOpcode() == UO_Minus) {
        NodeP S = elem(U->getSubExpr());
        if (!S)
          return nullptr;
        return bin("nl.multiply", S, scalarNode("-1.0", S->Ty), false);
      }
      if (U->getOpcode() == UO_Deref)
        return fail(RuleId::PK5007, E->getExprLoc(),
                    "pointer dereference: only p[index] accesses are lifted"),
               nullptr;
    }
    if (auto *B = dyn_cast<BinaryOperator>(E)) {
      const char *Fn = nullptr;
      switch (B->getOpcode()) {
      case BO_Add:
        Fn = "nl.add";
        break;
      case BO_Sub:
        Fn = "nl.subtract";
        break;
      case BO_Mul:
        Fn = "nl.multiply";
        break;
      case BO_Div:
        Fn = "nl.divide";
        break;
      default:
        break;
      }
      if (!Fn || !T->isRealFloatingType()) {
        fail(RuleId::PK5007, B->getOperatorLoc(),
             llvm::formatv("operator '{0}' on '{1}' has no element-wise "
                           "tile operation in the lifter",
                           B->getOpcodeStr(), T.getAsString())
                 .str());
        return nullptr;
      }
      NodeP L = elem(B->getLHS());
      NodeP R = L ? elem(B->getRHS()) : nullptr;
      if (!L || !R)
        return nullptr;
      return bin(Fn, L, R, false);
    }
    if (auto *C = dyn_cast<CallExpr>(E))
      return call(C);
    fail(RuleId::PK5007, E->getExprLoc(),
         llvm::formatv("expression ({0}) has no tile-level equivalent in the "
                       "lifter",
                       E->getStmtClassName())
             .str());
    return nullptr;
  }

  NodeP castTo(NodeP S, QualType T, SourceLocation Loc) {
    auto Ty = dtypeOf(T);
    if (!Ty) {
      fail(RuleId::PK5007, Loc,
           llvm::formatv("type '{0}' has no NKI dtype", T.getAsString()).str());
      return nullptr;
    }
    if (*Ty == S->Ty)
      return S;
    if (S->K == Node::Scalar) {
      if (isFloat(*Ty) && !isFloat(S->Ty))
        return scalarNode("float(" + S->Text + ")", *Ty);
      if (isFloat(*Ty) != isFloat(S->Ty))
        return fail(RuleId::PK5007, Loc,
                    "conversion of a floating scalar to an integer"),
               nullptr;
      return scalarNode(S->Text, *Ty);
    }
    if (!isFloat(*Ty) || !isFloat(S->Ty))
      return fail(RuleId::PK5007, Loc,
                  "conversion of integer element values is not lifted"),
             nullptr;
    auto N = std::make_shared<Node>();
    N->K = Node::Cast;
    N->Ty = *Ty;
    N->A = S;
    return N;
  }

  NodeP bin(const char *Fn, NodeP L, NodeP R, bool) {
    if (L->K == Node::Scalar && R->K == Node::Scalar) {
      static const std::map<std::string, std::string> Py = {
          {"nl.add", "+"},
          {"nl.subtract", "-"},
          {"nl.multiply", "*"},
          {"nl.divide", "/"}};
      auto It = Py.find(Fn);
      if (It != Py.end())
        return scalarNode(
            "(" + L->Text + " " + It->second + " " + R->Text + ")", L->Ty);
      return scalarNode(
          std::string(Fn == std::string("nl.maximum") ? "max" : "min") + "(" +
              L->Text + ", " + R->Text + ")",
          L->Ty);
    }
    auto N = std::make_shared<Node>();
    N->K = Node::Bin;
    N->Fn = Fn;
    N->Ty = L->K == Node::Scalar ? R->Ty : L->Ty;
    N->A = L;
    N->B = R;
    return N;
  }

  NodeP call(const CallExpr *C) {
    const FunctionDecl *FD = C->getDirectCallee();
    if (!FD)
      return fail(RuleId::PK5007, C->getBeginLoc(),
                  "indirect call: not lifted"),
             nullptr;
    std::string N = FD->getNameAsString();
    static const std::map<std::string, std::string> Unary = {
        {"tanhf", "nl.tanh"}, {"expf", "nl.exp"},     {"__expf", "nl.exp"},
        {"sqrtf", "nl.sqrt"}, {"rsqrtf", "nl.rsqrt"}, {"fabsf", "nl.abs"},
        {"logf", "nl.log"},   {"__logf", "nl.log"},   {"tanh", "nl.tanh"},
        {"exp", "nl.exp"},    {"sqrt", "nl.sqrt"},    {"rsqrt", "nl.rsqrt"}};
    auto U = Unary.find(N);
    if (U != Unary.end() && C->getNumArgs() == 1) {
      NodeP A = elem(C->getArg(0));
      if (!A)
        return nullptr;
      if (A->K == Node::Scalar)
        return fail(RuleId::PK5007, C->getBeginLoc(),
                    llvm::formatv("{0} of a scalar: not lifted", N).str()),
               nullptr;
      auto R = std::make_shared<Node>();
      R->K = Node::Unary;
      R->Fn = U->second;
      R->Ty = A->Ty;
      R->A = A;
      return R;
    }
    if ((N == "fmaxf" || N == "fminf" || N == "fmax" || N == "fmin") &&
        C->getNumArgs() == 2) {
      NodeP A = elem(C->getArg(0));
      NodeP B = A ? elem(C->getArg(1)) : nullptr;
      if (!A || !B)
        return nullptr;
      return bin(N.find("max") != std::string::npos ? "nl.maximum"
                                                    : "nl.minimum",
                 A, B, false);
    }
    if ((N == "__half2float" || N == "__float2half" || N == "__float2half_rn" ||
         N == "__bfloat162float" || N == "__float2bfloat16") &&
        C->getNumArgs() == 1) {
      NodeP A = elem(C->getArg(0));
      if (!A)
        return nullptr;
      return castTo(A, C->getType(), C->getBeginLoc());
    }
    if (N == "__ldg" && C->getNumArgs() == 1) {
      auto *U1 = dyn_cast<UnaryOperator>(C->getArg(0)->IgnoreParenImpCasts());
      if (U1 && U1->getOpcode() == UO_AddrOf)
        if (auto *A = dyn_cast<ArraySubscriptExpr>(
                U1->getSubExpr()->IgnoreParenImpCasts()))
          return load(A->getBase(), A->getIdx(), A->getExprLoc());
    }
    // A device function: inlined when its body is declarations and a
    // return of element values.
    const FunctionDecl *Def = FD->getDefinition();
    if (Def && Def->hasBody() && !Def->hasAttr<CUDAGlobalAttr>() &&
        TC.isUserLoc(Def->getLocation())) {
      auto *Body = dyn_cast<CompoundStmt>(Def->getBody());
      if (Body && Def->getNumParams() == C->getNumArgs()) {
        std::vector<std::pair<const VarDecl *, Value>> Saved;
        for (unsigned I = 0; I < C->getNumArgs(); ++I) {
          NodeP A = elem(C->getArg(I));
          if (!A)
            return nullptr;
          Value V;
          V.K = Value::Elem;
          V.N = A;
          Env[Def->getParamDecl(I)] = V;
        }
        for (const clang::Stmt *S : Body->body()) {
          if (auto *DS = dyn_cast<DeclStmt>(S)) {
            if (!declare(DS))
              return nullptr;
            continue;
          }
          if (auto *R = dyn_cast<ReturnStmt>(S)) {
            if (!R->getRetValue())
              break;
            return elem(R->getRetValue());
          }
          break;
        }
        return fail(RuleId::PK5007, Def->getLocation(),
                    llvm::formatv("device function '{0}' is not a "
                                  "straight-line return of element values",
                                  N)
                        .str()),
               nullptr;
      }
    }
    return fail(RuleId::PK5007, C->getBeginLoc(),
                llvm::formatv("call to '{0}' has no tile-level equivalent in "
                              "the lifter",
                              N)
                    .str()),
           nullptr;
  }

  // --- statements ---------------------------------------------------------
  bool declare(const DeclStmt *DS) {
    for (const Decl *D : DS->decls()) {
      auto *V = dyn_cast<VarDecl>(D);
      if (!V || !V->getInit())
        return fail(RuleId::PK5007, D->getLocation(),
                    "declaration without an initial value: not lifted");
      if (Assigned.count(V))
        return false;
      Value Val;
      if (auto S = strideOf(V->getInit())) {
        Val.K = Value::Stride;
        Val.StrideDim = *S;
      } else if (V->getType()->isIntegerType()) {
        auto A = index(V->getInit());
        if (!A)
          return fail(RuleId::PK5006, V->getLocation(),
                      llvm::formatv("'{0}' is not an affine function of the "
                                    "global thread coordinates",
                                    V->getName())
                          .str());
        Val.K = Value::Index;
        Val.Idx = *A;
      } else {
        NodeP N = elem(V->getInit());
        if (!N)
          return false;
        Val.K = Value::Elem;
        Val.N = N;
      }
      Env[V] = Val;
    }
    return true;
  }
  std::set<const VarDecl *> Assigned;

  bool store(const BinaryOperator *B) {
    return store(B->getLHS(), B->getRHS(), B->getOpcode(), B->getBeginLoc(),
                 B->getOperatorLoc());
  }
  bool store(const Expr *LHS, const Expr *RHS, BinaryOperatorKind Opc,
             SourceLocation Begin, SourceLocation OpLoc) {
    auto *A = dyn_cast<ArraySubscriptExpr>(LHS->IgnoreParens());
    if (!A)
      return fail(RuleId::PK5007, Begin,
                  "assignment to a local variable after its declaration: "
                  "the lifter tracks single-assignment values only");
    auto *D = dyn_cast<DeclRefExpr>(strip(A->getBase()));
    auto *P = D ? dyn_cast<ParmVarDecl>(D->getDecl()) : nullptr;
    if (!P || !P->getType()->isPointerType())
      return fail(RuleId::PK5007, A->getExprLoc(),
                  "store through something other than a kernel pointer "
                  "parameter");
    if (!dtypeOf(P->getType()->getPointeeType()))
      return fail(RuleId::PK5007, A->getExprLoc(),
                  llvm::formatv("element type '{0}' has no NKI dtype",
                                P->getType()->getPointeeType().getAsString())
                      .str());
    NodeP V;
    if (Opc == BO_Assign) {
      V = elem(RHS);
    } else {
      const char *Fn = Opc == BO_AddAssign   ? "nl.add"
                       : Opc == BO_SubAssign ? "nl.subtract"
                       : Opc == BO_MulAssign ? "nl.multiply"
                                             : nullptr;
      if (!Fn)
        return fail(RuleId::PK5007, OpLoc,
                    "compound assignment without a tile operation");
      NodeP Old = load(A->getBase(), A->getIdx(), A->getExprLoc());
      NodeP R = Old ? elem(RHS) : nullptr;
      if (!Old || !R)
        return false;
      V = bin(Fn, Old, R, false);
    }
    if (!V)
      return false;
    char L = layout(P, A->getIdx(), A->getExprLoc());
    if (!L)
      return false;
    if (L != 'e')
      return fail(RuleId::PK5006, A->getExprLoc(),
                  llvm::formatv("'{0}' is stored by several threads to the "
                                "same element (a row or column index)",
                                P->getName())
                      .str());
    if (V->K == Node::Scalar)
      V = castTo(V, P->getType()->getPointeeType(), A->getExprLoc());
    if (!V)
      return false;
    if (!StoreBounds) {
      StoreBounds = Active;
      StoreStride = ActiveStride;
    } else if (*StoreBounds != Active || StoreStride != ActiveStride)
      return fail(RuleId::PK5007, A->getExprLoc(),
                  "stores under different bound checks: the lifted tiles "
                  "would cover a different set of elements");
    TensorUse &U = use(P, A->getExprLoc());
    for (const Store &S : Stores)
      if (S.P == P)
        return fail(
            RuleId::PK5007, A->getExprLoc(),
            llvm::formatv("'{0}' is stored twice by a thread", P->getName())
                .str());
    U.Written = true;
    Stores.push_back({P, V});
    return true;
  }

  bool stmt(const clang::Stmt *S) {
    if (!S || isa<NullStmt>(S))
      return true;
    if (auto *C = dyn_cast<CompoundStmt>(S)) {
      for (const clang::Stmt *X : C->body())
        if (!stmt(X))
          return false;
      return true;
    }
    if (auto *DS = dyn_cast<DeclStmt>(S))
      return declare(DS);
    if (auto *EW = dyn_cast<ExprWithCleanups>(S))
      S = EW->getSubExpr();
    if (auto *B = dyn_cast<BinaryOperator>(S))
      if (B->isAssignmentOp())
        return store(B);
    // `p[i] = v` on a class element type (__half): operator=.
    if (auto *OC = dyn_cast<CXXOperatorCallExpr>(S))
      if (OC->getOperator() == OO_Equal && OC->getNumArgs() == 2)
        return store(OC->getArg(0), OC->getArg(1), BO_Assign, OC->getBeginLoc(),
                     OC->getOperatorLoc());
    if (auto *I = dyn_cast<IfStmt>(S)) {
      if (I->getElse() || I->getInit() || I->getConditionVariable())
        return fail(RuleId::PK5007, I->getIfLoc(),
                    "if/else on per-thread values: only bound guards are "
                    "lifted");
      const clang::Stmt *Then = I->getThen();
      if (auto *CS = dyn_cast<CompoundStmt>(Then))
        if (CS->size() == 1)
          Then = CS->body_front();
      if (isa<ReturnStmt>(Then)) {
        if (!Stores.empty() || !boundAtLeast(I->getCond(), false))
          return fail(RuleId::PK5007, I->getIfLoc(),
                      "early return that is not a bound check of the "
                      "global thread coordinates before every store");
        return true;
      }
      auto Saved = Active;
      if (!boundAtLeast(I->getCond(), true))
        return fail(RuleId::PK5007, I->getIfLoc(),
                    "condition that is not a bound check `coordinate < "
                    "size`: per-thread branches are not lifted");
      bool Ok = stmt(I->getThen());
      Active = Saved;
      return Ok;
    }
    if (auto *F = dyn_cast<ForStmt>(S))
      return gridStride(F);
    if (isa<ReturnStmt>(S))
      return fail(RuleId::PK5007, S->getBeginLoc(),
                  "return in the middle of the kernel: not lifted");
    return fail(RuleId::PK5007, S->getBeginLoc(),
                llvm::formatv("statement ({0}) has no tile-level equivalent "
                              "in the lifter",
                              S->getStmtClassName())
                    .str());
  }

  /// for (int i = gX; i < B; i += blockDim.X * gridDim.X) body
  bool gridStride(const ForStmt *F) {
    auto *DS = dyn_cast_or_null<DeclStmt>(F->getInit());
    const VarDecl *V = DS && DS->isSingleDecl()
                           ? dyn_cast<VarDecl>(DS->getSingleDecl())
                           : nullptr;
    std::optional<char> D =
        V && V->getInit() ? globalCoord(V->getInit()) : std::nullopt;
    auto *Inc = dyn_cast_or_null<CompoundAssignOperator>(F->getInc());
    bool Ok = D && Inc && Inc->getOpcode() == BO_AddAssign;
    if (Ok) {
      auto *L = dyn_cast<DeclRefExpr>(strip(Inc->getLHS()));
      auto S = strideOf(Inc->getRHS());
      Ok = L && L->getDecl() == V && S && *S == *D;
    }
    if (!Ok)
      return fail(RuleId::PK5007, F->getForLoc(),
                  "loop that is not a grid-stride loop over the global "
                  "thread index: per-thread loops are not lifted");
    Value Val;
    Val.K = Value::Index;
    Val.Idx.Terms[std::string("g") + *D] = "1";
    Used[*D] = true;
    Env[V] = Val;
    auto Saved = Active;
    auto SavedStride = ActiveStride;
    if (!F->getCond() || !boundAtLeast(F->getCond(), true))
      return fail(RuleId::PK5007, F->getForLoc(),
                  "grid-stride loop whose condition is not `i < size`");
    ActiveStride.insert(*D);
    bool BodyOk = stmt(F->getBody());
    Active = Saved;
    ActiveStride = SavedStride;
    return BodyOk;
  }
};

//===----------------------------------------------------------------------===//
// From the element-wise model to the tile program.
//===----------------------------------------------------------------------===//

class TileLowering {
public:
  TileLowering(Builder &B, const std::map<std::string, std::string> &HbmName,
               bool TwoD)
      : B(B), HbmName(HbmName), TwoD(TwoD) {}

  Builder &B;
  const std::map<std::string, std::string> &HbmName;
  bool TwoD;
  std::map<const Node *, Operand> Done;
  std::string Ones; ///< the [1, 128] tile of ones for row broadcasts

  std::vector<std::string> tileShape() const { return {"128", "512"}; }
  /// The valid part of a tile: np_ partitions by nf_ elements.
  Access full(const std::string &T) const {
    return Access{T, {{"0", "np_"}, {"0", "nf_"}}, {}};
  }
  /// The thread's elements of an HBM tensor in this tile: rows p0:p1 and
  /// columns f0:f1 (2-D), or the run lo:hi of a 1-D tensor seen as np_
  /// rows of nf_.
  Access hbm(const std::string &T) const {
    if (TwoD)
      return Access{T, {{"p0", "p1"}, {"f0", "f1"}}, {}};
    return Access{T, {{"lo", "hi"}}, {"np_", "nf_"}};
  }

  Operand lower(const NodeP &N) {
    auto It = Done.find(N.get());
    if (It != Done.end())
      return It->second;
    Operand R = lowerNew(N);
    Done[N.get()] = R;
    return R;
  }

  /// A (P, 1) column: one value per row (partition).
  static bool isCol(const Operand &O) {
    return O.IsTile && O.Tile.Slices.size() == 2 &&
           O.Tile.Slices[1].first == "0" && O.Tile.Slices[1].second == "1";
  }
  Access colAccess(const std::string &T) const {
    return Access{T, {{"0", "np_"}, {"0", "1"}}, {}};
  }
  /// A fresh tile shaped like a full tile or a column.
  Access fresh(DType Ty, bool Col) {
    std::string T =
        B.alloc(Col ? "c" : "t", Mem::SBUF, Ty,
                Col ? std::vector<std::string>{"128", "1"} : tileShape());
    return Col ? colAccess(T) : full(T);
  }

  Operand lowerNew(const NodeP &N) {
    switch (N->K) {
    case Node::Scalar:
      return Operand::scalar(N->Text);
    case Node::Ref:
      return Operand::tile(colAccess(N->Text));
    case Node::Load:
      return loadTile(N);
    case Node::Cast: {
      Operand A = lower(N->A);
      Access D = fresh(N->Ty, isCol(A));
      Op O;
      O.Kind = OpKind::TensorCopy;
      O.Dst = D;
      O.Srcs = {A};
      B.op(O);
      return Operand::tile(D);
    }
    case Node::Unary: {
      Operand A = lower(N->A);
      Access D = fresh(N->Ty, isCol(A));
      Op O;
      O.Kind = OpKind::Activation;
      O.Fn = N->Fn;
      O.Dst = D;
      O.Srcs = {A};
      B.op(O);
      return Operand::tile(D);
    }
    case Node::Bin:
      return binTile(N);
    }
    return Operand::scalar("0");
  }

  /// 1 / X into a fresh tile of X's shape.
  Operand recip(const Operand &X, DType Ty) {
    Access D = fresh(Ty, isCol(X));
    Op R;
    R.Kind = OpKind::Reciprocal;
    R.Dst = D;
    R.Srcs = {X};
    B.op(R);
    return Operand::tile(D);
  }

  /// A binary operation: tensor_tensor on two tiles of one shape, else
  /// tensor_scalar with the scalar or the (P, 1) column as the operand; a
  /// division multiplies by the reciprocal.  The result is a column when
  /// neither side is a full tile.
  Operand binTile(const NodeP &N) {
    Operand A = lower(N->A), C = lower(N->B);
    bool AF = A.IsTile && !isCol(A), CF = C.IsTile && !isCol(C);
    std::string Fn = N->Fn;
    bool Div = Fn == "nl.divide";
    Op O;
    if (A.IsTile && C.IsTile && AF == CF) {
      if (Div)
        C = recip(C, N->Ty);
      O.Kind = OpKind::TensorTensor;
      O.Srcs = {A, C};
    } else if (A.IsTile && (AF || !C.IsTile)) {
      if (Div && !C.IsTile)
        C = Operand::scalar("(1.0 / " + C.Scalar + ")");
      else if (Div)
        C = recip(C, N->Ty);
      O.Kind = OpKind::TensorScalar;
      O.Srcs = {A, C};
    } else {
      // The operand (scalar or column) comes first: C is the data.
      if (Div)
        C = recip(C, N->Ty);
      O.Kind = OpKind::TensorScalar;
      O.Reverse = Fn == "nl.subtract";
      O.Srcs = {C, A};
    }
    O.Fn = Div ? "nl.multiply" : Fn;
    O.Dst = fresh(N->Ty, !AF && !CF);
    B.op(O);
    return Operand::tile(O.Dst);
  }

  Operand loadTile(const NodeP &N) {
    std::string Src = HbmName.at(N->Text);
    if (N->Layout == 'e') {
      std::string T = B.alloc("t", Mem::SBUF, N->Ty, tileShape());
      Op O;
      O.Kind = OpKind::DmaCopy;
      O.Dst = full(T);
      O.Srcs = {Operand::tile(hbm(Src))};
      B.op(O);
      return Operand::tile(full(T));
    }
    if (N->Layout == 'c') {
      // p[gy]: a column, one value per partition, broadcast along the free
      // axis by tensor_scalar/activation operands; here made a full tile by
      // multiplying a tile of ones by the column.
      std::string Col = B.alloc("col", Mem::SBUF, N->Ty, {"128", "1"});
      Op O;
      O.Kind = OpKind::DmaCopy;
      O.Dst = Access{Col, {{"0", "np_"}, {"0", "1"}}};
      O.Srcs = {Operand::tile(Access{Src, {{"p0", "p1"}, {"0", "1"}}})};
      B.op(O);
      std::string T = B.alloc("t", Mem::SBUF, N->Ty, tileShape());
      Op M;
      M.Kind = OpKind::Memset;
      M.Dst = full(T);
      M.Srcs = {Operand::scalar("1.0")};
      B.op(M);
      Op S;
      S.Kind = OpKind::TensorScalar;
      S.Fn = "nl.multiply";
      S.Dst = full(T);
      S.Srcs = {Operand::tile(full(T)),
                Operand::tile(Access{Col, {{"0", "np_"}, {"0", "1"}}})};
      B.op(S);
      return Operand::tile(full(T));
    }
    // p[gx] in a 2-D space: one row, broadcast over the partitions with a
    // K = 1 matmul against a row of ones (exact: one product per element).
    std::string Row = B.alloc("row", Mem::SBUF, N->Ty, {"1", "512"});
    Op O;
    O.Kind = OpKind::DmaCopy;
    O.Dst = Access{Row, {{"0", "1"}, {"0", "nf_"}}};
    O.Srcs = {Operand::tile(Access{Src, {{"0", "1"}, {"f0", "f1"}}})};
    B.op(O);
    if (Ones.empty()) {
      Ones = B.alloc("ones", Mem::SBUF, N->Ty, {"1", "128"});
      Op M;
      M.Kind = OpKind::Memset;
      M.Dst = Access{Ones, {}};
      M.Srcs = {Operand::scalar("1.0")};
      B.op(M);
    }
    std::string Ps = B.alloc("ps", Mem::PSUM, DType::F32, {"128", "512"});
    Op Mm;
    Mm.Kind = OpKind::Matmul;
    Mm.Dst = full(Ps);
    Mm.Srcs = {Operand::tile(Access{Ones, {{"0", "1"}, {"0", "np_"}}}),
               Operand::tile(Access{Row, {{"0", "1"}, {"0", "nf_"}}})};
    B.op(Mm);
    std::string T = B.alloc("t", Mem::SBUF, N->Ty, tileShape());
    Op C;
    C.Kind = OpKind::TensorCopy;
    C.Dst = full(T);
    C.Srcs = {Operand::tile(full(Ps))};
    B.op(C);
    return Operand::tile(full(T));
  }
};

std::optional<Failure> liftElementwise(TargetContext &TC,
                                       const FunctionDecl *FD, Kernel &K) {
  ElementwiseLifter L(TC, FD);
  if (!L.stmt(FD->getBody()))
    return L.F;
  if (L.Stores.empty())
    return Failure{RuleId::PK5007, FD->getLocation(),
                   "the kernel stores nothing the lifter recognises"};
  bool TwoD = L.Used.count('y');
  if (L.Used.count('z'))
    return Failure{RuleId::PK5006, FD->getLocation(),
                   "a 3-D thread index space is not lifted"};
  // Extents: bound checks, else the launch covers the space.
  // Extents (the tensors' shapes): the bound checks, else the launch covers
  // the space.  A bounded coordinate that is not a grid-stride loop is
  // covered only if the launch reaches the bound: checked when traced.
  std::map<char, std::string> Extent = *L.StoreBounds;
  std::vector<std::pair<std::string, std::string>> Checks;
  for (char D : std::string(TwoD ? "xy" : "x")) {
    if (L.StoreStride.count(D))
      continue;
    std::string G = std::string("grid_") + D, Bk = std::string("block_") + D;
    K.Launch.push_back(G);
    K.Launch.push_back(Bk);
    if (!Extent.count(D))
      Extent[D] = "(" + G + " * " + Bk + ")";
    else
      Checks.push_back(
          {G + " * " + Bk + " >= " + Extent[D],
           std::string("the launch covers every ") + D + " below the bound"});
  }
  std::string Ex = Extent['x'], Ey = TwoD ? Extent['y'] : "1";
  // Shapes of the pointer parameters.
  std::map<std::string, std::string> HbmName;
  for (const ParmVarDecl *P : FD->parameters()) {
    Param Pa;
    Pa.Name = P->getName().str();
    Pa.PyName = pyName(Pa.Name);
    if (!P->getType()->isPointerType()) {
      auto T = dtypeOf(P->getType());
      if (!T)
        return Failure{RuleId::PK5007, P->getLocation(),
                       llvm::formatv("parameter '{0}' of type '{1}' has no "
                                     "NKI dtype",
                                     P->getName(), P->getType().getAsString())
                           .str()};
      Pa.Ty = *T;
      K.Params.push_back(Pa);
      continue;
    }
    auto U = L.Uses.find(P);
    if (U == L.Uses.end())
      return Failure{RuleId::PK5008, P->getLocation(),
                     llvm::formatv("pointer parameter '{0}' is never accessed "
                                   "as a tile, so its shape is not known",
                                   P->getName())
                         .str()};
    Pa.IsTensor = true;
    Pa.Ty = *dtypeOf(P->getType()->getPointeeType());
    char Lay = U->second.Layout;
    if (Lay == 'e') {
      auto RP = L.RowPitch.find(P);
      if (TwoD && (RP == L.RowPitch.end() || RP->second != Ex))
        return Failure{
            RuleId::PK5008, U->second.FirstUse,
            llvm::formatv("'{0}' is indexed with a row pitch ({1}) that is "
                          "not the x extent ({2}): its 2-D shape is not "
                          "recovered",
                          P->getName(),
                          RP == L.RowPitch.end() ? "none" : RP->second, Ex)
                .str()};
      Pa.Shape = TwoD ? std::vector<std::string>{Ey, Ex}
                      : std::vector<std::string>{Ex};
    } else if (Lay == 'r') {
      Pa.Shape = {"1", Ex};
    } else {
      Pa.Shape = {Ey, "1"};
    }
    Pa.R = U->second.Written ? (U->second.Read ? Param::InOut : Param::Out)
                             : Param::In;
    std::string Py = pyName(Pa.Name);
    HbmName[Pa.Name] = Py;
    K.Params.push_back(Pa);
  }
  Builder B(K.Body);
  for (const auto &[Cond, Why] : Checks)
    B.check(Cond, Why);
  // Outputs in shared HBM, returned in CUDA order.
  std::map<const ParmVarDecl *, std::string> OutName;
  for (size_t I = 0; I < FD->getNumParams(); ++I) {
    const Param &Pa = K.Params[I];
    if (!Pa.IsTensor || Pa.R == Param::In)
      continue;
    std::string N = pyName(Pa.Name) + (Pa.R == Param::InOut ? "_out" : "");
    Op O;
    O.Kind = OpKind::Alloc;
    O.Alloc = Tensor{N, Mem::HBM, Pa.Ty, Pa.Shape};
    B.op(O);
    OutName[FD->getParamDecl(I)] = N;
    K.Returns.push_back(N);
  }
  // The tile loops; the body is lowered once per loop nest.
  auto Body = [&]() {
    TileLowering TL(B, HbmName, TwoD);
    for (const Store &S : L.Stores) {
      Operand V = TL.lower(S.V);
      if (!V.IsTile) {
        std::string T = B.alloc("t", Mem::SBUF, S.V->Ty, TL.tileShape());
        Op M;
        M.Kind = OpKind::Memset;
        M.Dst = TL.full(T);
        M.Srcs = {V};
        B.op(M);
        V = Operand::tile(TL.full(T));
      }
      Op O;
      O.Kind = OpKind::DmaCopy;
      O.Dst = TL.hbm(OutName[S.P]);
      O.Srcs = {V};
      B.op(O);
    }
  };
  if (TwoD) {
    B.open("p0", "0", Ey, "128");
    B.assign("p1", "min(" + Ey + ", p0 + 128)");
    B.assign("np_", "p1 - p0");
    B.open("f0", "0", Ex, "512");
    B.assign("f1", "min(" + Ex + ", f0 + 512)");
    B.assign("nf_", "f1 - f0");
    Body();
    B.close();
    B.close();
  } else {
    // Whole rows of 512 elements, 128 rows a tile; then the ragged tail
    // (fewer than 512 elements) as a one-partition tile.
    B.assign("full_", Ex + " // 512");
    B.open("r0", "0", "full_", "128");
    B.assign("np_", "min(128, full_ - r0)");
    B.assign("nf_", "512");
    B.assign("lo", "r0 * 512");
    B.assign("hi", "lo + np_ * 512");
    Body();
    B.close();
    B.open("lo", "full_ * 512", Ex, "512");
    B.assign("hi", Ex);
    B.assign("np_", "1");
    B.assign("nf_", "hi - lo");
    Body();
    B.close();
  }
  K.Family = TwoD ? "element-wise map over a 2-D index space (rows on "
                    "partitions, columns on the free axis)"
                  : "element-wise map over a 1-D index space (rows of 512 "
                    "elements on the partitions, a ragged tail row)";
  return std::nullopt;
}

//===----------------------------------------------------------------------===//
// Row programs: one warp per row.
//
//   lane = threadIdx.x & 31 (or % 32);  warp = threadIdx.x >> 5 (or / 32)
//   row = blockIdx.x * (blockDim.x / 32) + warp;  if (row >= rows) return;
//   const T *x = p + row * cols;            (row pointers)
//   float acc = init;
//   for (int c = lane; c < cols; c += 32)   (column loops: accumulations
//     acc = op(acc, e(x[c], ...));           acc += e / acc = fmaxf(acc, e),
//                                            stores y[c] = e, const locals)
//   for (int o = 16; o > 0; o >>= 1)        (a butterfly over the 32 lanes:
//     acc = op(acc, __shfl_xor_sync(~0, acc, o));   every lane gets the row's
//                                                   reduction)
//   const float u = f(acc, ...);            (per-row values)
//
// Rows go on the partitions (tiles of 128 rows), the columns of a column
// loop are walked in chunks of 512 on the free axis; an accumulation is a
// tensor_reduce of each chunk over the free axis into a (P, 1) column,
// combined with the previous chunks; per-row values are (P, 1) columns,
// operands of tensor_scalar.  The lift holds for any block of whole warps:
// `assert block_x % 32 == 0` and the grid must reach every row.
//===----------------------------------------------------------------------===//

class WarpRowLifter {
public:
  WarpRowLifter(TargetContext &TC, const FunctionDecl *FD, Kernel &K)
      : L(TC, FD), FD(FD), K(K), B(K.Body) {}

  std::optional<Failure> run();

private:
  ElementwiseLifter L;
  const FunctionDecl *FD;
  Kernel &K;
  Builder B;
  const VarDecl *Lane = nullptr, *Warp = nullptr, *NWarps = nullptr,
                *Row = nullptr;
  std::string Rows; ///< the row bound
  std::string Cols; ///< the row pitch = the column bound
  bool Opened = false;
  std::vector<std::pair<const ParmVarDecl *, NodeP>> Pending; ///< stores
  std::map<const ParmVarDecl *, std::string> OutName;
  std::map<std::string, std::string> HbmName;
  bool Failed = false;
  std::optional<Failure> F;

  bool fail(SourceLocation Loc, std::string Msg) {
    if (!F)
      F = Failure{RuleId::PK5004, Loc, std::move(Msg)};
    return false;
  }

  const VarDecl *varOf(const Expr *E) {
    auto *D = dyn_cast<DeclRefExpr>(strip(E));
    return D ? dyn_cast<VarDecl>(D->getDecl()) : nullptr;
  }
  bool isInt(const Expr *E, int64_t V) {
    auto *I = dyn_cast<IntegerLiteral>(strip(E));
    return I && I->getValue() == V;
  }
  bool isBuiltin(const Expr *E, const char *Var) {
    std::string N;
    char D;
    return builtinIndex(E, N, D) && N == Var && D == 'x';
  }

  /// The prologue's integer locals: lane, warp, warps per block, row.
  bool prologue(const VarDecl *V) {
    auto *Bo = dyn_cast<BinaryOperator>(strip(V->getInit()));
    if (!Bo)
      return false;
    auto Op = Bo->getOpcode();
    const Expr *X = Bo->getLHS(), *Y = Bo->getRHS();
    if (isBuiltin(X, "threadIdx") &&
        ((Op == BO_And && isInt(Y, 31)) || (Op == BO_Rem && isInt(Y, 32)))) {
      Lane = V;
      return true;
    }
    if (isBuiltin(X, "threadIdx") &&
        ((Op == BO_Shr && isInt(Y, 5)) || (Op == BO_Div && isInt(Y, 32)))) {
      Warp = V;
      return true;
    }
    if (isBuiltin(X, "blockDim") && Op == BO_Div && isInt(Y, 32)) {
      NWarps = V;
      return true;
    }
    if (Op == BO_Add && Warp && NWarps) {
      for (int Side = 0; Side < 2; ++Side) {
        const Expr *M = Side ? Y : X, *W = Side ? X : Y;
        auto *Mul = dyn_cast<BinaryOperator>(strip(M));
        if (!Mul || Mul->getOpcode() != BO_Mul || varOf(W) != Warp)
          continue;
        if ((isBuiltin(Mul->getLHS(), "blockIdx") &&
             varOf(Mul->getRHS()) == NWarps) ||
            (isBuiltin(Mul->getRHS(), "blockIdx") &&
             varOf(Mul->getLHS()) == NWarps)) {
          Row = V;
          return true;
        }
      }
    }
    return false;
  }

  /// `p + row * pitch` (p a pointer parameter).
  bool rowPointer(const VarDecl *V) {
    auto *Bo = dyn_cast<BinaryOperator>(strip(V->getInit()));
    if (!Bo || Bo->getOpcode() != BO_Add || !Row)
      return false;
    auto *D = dyn_cast<DeclRefExpr>(strip(Bo->getLHS()));
    auto *P = D ? dyn_cast<ParmVarDecl>(D->getDecl()) : nullptr;
    auto *Mul = dyn_cast<BinaryOperator>(strip(Bo->getRHS()));
    if (!P || !P->getType()->isPointerType() || !Mul ||
        Mul->getOpcode() != BO_Mul)
      return false;
    std::optional<std::string> Pitch;
    if (varOf(Mul->getLHS()) == Row)
      Pitch = L.scalarExpr(Mul->getRHS());
    else if (varOf(Mul->getRHS()) == Row)
      Pitch = L.scalarExpr(Mul->getLHS());
    if (!Pitch || (!Cols.empty() && Cols != *Pitch))
      return false;
    Cols = *Pitch;
    Value Val;
    Val.K = Value::RowPtr;
    Val.Ptr = P;
    Val.Pitch = *Pitch;
    L.Env[V] = Val;
    return true;
  }

  void open() {
    if (Opened)
      return;
    Opened = true;
    B.open("p0", "0", Rows, "128");
    B.assign("p1", "min(" + Rows + ", p0 + 128)");
    B.assign("np_", "p1 - p0");
  }

  /// Lowers a per-row value now into a (P, 1) column; returns a Ref node.
  NodeP column(const NodeP &N, SourceLocation Loc) {
    if (N->K == Node::Scalar || N->K == Node::Ref)
      return N;
    if (hasLoad(N)) {
      fail(Loc, "a per-row value that reads row elements outside a column "
                "loop");
      return nullptr;
    }
    open();
    TileLowering TL(B, HbmName, true);
    Operand O = TL.lower(N);
    auto R = std::make_shared<Node>();
    R->K = Node::Ref;
    R->Ty = N->Ty;
    R->Text = O.Tile.Tensor;
    return R;
  }
  static bool hasLoad(const NodeP &N) {
    if (!N)
      return false;
    return N->K == Node::Load || hasLoad(N->A) || hasLoad(N->B);
  }

  /// The accumulation `acc = op(acc, e)`, `acc += e`; returns the ALU op
  /// and the element expression.
  bool accumulation(const clang::Stmt *S, const VarDecl *&Acc, std::string &Op,
                    const Expr *&E) {
    auto *Bo = dyn_cast<BinaryOperator>(S);
    if (!Bo)
      return false;
    Acc = varOf(Bo->getLHS());
    if (!Acc)
      return false;
    if (Bo->getOpcode() == BO_AddAssign) {
      Op = "nl.add";
      E = Bo->getRHS();
      return true;
    }
    if (Bo->getOpcode() != BO_Assign)
      return false;
    const Expr *R = strip(Bo->getRHS());
    if (auto *C = dyn_cast<CallExpr>(R)) {
      auto *Fn = C->getDirectCallee();
      if (!Fn || C->getNumArgs() != 2)
        return false;
      std::string N = Fn->getNameAsString();
      if (N != "fmaxf" && N != "fminf")
        return false;
      Op = N == "fmaxf" ? "nl.maximum" : "nl.minimum";
      if (varOf(C->getArg(0)) == Acc)
        E = C->getArg(1);
      else if (varOf(C->getArg(1)) == Acc)
        E = C->getArg(0);
      else
        return false;
      return true;
    }
    if (auto *Add = dyn_cast<BinaryOperator>(R))
      if (Add->getOpcode() == BO_Add) {
        Op = "nl.add";
        if (varOf(Add->getLHS()) == Acc)
          E = Add->getRHS();
        else if (varOf(Add->getRHS()) == Acc)
          E = Add->getLHS();
        else
          return false;
        return true;
      }
    return false;
  }

  bool columnLoop(const ForStmt *Fo);
  bool butterfly(const ForStmt *Fo);
  bool statement(const clang::Stmt *S);
};

bool WarpRowLifter::columnLoop(const ForStmt *Fo) {
  auto *DS = dyn_cast_or_null<DeclStmt>(Fo->getInit());
  auto *C = DS && DS->isSingleDecl() ? dyn_cast<VarDecl>(DS->getSingleDecl())
                                     : nullptr;
  if (!C || !C->getInit() || varOf(C->getInit()) != Lane)
    return false;
  auto *Cond = dyn_cast_or_null<BinaryOperator>(Fo->getCond());
  auto *Inc = dyn_cast_or_null<CompoundAssignOperator>(Fo->getInc());
  if (!Cond || Cond->getOpcode() != BO_LT || varOf(Cond->getLHS()) != C ||
      !Inc || Inc->getOpcode() != BO_AddAssign || varOf(Inc->getLHS()) != C ||
      !isInt(Inc->getRHS(), 32))
    return fail(Fo->getForLoc(), "column loop that is not `for (c = lane; c "
                                 "< cols; c += 32)`");
  auto Bound = L.scalarExpr(Cond->getRHS());
  if (!Bound || Cols.empty() || *Bound != Cols)
    return fail(Fo->getForLoc(), "column loop whose bound is not the row "
                                 "pitch of the row pointers");
  Value CV;
  CV.K = Value::ColVar;
  L.Env[C] = CV;
  std::vector<const clang::Stmt *> Body;
  if (auto *CS = dyn_cast<CompoundStmt>(Fo->getBody()))
    Body.assign(CS->body_begin(), CS->body_end());
  else
    Body.push_back(Fo->getBody());
  // First the element expressions (no ops yet), then the tile program.
  struct Acc {
    const VarDecl *V;
    std::string Op, Init;
    NodeP E;
  };
  std::vector<Acc> Accs;
  std::vector<std::pair<const ParmVarDecl *, NodeP>> Stores;
  for (const clang::Stmt *S : Body) {
    if (auto *D = dyn_cast<DeclStmt>(S)) {
      if (!L.declare(D))
        return fail(S->getBeginLoc(), "local of a column loop not lifted");
      continue;
    }
    const VarDecl *AV;
    std::string Op;
    const Expr *E;
    if (accumulation(S, AV, Op, E)) {
      auto It = L.Env.find(AV);
      if (It == L.Env.end() || It->second.K != Value::Elem ||
          It->second.N->K != Node::Scalar)
        return fail(S->getBeginLoc(), "accumulator that does not start from "
                                      "a constant before the column loop");
      NodeP N = L.elem(E);
      if (!N)
        return fail(S->getBeginLoc(), "accumulated value not lifted");
      Accs.push_back({AV, Op, It->second.N->Text, N});
      continue;
    }
    auto *Bo = dyn_cast<BinaryOperator>(S);
    auto *A = Bo && Bo->getOpcode() == BO_Assign
                  ? dyn_cast<ArraySubscriptExpr>(Bo->getLHS()->IgnoreParens())
                  : nullptr;
    const VarDecl *PV = A ? varOf(A->getBase()) : nullptr;
    auto PIt = PV ? L.Env.find(PV) : L.Env.end();
    if (PIt != L.Env.end() && PIt->second.K == Value::RowPtr &&
        varOf(A->getIdx()) == C) {
      const ParmVarDecl *P = PIt->second.Ptr;
      NodeP N = L.elem(Bo->getRHS());
      if (!N)
        return fail(S->getBeginLoc(), "stored value not lifted");
      N = L.castTo(N, P->getType()->getPointeeType(), S->getBeginLoc());
      if (!N)
        return false;
      TensorUse &U = L.use(P, A->getExprLoc());
      if (U.Read || U.Written)
        return fail(S->getBeginLoc(), "a row read and written, or written "
                                      "twice, is not lifted");
      U.Written = true;
      U.Layout = 'e';
      L.RowPitch[P] = PIt->second.Pitch;
      Stores.push_back({P, N});
      continue;
    }
    return fail(S->getBeginLoc(), "statement of a column loop that is not an "
                                  "accumulation, a store of the row or a "
                                  "local");
  }
  // Accumulators: a (P, 1) column each, from the initial value.
  open();
  std::vector<std::string> AccTiles;
  for (const Acc &A : Accs) {
    std::string T = B.alloc("acc", Mem::SBUF, DType::F32, {"128", "1"});
    Op M;
    M.Kind = OpKind::Memset;
    M.Dst = Access{T, {{"0", "np_"}, {"0", "1"}}, {}};
    M.Srcs = {Operand::scalar(A.Init)};
    B.op(M);
    AccTiles.push_back(T);
  }
  B.open("f0", "0", Cols, "512");
  B.assign("f1", "min(" + Cols + ", f0 + 512)");
  B.assign("nf_", "f1 - f0");
  TileLowering TL(B, HbmName, true);
  for (size_t I = 0; I < Accs.size(); ++I) {
    Operand V = TL.lower(Accs[I].E);
    if (!V.IsTile || TileLowering::isCol(V))
      return fail(Fo->getForLoc(), "accumulated value that does not depend "
                                   "on the column");
    std::string R = B.alloc("red", Mem::SBUF, DType::F32, {"128", "1"});
    Access RA{R, {{"0", "np_"}, {"0", "1"}}, {}};
    Op Rd;
    Rd.Kind = OpKind::Reduce;
    Rd.Fn = Accs[I].Op;
    Rd.Dst = RA;
    Rd.Srcs = {V};
    B.op(Rd);
    Access AA{AccTiles[I], {{"0", "np_"}, {"0", "1"}}, {}};
    Op Cb;
    Cb.Kind = OpKind::TensorTensor;
    Cb.Fn = Accs[I].Op;
    Cb.Dst = AA;
    Cb.Srcs = {Operand::tile(AA), Operand::tile(RA)};
    B.op(Cb);
  }
  for (auto &[P, N] : Stores) {
    Operand V = TL.lower(N);
    if (!V.IsTile || TileLowering::isCol(V)) {
      // A per-row value stored to every column: a full tile of it.
      Access D = TL.full(B.alloc("t", Mem::SBUF, N->Ty, TL.tileShape()));
      Op M;
      M.Kind = OpKind::Memset;
      M.Dst = D;
      M.Srcs = {Operand::scalar("0.0")};
      B.op(M);
      Op O;
      O.Kind = OpKind::TensorScalar;
      O.Fn = "nl.add";
      O.Dst = D;
      O.Srcs = {Operand::tile(D), V};
      B.op(O);
      V = Operand::tile(D);
    }
    Op O;
    O.Kind = OpKind::DmaCopy;
    O.Dst = TL.hbm(OutName.count(P) ? OutName[P] : pyName(P->getName()));
    O.Srcs = {V};
    B.op(O);
    Pending.push_back({P, N});
  }
  B.close();
  // After the loop each accumulator is the thread's partial result.
  for (size_t I = 0; I < Accs.size(); ++I) {
    Value PV;
    PV.K = Value::Partial;
    PV.Op = Accs[I].Op;
    PV.Tile = AccTiles[I];
    L.Env[Accs[I].V] = PV;
  }
  return true;
}

bool WarpRowLifter::butterfly(const ForStmt *Fo) {
  auto *DS = dyn_cast_or_null<DeclStmt>(Fo->getInit());
  auto *O = DS && DS->isSingleDecl() ? dyn_cast<VarDecl>(DS->getSingleDecl())
                                     : nullptr;
  if (!O || !O->getInit() || !isInt(O->getInit(), 16))
    return false;
  auto *Cond = dyn_cast_or_null<BinaryOperator>(Fo->getCond());
  if (!Cond || varOf(Cond->getLHS()) != O ||
      !((Cond->getOpcode() == BO_GT && isInt(Cond->getRHS(), 0)) ||
        (Cond->getOpcode() == BO_GE && isInt(Cond->getRHS(), 1))))
    return false;
  auto *Inc = dyn_cast_or_null<CompoundAssignOperator>(Fo->getInc());
  if (!Inc || varOf(Inc->getLHS()) != O ||
      !((Inc->getOpcode() == BO_ShrAssign && isInt(Inc->getRHS(), 1)) ||
        (Inc->getOpcode() == BO_DivAssign && isInt(Inc->getRHS(), 2))))
    return false;
  const clang::Stmt *S = Fo->getBody();
  if (auto *CS = dyn_cast<CompoundStmt>(S)) {
    if (CS->size() != 1)
      return false;
    S = CS->body_front();
  }
  const VarDecl *V;
  std::string Op;
  const Expr *E;
  if (!accumulation(S, V, Op, E))
    return false;
  auto *Call = dyn_cast<CallExpr>(strip(E));
  auto *Fn = Call ? Call->getDirectCallee() : nullptr;
  if (!Fn || Fn->getNameAsString() != "__shfl_xor_sync" ||
      Call->getNumArgs() < 3 || varOf(Call->getArg(1)) != V ||
      varOf(Call->getArg(2)) != O)
    return false;
  Expr::EvalResult Mask;
  if (!Call->getArg(0)->EvaluateAsInt(Mask, FD->getASTContext()) ||
      Mask.Val.getInt().getZExtValue() != 0xffffffffu)
    return fail(Call->getBeginLoc(), "butterfly with a partial lane mask");
  // The width: absent or defaulted (the whole warp), or 32.
  if (Call->getNumArgs() > 3 && !isa<CXXDefaultArgExpr>(Call->getArg(3))) {
    Expr::EvalResult W;
    if (!Call->getArg(3)->EvaluateAsInt(W, FD->getASTContext()) ||
        W.Val.getInt() != 32)
      return fail(Call->getBeginLoc(), "butterfly over a sub-warp width");
  }
  auto It = L.Env.find(V);
  if (It == L.Env.end() || It->second.K != Value::Partial ||
      It->second.Op != Op)
    return fail(Fo->getForLoc(), "butterfly over a value that is not the "
                                 "partial result of a column loop with the "
                                 "same operation");
  // Offsets 16, 8, 4, 2, 1 with the full mask: every lane of the warp (the
  // row's threads) now holds the reduction of the whole row.
  auto R = std::make_shared<Node>();
  R->K = Node::Ref;
  R->Text = It->second.Tile;
  Value U;
  U.K = Value::Elem;
  U.N = R;
  L.Env[V] = U;
  return true;
}

bool WarpRowLifter::statement(const clang::Stmt *S) {
  if (auto *DS = dyn_cast<DeclStmt>(S)) {
    for (const Decl *D : DS->decls()) {
      auto *V = dyn_cast<VarDecl>(D);
      if (!V || !V->getInit())
        return fail(D->getLocation(), "declaration not lifted");
      if (V->getType()->isIntegerType()) {
        if (!prologue(V))
          return fail(V->getLocation(), "integer local that is not the "
                                        "lane, warp or row of a warp-per-row "
                                        "kernel");
        continue;
      }
      if (V->getType()->isPointerType()) {
        if (!rowPointer(V))
          return fail(V->getLocation(), "pointer local that is not a row "
                                        "`p + row * pitch`");
        continue;
      }
      NodeP N = L.elem(V->getInit());
      if (!N)
        return fail(V->getLocation(), "per-row value not lifted");
      if (N->K != Node::Scalar) {
        N = column(N, V->getLocation());
        if (!N)
          return false;
      }
      Value Val;
      Val.K = Value::Elem;
      Val.N = N;
      L.Env[V] = Val;
    }
    return true;
  }
  if (auto *I = dyn_cast<IfStmt>(S)) {
    const clang::Stmt *Then = I->getThen();
    if (auto *CS = dyn_cast<CompoundStmt>(Then))
      if (CS->size() == 1)
        Then = CS->body_front();
    auto *Cond = dyn_cast<BinaryOperator>(strip(I->getCond()));
    if (!I->getElse() && isa<ReturnStmt>(Then) && Cond &&
        Cond->getOpcode() == BO_GE && Row && varOf(Cond->getLHS()) == Row &&
        Rows.empty() && !Opened) {
      if (auto R = L.scalarExpr(Cond->getRHS())) {
        Rows = *R;
        return true;
      }
    }
    return fail(I->getIfLoc(), "branch in a warp-per-row kernel");
  }
  if (auto *Fo = dyn_cast<ForStmt>(S)) {
    if (Rows.empty() || !Row || !Lane)
      return fail(Fo->getForLoc(), "loop before the row of the warp is "
                                   "known and bounded");
    if (columnLoop(Fo))
      return true;
    if (F)
      return false;
    if (butterfly(Fo))
      return true;
    return F ? false
             : fail(Fo->getForLoc(), "loop that is neither a column loop "
                                     "nor a butterfly over the warp");
  }
  if (isa<NullStmt>(S))
    return true;
  return fail(S->getBeginLoc(), "statement of a warp-per-row kernel not "
                                "lifted");
}

std::optional<Failure> WarpRowLifter::run() {
  auto *Body = dyn_cast<CompoundStmt>(FD->getBody());
  if (!Body)
    return Failure{RuleId::PK5004, FD->getLocation(), "no body"};
  // Outputs: the pointer parameters the kernel stores through.  Found as
  // the statements are lifted; allocated first, so collect them now.
  for (const ParmVarDecl *P : FD->parameters())
    if (P->getType()->isPointerType()) {
      HbmName[P->getName().str()] = pyName(P->getName());
      if (!P->getType()->getPointeeType().isConstQualified())
        OutName[P] = pyName(P->getName());
    }
  for (const clang::Stmt *S : Body->body())
    if (!statement(S))
      return F ? F : Failure{RuleId::PK5004, S->getBeginLoc(), "not lifted"};
  if (Opened)
    B.close();
  if (Pending.empty() || Rows.empty() || Cols.empty())
    return Failure{RuleId::PK5004, FD->getLocation(),
                   "no row of the warp-per-row pattern is stored"};
  // The interface: every pointer is a [rows, cols] tensor; the stored ones
  // are outputs (a row read and written is refused above).
  for (const ParmVarDecl *P : FD->parameters()) {
    Param Pa;
    Pa.Name = P->getName().str();
    Pa.PyName = pyName(Pa.Name);
    if (!P->getType()->isPointerType()) {
      auto T = dtypeOf(P->getType());
      if (!T)
        return Failure{RuleId::PK5007, P->getLocation(),
                       "scalar parameter without an NKI dtype"};
      Pa.Ty = *T;
      K.Params.push_back(Pa);
      continue;
    }
    auto U = L.Uses.find(P);
    if (U == L.Uses.end())
      return Failure{RuleId::PK5008, P->getLocation(),
                     llvm::formatv("pointer parameter '{0}' is never "
                                   "accessed as a row",
                                   P->getName())
                         .str()};
    auto Ty = dtypeOf(P->getType()->getPointeeType());
    if (!Ty)
      return Failure{RuleId::PK5007, P->getLocation(),
                     "element type without an NKI dtype"};
    Pa.IsTensor = true;
    Pa.Ty = *Ty;
    Pa.Shape = {Rows, Cols};
    Pa.R = U->second.Written ? Param::Out : Param::In;
    if (!U->second.Written)
      OutName.erase(P);
    K.Params.push_back(Pa);
  }
  // Allocate the outputs and check the launch before the row loop.
  std::vector<nki::Stmt> Head;
  Builder H(Head);
  H.check("block_x % 32 == 0", "blocks of whole warps");
  H.check("grid_x * (block_x // 32) >= " + Rows,
          "the launch has a warp for every row");
  for (const Param &Pa : K.Params)
    if (Pa.IsTensor && Pa.R == Param::Out) {
      Op O;
      O.Kind = OpKind::Alloc;
      O.Alloc = Tensor{Pa.PyName, Mem::HBM, Pa.Ty, Pa.Shape};
      H.op(O);
      K.Returns.push_back(Pa.PyName);
    }
  K.Body.insert(K.Body.begin(), Head.begin(), Head.end());
  K.Launch = {"grid_x", "block_x"};
  K.Family = "row reduction, one warp per row (rows on partitions, "
             "tensor_reduce over column chunks of 512 on the free axis)";
  return std::nullopt;
}

} // namespace

std::map<std::string, LiftedFile> nki::liftKernels(TargetContext &TC) {
  std::map<std::string, LiftedFile> Out;
  for (const std::string &F : TC.PF.UserFiles)
    Out[F];
  std::vector<const FunctionDecl *> Kernels;
  std::vector<const FunctionTemplateDecl *> Templates;
  std::function<void(const DeclContext *)> Walk = [&](const DeclContext *DC) {
    for (const Decl *D : DC->decls()) {
      if (auto *NS = dyn_cast<NamespaceDecl>(D))
        Walk(NS);
      else if (auto *LS = dyn_cast<LinkageSpecDecl>(D))
        Walk(LS);
      else if (auto *FT = dyn_cast<FunctionTemplateDecl>(D)) {
        if (FT->getTemplatedDecl()->hasAttr<CUDAGlobalAttr>() &&
            FT->getTemplatedDecl()->doesThisDeclarationHaveABody() &&
            TC.isUserLoc(FT->getLocation()))
          Templates.push_back(FT);
      } else if (auto *FD = dyn_cast<FunctionDecl>(D)) {
        if (FD->hasAttr<CUDAGlobalAttr>() &&
            FD->doesThisDeclarationHaveABody() &&
            TC.isUserLoc(FD->getLocation()))
          Kernels.push_back(FD);
      }
    }
  };
  Walk(TC.Ctx().getTranslationUnitDecl());

  // The finding goes where the construct is; the header line of the
  // kernel's own .py names the file and line.
  auto Report = [&](const std::string &Name, SourceLocation KernelLoc,
                    const Failure &Fl) {
    std::string Msg =
        llvm::formatv("kernel '{0}' is not lifted to NKI: {1}", Name, Fl.Msg)
            .str();
    TC.finding(Fl.Loc, Fl.Rule, Severity::Warning, Msg);
    std::string File = TC.fileOf(KernelLoc);
    if (File.empty() || !Out.count(File))
      return;
    SourceLocation L = TC.SM().getSpellingLoc(Fl.Loc);
    Out[File].Header.push_back(
        llvm::formatv("port-kernel: warning: {0}:{1}: {2} [{3}]",
                      llvm::sys::path::filename(TC.fileOf(Fl.Loc)),
                      TC.SM().getSpellingLineNumber(L), Msg, ruleName(Fl.Rule))
            .str());
  };

  // GEMMs (LiftMatmul.cpp) first: lifted, or refused with the reason the
  // GEMM is not proven; other kernels go on to the lifters below.
  auto Gemm = [&](const FunctionDecl *FD) {
    Kernel K;
    std::optional<MatmulRefusal> Why;
    std::string Name = FD->getNameAsString();
    if (liftMatmul(TC, FD, K, Why)) {
      TC.finding(FD->getLocation(), RuleId::PK5001, Severity::Note,
                 llvm::formatv("kernel '{0}' lifted to an NKI tile program: "
                               "{1}; {2} tile operations in its loop bodies",
                               Name, K.Family, staticOpCount(K.Body))
                     .str());
      Out[TC.fileOf(FD->getLocation())].Kernels.push_back(std::move(K));
      return true;
    }
    if (Why)
      Report(Name, FD->getLocation(), Failure{Why->Rule, Why->Loc, Why->Msg});
    return Why.has_value();
  };

  for (const FunctionTemplateDecl *FT : Templates) {
    if (Gemm(FT->getTemplatedDecl()))
      continue;
    Scan S(TC.Ctx());
    S.run(FT->getTemplatedDecl());
    Report(FT->getNameAsString(), FT->getLocation(),
           S.F ? *S.F
               : Failure{RuleId::PK5007, FT->getLocation(),
                         "template kernels are not lifted (each "
                         "instantiation would be a kernel of its own)"});
  }

  for (const FunctionDecl *FD : Kernels) {
    if (Gemm(FD))
      continue;
    std::string Name = FD->getNameAsString();
    Scan S(TC.Ctx());
    S.run(FD);
    Kernel K;
    K.Name = Name;
    if (S.F) {
      // Threads that communicate: lifted when the kernel is a row program
      // whose communication is a recognised reduction; else the scan's
      // reason stands.
      Kernel RK;
      RK.Name = Name;
      if (S.F->Rule != RuleId::PK5004 || WarpRowLifter(TC, FD, RK).run()) {
        Report(Name, FD->getLocation(), *S.F);
        continue;
      }
      K = std::move(RK);
    } else if (auto Fl = liftElementwise(TC, FD, K)) {
      Report(Name, FD->getLocation(), *Fl);
      continue;
    }
    std::string File = TC.fileOf(FD->getLocation());
    TC.finding(FD->getLocation(), RuleId::PK5001, Severity::Note,
               llvm::formatv("kernel '{0}' lifted to an NKI tile program: "
                             "{1}; {2} tile operations in its loop bodies",
                             Name, K.Family, staticOpCount(K.Body))
                   .str());
    Out[File].Kernels.push_back(std::move(K));
  }
  return Out;
}
