//===- Lift.cpp - CUDA/HIP kernels to NKI tile programs -------------------===//
// Rules: PK5001, PK5002, PK5003, PK5004, PK5005, PK5006, PK5007, PK5008, PK5009
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
#include "LiftScan.h"
#include "LiftLower.h"
#include "LiftMap.h"
#include "LiftRows.h"

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
#include <functional>
#include <optional>

using namespace pk;
using namespace pk::nki;
using namespace clang;

std::optional<DType> nki::dtypeOf(QualType T) {
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

unsigned nki::waveOf(const TargetContext &TC) {
  return TC.PF.Language == Lang::HIP ? 64 : 32;
}

std::optional<DType> nki::scalarDtypeOf(QualType T) {
  if (auto D = dtypeOf(T))
    return D;
  T = T.getCanonicalType().getUnqualifiedType();
  if (T->isIntegerType() && !T->isBooleanType() && !T->isEnumeralType())
    return DType::I64;
  return std::nullopt;
}

namespace {

/// The names a user identifier must not take in the output: Python keywords,
/// builtins (the generated code calls range, min, max, len, ... and the
/// simulator evaluates shapes with min and max), the modules the output
/// imports and the module's calling-convention table.
bool isPythonReserved(llvm::StringRef N) {
  static const llvm::StringSet<> Reserved = {"ArithmeticError",
                                             "AssertionError",
                                             "AttributeError",
                                             "BaseException",
                                             "BaseExceptionGroup",
                                             "BlockingIOError",
                                             "BrokenPipeError",
                                             "BufferError",
                                             "BytesWarning",
                                             "ChildProcessError",
                                             "ConnectionAbortedError",
                                             "ConnectionError",
                                             "ConnectionRefusedError",
                                             "ConnectionResetError",
                                             "DeprecationWarning",
                                             "EOFError",
                                             "Ellipsis",
                                             "EncodingWarning",
                                             "EnvironmentError",
                                             "Exception",
                                             "ExceptionGroup",
                                             "False",
                                             "FileExistsError",
                                             "FileNotFoundError",
                                             "FloatingPointError",
                                             "FutureWarning",
                                             "GeneratorExit",
                                             "IOError",
                                             "ImportError",
                                             "ImportWarning",
                                             "IndentationError",
                                             "IndexError",
                                             "InterruptedError",
                                             "IsADirectoryError",
                                             "KeyError",
                                             "KeyboardInterrupt",
                                             "LookupError",
                                             "MemoryError",
                                             "ModuleNotFoundError",
                                             "NameError",
                                             "None",
                                             "NotADirectoryError",
                                             "NotImplemented",
                                             "NotImplementedError",
                                             "OSError",
                                             "OverflowError",
                                             "PK_KERNELS",
                                             "PendingDeprecationWarning",
                                             "PermissionError",
                                             "ProcessLookupError",
                                             "RecursionError",
                                             "ReferenceError",
                                             "ResourceWarning",
                                             "RuntimeError",
                                             "RuntimeWarning",
                                             "StopAsyncIteration",
                                             "StopIteration",
                                             "SyntaxError",
                                             "SyntaxWarning",
                                             "SystemError",
                                             "SystemExit",
                                             "TabError",
                                             "TimeoutError",
                                             "True",
                                             "TypeError",
                                             "UnboundLocalError",
                                             "UnicodeDecodeError",
                                             "UnicodeEncodeError",
                                             "UnicodeError",
                                             "UnicodeTranslateError",
                                             "UnicodeWarning",
                                             "UserWarning",
                                             "ValueError",
                                             "Warning",
                                             "ZeroDivisionError",
                                             "abs",
                                             "aiter",
                                             "all",
                                             "and",
                                             "anext",
                                             "any",
                                             "as",
                                             "ascii",
                                             "assert",
                                             "async",
                                             "await",
                                             "bin",
                                             "bool",
                                             "break",
                                             "breakpoint",
                                             "bytearray",
                                             "bytes",
                                             "callable",
                                             "chr",
                                             "class",
                                             "classmethod",
                                             "compile",
                                             "complex",
                                             "continue",
                                             "copyright",
                                             "credits",
                                             "def",
                                             "del",
                                             "delattr",
                                             "dict",
                                             "dir",
                                             "divmod",
                                             "elif",
                                             "else",
                                             "enumerate",
                                             "eval",
                                             "except",
                                             "exec",
                                             "exit",
                                             "filter",
                                             "finally",
                                             "float",
                                             "for",
                                             "format",
                                             "from",
                                             "frozenset",
                                             "getattr",
                                             "global",
                                             "globals",
                                             "hasattr",
                                             "hash",
                                             "help",
                                             "hex",
                                             "id",
                                             "if",
                                             "import",
                                             "in",
                                             "input",
                                             "int",
                                             "is",
                                             "isinstance",
                                             "issubclass",
                                             "iter",
                                             "lambda",
                                             "len",
                                             "license",
                                             "list",
                                             "locals",
                                             "map",
                                             "max",
                                             "memoryview",
                                             "min",
                                             "next",
                                             "nisa",
                                             "nki",
                                             "nl",
                                             "nonlocal",
                                             "not",
                                             "object",
                                             "oct",
                                             "open",
                                             "or",
                                             "ord",
                                             "pass",
                                             "pow",
                                             "print",
                                             "property",
                                             "quit",
                                             "raise",
                                             "range",
                                             "repr",
                                             "return",
                                             "reversed",
                                             "round",
                                             "set",
                                             "setattr",
                                             "slice",
                                             "sorted",
                                             "staticmethod",
                                             "str",
                                             "sum",
                                             "super",
                                             "try",
                                             "tuple",
                                             "type",
                                             "vars",
                                             "while",
                                             "with",
                                             "yield",
                                             "zip"};
  return Reserved.count(N);
}

/// The Python names of one kernel's user identifiers while the kernel is
/// lifted (liftKernels): the identifiers of the kernel (parameters, template
/// parameters), the names the generated code of an earlier attempt bound
/// (tiles, loop variables, bounds, launch dimensions) and what each user
/// identifier has become.
struct PyNameScope {
  llvm::StringSet<> User;
  llvm::StringSet<> Avoid;
  llvm::StringSet<> Taken;
  std::map<std::string, std::string> Final;
};
thread_local PyNameScope *CurrentNames = nullptr;

} // namespace

std::string nki::pyName(llvm::StringRef N) {
  if (!CurrentNames)
    return isPythonReserved(N) ? (N + "_").str() : N.str();
  PyNameScope &S = *CurrentNames;
  auto It = S.Final.find(N.str());
  if (It != S.Final.end())
    return It->second;
  // A name that would shadow or rebind one the output needs gets
  // underscores until it is free; the result is never another identifier
  // of the kernel, so two user names never become one.
  auto Clash = [&](llvm::StringRef C) {
    return isPythonReserved(C) || S.Avoid.count(C) || S.Taken.count(C);
  };
  std::string R = N.str();
  if (Clash(R)) {
    do
      R += "_";
    while (Clash(R) || S.User.count(R));
  }
  S.Taken.insert(R);
  S.Final[N.str()] = R;
  return R;
}

std::string nki::pyFloat(double V) {
  char Buf[64];
  snprintf(Buf, sizeof Buf, "%.9g", V);
  std::string S = Buf;
  if (S.find_first_of(".eEn") == std::string::npos)
    S += ".0";
  return S;
}

namespace {

/// Why a kernel is not lifted: the rule, the place and the message.
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

bool isFloat(DType T) {
  return T == DType::F32 || T == DType::F16 || T == DType::BF16;
}

//===----------------------------------------------------------------------===//
// The pre-scan: constructs outside the element-wise model.
//===----------------------------------------------------------------------===//

class Scan : public RecursiveASTVisitor<Scan> {
public:
  explicit Scan(ASTContext &Ctx) : Ctx(Ctx) {}
  std::optional<Refusal> F;
  std::set<const FunctionDecl *> Seen;

  void run(const FunctionDecl *FD) {
    if (!FD || !FD->hasBody() || !Seen.insert(FD).second)
      return;
    TraverseStmt(const_cast<clang::Stmt *>(FD->getBody()));
  }

  /// The reason reported when several apply: atomics, fragments, data-
  /// dependent indices, a scan across lanes, then other communication
  /// between threads.
  static int rank(RuleId R) {
    switch (R) {
    case RuleId::PK5002:
      return 0;
    case RuleId::PK5005:
      return 1;
    case RuleId::PK5003:
      return 2;
    default:
      return 4;
    }
  }
  int Rank = 5;
  bool fail(RuleId R, SourceLocation L, std::string M, int Rk = -1) {
    if (Rk < 0)
      Rk = rank(R);
    if (!F || Rk < Rank) {
      F = Refusal{R, L, std::move(M)};
      Rank = Rk;
    }
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
    if (NR.starts_with("__shfl_up"))
      return fail(RuleId::PK5004, C->getBeginLoc(),
                  llvm::formatv("{0}: a prefix scan across the lanes (each "
                                "lane adds the values of the lanes below "
                                "it); scans are not lifted to tile "
                                "operations: compute the prefix sums on the "
                                "host or keep this kernel on a GPU target",
                                N)
                      .str(),
                  3);
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


/// What a local variable holds.
struct Value {
  /// RowPtr: `p + row * pitch` (row programs); ColVar: the column of a
  /// row program's column loop; Partial: an accumulator of a column loop
  /// (Op over the thread's columns, from Init).
  /// Block row programs (one block per row): GridCol, the element of a
  /// grid-stride loop over a 1-D input whose chunks of the block size are
  /// dealt to the blocks in turn; WarpTot, each warp's reduction of a
  /// Partial (in every lane after an xor butterfly, else in lane 0);
  /// W0Part, per-warp results read back by the lanes of warp 0, whose
  /// reduction with Pad is the row's; Total0, that reduction, held by
  /// lane 0 of warp 0 (by every lane of warp 0 when AllLanes).
  enum Kind {
    None,
    Index,
    Stride,
    Elem,
    RowPtr,
    ColVar,
    Partial,
    GridCol,
    WarpTot,
    W0Part,
    Total0,
    ColPtr
  } K = None;
  Affine Idx;
  char StrideDim = 0;
  NodeP N;
  const ParmVarDecl *Ptr = nullptr;
  std::string Pitch, Op, Tile;
  std::string Pad;       ///< W0Part: the value of lanes past the last warp
  bool AllLanes = false; ///< WarpTot/Total0: every lane holds the result
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

  std::optional<Refusal> F;
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
      F = Refusal{R, L, std::move(M)};
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
    if (P && P->getType()->isPointerType() && RowIndex)
      if (auto Pitch = RowIndex(Idx)) {
        Value RP;
        RP.K = Value::RowPtr;
        RP.Ptr = P;
        RP.Pitch = *Pitch;
        return rowLoad(RP, nullptr, Loc);
      }
    // p[c] with c the column of a row program's column loop: a row vector
    // shared by every row ('r'); p[i] with i the element of a grid-stride
    // loop of a block row program ('g').
    auto *ID = dyn_cast<DeclRefExpr>(strip(Idx));
    auto *IV = ID ? dyn_cast<VarDecl>(ID->getDecl()) : nullptr;
    auto IIt = IV ? Env.find(IV) : Env.end();
    if (P && P->getType()->isPointerType() && IIt != Env.end() &&
        (IIt->second.K == Value::ColVar || IIt->second.K == Value::GridCol)) {
      auto Ty = dtypeOf(P->getType()->getPointeeType());
      if (!Ty) {
        fail(RuleId::PK5007, Loc,
             llvm::formatv("element type '{0}' of '{1}' has no NKI dtype",
                           P->getType()->getPointeeType().getAsString(),
                           P->getName())
                 .str());
        return nullptr;
      }
      char Lay = IIt->second.K == Value::ColVar ? 'r' : 'g';
      if (!readAs(P, Lay, RuleId::PK5006, Loc))
        return nullptr;
      auto N = std::make_shared<Node>();
      N->K = Node::Load;
      N->Ty = *Ty;
      N->Layout = Lay;
      N->Text = P->getName().str();
      return N;
    }
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
  /// (Idx null: the caller matched the column already.)
  NodeP rowLoad(const Value &RP, const Expr *Idx, SourceLocation Loc) {
    auto *D = Idx ? dyn_cast<DeclRefExpr>(strip(Idx)) : nullptr;
    auto *V = D ? dyn_cast<VarDecl>(D->getDecl()) : nullptr;
    auto It = V ? Env.find(V) : Env.end();
    if (Idx && (It == Env.end() || It->second.K != Value::ColVar)) {
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

  /// Records a read of \p P with layout \p Lay; fails (rule \p R) when
  /// \p P is written or was accessed with another layout.
  bool readAs(const ParmVarDecl *P, char Lay, RuleId R, SourceLocation Loc) {
    TensorUse &U = use(P, Loc);
    if (U.Written || (U.Layout && U.Layout != Lay))
      return fail(R, Loc,
                  llvm::formatv("'{0}' is written, or accessed with two "
                                "different layouts",
                                P->getName())
                      .str());
    U.Read = true;
    U.Layout = Lay;
    return true;
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
  /// Calls already evaluated (block reductions inlined by a row lifter):
  /// their per-row results.
  std::map<const CallExpr *, NodeP> Precomputed;
  /// Reads of __shared__ arrays, for a row lifter that follows them.
  std::function<NodeP(const ArraySubscriptExpr *)> SharedRead;
  /// p[row * cols + c] in a row lifter's column loop: the pitch when Idx
  /// has that form (the access is then the row's element, as through a
  /// row pointer).
  std::function<std::optional<std::string>(const Expr *)> RowIndex;

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
    if (auto *A = dyn_cast<ArraySubscriptExpr>(E)) {
      auto *SD = dyn_cast<DeclRefExpr>(strip(A->getBase()));
      if (SharedRead && SD && SD->getDecl()->hasAttr<CUDASharedAttr>())
        return SharedRead(A);
      return load(A->getBase(), A->getIdx(), A->getExprLoc());
    }
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
    auto Pre = Precomputed.find(C);
    if (Pre != Precomputed.end())
      return Pre->second;
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

std::optional<Refusal> liftElementwise(TargetContext &TC,
                                       const FunctionDecl *FD, Kernel &K) {
  ElementwiseLifter L(TC, FD);
  if (!L.stmt(FD->getBody()))
    return L.F;
  if (L.Stores.empty())
    return Refusal{RuleId::PK5007, FD->getLocation(),
                   "the kernel stores nothing the lifter recognises"};
  bool TwoD = L.Used.count('y');
  if (L.Used.count('z'))
    return Refusal{RuleId::PK5006, FD->getLocation(),
                   "a 3-D thread index space is not lifted"};
  // Extents: bound checks, else the launch covers the space.
  // Extents (the tensors' shapes): the bound checks, else the launch covers
  // the space.  A bounded coordinate that is not a grid-stride loop is
  // covered only if the launch reaches the bound: checked when traced.
  std::map<char, std::string> Extent = *L.StoreBounds;
  std::vector<std::pair<std::string, std::string>> Checks;
  std::vector<std::string> Launch;
  for (char D : std::string(TwoD ? "xy" : "x")) {
    if (L.StoreStride.count(D))
      continue;
    std::string G = std::string("grid_") + D, Bk = std::string("block_") + D;
    Launch.push_back(G);
    Launch.push_back(Bk);
    if (!Extent.count(D))
      Extent[D] = "(" + G + " * " + Bk + ")";
    else
      Checks.push_back(
          {G + " * " + Bk + " >= " + Extent[D],
           std::string("the launch covers every ") + D + " below the bound"});
  }
  MapSpec Spec;
  Spec.TwoD = TwoD;
  Spec.Ex = Extent['x'];
  Spec.Ey = TwoD ? Extent['y'] : "1";
  Spec.Checks = Checks;
  Spec.Launch = Launch;
  for (const ParmVarDecl *P : FD->parameters()) {
    auto UI = L.Uses.find(P);
    if (UI == L.Uses.end())
      continue;
    const TensorUse &U = UI->second;
    if (U.Layout == 'e' && TwoD) {
      auto RP = L.RowPitch.find(P);
      if (RP == L.RowPitch.end() || RP->second != Spec.Ex)
        return Refusal{
            RuleId::PK5008, U.FirstUse,
            llvm::formatv("'{0}' is indexed with a row pitch ({1}) that is "
                          "not the x extent ({2}): its 2-D shape is not "
                          "recovered",
                          P->getName(),
                          RP == L.RowPitch.end() ? "none" : RP->second,
                          Spec.Ex)
                .str()};
    }
    Spec.Uses[P] = MapSpec::Use{U.Layout, U.Read, U.Written};
  }
  for (const Store &St : L.Stores)
    Spec.Stores.push_back({St.P, St.V});
  Spec.Family =
      TwoD ? "element-wise map over a 2-D index space (rows on "
             "partitions, columns on the free axis)"
           : "element-wise map over a 1-D index space (rows of 512 "
             "elements on the partitions, a ragged tail row)";
  return emitMap(TC, FD, Spec, K);
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
  WarpRowLifter(TargetContext &TC, const FunctionDecl *FD, Kernel &K,
                bool BlockMode = false)
      : L(TC, FD), FD(FD), K(K), B(K.Body), Block(BlockMode) {
    L.SharedRead = [this](const ArraySubscriptExpr *A) {
      return sharedRead(A);
    };
    L.RowIndex = [this](const Expr *Idx) -> std::optional<std::string> {
      if (!this->Block || !CurCol)
        return std::nullopt;
      auto P = rowIndex(Idx, CurCol);
      if (P && *P == Cols)
        return P;
      return std::nullopt;
    };
  }

  std::optional<Refusal> run();
  /// Block mode: the kernel was recognised as a block row program (a
  /// column or grid-stride loop was lifted), so its failure is the reason
  /// to report.
  bool recognised() const { return Opened || Recognised; }

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
  std::optional<Refusal> F;
  /// One block per row (block row programs) instead of one warp per row.
  bool Block = false;

  bool fail(SourceLocation Loc, std::string Msg) {
    if (!F)
      F = Refusal{Block ? RuleId::PK5009 : RuleId::PK5004, Loc, std::move(Msg)};
    return false;
  }
  /// Fails with the element lifter's reason when it has one.
  bool failElem(SourceLocation Loc, const std::string &What) {
    if (L.F && !F) {
      F = L.F;
      F->Msg = What + ": " + F->Msg;
      return false;
    }
    return fail(Loc, What);
  }

  // --- block row programs ---------------------------------------------
  /// The threads that run a statement: all, warp 0 only (W0), lane 0 of
  /// each warp (L0), or thread 0 (both).
  struct Ctx {
    bool W0 = false, L0 = false;
    bool all() const { return !W0 && !L0; }
  };
  /// What a __shared__ array holds, as far as the lifter follows it:
  /// PerWarp, slot w the reduction (Op) of warp w's partials; Bcast, slot 0
  /// a per-row value; PerThread, slots [0, M) whose reduction is the row's.
  /// Pending: written since the last barrier; ReadAll: read since then by
  /// threads outside warp 0; ReadW0: the warp-synchronising operations
  /// seen when warp 0 last read it (-1: not read).
  /// Staged: s[d] = Src[row, d] for d < Depth (a row staged by a loop
  /// over the block's threads), held transposed in Tile ([Depth, np_]) for
  /// nc_matmul; ColArr: s[c] holds the column c of the row, one value per
  /// column of the column loops, in the SBUF tile Tile ([128, cols]).
  struct ShArr {
    enum Kind { Empty, PerWarp, Bcast, PerThread, Staged, ColArr } K = Empty;
    std::string Op, Tile, Depth;
    const ParmVarDecl *Src = nullptr;
    NodeP N;
    int64_t M = 0, Size = 0; ///< Size -1: dynamic (extern __shared__)
    bool Pending = false, ReadAll = false;
    int64_t ReadW0 = -1;
  };
  std::map<const VarDecl *, ShArr> Sh;
  int64_t WarpSyncs = 0;
  std::set<const VarDecl *> LaneV, WarpV, NWarpsV, TidV, RowV;
  unsigned Depth = 0, InlineDepth = 0;
  std::map<const VarDecl *, unsigned> DeclDepth;
  std::vector<std::set<const VarDecl *>> AssignedOuter;
  bool RowsBound = false, UsesWarps = false;
  /// A loop of the block row patterns was recognised (even if what it does
  /// is then refused).
  bool Recognised = false;
  std::optional<int64_t> BlockSize;
  std::string GridBound; ///< the bound of the grid-stride loop (1-D input)
  std::set<int64_t> PerWarpSizes;
  std::map<const FunctionDecl *, bool> Communicates;
  /// Trace-time checks of the launch and sizes (condition, why).
  std::vector<std::pair<std::string, std::string>> Checks;
  /// The kernel reads shared_bytes (dynamic shared memory holds a row).
  bool SharedBytes = false;
  bool Dots = false;
  /// 's'/'k' tensors: their second dimension (the staged row's length).
  std::map<const ParmVarDecl *, std::string> Inner;
  /// In a column loop: its column variable, the shared arrays it wrote
  /// (their new values) and the locals it declared.
  const VarDecl *CurCol = nullptr;
  std::map<const VarDecl *, NodeP> LoopSh;
  std::set<const VarDecl *> LoopLocals;

  NodeP sharedRead(const ArraySubscriptExpr *A);
  bool stageLoop(const ForStmt *Fo, const VarDecl *C, const std::string &Bound,
                 const clang::Stmt *S);
  bool dotLoop(const ForStmt *Fo);
  /// Idx is `row * pitch + c` (either order): the pitch.
  std::optional<std::string> rowIndex(const Expr *Idx, const VarDecl *C) {
    auto *Bo = dyn_cast<BinaryOperator>(strip(Idx));
    if (!Bo || Bo->getOpcode() != BO_Add)
      return std::nullopt;
    for (int Side = 0; Side < 2; ++Side) {
      const Expr *M = Side ? Bo->getLHS() : Bo->getRHS();
      const Expr *V = Side ? Bo->getRHS() : Bo->getLHS();
      auto *Mul = dyn_cast<BinaryOperator>(strip(M));
      if (varOf(V) != C || !Mul || Mul->getOpcode() != BO_Mul)
        continue;
      if (isRow(Mul->getLHS()))
        return L.scalarExpr(Mul->getRHS());
      if (isRow(Mul->getRHS()))
        return L.scalarExpr(Mul->getLHS());
    }
    return std::nullopt;
  }
  /// `p + x * pitch` (the product in either order) with p a pointer
  /// parameter and x an operand IsIndex accepts: p and the pitch.
  template <typename Pred>
  std::optional<std::pair<const ParmVarDecl *, std::string>>
  scaledPointer(const VarDecl *V, Pred IsIndex) {
    auto *Bo = dyn_cast<BinaryOperator>(strip(V->getInit()));
    if (!Bo || Bo->getOpcode() != BO_Add)
      return std::nullopt;
    auto *D = dyn_cast<DeclRefExpr>(strip(Bo->getLHS()));
    auto *P = D ? dyn_cast<ParmVarDecl>(D->getDecl()) : nullptr;
    auto *Mul = dyn_cast<BinaryOperator>(strip(Bo->getRHS()));
    if (!P || !P->getType()->isPointerType() || !Mul ||
        Mul->getOpcode() != BO_Mul)
      return std::nullopt;
    std::optional<std::string> Pitch;
    if (IsIndex(Mul->getLHS()))
      Pitch = L.scalarExpr(Mul->getRHS());
    else if (IsIndex(Mul->getRHS()))
      Pitch = L.scalarExpr(Mul->getLHS());
    if (!Pitch)
      return std::nullopt;
    return std::make_pair(P, *Pitch);
  }
  /// Records V as a pointer of kind K into the matrix of P with that pitch.
  void bindPointer(const VarDecl *V, Value::Kind K, const ParmVarDecl *P,
                   const std::string &Pitch) {
    Value Val;
    Val.K = K;
    Val.Ptr = P;
    Val.Pitch = Pitch;
    L.Env[V] = Val;
  }
  /// `p + c * pitch` (either order) with p a pointer parameter: the row c
  /// of a matrix [cols, pitch].
  bool colPointer(const VarDecl *V, const VarDecl *C) {
    auto PP = scaledPointer(V, [&](const Expr *E) { return varOf(E) == C; });
    if (!PP)
      return false;
    bindPointer(V, Value::ColPtr, PP->first, PP->second);
    return true;
  }

  bool isTid(const Expr *E) {
    return isBuiltin(strip(E), "threadIdx") || TidV.count(varOf(E));
  }
  bool isRow(const Expr *E) {
    return (Row && varOf(E) == Row) || RowV.count(varOf(E)) ||
           (Block && isBuiltin(strip(E), "blockIdx"));
  }
  std::optional<int64_t> constInt(const Expr *E) {
    Expr::EvalResult R;
    if (!E || !E->EvaluateAsInt(R, FD->getASTContext()))
      return std::nullopt;
    return R.Val.getInt().getExtValue();
  }
  const VarDecl *sharedVar(const Expr *E) {
    const VarDecl *V = varOf(E);
    return V && V->hasAttr<CUDASharedAttr>() ? V : nullptr;
  }
  bool communicates(const FunctionDecl *Fn);
  bool bstmt(const clang::Stmt *S, Ctx C);
  bool bdecl(const DeclStmt *DS, Ctx C);
  bool bassign(const BinaryOperator *Bo, Ctx C);
  bool bif(const IfStmt *I, Ctx C);
  bool bfor(const ForStmt *Fo, Ctx C);
  bool barrier(Ctx C, SourceLocation Loc);
  void noteAssign(const VarDecl *V);
  std::optional<Value> evalValue(const Expr *E, Ctx C);
  std::optional<Value> inlineCall(const CallExpr *Ca, const FunctionDecl *Fn,
                                  Ctx C);
  std::optional<Value> applyWarpReduce(Value V, const std::string &Op, bool Xor,
                                       Ctx C, SourceLocation Loc);
  bool matchWarpLoop(const ForStmt *Fo, const VarDecl *&V, std::string &Op,
                     bool &Xor);
  bool isWarpReduceFn(const FunctionDecl *Fn, std::string &Op, bool &Xor);
  std::string combine(const std::string &Tile, const std::string &Fn,
                      const std::string &With);
  bool sharedStore(const ArraySubscriptExpr *A, const Expr *RHS, Ctx C);
  bool globalStore(const ArraySubscriptExpr *A, const Expr *RHS, Ctx C);
  bool gridLoop(const ForStmt *Fo, Ctx C);
  bool treeLoop(const ForStmt *Fo, Ctx C);
  bool warpsLoop(const ForStmt *Fo, Ctx C);
  bool readShared(ShArr &Sa, Ctx C) {
    if (C.W0)
      Sa.ReadW0 = WarpSyncs;
    else
      Sa.ReadAll = true;
    return true;
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

  /// The prologue's integer locals: lane, warp, warps per block, row (and
  /// in block row programs the thread index and the row = blockIdx.x).
  bool prologue(const VarDecl *V) {
    if (Block && isBuiltin(V->getInit(), "threadIdx")) {
      TidV.insert(V);
      return true;
    }
    if (Block && isBuiltin(V->getInit(), "blockIdx")) {
      RowV.insert(V);
      return true;
    }
    auto *Bo = dyn_cast<BinaryOperator>(strip(V->getInit()));
    if (!Bo)
      return false;
    auto Op = Bo->getOpcode();
    const Expr *X = Bo->getLHS(), *Y = Bo->getRHS();
    if (isTid(X) &&
        ((Op == BO_And && isInt(Y, 31)) || (Op == BO_Rem && isInt(Y, 32)))) {
      Lane = V;
      LaneV.insert(V);
      return true;
    }
    if (isTid(X) &&
        ((Op == BO_Shr && isInt(Y, 5)) || (Op == BO_Div && isInt(Y, 32)))) {
      Warp = V;
      WarpV.insert(V);
      return true;
    }
    if (isBuiltin(X, "blockDim") && Op == BO_Div && isInt(Y, 32)) {
      NWarps = V;
      NWarpsV.insert(V);
      return true;
    }
    if (Block)
      return false;
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
    if (!Row && !Block)
      return false;
    auto PP = scaledPointer(V, [&](const Expr *E) { return isRow(E); });
    if (!PP || (!Cols.empty() && Cols != PP->second))
      return false;
    Cols = PP->second;
    bindPointer(V, Value::RowPtr, PP->first, PP->second);
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
    return N->K == Node::Load || N->K == Node::Row || N->K == Node::Dot ||
           hasLoad(N->A) || hasLoad(N->B);
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

//===----------------------------------------------------------------------===//
// Block row programs: one block per row.
//
//   row = blockIdx.x (or `if (row >= rows) return;` first)
//   for (c = threadIdx.x; c < cols; c += blockDim.x) acc += e;   (column
//                                                  loops, as above)
//   for (i = blockIdx.x * BS + tid; i < n; i += BS * gridDim.x)  (a grid-
//     acc += e(in[i]);                    stride loop: block b sums the
//                                         chunks b, b + G, ... of BS)
//   warp reductions (16 .. 1, __shfl_xor_sync or __shfl_down_sync, inline
//   or in a device function), `if (lane == 0) s[warp] = v;`, barriers,
//   `v = lane < nwarps ? s[lane] : pad;` and a second warp reduction in
//   warp 0, `s[tid] = acc;` and a shared-memory tree `for (s = BS/2; s >
//   32; s >>= 1) { if (tid < s) a[tid] += a[tid + s]; __syncthreads(); }`
//   finished by `a[tid] + a[tid + 32]` in warp 0, a loop over the warps'
//   slots, broadcasts through `s[0]`, device functions such as
//   blockReduceSum inlined; stores of the row's values by thread 0.
//
// Each per-thread value is followed abstractly: a thread's partial of the
// row's reduction (the column loop's (P, 1) accumulator holds the whole
// row's), each warp's reduction of it, the lanes of warp 0 holding the
// warps' results, the reduction in lane 0 of warp 0, a per-row value
// every thread holds.  Shared arrays are followed the same way, with the
// threads that wrote and read them since the last barrier: a read of
// unsynchronised data, a write that can overtake a read, a barrier or a
// shuffle under a condition, a reduction with the wrong operation or over
// the wrong threads is refused (PK5009).  The row's reduction is then the
// tensor_reduce over the free axis, as for one warp per row.
//===----------------------------------------------------------------------===//

bool WarpRowLifter::communicates(const FunctionDecl *Fn) {
  Fn = Fn ? Fn->getDefinition() : nullptr;
  if (!Fn || !Fn->hasBody() || Fn->hasAttr<CUDAGlobalAttr>())
    return false;
  auto It = Communicates.find(Fn);
  if (It != Communicates.end())
    return It->second;
  Communicates[Fn] = false; // recursion
  bool R = false;
  std::function<void(const clang::Stmt *)> Walk = [&](const clang::Stmt *S) {
    if (!S || R)
      return;
    if (auto *DS = dyn_cast<DeclStmt>(S))
      for (const Decl *D : DS->decls())
        if (D->hasAttr<CUDASharedAttr>())
          R = true;
    if (auto *C = dyn_cast<CallExpr>(S))
      if (auto *Callee = C->getDirectCallee()) {
        std::string NS = Callee->getNameAsString();
        llvm::StringRef N(NS);
        if (N.starts_with("__shfl") || N == "__syncthreads" ||
            communicates(Callee))
          R = true;
      }
    for (const clang::Stmt *Ch : S->children())
      Walk(Ch);
  };
  Walk(Fn->getBody());
  Communicates[Fn] = R;
  return R;
}

void WarpRowLifter::noteAssign(const VarDecl *V) {
  auto It = DeclDepth.find(V);
  unsigned D = It == DeclDepth.end() ? 0 : It->second;
  if (D < Depth && !AssignedOuter.empty())
    AssignedOuter.back().insert(V);
}

bool WarpRowLifter::barrier(Ctx C, SourceLocation Loc) {
  if (!C.all())
    return fail(Loc, "__syncthreads() under a condition: only some threads "
                     "reach the barrier");
  for (auto &[V, Sa] : Sh) {
    Sa.Pending = false;
    Sa.ReadAll = false;
    Sa.ReadW0 = -1;
  }
  return true;
}

std::string WarpRowLifter::combine(const std::string &Tile,
                                   const std::string &Fn,
                                   const std::string &With) {
  if (Fn == "nl.add" && (With == "0.0" || With == "0"))
    return Tile;
  std::string T = B.alloc("c", Mem::SBUF, DType::F32, {"128", "1"});
  Op O;
  O.Kind = OpKind::TensorScalar;
  O.Fn = Fn;
  O.Dst = Access{T, {{"0", "np_"}, {"0", "1"}}, {}};
  O.Srcs = {Operand::tile(Access{Tile, {{"0", "np_"}, {"0", "1"}}, {}}),
            Operand::scalar(With)};
  B.op(O);
  return T;
}

/// for (o = 16; o > 0; o >>= 1) v = op(v, __shfl_{xor,down}_sync(~0, v, o))
bool WarpRowLifter::matchWarpLoop(const ForStmt *Fo, const VarDecl *&V,
                                  std::string &Op, bool &Xor) {
  auto *DS = dyn_cast_or_null<DeclStmt>(Fo->getInit());
  auto *O = DS && DS->isSingleDecl() ? dyn_cast<VarDecl>(DS->getSingleDecl())
                                     : nullptr;
  if (!O || !O->getInit() || constInt(O->getInit()) != 16)
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
  const Expr *E;
  if (!accumulation(S, V, Op, E))
    return false;
  auto *Call = dyn_cast<CallExpr>(strip(E));
  auto *Fn = Call ? Call->getDirectCallee() : nullptr;
  if (!Fn || Call->getNumArgs() < 3 || varOf(Call->getArg(1)) != V ||
      varOf(Call->getArg(2)) != O)
    return false;
  std::string N = Fn->getNameAsString();
  if (N != "__shfl_xor_sync" && N != "__shfl_down_sync")
    return false;
  Xor = N == "__shfl_xor_sync";
  auto Mask = constInt(Call->getArg(0));
  if (!Mask || (uint64_t(*Mask) & 0xffffffffu) != 0xffffffffu)
    return fail(Call->getBeginLoc(), "warp reduction with a partial lane "
                                     "mask"),
           false;
  if (Call->getNumArgs() > 3 && !isa<CXXDefaultArgExpr>(Call->getArg(3)) &&
      constInt(Call->getArg(3)) != 32)
    return fail(Call->getBeginLoc(), "warp reduction over a sub-warp width"),
           false;
  return true;
}

/// A device function `T f(T v) { <warp loop on v>; return v; }`.
bool WarpRowLifter::isWarpReduceFn(const FunctionDecl *Fn, std::string &Op,
                                   bool &Xor) {
  Fn = Fn->getDefinition();
  auto *Body = Fn ? dyn_cast_or_null<CompoundStmt>(Fn->getBody()) : nullptr;
  if (!Body || Fn->getNumParams() != 1 || Body->size() != 2)
    return false;
  const clang::Stmt *S0 = Body->body_front();
  if (auto *A = dyn_cast<AttributedStmt>(S0))
    S0 = A->getSubStmt();
  auto *Fo = dyn_cast<ForStmt>(S0);
  auto *R = dyn_cast<ReturnStmt>(Body->body_back());
  const VarDecl *V = nullptr;
  if (!Fo || !R || !R->getRetValue() || !matchWarpLoop(Fo, V, Op, Xor))
    return false;
  return V == Fn->getParamDecl(0) && varOf(R->getRetValue()) == V;
}

std::optional<Value> WarpRowLifter::applyWarpReduce(Value V,
                                                    const std::string &Op,
                                                    bool Xor, Ctx C,
                                                    SourceLocation Loc) {
  UsesWarps = true;
  if (C.L0) {
    fail(Loc, "warp shuffle executed by one lane per warp");
    return std::nullopt;
  }
  if (V.K == Value::Partial && C.all()) {
    if (V.Op != Op) {
      fail(Loc, "warp reduction with another operation than the partial "
                "results it combines");
      return std::nullopt;
    }
    V.K = Value::WarpTot;
    V.AllLanes = Xor;
    ++WarpSyncs;
    return V;
  }
  if (V.K == Value::W0Part && C.W0) {
    if (V.Op != Op) {
      fail(Loc, "warp reduction with another operation than the per-warp "
                "results it combines");
      return std::nullopt;
    }
    Value R;
    R.K = Value::Total0;
    R.Tile = combine(V.Tile, Op, V.Pad);
    R.AllLanes = Xor;
    ++WarpSyncs;
    return R;
  }
  fail(Loc, "warp reduction of a value that is not the threads' partial "
            "results of the row (in every warp) or the warps' results (in "
            "warp 0)");
  return std::nullopt;
}

std::optional<Value> WarpRowLifter::inlineCall(const CallExpr *Ca,
                                               const FunctionDecl *Fn, Ctx C) {
  std::string Op;
  bool Xor = false;
  if (isWarpReduceFn(Fn, Op, Xor)) {
    auto A = evalValue(Ca->getArg(0), C);
    if (!A)
      return std::nullopt;
    return applyWarpReduce(*A, Op, Xor, C, Ca->getBeginLoc());
  }
  if (F)
    return std::nullopt;
  const FunctionDecl *Def = Fn->getDefinition();
  auto *Body = Def ? dyn_cast_or_null<CompoundStmt>(Def->getBody()) : nullptr;
  if (!Body || Body->size() == 0 || InlineDepth > 4 ||
      Def->getNumParams() != Ca->getNumArgs()) {
    fail(Ca->getBeginLoc(), "call of a device function that communicates "
                            "and is not inlined");
    return std::nullopt;
  }
  for (unsigned I = 0; I < Ca->getNumArgs(); ++I) {
    auto A = evalValue(Ca->getArg(I), C);
    if (!A)
      return std::nullopt;
    L.Env[Def->getParamDecl(I)] = *A;
    DeclDepth[Def->getParamDecl(I)] = Depth;
  }
  ++InlineDepth;
  std::optional<Value> R;
  size_t N = Body->size(), I = 0;
  for (const clang::Stmt *S : Body->body()) {
    if (++I < N) {
      if (!bstmt(S, C)) {
        --InlineDepth;
        return std::nullopt;
      }
      continue;
    }
    auto *Ret = dyn_cast<ReturnStmt>(S);
    if (!Ret || !Ret->getRetValue()) {
      fail(S->getBeginLoc(), "device function that does not end with the "
                             "return of its value");
    } else {
      R = evalValue(Ret->getRetValue(), C);
    }
  }
  --InlineDepth;
  return R;
}

std::optional<Value> WarpRowLifter::evalValue(const Expr *E, Ctx C) {
  const Expr *X = E->IgnoreParenImpCasts();
  if (auto *Ca = dyn_cast<CallExpr>(X))
    if (auto *Fn = Ca->getDirectCallee())
      if (communicates(Fn))
        return inlineCall(Ca, Fn, C);
  // lane < nwarps ? s[lane] : pad, in warp 0.
  if (auto *Co = dyn_cast<ConditionalOperator>(X)) {
    auto *Cond = dyn_cast<BinaryOperator>(strip(Co->getCond()));
    auto *A =
        dyn_cast<ArraySubscriptExpr>(Co->getTrueExpr()->IgnoreParenImpCasts());
    const VarDecl *Arr = A ? sharedVar(A->getBase()) : nullptr;
    auto Pad = L.scalarExpr(Co->getFalseExpr());
    if (!Cond || !Arr) {
      fail(Co->getBeginLoc(), "conditional expression: only `lane < nwarps "
                              "? shared[lane] : value` is lifted");
      return std::nullopt;
    }
    const Expr *Lo = Cond->getLHS(), *Hi = Cond->getRHS();
    bool Ok = Cond->getOpcode() == BO_LT;
    if (Cond->getOpcode() == BO_GT) {
      std::swap(Lo, Hi);
      Ok = true;
    }
    Ok = Ok && LaneV.count(varOf(Lo)) && NWarpsV.count(varOf(Hi)) &&
         LaneV.count(varOf(A->getIdx())) && Pad;
    ShArr &Sa = Sh[Arr];
    if (!Ok || !C.W0 || C.L0 || Sa.K != ShArr::PerWarp || Sa.Pending) {
      fail(Co->getBeginLoc(),
           "read of the warps' results that is not `lane < nwarps ? "
           "s[lane] : value` by the lanes of warp 0 after a barrier");
      return std::nullopt;
    }
    readShared(Sa, C);
    Value R;
    R.K = Value::W0Part;
    R.Op = Sa.Op;
    R.Tile = Sa.Tile;
    R.Pad = *Pad;
    return R;
  }
  // s[tid] + s[tid + 32] in warp 0: the last step of a shared tree.
  if (auto *Bo = dyn_cast<BinaryOperator>(X)) {
    auto *A1 =
        dyn_cast<ArraySubscriptExpr>(Bo->getLHS()->IgnoreParenImpCasts());
    auto *A2 =
        dyn_cast<ArraySubscriptExpr>(Bo->getRHS()->IgnoreParenImpCasts());
    const VarDecl *S1 = A1 ? sharedVar(A1->getBase()) : nullptr;
    const VarDecl *S2 = A2 ? sharedVar(A2->getBase()) : nullptr;
    if (S1 || S2) {
      auto *Off = A2 ? dyn_cast<BinaryOperator>(strip(A2->getIdx())) : nullptr;
      bool Ok = Bo->getOpcode() == BO_Add && S1 && S1 == S2 &&
                isTid(A1->getIdx()) && Off && Off->getOpcode() == BO_Add &&
                isTid(Off->getLHS()) && constInt(Off->getRHS()) == 32;
      ShArr &Sa = Sh[S1 ? S1 : S2];
      if (!Ok || !C.W0 || C.L0 || Sa.K != ShArr::PerThread || Sa.Pending ||
          Sa.M != 64 || Sa.Op != "nl.add") {
        fail(Bo->getBeginLoc(), "read of a shared tree that is not `s[tid] + "
                                "s[tid + 32]` by warp 0 when 64 partial sums "
                                "are left, after a barrier");
        return std::nullopt;
      }
      readShared(Sa, C);
      Value R;
      R.K = Value::W0Part;
      R.Op = "nl.add";
      R.Tile = Sa.Tile;
      R.Pad = "0.0";
      return R;
    }
  }
  if (auto *A = dyn_cast<ArraySubscriptExpr>(X))
    if (const VarDecl *Arr = sharedVar(A->getBase())) {
      ShArr &Sa = Sh[Arr];
      if (Sa.K != ShArr::Bcast || Sa.Pending || constInt(A->getIdx()) != 0) {
        fail(A->getBeginLoc(),
             llvm::formatv("read of '{0}' that is not slot 0 holding a value "
                           "for the whole row, after a barrier",
                           Arr->getName())
                 .str());
        return std::nullopt;
      }
      readShared(Sa, C);
      Value R;
      R.K = Value::Elem;
      R.N = Sa.N;
      return R;
    }
  if (auto *D = dyn_cast<DeclRefExpr>(X))
    if (auto *V = dyn_cast<VarDecl>(D->getDecl())) {
      auto It = L.Env.find(V);
      if (It != L.Env.end() &&
          (It->second.K == Value::Partial || It->second.K == Value::WarpTot ||
           It->second.K == Value::W0Part ||
           (It->second.K == Value::Total0 &&
            !(C.W0 && (C.L0 || It->second.AllLanes)))))
        return It->second;
    }
  // A per-row value: communicating calls inside it first.
  std::function<bool(const clang::Stmt *)> Pre = [&](const clang::Stmt *S) {
    if (!S)
      return true;
    if (auto *Ca = dyn_cast<CallExpr>(S))
      if (auto *Fn = Ca->getDirectCallee())
        if (communicates(Fn)) {
          auto R = inlineCall(Ca, Fn, C);
          if (!R)
            return false;
          if (R->K != Value::Elem)
            return fail(Ca->getBeginLoc(), "the result of this reduction is "
                                           "not the same in every thread "
                                           "where it is used");
          L.Precomputed[Ca] = R->N;
          return true;
        }
    for (const clang::Stmt *Ch : S->children())
      if (!Pre(Ch))
        return false;
    return true;
  };
  if (!Pre(X))
    return std::nullopt;
  // Lane 0 of warp 0 (every lane of warp 0 after a butterfly) holds the
  // row's reduction: a per-row value there.
  std::vector<std::pair<const VarDecl *, Value>> Saved;
  for (auto &[V, Val] : L.Env)
    if (Val.K == Value::Total0 && C.W0 && (C.L0 || Val.AllLanes)) {
      Saved.push_back({V, Val});
      auto R = std::make_shared<Node>();
      R->K = Node::Ref;
      R->Text = Val.Tile;
      Value U;
      U.K = Value::Elem;
      U.N = R;
      Val = U;
    }
  NodeP N = L.elem(E);
  for (auto &[V, Val] : Saved)
    L.Env[V] = Val;
  if (!N) {
    failElem(E->getExprLoc(), "per-row value not lifted");
    return std::nullopt;
  }
  if (N->K != Node::Scalar) {
    N = column(N, E->getExprLoc());
    if (!N)
      return std::nullopt;
  }
  Value R;
  R.K = Value::Elem;
  R.N = N;
  return R;
}

bool WarpRowLifter::sharedStore(const ArraySubscriptExpr *A, const Expr *RHS,
                                Ctx C) {
  const VarDecl *Arr = sharedVar(A->getBase());
  ShArr &Sa = Sh[Arr];
  if (Sa.Size < 0 || Sa.K == ShArr::ColArr || Sa.K == ShArr::Staged)
    return fail(A->getBeginLoc(),
                llvm::formatv("store to '{0}' outside a column loop: a shared "
                              "row (dynamic shared memory, one value per "
                              "column, or a staged row) is written only at "
                              "the column of a column loop",
                              Arr->getName())
                    .str());
  auto Val = evalValue(RHS, C);
  if (!Val)
    return false;
  // A write must not overtake a read of the same phase: every reader has
  // passed a barrier, or the readers are warp 0 and a warp-synchronising
  // shuffle came between their read and this write, which warp 0 makes.
  bool Overtakes =
      Sa.ReadAll || (Sa.ReadW0 >= 0 && !(C.W0 && WarpSyncs > Sa.ReadW0));
  if (Sa.Pending || Overtakes)
    return fail(A->getBeginLoc(),
                llvm::formatv("'{0}' is written again before a barrier "
                              "separates the write from earlier reads or "
                              "writes of it",
                              Arr->getName())
                    .str());
  const Expr *I = A->getIdx();
  ShArr N;
  N.Size = Sa.Size;
  if (WarpV.count(varOf(I)) && C.L0 && !C.W0 && Val->K == Value::WarpTot) {
    N.K = ShArr::PerWarp;
    N.Op = Val->Op;
    N.Tile = Val->Tile;
    if (Sa.Size < 32)
      PerWarpSizes.insert(Sa.Size);
  } else if (constInt(I) == 0 && Val->K == Value::Elem) {
    N.K = ShArr::Bcast;
    N.N = Val->N;
  } else if (isTid(I) && C.all() && Val->K == Value::Partial) {
    if (!BlockSize || *BlockSize > Sa.Size)
      return fail(A->getBeginLoc(),
                  llvm::formatv("'{0}[tid]': the block size is not a known "
                                "constant within the array's {1} elements",
                                Arr->getName(), Sa.Size)
                      .str());
    N.K = ShArr::PerThread;
    N.Op = Val->Op;
    N.Tile = Val->Tile;
    N.M = *BlockSize;
  } else {
    return fail(A->getBeginLoc(),
                llvm::formatv("store to '{0}' that is not a warp's result "
                              "by lane 0 at [warp], a per-row value at [0] "
                              "or the threads' partial results at [tid]",
                              Arr->getName())
                    .str());
  }
  N.Pending = true;
  Sa = N;
  return true;
}

bool WarpRowLifter::globalStore(const ArraySubscriptExpr *A, const Expr *RHS,
                                Ctx C) {
  auto *D = dyn_cast<DeclRefExpr>(strip(A->getBase()));
  auto *P = D ? dyn_cast<ParmVarDecl>(D->getDecl()) : nullptr;
  if (!P || !P->getType()->isPointerType() || !isRow(A->getIdx()))
    return fail(A->getBeginLoc(), "store outside a column loop that is not "
                                  "p[row] (one value per row)");
  auto Ty = dtypeOf(P->getType()->getPointeeType());
  if (!Ty)
    return fail(A->getBeginLoc(), "element type without an NKI dtype");
  auto Val = evalValue(RHS, C);
  if (!Val)
    return false;
  if (Val->K != Value::Elem)
    return fail(A->getBeginLoc(), "the value stored for the row is not the "
                                  "row's value in the threads that store it");
  NodeP N = L.castTo(Val->N, P->getType()->getPointeeType(), A->getExprLoc());
  if (!N)
    return failElem(A->getExprLoc(), "stored value not lifted");
  open();
  Operand V;
  if (N->K == Node::Scalar) {
    std::string T = B.alloc("c", Mem::SBUF, *Ty, {"128", "1"});
    Op M;
    M.Kind = OpKind::Memset;
    M.Dst = Access{T, {{"0", "np_"}, {"0", "1"}}, {}};
    M.Srcs = {Operand::scalar(N->Text)};
    B.op(M);
    V = Operand::tile(M.Dst);
  } else {
    N = column(N, A->getExprLoc());
    if (!N)
      return false;
    V = Operand::tile(Access{N->Text, {{"0", "np_"}, {"0", "1"}}, {}});
  }
  TensorUse &U = L.use(P, A->getExprLoc());
  if (U.Read || U.Written)
    return fail(A->getBeginLoc(), "a tensor read and written, or written "
                                  "twice, is not lifted");
  U.Written = true;
  U.Layout = 'c';
  Op O;
  O.Kind = OpKind::DmaCopy;
  O.Dst = Access{OutName.count(P) ? OutName[P] : pyName(P->getName()),
                 {{"p0", "p1"}, {"0", "1"}},
                 {}};
  O.Srcs = {V};
  B.op(O);
  Pending.push_back({P, N});
  return true;
}

bool WarpRowLifter::bassign(const BinaryOperator *Bo, Ctx C) {
  const Expr *LHS = Bo->getLHS()->IgnoreParens();
  if (auto *A = dyn_cast<ArraySubscriptExpr>(LHS)) {
    if (Bo->getOpcode() != BO_Assign)
      return fail(Bo->getOperatorLoc(), "compound assignment to memory "
                                        "outside a loop the lifter "
                                        "recognises");
    if (sharedVar(A->getBase()))
      return sharedStore(A, Bo->getRHS(), C);
    return globalStore(A, Bo->getRHS(), C);
  }
  const VarDecl *V = varOf(LHS);
  if (V && Bo->getOpcode() == BO_Assign && !V->getType()->isIntegerType() &&
      !V->getType()->isPointerType()) {
    auto Val = evalValue(Bo->getRHS(), C);
    if (!Val)
      return false;
    L.Env[V] = *Val;
    noteAssign(V);
    return true;
  }
  return fail(Bo->getOperatorLoc(), "assignment that is not a store or a "
                                    "new value of a float local");
}

bool WarpRowLifter::bif(const IfStmt *I, Ctx C) {
  if (I->getElse() || I->getInit() || I->getConditionVariable())
    return fail(I->getIfLoc(), "if/else: only the thread conditions lane == "
                               "0, warp == 0, tid < 32 and tid == 0 are "
                               "lifted");
  const clang::Stmt *Then = I->getThen();
  if (auto *CS = dyn_cast<CompoundStmt>(Then))
    if (CS->size() == 1)
      Then = CS->body_front();
  if (isa<ReturnStmt>(Then)) {
    auto *Cond = dyn_cast<BinaryOperator>(strip(I->getCond()));
    if (Cond && Cond->getOpcode() == BO_GE && isRow(Cond->getLHS()) &&
        !Opened && !RowsBound && C.all() && Depth == 0 && InlineDepth == 0)
      if (auto R = L.scalarExpr(Cond->getRHS())) {
        Rows = *R;
        RowsBound = true;
        return true;
      }
    return fail(I->getIfLoc(), "early return that is not `if (row >= rows) "
                               "return;` first");
  }
  Ctx N = C;
  std::function<bool(const Expr *)> Parse = [&](const Expr *E) {
    auto *Bo = dyn_cast<BinaryOperator>(strip(E));
    if (!Bo)
      return false;
    if (Bo->getOpcode() == BO_LAnd)
      return Parse(Bo->getLHS()) && Parse(Bo->getRHS());
    const Expr *X = Bo->getLHS(), *Y = Bo->getRHS();
    if (Bo->getOpcode() == BO_EQ) {
      if (isInt(X, 0))
        std::swap(X, Y);
      if (!isInt(Y, 0))
        return false;
      if (LaneV.count(varOf(X)))
        N.L0 = true;
      else if (WarpV.count(varOf(X)))
        N.W0 = true;
      else if (isTid(X))
        N.W0 = N.L0 = true;
      else
        return false;
      return true;
    }
    if (Bo->getOpcode() == BO_LT && isTid(X) && constInt(Y) == 32) {
      N.W0 = true;
      return true;
    }
    return false;
  };
  if (!Parse(I->getCond()))
    return fail(I->getIfLoc(), "condition that is not lane == 0, warp == 0, "
                               "threadIdx.x < 32 or threadIdx.x == 0: "
                               "per-thread branches are not lifted");
  ++Depth;
  AssignedOuter.emplace_back();
  bool Ok = bstmt(I->getThen(), N);
  std::set<const VarDecl *> Out = AssignedOuter.back();
  AssignedOuter.pop_back();
  --Depth;
  // A variable assigned by some threads only holds different values in
  // different threads afterwards: not followed.
  for (const VarDecl *V : Out) {
    L.Env[V] = Value();
    noteAssign(V);
  }
  return Ok;
}

bool WarpRowLifter::bdecl(const DeclStmt *DS, Ctx C) {
  for (const Decl *D : DS->decls()) {
    auto *V = dyn_cast<VarDecl>(D);
    if (!V)
      continue;
    if (V->hasAttr<CUDASharedAttr>()) {
      auto *AT = FD->getASTContext().getAsConstantArrayType(V->getType());
      if (V->getType()->isIncompleteArrayType()) {
        // Dynamic shared memory (extern __shared__, sized by the launch):
        // followed as a row of values, one per column (s[c]).
        if (!V->getType()->getArrayElementTypeNoTypeQual()->isFloatingType() ||
            !dtypeOf(
                QualType(V->getType()->getArrayElementTypeNoTypeQual(), 0)))
          return fail(V->getLocation(),
                      llvm::formatv("dynamic shared memory '{0}' of a "
                                    "non-float element type",
                                    V->getName())
                          .str());
        if (!Sh.count(V))
          Sh[V].Size = -1;
        continue;
      }
      if (!AT ||
          !V->getType()->getArrayElementTypeNoTypeQual()->isFloatingType())
        return fail(V->getLocation(),
                    llvm::formatv("__shared__ '{0}': only fixed-size "
                                  "one-dimensional float arrays are followed",
                                  V->getName())
                        .str());
      if (!Sh.count(V))
        Sh[V].Size = AT->getSize().getSExtValue();
      continue;
    }
    if (!V->getInit())
      return fail(V->getLocation(), "declaration without an initial value");
    if (V->getType()->isIntegerType()) {
      if (C.all() && prologue(V))
        continue;
      return fail(V->getLocation(), "integer local that is not the thread, "
                                    "lane, warp, warp count or row index");
    }
    if (V->getType()->isPointerType()) {
      if (!rowPointer(V))
        return fail(V->getLocation(), "pointer local that is not a row "
                                      "`p + row * pitch`");
      continue;
    }
    auto Val = evalValue(V->getInit(), C);
    if (!Val)
      return false;
    L.Env[V] = *Val;
    DeclDepth[V] = Depth;
  }
  return true;
}

bool WarpRowLifter::bstmt(const clang::Stmt *S, Ctx C) {
  if (!S || isa<NullStmt>(S))
    return true;
  if (auto *A = dyn_cast<AttributedStmt>(S))
    return bstmt(A->getSubStmt(), C);
  if (auto *CS = dyn_cast<CompoundStmt>(S)) {
    for (const clang::Stmt *X : CS->body())
      if (!bstmt(X, C))
        return false;
    return true;
  }
  if (auto *DS = dyn_cast<DeclStmt>(S))
    return bdecl(DS, C);
  if (auto *EW = dyn_cast<ExprWithCleanups>(S))
    S = EW->getSubExpr();
  if (auto *Ca = dyn_cast<CallExpr>(S)) {
    auto *Fn = Ca->getDirectCallee();
    if (Fn && Fn->getNameAsString() == "__syncthreads")
      return barrier(C, Ca->getBeginLoc());
    if (Fn && communicates(Fn))
      return inlineCall(Ca, Fn, C).has_value();
    return fail(Ca->getBeginLoc(), "call statement not lifted");
  }
  if (auto *Bo = dyn_cast<BinaryOperator>(S))
    if (Bo->isAssignmentOp())
      return bassign(Bo, C);
  if (auto *I = dyn_cast<IfStmt>(S))
    return bif(I, C);
  if (auto *Fo = dyn_cast<ForStmt>(S))
    return bfor(Fo, C);
  return fail(S->getBeginLoc(),
              llvm::formatv("statement ({0}) of a block row program not "
                            "lifted",
                            S->getStmtClassName())
                  .str());
}

bool WarpRowLifter::bfor(const ForStmt *Fo, Ctx C) {
  if (C.all() && Depth == 0 && columnLoop(Fo))
    return true;
  if (F)
    return false;
  const VarDecl *V = nullptr;
  std::string Op;
  bool Xor = false;
  if (matchWarpLoop(Fo, V, Op, Xor)) {
    auto It = L.Env.find(V);
    if (It == L.Env.end())
      return fail(Fo->getForLoc(), "warp reduction of an unknown value");
    auto R = applyWarpReduce(It->second, Op, Xor, C, Fo->getForLoc());
    if (!R)
      return false;
    L.Env[V] = *R;
    noteAssign(V);
    return true;
  }
  if (F)
    return false;
  if (gridLoop(Fo, C) || F)
    return !F;
  if (treeLoop(Fo, C) || F)
    return !F;
  if (warpsLoop(Fo, C) || F)
    return !F;
  return fail(Fo->getForLoc(), "loop that is not a column loop, a grid-"
                               "stride loop, a warp reduction, a shared "
                               "tree or a loop over the warps' results");
}

/// for (i = blockIdx.x * BS + tid; i < n; i += BS * gridDim.x) acc op= e
bool WarpRowLifter::gridLoop(const ForStmt *Fo, Ctx C) {
  auto *DS = dyn_cast_or_null<DeclStmt>(Fo->getInit());
  auto *I = DS && DS->isSingleDecl() ? dyn_cast<VarDecl>(DS->getSingleDecl())
                                     : nullptr;
  if (!I || !I->getInit())
    return false;
  auto *Add = dyn_cast<BinaryOperator>(strip(I->getInit()));
  if (!Add || Add->getOpcode() != BO_Add)
    return false;
  std::optional<int64_t> K1;
  for (int Side = 0; Side < 2 && !K1; ++Side) {
    const Expr *M = Side ? Add->getRHS() : Add->getLHS();
    const Expr *T = Side ? Add->getLHS() : Add->getRHS();
    auto *Mul = dyn_cast<BinaryOperator>(strip(M));
    if (!Mul || Mul->getOpcode() != BO_Mul || !isTid(T))
      continue;
    if (isBuiltin(Mul->getLHS(), "blockIdx"))
      K1 = constInt(Mul->getRHS());
    else if (isBuiltin(Mul->getRHS(), "blockIdx"))
      K1 = constInt(Mul->getLHS());
  }
  if (!K1)
    return false;
  Recognised = true;
  auto *Cond = dyn_cast_or_null<BinaryOperator>(Fo->getCond());
  auto *Inc = dyn_cast_or_null<CompoundAssignOperator>(Fo->getInc());
  std::optional<std::string> Bound =
      Cond && Cond->getOpcode() == BO_LT && varOf(Cond->getLHS()) == I
          ? L.scalarExpr(Cond->getRHS())
          : std::nullopt;
  auto *Step = Inc ? dyn_cast<BinaryOperator>(strip(Inc->getRHS())) : nullptr;
  bool StepOk = Step && Step->getOpcode() == BO_Mul &&
                ((isBuiltin(Step->getLHS(), "gridDim") &&
                  constInt(Step->getRHS()) == *K1) ||
                 (isBuiltin(Step->getRHS(), "gridDim") &&
                  constInt(Step->getLHS()) == *K1));
  if (!Bound || !Inc || Inc->getOpcode() != BO_AddAssign ||
      varOf(Inc->getLHS()) != I || !StepOk)
    return fail(Fo->getForLoc(),
                "loop from blockIdx.x * BS + tid that is not `i < n; i += "
                "BS * gridDim.x` with the same constant BS");
  if (!C.all() || Depth != 0 || RowsBound || *K1 <= 0 ||
      (BlockSize && *BlockSize != *K1) ||
      (!GridBound.empty() && GridBound != *Bound))
    return fail(Fo->getForLoc(), "grid-stride loop under a condition, after "
                                 "a row bound, or with another block size or "
                                 "bound than an earlier one");
  BlockSize = *K1;
  GridBound = *Bound;
  Value GV;
  GV.K = Value::GridCol;
  L.Env[I] = GV;
  std::vector<const clang::Stmt *> Body;
  if (auto *CS = dyn_cast<CompoundStmt>(Fo->getBody()))
    Body.assign(CS->body_begin(), CS->body_end());
  else
    Body.push_back(Fo->getBody());
  struct Acc {
    const VarDecl *V;
    std::string Op, Init;
    NodeP E;
  };
  std::vector<Acc> Accs;
  for (const clang::Stmt *S : Body) {
    if (auto *D = dyn_cast<DeclStmt>(S)) {
      if (!L.declare(D))
        return failElem(S->getBeginLoc(), "local of a grid-stride loop");
      continue;
    }
    const VarDecl *AV;
    std::string Op;
    const Expr *E;
    if (!accumulation(S, AV, Op, E))
      return fail(S->getBeginLoc(), "statement of a grid-stride loop that "
                                    "is not an accumulation or a local");
    auto It = L.Env.find(AV);
    if (It == L.Env.end() || It->second.K != Value::Elem ||
        It->second.N->K != Node::Scalar ||
        (Op == "nl.add" && It->second.N->Text != "0.0" &&
         It->second.N->Text != "0"))
      return fail(S->getBeginLoc(), "accumulator that does not start from "
                                    "0 (a sum) or a constant before the loop");
    NodeP N = L.elem(E);
    if (!N)
      return failElem(S->getBeginLoc(), "accumulated value not lifted");
    Accs.push_back({AV, Op, It->second.N->Text, N});
  }
  if (Accs.empty())
    return fail(Fo->getForLoc(), "grid-stride loop that accumulates nothing");
  open();
  std::string K = std::to_string(*K1);
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
  auto Reduce = [&](TileLowering &TL) {
    for (size_t J = 0; J < Accs.size(); ++J) {
      Operand V = TL.lower(Accs[J].E);
      if (!V.IsTile || TileLowering::isCol(V))
        return fail(Fo->getForLoc(), "accumulated value that does not "
                                     "depend on the element");
      std::string R = B.alloc("red", Mem::SBUF, DType::F32, {"128", "1"});
      Access RA{R, {{TL.PLo, TL.PHi}, {"0", "1"}}, {}};
      Op Rd;
      Rd.Kind = OpKind::Reduce;
      Rd.Fn = Accs[J].Op;
      Rd.Dst = RA;
      Rd.Srcs = {V};
      B.op(Rd);
      Access AA{AccTiles[J], {{TL.PLo, TL.PHi}, {"0", "1"}}, {}};
      Op Cb;
      Cb.Kind = OpKind::TensorTensor;
      Cb.Fn = Accs[J].Op;
      Cb.Dst = AA;
      Cb.Srcs = {Operand::tile(AA), Operand::tile(RA)};
      B.op(Cb);
    }
    return true;
  };
  // Whole chunks: round k0 deals chunks k0 .. k0 + grid_x - 1 to the
  // blocks; those of this tile's blocks are rows of one tile (the loop
  // over c0 runs at most once: it is empty when no chunk is whole).
  B.assign("nfull_", "(" + *Bound + ") // " + K);
  B.open("k0", "0", "nfull_", "grid_x");
  B.open("c0", "k0 + p0", "min(nfull_, k0 + p1)", "128");
  B.assign("c1", "min(nfull_, k0 + p1)");
  B.assign("nc_", "c1 - c0");
  {
    TileLowering TL(B, HbmName, true);
    TL.PHi = "nc_";
    TL.FHi = K;
    TL.FSize = K;
    TL.GridSrc = Access{"", {{"c0 * " + K, "c1 * " + K}}, {"nc_", K}};
    if (!Reduce(TL))
      return false;
  }
  B.close();
  B.close();
  // The last, partial chunk (if any) belongs to block nfull_ % grid_x: one
  // partition, when that block is in this tile.
  B.assign("qq_", "nfull_ % grid_x - p0");
  B.open("lo", "nfull_ * " + K, *Bound, K);
  B.open("q0", "max(0, qq_)", "min(np_, qq_ + 1)", "1");
  B.assign("nt_", "(" + *Bound + ") - lo");
  {
    TileLowering TL(B, HbmName, true);
    TL.PLo = "q0";
    TL.PHi = "q0 + 1";
    TL.FHi = "nt_";
    TL.FSize = K;
    TL.GridSrc = Access{"", {{"lo", *Bound}}, {"1", "nt_"}};
    if (!Reduce(TL))
      return false;
  }
  B.close();
  B.close();
  for (size_t J = 0; J < Accs.size(); ++J) {
    Value PV;
    PV.K = Value::Partial;
    PV.Op = Accs[J].Op;
    PV.Tile = AccTiles[J];
    L.Env[Accs[J].V] = PV;
  }
  L.Env.erase(I);
  return true;
}

/// for (s = S0; s > E; s >>= 1) { if (tid < s) a[tid] += a[tid + s];
///                                __syncthreads(); }
bool WarpRowLifter::treeLoop(const ForStmt *Fo, Ctx C) {
  auto *DS = dyn_cast_or_null<DeclStmt>(Fo->getInit());
  auto *Sv = DS && DS->isSingleDecl() ? dyn_cast<VarDecl>(DS->getSingleDecl())
                                      : nullptr;
  auto S0 = Sv && Sv->getInit() ? constInt(Sv->getInit()) : std::nullopt;
  auto *Cond = dyn_cast_or_null<BinaryOperator>(Fo->getCond());
  auto End = Cond ? constInt(Cond->getRHS()) : std::nullopt;
  if (!S0 || !End || varOf(Cond->getLHS()) != Sv ||
      (Cond->getOpcode() != BO_GT && Cond->getOpcode() != BO_GE))
    return false;
  auto *Inc = dyn_cast_or_null<CompoundAssignOperator>(Fo->getInc());
  auto *CS = dyn_cast<CompoundStmt>(Fo->getBody());
  auto *If =
      CS && CS->size() == 2 ? dyn_cast<IfStmt>(CS->body_front()) : nullptr;
  auto *Sync =
      CS && CS->size() == 2 ? dyn_cast<CallExpr>(CS->body_back()) : nullptr;
  auto *IC = If ? dyn_cast<BinaryOperator>(strip(If->getCond())) : nullptr;
  const clang::Stmt *Then = If ? If->getThen() : nullptr;
  if (auto *TC = dyn_cast_or_null<CompoundStmt>(Then))
    Then = TC->size() == 1 ? TC->body_front() : nullptr;
  auto *Upd = dyn_cast_or_null<CompoundAssignOperator>(Then);
  auto *Dst = Upd ? dyn_cast<ArraySubscriptExpr>(Upd->getLHS()->IgnoreParens())
                  : nullptr;
  auto *Src =
      Upd ? dyn_cast<ArraySubscriptExpr>(Upd->getRHS()->IgnoreParenImpCasts())
          : nullptr;
  auto *Off = Src ? dyn_cast<BinaryOperator>(strip(Src->getIdx())) : nullptr;
  const VarDecl *Arr = Dst ? sharedVar(Dst->getBase()) : nullptr;
  bool Ok = Inc && varOf(Inc->getLHS()) == Sv &&
            ((Inc->getOpcode() == BO_ShrAssign && isInt(Inc->getRHS(), 1)) ||
             (Inc->getOpcode() == BO_DivAssign && isInt(Inc->getRHS(), 2))) &&
            If && !If->getElse() && IC && IC->getOpcode() == BO_LT &&
            isTid(IC->getLHS()) && varOf(IC->getRHS()) == Sv && Sync &&
            Sync->getDirectCallee() &&
            Sync->getDirectCallee()->getNameAsString() == "__syncthreads" &&
            Upd && Upd->getOpcode() == BO_AddAssign && Arr &&
            isTid(Dst->getIdx()) && sharedVar(Src->getBase()) == Arr && Off &&
            Off->getOpcode() == BO_Add && isTid(Off->getLHS()) &&
            varOf(Off->getRHS()) == Sv;
  if (!Ok)
    return fail(Fo->getForLoc(),
                "loop over a constant that is not a shared tree `if (tid < "
                "s) a[tid] += a[tid + s]; __syncthreads();` halving s");
  ShArr &Sa = Sh[Arr];
  if (!C.all() || Sa.K != ShArr::PerThread || Sa.Pending || Sa.Op != "nl.add")
    return fail(Fo->getForLoc(), "shared tree over an array that does not "
                                 "hold the threads' partial sums after a "
                                 "barrier");
  for (int64_t S = *S0; Cond->getOpcode() == BO_GT ? S > *End : S >= *End;
       S >>= 1) {
    if (S <= 0 || Sa.M != 2 * S)
      return fail(Fo->getForLoc(),
                  llvm::formatv("shared tree step s = {0} on {1} partial "
                                "sums: each step must fold the upper half",
                                S, Sa.M)
                      .str());
    Sa.M = S;
  }
  return barrier(C, Sync->getBeginLoc());
}

/// for (w = 0; w < nwarps; ++w) acc = op(acc, s[w])
bool WarpRowLifter::warpsLoop(const ForStmt *Fo, Ctx C) {
  auto *DS = dyn_cast_or_null<DeclStmt>(Fo->getInit());
  auto *W = DS && DS->isSingleDecl() ? dyn_cast<VarDecl>(DS->getSingleDecl())
                                     : nullptr;
  auto *Cond = dyn_cast_or_null<BinaryOperator>(Fo->getCond());
  if (!W || !W->getInit() || constInt(W->getInit()) != 0 || !Cond ||
      Cond->getOpcode() != BO_LT || varOf(Cond->getLHS()) != W ||
      !NWarpsV.count(varOf(Cond->getRHS())))
    return false;
  auto *Inc = dyn_cast_or_null<UnaryOperator>(Fo->getInc());
  const clang::Stmt *S = Fo->getBody();
  if (auto *CS = dyn_cast<CompoundStmt>(S))
    S = CS->size() == 1 ? CS->body_front() : nullptr;
  const VarDecl *AV = nullptr;
  std::string Op;
  const Expr *E = nullptr;
  bool Ok = Inc && Inc->isIncrementOp() && varOf(Inc->getSubExpr()) == W && S &&
            accumulation(S, AV, Op, E);
  auto *A =
      Ok ? dyn_cast<ArraySubscriptExpr>(E->IgnoreParenImpCasts()) : nullptr;
  const VarDecl *Arr = A ? sharedVar(A->getBase()) : nullptr;
  auto It = AV ? L.Env.find(AV) : L.Env.end();
  if (!Arr || varOf(A->getIdx()) != W || It == L.Env.end() ||
      It->second.K != Value::Elem || It->second.N->K != Node::Scalar)
    return fail(Fo->getForLoc(), "loop over the warps that is not `acc = "
                                 "op(acc, s[w])` from a constant");
  ShArr &Sa = Sh[Arr];
  if (Sa.K != ShArr::PerWarp || Sa.Pending || Sa.Op != Op)
    return fail(Fo->getForLoc(), "loop over the warps' results of another "
                                 "operation, or before a barrier");
  readShared(Sa, C);
  auto R = std::make_shared<Node>();
  R->K = Node::Ref;
  R->Text = combine(Sa.Tile, Op, It->second.N->Text);
  Value U;
  U.K = Value::Elem;
  U.N = R;
  L.Env[AV] = U;
  noteAssign(AV);
  return true;
}

NodeP WarpRowLifter::sharedRead(const ArraySubscriptExpr *A) {
  const VarDecl *Arr = sharedVar(A->getBase());
  RuleId R = Block ? RuleId::PK5009 : RuleId::PK5004;
  if (!CurCol || varOf(A->getIdx()) != CurCol) {
    L.fail(R, A->getBeginLoc(),
           llvm::formatv("read of shared '{0}' that is not '{0}[c]' at the "
                         "column c of a column loop",
                         Arr->getName())
               .str());
    return nullptr;
  }
  auto It = LoopSh.find(Arr);
  if (It != LoopSh.end())
    return It->second;
  ShArr &Sa = Sh[Arr];
  if (Sa.K != ShArr::ColArr) {
    L.fail(R, A->getBeginLoc(),
           llvm::formatv("read of '{0}[c]' before a column loop wrote the "
                         "row's columns to it",
                         Arr->getName())
               .str());
    return nullptr;
  }
  auto N = std::make_shared<Node>();
  N->K = Node::Row;
  N->Ty =
      *dtypeOf(QualType(Arr->getType()->getArrayElementTypeNoTypeQual(), 0));
  N->Text = Sa.Tile;
  return N;
}

/// for (d = threadIdx.x; d < D; d += blockDim.x) s[d] = p[row * D + d];
/// The block's threads stage the row `row` of p ([rows, D]) in s.  It is
/// used only as the stationary operand of a dot product, so it is loaded
/// and transposed once per tile of rows: [D, np_] in SBUF.
bool WarpRowLifter::stageLoop(const ForStmt *Fo, const VarDecl *C,
                              const std::string &Bound, const clang::Stmt *S) {
  auto *St = cast<BinaryOperator>(S);
  auto *SA = cast<ArraySubscriptExpr>(St->getLHS()->IgnoreParenImpCasts());
  const VarDecl *Arr = sharedVar(SA->getBase());
  auto *RA = dyn_cast<ArraySubscriptExpr>(St->getRHS()->IgnoreParenImpCasts());
  auto *D = RA ? dyn_cast<DeclRefExpr>(strip(RA->getBase())) : nullptr;
  auto *P = D ? dyn_cast<ParmVarDecl>(D->getDecl()) : nullptr;
  auto Pitch = RA ? rowIndex(RA->getIdx(), C) : std::nullopt;
  if (varOf(SA->getIdx()) != C || !P || !P->getType()->isPointerType() ||
      !Pitch || *Pitch != Bound)
    return fail(St->getBeginLoc(),
                llvm::formatv("staging of '{0}' that is not `{0}[d] = "
                              "p[row * D + d]` for d < D",
                              Arr->getName())
                    .str());
  Recognised = true;
  ShArr &Sa = Sh[Arr];
  if (Sa.Pending || Sa.ReadAll || Sa.ReadW0 >= 0)
    return fail(SA->getBeginLoc(),
                llvm::formatv("'{0}' is written again before a barrier "
                              "separates the write from earlier reads or "
                              "writes of it",
                              Arr->getName())
                    .str());
  auto Ty = dtypeOf(P->getType()->getPointeeType());
  if (Ty != DType::F32 ||
      dtypeOf(QualType(Arr->getType()->getArrayElementTypeNoTypeQual(), 0)) !=
          DType::F32)
    return fail(St->getBeginLoc(), "a staged row of another type than "
                                   "float: matmul operands are lifted in "
                                   "float32 only");
  if (!L.readAs(P, 's', RuleId::PK5009, RA->getBeginLoc()))
    return failElem(RA->getBeginLoc(), "staged row not lifted");
  Inner[P] = Bound;
  Checks.push_back(
      {Bound + " <= " + std::to_string(std::min<int64_t>(128, Sa.Size)),
       "the staged row fits '" + Arr->getName().str() +
           "' and the 128 partitions of a matmul"});
  open();
  std::string Qt = loadTransposed(
      B,
      Access{HbmName.at(P->getName().str()), {{"p0", "p1"}, {"0", Bound}}, {}},
      "np_", Bound, DType::F32, "q");
  ShArr N;
  N.K = ShArr::Staged;
  N.Size = Sa.Size;
  N.Tile = Qt;
  N.Depth = Bound;
  N.Src = P;
  N.Pending = true;
  Sa = N;
  return true;
}

/// for (d = 0; d < D; ++d) acc += s[d] * k[d]  (in a column loop; s a
/// staged row of length D, k = p + c * D the row c of p [cols, D], acc a
/// local of the loop starting from 0): acc = sum_d row[d] * p[c, d], the
/// nc_matmul of the staged rows with the matrix.
bool WarpRowLifter::dotLoop(const ForStmt *Fo) {
  auto *DS = dyn_cast_or_null<DeclStmt>(Fo->getInit());
  auto *D = DS && DS->isSingleDecl() ? dyn_cast<VarDecl>(DS->getSingleDecl())
                                     : nullptr;
  auto *Cond = dyn_cast_or_null<BinaryOperator>(Fo->getCond());
  if (!D || !D->getInit() || constInt(D->getInit()) != 0 || !Cond ||
      Cond->getOpcode() != BO_LT || varOf(Cond->getLHS()) != D)
    return false;
  auto Bound = L.scalarExpr(Cond->getRHS());
  const Expr *Inc = Fo->getInc() ? strip(Fo->getInc()) : nullptr;
  bool IncOk = false;
  if (auto *U = dyn_cast_or_null<UnaryOperator>(Inc))
    IncOk = U->isIncrementOp() && varOf(U->getSubExpr()) == D;
  else if (auto *CA = dyn_cast_or_null<CompoundAssignOperator>(Inc))
    IncOk = CA->getOpcode() == BO_AddAssign && varOf(CA->getLHS()) == D &&
            isInt(CA->getRHS(), 1);
  const clang::Stmt *S = Fo->getBody();
  if (auto *CS = dyn_cast<CompoundStmt>(S))
    S = CS->size() == 1 ? CS->body_front() : nullptr;
  auto *Bo = dyn_cast_or_null<BinaryOperator>(S);
  if (!Bound || !IncOk || !Bo)
    return false;
  const VarDecl *Acc = varOf(Bo->getLHS());
  const Expr *Prod = nullptr;
  if (Bo->getOpcode() == BO_AddAssign)
    Prod = Bo->getRHS();
  else if (auto *Add = dyn_cast<BinaryOperator>(strip(Bo->getRHS()));
           Bo->getOpcode() == BO_Assign && Add && Add->getOpcode() == BO_Add) {
    if (varOf(Add->getLHS()) == Acc)
      Prod = Add->getRHS();
    else if (varOf(Add->getRHS()) == Acc)
      Prod = Add->getLHS();
  }
  auto *Mul = Prod ? dyn_cast<BinaryOperator>(strip(Prod)) : nullptr;
  if (!Acc || !LoopLocals.count(Acc) || !Mul || Mul->getOpcode() != BO_Mul)
    return false;
  auto It = L.Env.find(Acc);
  if (It == L.Env.end() || It->second.K != Value::Elem ||
      It->second.N->K != Node::Scalar ||
      (It->second.N->Text != "0.0" && It->second.N->Text != "0"))
    return fail(Bo->getBeginLoc(), "dot product into a local that does not "
                                   "start from 0");
  const ShArr *Row = nullptr;
  const Value *Mat = nullptr;
  for (const Expr *X : {Mul->getLHS(), Mul->getRHS()}) {
    auto *A = dyn_cast<ArraySubscriptExpr>(X->IgnoreParenImpCasts());
    if (!A || varOf(A->getIdx()) != D)
      return false;
    if (const VarDecl *Arr = sharedVar(A->getBase())) {
      auto SIt = Sh.find(Arr);
      if (SIt != Sh.end() && SIt->second.K == ShArr::Staged)
        Row = &SIt->second;
      continue;
    }
    auto PIt = L.Env.find(varOf(A->getBase()));
    if (PIt != L.Env.end() && PIt->second.K == Value::ColPtr)
      Mat = &PIt->second;
  }
  if (!Row || !Mat)
    return false;
  Recognised = true;
  if (Row->Pending)
    return fail(Fo->getForLoc(), "the staged row is read before a barrier "
                                 "publishes it");
  if (Row->Depth != *Bound || Mat->Pitch != *Bound)
    return fail(Fo->getForLoc(),
                llvm::formatv("dot product over {0} elements of a staged row "
                              "of {1} and matrix rows of pitch {2}: the "
                              "lengths must be the same",
                              *Bound, Row->Depth, Mat->Pitch)
                    .str());
  const ParmVarDecl *P = Mat->Ptr;
  if (dtypeOf(P->getType()->getPointeeType()) != DType::F32)
    return fail(Fo->getForLoc(), "a matrix of another type than float: "
                                 "matmul operands are lifted in float32 "
                                 "only");
  if (!L.readAs(P, 'k', RuleId::PK5009, Fo->getForLoc()))
    return failElem(Fo->getForLoc(), "dot product not lifted");
  Inner[P] = *Bound;
  readShared(const_cast<ShArr &>(*Row), Ctx());
  Dots = true;
  auto N = std::make_shared<Node>();
  N->K = Node::Dot;
  N->Ty = DType::F32;
  N->Text = P->getName().str();
  N->Stat = Row->Tile;
  N->Depth = *Bound;
  It->second.N = N;
  return true;
}

bool WarpRowLifter::columnLoop(const ForStmt *Fo) {
  auto *DS = dyn_cast_or_null<DeclStmt>(Fo->getInit());
  auto *C = DS && DS->isSingleDecl() ? dyn_cast<VarDecl>(DS->getSingleDecl())
                                     : nullptr;
  if (!C || !C->getInit() ||
      (Block ? !isTid(C->getInit()) : !LaneV.count(varOf(C->getInit()))))
    return false;
  auto *Cond = dyn_cast_or_null<BinaryOperator>(Fo->getCond());
  auto *Inc = dyn_cast_or_null<CompoundAssignOperator>(Fo->getInc());
  if (!Cond || Cond->getOpcode() != BO_LT || varOf(Cond->getLHS()) != C ||
      !Inc || Inc->getOpcode() != BO_AddAssign || varOf(Inc->getLHS()) != C ||
      (Block ? !isBuiltin(Inc->getRHS(), "blockDim")
             : !isInt(Inc->getRHS(), 32)))
    return fail(Fo->getForLoc(),
                Block ? "column loop that is not `for (c = threadIdx.x; c < "
                        "cols; c += blockDim.x)`"
                      : "column loop that is not `for (c = lane; c < cols; c "
                        "+= 32)`");
  auto Bound = L.scalarExpr(Cond->getRHS());
  std::vector<const clang::Stmt *> Body;
  if (auto *CS = dyn_cast<CompoundStmt>(Fo->getBody()))
    Body.assign(CS->body_begin(), CS->body_end());
  else
    Body.push_back(Fo->getBody());
  if (Block && Bound) {
    // s[d] = p[row * D + d] into a fixed-size shared array: a staged row.
    if (Body.size() == 1)
      if (auto *St = dyn_cast<BinaryOperator>(Body[0]);
          St && St->getOpcode() == BO_Assign)
        if (auto *SA = dyn_cast<ArraySubscriptExpr>(
                St->getLHS()->IgnoreParenImpCasts()))
          if (const VarDecl *Arr = sharedVar(SA->getBase());
              Arr && Sh[Arr].Size > 0)
            return stageLoop(Fo, C, *Bound, St);
    // Without row pointers the first column loop gives the row length.
    if (Cols.empty())
      Cols = *Bound;
  }
  if (!Bound || Cols.empty() || *Bound != Cols)
    return fail(Fo->getForLoc(), "column loop whose bound is not the row "
                                 "pitch of the row pointers");
  Recognised = Block;
  Value CV;
  CV.K = Value::ColVar;
  L.Env[C] = CV;
  CurCol = C;
  LoopSh.clear();
  LoopLocals.clear();
  struct Reset {
    const VarDecl *&V;
    ~Reset() { V = nullptr; }
  } ResetCol{CurCol};
  // Stores to shared arrays at the column: (array, value).
  std::vector<std::pair<const VarDecl *, NodeP>> ShStores;
  // First the element expressions (no ops yet), then the tile program.
  struct Acc {
    const VarDecl *V;
    std::string Op, Init;
    NodeP E;
  };
  std::vector<Acc> Accs;
  std::vector<std::pair<const ParmVarDecl *, NodeP>> Stores;
  for (const clang::Stmt *S0 : Body) {
    const clang::Stmt *S = S0;
    if (auto *EW = dyn_cast<ExprWithCleanups>(S))
      S = EW->getSubExpr();
    if (auto *D = dyn_cast<DeclStmt>(S)) {
      // const T *k = p + c * pitch: the row c of a matrix.
      if (D->isSingleDecl())
        if (auto *PV = dyn_cast<VarDecl>(D->getSingleDecl());
            PV && PV->getType()->isPointerType() && PV->getInit()) {
          if (!colPointer(PV, C))
            return fail(PV->getLocation(),
                        "pointer local of a column loop that is not `p + c * "
                        "pitch` (the row c of a matrix)");
          LoopLocals.insert(PV);
          continue;
        }
      if (!L.declare(D))
        return failElem(S->getBeginLoc(), "local of a column loop not lifted");
      for (const Decl *X : D->decls())
        if (auto *XV = dyn_cast<VarDecl>(X))
          LoopLocals.insert(XV);
      continue;
    }
    if (auto *Inner = dyn_cast<ForStmt>(S)) {
      if (!dotLoop(Inner))
        return F ? false
                 : fail(Inner->getForLoc(),
                        "loop in a column loop that is not a dot product "
                        "`for (d = 0; d < D; ++d) acc += s[d] * k[d]` of a "
                        "staged row and the row c of a matrix");
      continue;
    }
    // A new value of a local of this loop: v = e, v op= e.
    if (auto *Bo = dyn_cast<BinaryOperator>(S);
        Bo && Bo->isAssignmentOp() && LoopLocals.count(varOf(Bo->getLHS()))) {
      const VarDecl *V = varOf(Bo->getLHS());
      auto It = L.Env.find(V);
      if (It == L.Env.end() || It->second.K != Value::Elem ||
          !V->getType()->isRealFloatingType())
        return fail(Bo->getOperatorLoc(), "assignment to a local of a column "
                                          "loop that is not a float value");
      NodeP R = L.elem(Bo->getRHS());
      if (!R)
        return failElem(Bo->getOperatorLoc(), "assigned value not lifted");
      const char *Fn = nullptr;
      switch (Bo->getOpcode()) {
      case BO_AddAssign:
        Fn = "nl.add";
        break;
      case BO_SubAssign:
        Fn = "nl.subtract";
        break;
      case BO_MulAssign:
        Fn = "nl.multiply";
        break;
      case BO_DivAssign:
        Fn = "nl.divide";
        break;
      case BO_Assign:
        break;
      default:
        return fail(Bo->getOperatorLoc(), "compound assignment to a local "
                                          "without a tile operation");
      }
      NodeP N = Fn ? L.bin(Fn, It->second.N, R, false) : R;
      N = L.castTo(N, V->getType(), Bo->getExprLoc());
      if (!N)
        return failElem(Bo->getOperatorLoc(), "assigned value not lifted");
      It->second.N = N;
      continue;
    }
    const VarDecl *AV;
    std::string Op;
    const Expr *E;
    if (accumulation(S, AV, Op, E) && !LoopLocals.count(AV)) {
      auto It = L.Env.find(AV);
      if (It == L.Env.end() || It->second.K != Value::Elem ||
          It->second.N->K != Node::Scalar)
        return fail(S->getBeginLoc(), "accumulator that does not start from "
                                      "a constant before the column loop");
      // Every thread starts from the constant: a sum over the threads
      // counts it once per thread, so only 0 is the tile's start.
      if (Op == "nl.add" && It->second.N->Text != "0.0" &&
          It->second.N->Text != "0")
        return fail(S->getBeginLoc(), "sum that does not start from 0 in "
                                      "every thread");
      NodeP N = L.elem(E);
      if (!N)
        return fail(S->getBeginLoc(), "accumulated value not lifted");
      Accs.push_back({AV, Op, It->second.N->Text, N});
      continue;
    }
    // y[c] = e (operator= on a class element type such as __half).
    const Expr *SL = nullptr, *SR = nullptr;
    if (auto *Bo = dyn_cast<BinaryOperator>(S);
        Bo && Bo->getOpcode() == BO_Assign) {
      SL = Bo->getLHS();
      SR = Bo->getRHS();
    } else if (auto *OC = dyn_cast<CXXOperatorCallExpr>(S);
               OC && OC->getOperator() == OO_Equal && OC->getNumArgs() == 2) {
      SL = OC->getArg(0);
      SR = OC->getArg(1);
    }
    auto *A =
        SL ? dyn_cast<ArraySubscriptExpr>(SL->IgnoreParenImpCasts()) : nullptr;
    const VarDecl *PV = A ? varOf(A->getBase()) : nullptr;
    auto PIt = PV ? L.Env.find(PV) : L.Env.end();
    // s[c] = e: the column c of a shared row (dynamic shared memory, or a
    // fixed-size array of at least cols elements).
    if (const VarDecl *Arr = A ? sharedVar(A->getBase()) : nullptr) {
      ShArr &Sa = Sh[Arr];
      if (!Block || varOf(A->getIdx()) != C ||
          !(Sa.K == ShArr::Empty || Sa.K == ShArr::ColArr) ||
          (Sa.K == ShArr::Empty && (Sa.Pending || Sa.ReadAll)))
        return fail(A->getBeginLoc(),
                    llvm::formatv("store to shared '{0}' in a column loop "
                                  "that is not '{0}[c]' at the loop's "
                                  "column of an array holding one value per "
                                  "column",
                                  Arr->getName())
                        .str());
      NodeP N = L.elem(SR);
      if (!N)
        return failElem(S->getBeginLoc(), "stored value not lifted");
      N = L.castTo(N,
                   QualType(Arr->getType()->getArrayElementTypeNoTypeQual(), 0),
                   S->getBeginLoc());
      if (!N)
        return failElem(S->getBeginLoc(), "stored value not lifted");
      LoopSh[Arr] = N;
      ShStores.push_back({Arr, N});
      continue;
    }
    // p[row * cols + c] = e with p a pointer parameter: as a row pointer.
    const ParmVarDecl *DirectP = nullptr;
    if (auto *DP = dyn_cast_or_null<ParmVarDecl>(PV);
        DP && DP->getType()->isPointerType() && Block)
      if (auto Pitch = rowIndex(A->getIdx(), C); Pitch && *Pitch == Cols)
        DirectP = DP;
    if (DirectP || (PIt != L.Env.end() && PIt->second.K == Value::RowPtr &&
                    varOf(A->getIdx()) == C)) {
      const ParmVarDecl *P = DirectP ? DirectP : PIt->second.Ptr;
      NodeP N = L.elem(SR);
      if (!N)
        return failElem(S->getBeginLoc(), "stored value not lifted");
      N = L.castTo(N, P->getType()->getPointeeType(), S->getBeginLoc());
      if (!N)
        return false;
      TensorUse &U = L.use(P, A->getExprLoc());
      if (U.Read || U.Written)
        return fail(S->getBeginLoc(), "a row read and written, or written "
                                      "twice, is not lifted");
      U.Written = true;
      U.Layout = 'e';
      L.RowPitch[P] = Cols;
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
  // A shared row written here: a new SBUF tile [128, cols] (reads in this
  // loop saw the values it held before).
  std::map<const VarDecl *, std::string> ShTiles;
  for (auto &[Arr, N] : ShStores)
    if (!ShTiles.count(Arr))
      ShTiles[Arr] =
          B.alloc("sh", Mem::SBUF,
                  *dtypeOf(QualType(
                      Arr->getType()->getArrayElementTypeNoTypeQual(), 0)),
                  {"128", Cols});
  // A matmul chunk is transposed: at most 128 columns.
  std::function<bool(const NodeP &)> HasDot = [&](const NodeP &N) {
    return N && (N->K == Node::Dot || HasDot(N->A) || HasDot(N->B));
  };
  bool Narrow = false;
  for (const Acc &A : Accs)
    Narrow |= HasDot(A.E);
  for (auto &St : Stores)
    Narrow |= HasDot(St.second);
  for (auto &St : ShStores)
    Narrow |= HasDot(St.second);
  std::string Chunk = Narrow ? "128" : "512";
  B.open("f0", "0", Cols, Chunk);
  B.assign("f1", "min(" + Cols + ", f0 + " + Chunk + ")");
  B.assign("nf_", "f1 - f0");
  TileLowering TL(B, HbmName, true);
  TL.FSize = Chunk;
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
  for (auto &[Arr, N] : ShStores) {
    Operand V = TL.lower(N);
    if (!V.IsTile || TileLowering::isCol(V))
      return fail(Fo->getForLoc(),
                  llvm::formatv("'{0}[c]' is stored a value that does not "
                                "depend on the column",
                                Arr->getName())
                      .str());
    Op O;
    O.Kind = OpKind::TensorCopy;
    O.Dst = Access{ShTiles[Arr], {{"0", "np_"}, {"f0", "f1"}}, {}};
    O.Srcs = {V};
    B.op(O);
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
  // Each thread reads back only the columns it wrote (every column loop
  // deals the columns to the threads alike): no barrier is needed.
  for (auto &[Arr, T] : ShTiles) {
    ShArr &Sa = Sh[Arr];
    if (Sa.K != ShArr::ColArr) {
      std::string What = llvm::formatv("a row of '{0}'", Arr->getName()).str();
      if (Sa.Size < 0) {
        SharedBytes = true;
        uint64_t Bytes =
            FD->getASTContext()
                .getTypeSizeInChars(
                    Arr->getType()->getArrayElementTypeNoTypeQual())
                .getQuantity();
        Checks.push_back(
            {"shared_bytes >= " + std::to_string(Bytes) + " * (" + Cols + ")",
             "the launch's dynamic shared memory holds " + What});
      } else {
        Checks.push_back({"(" + Cols + ") <= " + std::to_string(Sa.Size),
                          "'" + Arr->getName().str() + "' holds " + What});
      }
    }
    Sa.K = ShArr::ColArr;
    Sa.Tile = T;
    Sa.Pending = false;
  }
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

std::optional<Refusal> WarpRowLifter::run() {
  auto *Body = dyn_cast<CompoundStmt>(FD->getBody());
  if (!Body)
    return Refusal{RuleId::PK5004, FD->getLocation(), "no body"};
  // Outputs: the pointer parameters the kernel stores through.  Found as
  // the statements are lifted; allocated first, so collect them now.
  for (const ParmVarDecl *P : FD->parameters())
    if (P->getType()->isPointerType()) {
      HbmName[P->getName().str()] = pyName(P->getName());
      if (!P->getType()->getPointeeType().isConstQualified())
        OutName[P] = pyName(P->getName());
    }
  if (Block)
    Rows = "grid_x";
  for (const clang::Stmt *S : Body->body())
    if (!(Block ? bstmt(S, Ctx()) : statement(S)))
      return F ? F
               : Refusal{Block ? RuleId::PK5009 : RuleId::PK5004,
                         S->getBeginLoc(), "not lifted"};
  if (Opened)
    B.close();
  if (Pending.empty() || Rows.empty() || (!Block && Cols.empty()))
    return Refusal{Block ? RuleId::PK5009 : RuleId::PK5004, FD->getLocation(),
                   Block ? "no value of the block-per-row pattern is stored"
                         : "no row of the warp-per-row pattern is stored"};
  // The interface: every pointer is a [rows, cols] tensor; the stored ones
  // are outputs (a row read and written is refused above).
  for (const ParmVarDecl *P : FD->parameters()) {
    Param Pa;
    Pa.Name = P->getName().str();
    Pa.PyName = pyName(Pa.Name);
    if (!P->getType()->isPointerType()) {
      auto T = dtypeOf(P->getType());
      if (!T)
        return Refusal{RuleId::PK5007, P->getLocation(),
                       "scalar parameter without an NKI dtype"};
      Pa.Ty = *T;
      K.Params.push_back(Pa);
      continue;
    }
    auto U = L.Uses.find(P);
    if (U == L.Uses.end())
      return Refusal{RuleId::PK5008, P->getLocation(),
                     llvm::formatv("pointer parameter '{0}' is never "
                                   "accessed as a row",
                                   P->getName())
                         .str()};
    auto Ty = dtypeOf(P->getType()->getPointeeType());
    if (!Ty)
      return Refusal{RuleId::PK5007, P->getLocation(),
                     "element type without an NKI dtype"};
    Pa.IsTensor = true;
    Pa.Ty = *Ty;
    switch (U->second.Layout) {
    case 'r': // a row vector p[c]
      Pa.Shape = {"1", Cols};
      break;
    case 'c': // one value per row p[row]
      Pa.Shape = {Rows, "1"};
      break;
    case 'g': // the 1-D input of a grid-stride loop
      Pa.Shape = {GridBound};
      break;
    case 's': // rows staged in shared memory [rows, D]
      Pa.Shape = {Rows, Inner[P]};
      break;
    case 'k': // the matrix of a dot product [cols, D]
      Pa.Shape = {Cols, Inner[P]};
      break;
    default:
      Pa.Shape = {Rows, Cols};
    }
    Pa.R = U->second.Written ? Param::Out : Param::In;
    if (!U->second.Written)
      OutName.erase(P);
    K.Params.push_back(Pa);
  }
  // Allocate the outputs and check the launch before the row loop.
  std::vector<nki::Stmt> Head;
  Builder H(Head);
  if (!Block) {
    H.check("block_x % 32 == 0", "blocks of whole warps");
    H.check("grid_x * (block_x // 32) >= " + Rows,
            "the launch has a warp for every row");
  } else {
    if (UsesWarps) {
      H.check("block_x % 32 == 0", "blocks of whole warps");
      H.check("block_x <= 1024", "at most 32 warps per block");
    }
    for (int64_t S : PerWarpSizes)
      H.check("block_x // 32 <= " + std::to_string(S),
              "a slot of the shared array for every warp");
    if (BlockSize)
      H.check("block_x == " + std::to_string(*BlockSize),
              "the block size the kernel's indexing assumes");
    if (RowsBound)
      H.check("grid_x >= " + Rows, "the launch has a block for every row");
    std::set<std::string> Seen;
    for (auto &[Cond, Why] : Checks)
      if (Seen.insert(Cond).second)
        H.check(Cond, Why);
  }
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
  if (SharedBytes)
    K.Launch.push_back("shared_bytes");
  K.Family = "row reduction, one warp per row (rows on partitions, "
             "tensor_reduce over column chunks of 512 on the free axis)";
  if (Block)
    K.Family = GridBound.empty()
                   ? "row reduction, one block per row (rows on partitions, "
                     "block reductions as tensor_reduce over column chunks "
                     "of 512 on the free axis)"
                   : "per-block partial reduction of a grid-stride loop "
                     "(blocks on partitions, each block's chunks of " +
                         std::to_string(*BlockSize) +
                         " on the free axis, tensor_reduce)";
  if (Dots)
    K.Family = "row program, one block per row, over a staged row times a "
               "matrix (rows on partitions, nc_matmul of the transposed "
               "rows with transposed chunks of 128 matrix rows, the row "
               "held in SBUF, block reductions as tensor_reduce)";
  return std::nullopt;
}

//===----------------------------------------------------------------------===//
// Transposes staged through a shared tile.
//
//   __shared__ T tile[TD][TD + pad];
//   int x = blockIdx.x * TD + threadIdx.x, y = blockIdx.y * TD + threadIdx.y;
//   for (j = 0; j < TD; j += R)
//     if (x < cols && y + j < rows)
//       tile[threadIdx.y + j][threadIdx.x] = in[(y + j) * cols + x];
//   __syncthreads();
//   x = blockIdx.y * TD + threadIdx.x;  y = blockIdx.x * TD + threadIdx.y;
//   for (j = 0; j < TD; j += R)
//     if (x < rows && y + j < cols)
//       out[(y + j) * rows + x] = tile[threadIdx.x][threadIdx.y + j];
//
// Index expressions are evaluated as affine forms over the thread and block
// indices and j, with coefficients linear in the scalar parameters.  The
// first loop is proven to fill tile[a][b] = in[R0 + a][C0 + b] (R0, C0 of
// the block only) where the source is in bounds, the second to store
// out[c][r] = in[r][c] exactly where it reads filled elements; the block
// must be TD x R threads (so j and the thread indices cover the tile) and
// the grid must cover the matrix (both asserted when traced).  The tile
// program: 128 x 128 tiles loaded with dma_copy, nc_transpose into PSUM,
// evicted with tensor_copy, stored transposed.
//===----------------------------------------------------------------------===//

/// A linear form over the scalar parameters: name -> coefficient ("" is the
/// constant).
using LinearMap = std::map<std::string, int64_t>;
/// An affine form over the index atoms tx, ty, bx, by, j with LinearMap
/// coefficients; atom "" is the constant part.
using Aff = std::map<std::string, LinearMap>;

void linAdd(LinearMap &A, const LinearMap &B, int64_t S) {
  for (auto &[K, V] : B)
    if ((A[K] += S * V) == 0)
      A.erase(K);
}
void affAdd(Aff &A, const Aff &B, int64_t S) {
  for (auto &[K, V] : B) {
    linAdd(A[K], V, S);
    if (A[K].empty())
      A.erase(K);
  }
}
/// The constant of a LinearMap that has no parameter.
std::optional<int64_t> linConst(const LinearMap &L) {
  if (L.empty())
    return 0;
  if (L.size() == 1 && L.count(""))
    return L.at("");
  return std::nullopt;
}
std::optional<LinearMap> linMul(const LinearMap &A, const LinearMap &B) {
  if (auto C = linConst(A)) {
    LinearMap R;
    linAdd(R, B, *C);
    return R;
  }
  if (auto C = linConst(B)) {
    LinearMap R;
    linAdd(R, A, *C);
    return R;
  }
  return std::nullopt;
}
std::optional<Aff> affMul(const Aff &A, const Aff &B) {
  auto Pure = [](const Aff &X) {
    return X.empty() || (X.size() == 1 && X.count(""));
  };
  if (!Pure(A) && !Pure(B))
    return std::nullopt;
  const Aff &P = Pure(A) ? A : B;
  const Aff &Q = Pure(A) ? B : A;
  LinearMap S = P.count("") ? P.at("") : LinearMap();
  Aff R;
  for (auto &[K, V] : Q) {
    auto M = linMul(S, V);
    if (!M)
      return std::nullopt;
    if (!M->empty())
      R[K] = *M;
  }
  return R;
}
bool threadFree(const Aff &A) {
  return !A.count("tx") && !A.count("ty") && !A.count("j");
}

class TransposeLifter {
public:
  TransposeLifter(TargetContext &TC, const FunctionDecl *FD, Kernel &K)
      : TC(TC), FD(FD), K(K) {}
  std::optional<Refusal> run();
  bool recognised() const { return Tile != nullptr; }

private:
  TargetContext &TC;
  const FunctionDecl *FD;
  Kernel &K;
  const VarDecl *Tile = nullptr;
  int64_t TileRows = 0, TileCols = 0;
  std::map<const VarDecl *, Aff> Env;
  const VarDecl *J = nullptr;
  std::optional<Refusal> F;
  int Phase = 0;
  // Phase 1 facts.
  const ParmVarDecl *In = nullptr;
  Aff R0, C0;
  LinearMap Rows, Cols;
  int64_t TD = 0, R = 0;
  // Phase 2.
  const ParmVarDecl *Out = nullptr;

  bool fail(SourceLocation L, std::string M) {
    if (!F)
      F = Refusal{RuleId::PK5009, L, std::move(M)};
    return false;
  }
  const VarDecl *varOf(const Expr *E) {
    auto *D = dyn_cast<DeclRefExpr>(strip(E));
    return D ? dyn_cast<VarDecl>(D->getDecl()) : nullptr;
  }
  std::optional<Aff> aff(const Expr *E) {
    E = strip(E);
    if (auto *I = dyn_cast<IntegerLiteral>(E))
      return Aff{{"", LinearMap{{"", I->getValue().getSExtValue()}}}};
    std::string N;
    char D;
    if (builtinIndex(E, N, D) && (D == 'x' || D == 'y')) {
      if (N == "threadIdx")
        return Aff{{std::string("t") + D, LinearMap{{"", 1}}}};
      if (N == "blockIdx")
        return Aff{{std::string("b") + D, LinearMap{{"", 1}}}};
      return std::nullopt;
    }
    if (auto *DR = dyn_cast<DeclRefExpr>(E)) {
      auto *V = dyn_cast<VarDecl>(DR->getDecl());
      if (!V)
        return std::nullopt;
      if (V == J)
        return Aff{{"j", LinearMap{{"", 1}}}};
      auto It = Env.find(V);
      if (It != Env.end())
        return It->second;
      if (auto *P = dyn_cast<ParmVarDecl>(V))
        if (P->getDeclContext() == FD && P->getType()->isIntegerType())
          return Aff{{"", LinearMap{{pyName(P->getName()), 1}}}};
      return std::nullopt;
    }
    if (auto *B = dyn_cast<BinaryOperator>(E)) {
      auto L = aff(B->getLHS()), R = aff(B->getRHS());
      if (!L || !R)
        return std::nullopt;
      switch (B->getOpcode()) {
      case BO_Add:
        affAdd(*L, *R, 1);
        return L;
      case BO_Sub:
        affAdd(*L, *R, -1);
        return L;
      case BO_Mul:
        return affMul(*L, *R);
      default:
        return std::nullopt;
      }
    }
    return std::nullopt;
  }
  static std::string linText(const LinearMap &L) {
    std::string S;
    for (auto &[K, V] : L) {
      std::string T = K.empty() ? std::to_string(V)
                                : (V == 1 ? K : std::to_string(V) + " * " + K);
      S += (S.empty() ? "" : " + ") + T;
    }
    if (S.empty())
      return "0";
    return L.size() == 1 ? S : "(" + S + ")";
  }
  /// The guard `A < B && C < D` as (coordinate, bound) pairs.
  bool guard(const Expr *E, std::vector<std::pair<Aff, LinearMap>> &G) {
    auto *B = dyn_cast<BinaryOperator>(strip(E));
    if (!B)
      return false;
    if (B->getOpcode() == BO_LAnd)
      return guard(B->getLHS(), G) && guard(B->getRHS(), G);
    if (B->getOpcode() != BO_LT)
      return false;
    auto A = aff(B->getLHS()), Bd = aff(B->getRHS());
    if (!A || !Bd || !threadFree(*Bd) || Bd->count("bx") || Bd->count("by"))
      return false;
    G.push_back({*A, Bd->count("") ? Bd->at("") : LinearMap()});
    return true;
  }
  bool loop(const ForStmt *Fo);
  bool stage(const BinaryOperator *St, std::vector<std::pair<Aff, LinearMap>> &G);
  bool store(const BinaryOperator *St, std::vector<std::pair<Aff, LinearMap>> &G);
};

bool TransposeLifter::loop(const ForStmt *Fo) {
  auto *DS = dyn_cast_or_null<DeclStmt>(Fo->getInit());
  auto *V = DS && DS->isSingleDecl() ? dyn_cast<VarDecl>(DS->getSingleDecl())
                                     : nullptr;
  auto *Cond = dyn_cast_or_null<BinaryOperator>(Fo->getCond());
  auto *Inc = dyn_cast_or_null<CompoundAssignOperator>(Fo->getInc());
  Expr::EvalResult E0, E1, E2;
  ASTContext &Ctx = FD->getASTContext();
  if (!V || !V->getInit() || !V->getInit()->EvaluateAsInt(E0, Ctx) ||
      E0.Val.getInt() != 0 || !Cond || Cond->getOpcode() != BO_LT ||
      varOf(Cond->getLHS()) != V || !Cond->getRHS()->EvaluateAsInt(E1, Ctx) ||
      !Inc || Inc->getOpcode() != BO_AddAssign || varOf(Inc->getLHS()) != V ||
      !Inc->getRHS()->EvaluateAsInt(E2, Ctx))
    return fail(Fo->getForLoc(), "loop that is not `for (j = 0; j < TILE; j "
                                 "+= ROWS)` over constants");
  int64_t T = E1.Val.getInt().getExtValue(), S = E2.Val.getInt().getExtValue();
  if (S <= 0 || T <= 0 || T % S != 0 || (TD && (TD != T || R != S)))
    return fail(Fo->getForLoc(), "tile loops with different or uneven "
                                 "steps");
  TD = T;
  R = S;
  J = V;
  const clang::Stmt *Body = Fo->getBody();
  if (auto *CS = dyn_cast<CompoundStmt>(Body))
    Body = CS->size() == 1 ? CS->body_front() : nullptr;
  auto *If = dyn_cast_or_null<IfStmt>(Body);
  std::vector<std::pair<Aff, LinearMap>> G;
  if (!If || If->getElse() || !guard(If->getCond(), G) || G.size() != 2)
    return fail(Fo->getForLoc(), "tile loop whose body is not one store "
                                 "under a two-sided bound check");
  const clang::Stmt *Then = If->getThen();
  if (auto *CS = dyn_cast<CompoundStmt>(Then))
    Then = CS->size() == 1 ? CS->body_front() : nullptr;
  auto *St = dyn_cast_or_null<BinaryOperator>(Then);
  if (!St || St->getOpcode() != BO_Assign)
    return fail(If->getIfLoc(), "guarded statement that is not one store");
  bool Ok = Phase == 0 ? stage(St, G) : store(St, G);
  J = nullptr;
  return Ok;
}

/// tile[ty + j][tx] = in[Gr * Cols + Gc] with guard Gc < Cols, Gr < Rows.
bool TransposeLifter::stage(const BinaryOperator *St,
                            std::vector<std::pair<Aff, LinearMap>> &G) {
  auto *A0 = dyn_cast<ArraySubscriptExpr>(St->getLHS()->IgnoreParens());
  auto *A1 =
      A0 ? dyn_cast<ArraySubscriptExpr>(A0->getBase()->IgnoreParenImpCasts())
         : nullptr;
  auto *Src = dyn_cast<ArraySubscriptExpr>(St->getRHS()->IgnoreParenImpCasts());
  auto *PD = Src ? dyn_cast<DeclRefExpr>(strip(Src->getBase())) : nullptr;
  auto *P = PD ? dyn_cast<ParmVarDecl>(PD->getDecl()) : nullptr;
  if (!A1 || varOf(A1->getBase()) != Tile || !P ||
      !P->getType()->isPointerType())
    return fail(St->getBeginLoc(), "staging store that is not tile[i][k] = "
                                   "p[index] from a pointer parameter");
  auto I0 = aff(A1->getIdx()), I1 = aff(A0->getIdx()), Idx = aff(Src->getIdx());
  Aff WantI0{{"ty", {{"", 1}}}, {"j", {{"", 1}}}}, WantI1{{"tx", {{"", 1}}}};
  if (!I0 || !I1 || !Idx || *I0 != WantI0 || *I1 != WantI1)
    return fail(St->getBeginLoc(), "staging store whose tile index is not "
                                   "[threadIdx.y + j][threadIdx.x]");
  // Which guard is the row and which the column: Gr - I0 and Gc - I1 are
  // free of the thread indices.
  for (int Sw = 0; Sw < 2; ++Sw) {
    Aff Gr = G[Sw].first, Gc = G[1 - Sw].first;
    Aff RR = Gr, CC = Gc;
    affAdd(RR, *I0, -1);
    affAdd(CC, *I1, -1);
    if (!threadFree(RR) || !threadFree(CC))
      continue;
    LinearMap W = G[1 - Sw].second;
    auto GW = affMul(Gr, Aff{{"", W}});
    if (!GW)
      continue;
    Aff Want = *GW;
    affAdd(Want, Gc, 1);
    if (Want != *Idx)
      continue;
    In = P;
    R0 = RR;
    C0 = CC;
    Rows = G[Sw].second;
    Cols = W;
    return true;
  }
  return fail(St->getBeginLoc(), "staging load whose index is not (row) * "
                                 "cols + (column) of the guarded row and "
                                 "column, with cols the column bound");
}

/// out[Oc * Rows + Or] = tile[tx][ty + j] with guard Or < Rows, Oc < Cols:
/// out[c][r] = in[r][c].
bool TransposeLifter::store(const BinaryOperator *St,
                            std::vector<std::pair<Aff, LinearMap>> &G) {
  auto *Dst = dyn_cast<ArraySubscriptExpr>(St->getLHS()->IgnoreParens());
  auto *PD = Dst ? dyn_cast<DeclRefExpr>(strip(Dst->getBase())) : nullptr;
  auto *P = PD ? dyn_cast<ParmVarDecl>(PD->getDecl()) : nullptr;
  auto *A0 = dyn_cast<ArraySubscriptExpr>(St->getRHS()->IgnoreParenImpCasts());
  auto *A1 =
      A0 ? dyn_cast<ArraySubscriptExpr>(A0->getBase()->IgnoreParenImpCasts())
         : nullptr;
  if (!P || !P->getType()->isPointerType() || !A1 ||
      varOf(A1->getBase()) != Tile || !In)
    return fail(St->getBeginLoc(), "store that is not p[index] = tile[i][k] "
                                   "after the tile was staged");
  auto J0 = aff(A1->getIdx()), J1 = aff(A0->getIdx()),
       OIdx = aff(Dst->getIdx());
  Aff WantJ0{{"tx", {{"", 1}}}}, WantJ1{{"ty", {{"", 1}}}, {"j", {{"", 1}}}};
  if (!J0 || !J1 || !OIdx || *J0 != WantJ0 || *J1 != WantJ1)
    return fail(St->getBeginLoc(), "read of the tile that is not the "
                                   "transposed [threadIdx.x][threadIdx.y + j]");
  // The element read is in[R0 + J0][C0 + J1].
  Aff SrcRow = R0, SrcCol = C0;
  affAdd(SrcRow, *J0, 1);
  affAdd(SrcCol, *J1, 1);
  for (int Sw = 0; Sw < 2; ++Sw) {
    const Aff &Gr = G[Sw].first;     // the output's column = in's row
    const Aff &Gc = G[1 - Sw].first; // the output's row = in's column
    if (Gr != SrcRow || Gc != SrcCol || G[Sw].second != Rows ||
        G[1 - Sw].second != Cols)
      continue;
    auto GW = affMul(Gc, Aff{{"", Rows}});
    if (!GW)
      continue;
    Aff Want = *GW;
    affAdd(Want, Gr, 1);
    if (Want != *OIdx)
      continue;
    Out = P;
    return true;
  }
  return fail(St->getBeginLoc(), "store that is not out[c * rows + r] = "
                                 "in[r][c] under the bounds r < rows, c < "
                                 "cols of the staged matrix");
}

std::optional<Refusal> TransposeLifter::run() {
  auto *Body = dyn_cast<CompoundStmt>(FD->getBody());
  if (!Body)
    return Refusal{RuleId::PK5009, FD->getLocation(), "no body"};
  for (const clang::Stmt *S : Body->body()) {
    if (auto *DS = dyn_cast<DeclStmt>(S)) {
      for (const Decl *D : DS->decls()) {
        auto *V = dyn_cast<VarDecl>(D);
        if (V && V->hasAttr<CUDASharedAttr>()) {
          auto *A0 = FD->getASTContext().getAsConstantArrayType(V->getType());
          auto *A1 = A0 ? FD->getASTContext().getAsConstantArrayType(
                              A0->getElementType())
                        : nullptr;
          if (Tile || !A1 || !dtypeOf(A1->getElementType()))
            return Refusal{RuleId::PK5004, V->getLocation(),
                           "__shared__ array that is not one 2-D tile"};
          Tile = V;
          TileRows = A0->getSize().getSExtValue();
          TileCols = A1->getSize().getSExtValue();
          continue;
        }
        auto A = V && V->getType()->isIntegerType() && V->getInit()
                     ? aff(V->getInit())
                     : std::nullopt;
        if (!A)
          return Refusal{RuleId::PK5009, D->getLocation(),
                         "local that is not an affine index of the thread "
                         "and block indices"};
        Env[V] = *A;
      }
      continue;
    }
    if (!Tile)
      return Refusal{RuleId::PK5004, S->getBeginLoc(),
                     "statement before the shared tile"};
    if (auto *Bo = dyn_cast<BinaryOperator>(S);
        Bo && Bo->getOpcode() == BO_Assign) {
      const VarDecl *V = varOf(Bo->getLHS());
      auto A = V && Env.count(V) ? aff(Bo->getRHS()) : std::nullopt;
      if (!A)
        return Refusal{RuleId::PK5009, Bo->getBeginLoc(),
                       "assignment that is not a new affine index"};
      Env[V] = *A;
      continue;
    }
    if (auto *C = dyn_cast<CallExpr>(S)) {
      if (C->getDirectCallee() &&
          C->getDirectCallee()->getNameAsString() == "__syncthreads" &&
          Phase == 0 && In) {
        Phase = 1;
        continue;
      }
      return Refusal{RuleId::PK5009, C->getBeginLoc(),
                     "call that is not the one barrier between staging and "
                     "storing"};
    }
    if (auto *Fo = dyn_cast<ForStmt>(S)) {
      if ((Phase == 1 && Out) || !loop(Fo))
        return F ? F
                 : Refusal{RuleId::PK5009, Fo->getForLoc(),
                           "a second store loop"};
      continue;
    }
    return Refusal{RuleId::PK5009, S->getBeginLoc(),
                   "statement of a staged transpose not lifted"};
  }
  if (!In || !Out)
    return Refusal{RuleId::PK5009, FD->getLocation(),
                   "the staged tile is not stored transposed"};
  if (TD > TileRows || TD > TileCols)
    return Refusal{RuleId::PK5009, Tile->getLocation(),
                   "the tile loops run past the shared tile"};
  // The blocks must be TD x R threads; R0 and C0 must be TD times the block
  // indices so that the blocks' tiles cover the matrix (the grid covers it).
  Aff WantR0{{"by", {{"", TD}}}}, WantC0{{"bx", {{"", TD}}}};
  if (R0 != WantR0 || C0 != WantC0)
    return Refusal{RuleId::PK5009, Tile->getLocation(),
                   "the block's tile does not start at (blockIdx.y * TILE, "
                   "blockIdx.x * TILE)"};
  auto DT = dtypeOf(In->getType()->getPointeeType());
  auto DO = dtypeOf(Out->getType()->getPointeeType());
  if (!DT || !DO || *DT != *DO)
    return Refusal{RuleId::PK5009, Out->getLocation(),
                   "input and output of the transpose have different or no "
                   "NKI dtypes"};
  std::string Rs = linText(Rows), Cs = linText(Cols);
  for (const ParmVarDecl *P : FD->parameters()) {
    Param Pa;
    Pa.Name = P->getName().str();
    Pa.PyName = pyName(Pa.Name);
    if (P == In || P == Out) {
      Pa.IsTensor = true;
      Pa.Ty = *DT;
      Pa.Shape = P == In ? std::vector<std::string>{Rs, Cs}
                         : std::vector<std::string>{Cs, Rs};
      Pa.R = P == In ? Param::In : Param::Out;
    } else if (P->getType()->isPointerType()) {
      return Refusal{RuleId::PK5008, P->getLocation(),
                     "pointer parameter the transpose does not access"};
    } else {
      auto T = dtypeOf(P->getType());
      if (!T)
        return Refusal{RuleId::PK5007, P->getLocation(),
                       "scalar parameter without an NKI dtype"};
      Pa.Ty = *T;
    }
    K.Params.push_back(Pa);
  }
  Builder B(K.Body);
  std::string TDs = std::to_string(TD);
  B.check("block_x == " + TDs + " and block_y == " + std::to_string(R),
          "blocks of TILE x ROWS threads cover each tile");
  B.check("grid_x * " + TDs + " >= " + Cs + " and grid_y * " + TDs +
              " >= " + Rs,
          "the launch covers the matrix");
  std::string O = pyName(Out->getName());
  Op A;
  A.Kind = OpKind::Alloc;
  A.Alloc = Tensor{O, Mem::HBM, *DT, {Cs, Rs}};
  B.op(A);
  K.Returns.push_back(O);
  B.open("p0", "0", Rs, "128");
  B.assign("p1", "min(" + Rs + ", p0 + 128)");
  B.assign("np_", "p1 - p0");
  B.open("f0", "0", Cs, "128");
  B.assign("f1", "min(" + Cs + ", f0 + 128)");
  B.assign("nf_", "f1 - f0");
  std::string T = B.alloc("t", Mem::SBUF, *DT, {"128", "128"});
  Op Ld;
  Ld.Kind = OpKind::DmaCopy;
  Ld.Dst = Access{T, {{"0", "np_"}, {"0", "nf_"}}, {}};
  Ld.Srcs = {Operand::tile(
      Access{pyName(In->getName()), {{"p0", "p1"}, {"f0", "f1"}}, {}})};
  B.op(Ld);
  std::string Ps = B.alloc("ps", Mem::PSUM, *DT, {"128", "128"});
  Op Tr;
  Tr.Kind = OpKind::Transpose;
  Tr.Dst = Access{Ps, {{"0", "nf_"}, {"0", "np_"}}, {}};
  Tr.Srcs = {Operand::tile(Ld.Dst)};
  B.op(Tr);
  std::string U = B.alloc("t", Mem::SBUF, *DT, {"128", "128"});
  Op Cp;
  Cp.Kind = OpKind::TensorCopy;
  Cp.Dst = Access{U, {{"0", "nf_"}, {"0", "np_"}}, {}};
  Cp.Srcs = {Operand::tile(Tr.Dst)};
  B.op(Cp);
  Op St;
  St.Kind = OpKind::DmaCopy;
  St.Dst = Access{O, {{"f0", "f1"}, {"p0", "p1"}}, {}};
  St.Srcs = {Operand::tile(Cp.Dst)};
  B.op(St);
  B.close();
  B.close();
  K.Launch = {"grid_x", "block_x", "grid_y", "block_y"};
  K.Family = "transpose staged through a shared tile (128 x 128 tiles, "
             "nc_transpose into PSUM)";
  (void)TC;
  return std::nullopt;
}

} // namespace

std::map<std::string, LiftedFile> nki::liftKernels(TargetContext &TC) {
  std::map<std::string, LiftedFile> Out;
  for (const std::string &F : TC.PF.UserFiles)
    Out[F];
  std::vector<const FunctionDecl *> Kernels;
  std::vector<const FunctionTemplateDecl *> Templates;
  std::function<void(const Decl *)> Visit;
  std::function<void(const DeclContext *)> Walk = [&](const DeclContext *DC) {
    for (const Decl *D : DC->decls())
      Visit(D);
  };
  Visit = [&](const Decl *D) {
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
  };
  // The user's declarations only: kernels in the toolkit's headers are not
  // the user's to lift.
  for (const Decl *D : TC.userTopLevelDecls())
    Visit(D);

  // The finding goes where the construct is; the header line of the
  // kernel's own .py names the file and line.
  auto Report = [&](const std::string &Name, SourceLocation KernelLoc,
                    const Refusal &Fl) {
    std::string Msg =
        llvm::formatv("kernel '{0}' is not lifted to NKI: {1}", Name, Fl.Msg)
            .str();
    TC.finding(Fl.Loc, Fl.Rule, Severity::Warning, Msg);
    std::string File = TC.fileOf(KernelLoc);
    if (File.empty() || !Out.count(File))
      return;
    // Where the construct is in the user's file: a token made by ## in a
    // macro is spelled in no file, its expansion is in one.
    SourceLocation L = TC.SM().getFileLoc(Fl.Loc);
    Out[File].Header.push_back(
        llvm::formatv("port-kernel: warning: {0}:{1}: {2} [{3}]",
                      llvm::sys::path::filename(TC.fileOf(L)),
                      TC.SM().getSpellingLineNumber(L), Msg, ruleName(Fl.Rule))
            .str());
  };

  // The Python names of a file's kernels: a kernel is a module-level
  // function, so it must not shadow a module, builtin or the calling
  // convention the generated code reads, nor another kernel of the file.
  std::map<std::string, llvm::StringSet<>> DefNames;
  auto DefName = [&](const std::string &File, const std::string &Name) {
    llvm::StringSet<> &Taken = DefNames[File];
    std::string R = Name;
    while (isPythonReserved(R) || Taken.count(R))
      R += "_";
    Taken.insert(R);
    return R;
  };

  // A lifted kernel: its PK5001 note and its place in its file's output.
  // User names that the output had to change are listed in the note.
  auto Lifted = [&](const std::string &Name, const FunctionDecl *FD, Kernel K,
                    const std::vector<std::string> &Renamed) {
    std::string File = TC.fileOf(FD->getLocation());
    std::string Def = DefName(File, Name);
    std::vector<std::string> Changes;
    if (Def != Name) {
      K.PyName = Def;
      Changes.push_back(
          llvm::formatv("the kernel is the Python function '{0}'", Def));
    }
    Changes.insert(Changes.end(), Renamed.begin(), Renamed.end());
    std::string Msg =
        llvm::formatv("kernel '{0}' lifted to an NKI tile program: "
                      "{1}; {2} tile operations in its loop bodies",
                      Name, K.Family, staticOpCount(K.Body))
            .str();
    if (!Changes.empty())
      Msg += " (names changed in the output, which Python, its imports or "
             "the generated code use: " +
             llvm::join(Changes, "; ") + ")";
    TC.finding(FD->getLocation(), RuleId::PK5001, Severity::Note, Msg);
    Out[File].Kernels.push_back(std::move(K));
  };

  // One attempt at lifting a kernel: a tile program, a refusal, or (for
  // GEMM and scan lifters that do not recognise it) neither.
  struct Attempt {
    std::optional<Kernel> K;
    std::optional<Refusal> Why;
  };

  // Lifts \p FD with \p Try under a naming scope: user identifiers never
  // take a name the generated code binds (tiles, loop variables, bounds,
  // launch dimensions) or one Python or the output's imports define.  The
  // names the generated code binds are known once it is generated, so a
  // clash lifts the kernel again with those names avoided.
  auto Named = [&](const FunctionDecl *FD, const TemplateParameterList *TPL,
                   llvm::function_ref<Attempt()> Try,
                   std::vector<std::string> &Renamed) -> Attempt {
    PyNameScope Scope;
    for (const ParmVarDecl *P : FD->parameters())
      Scope.User.insert(P->getName());
    if (TPL)
      for (const NamedDecl *D : *TPL)
        Scope.User.insert(D->getName());
    for (unsigned Round = 0;; ++Round) {
      Scope.Taken.clear();
      Scope.Final.clear();
      CurrentNames = &Scope;
      Attempt A = Try();
      CurrentNames = nullptr;
      if (!A.K)
        return A;
      // What the generated code binds: every assignment, loop variable,
      // allocation and launch dimension, less one HBM allocation per
      // output parameter, which is the parameter's own tensor.
      llvm::StringMap<unsigned> Bound;
      std::function<void(const std::vector<nki::Stmt> &)> Collect =
          [&](const std::vector<nki::Stmt> &Body) {
            for (const nki::Stmt &S : Body) {
              if (S.K == nki::Stmt::Assign)
                ++Bound[S.Var];
              else if (S.K == nki::Stmt::LoopStmt) {
                ++Bound[S.L->Var];
                Collect(S.L->Body);
              } else if (S.K == nki::Stmt::OpStmt && S.O.Kind == OpKind::Alloc)
                ++Bound[S.O.Alloc.Name];
            }
          };
      Collect(A.K->Body);
      for (const std::string &L : A.K->Launch)
        ++Bound[L];
      for (const Param &P : A.K->Params)
        if (P.IsTensor && P.R == Param::Out) {
          auto It = Bound.find(P.PyName);
          if (It != Bound.end() && It->second)
            --It->second;
        }
      // A template parameter is not a Python parameter: the program binds
      // it once, from the launch (`TILE = block_y`).
      if (TPL)
        for (const NamedDecl *D : *TPL) {
          auto F = Scope.Final.find(D->getName().str());
          if (F == Scope.Final.end())
            continue;
          auto It = Bound.find(F->second);
          if (It != Bound.end() && It->second)
            --It->second;
        }
      bool Clash = false;
      for (const auto &[User, Py] : Scope.Final) {
        auto It = Bound.find(Py);
        if (It != Bound.end() && It->second)
          Clash = true;
      }
      if (!Clash) {
        for (const auto &[User, Py] : Scope.Final)
          if (User != Py)
            Renamed.push_back(llvm::formatv("'{0}' is '{1}'", User, Py).str());
        return A;
      }
      if (Round == 8)
        return Attempt{
            std::nullopt,
            Refusal{RuleId::PK5007, FD->getLocation(),
                    "no Python names were found for its identifiers that "
                    "the generated code does not also bind"}};
      for (const auto &[N, Count] : Bound)
        if (Count)
          Scope.Avoid.insert(N);
    }
  };

  // The kernel model's reading (LiftMap.cpp): an element-wise map, a row or
  // column reduction, or a contraction.
  auto MapAttempt = [&](const FunctionDecl *FD,
                        std::vector<std::string> &Renamed) {
    return Named(
        FD, nullptr,
        [&]() {
          Attempt R;
          Kernel K;
          K.Name = FD->getNameAsString();
          if (liftMap(TC, FD, K, R.Why))
            R.K = std::move(K);
          return R;
        },
        Renamed);
  };

  // GEMMs (LiftMatmul.cpp), then block scans (LiftScan.cpp) first: lifted,
  // or refused with the reason the GEMM or the scan is not proven; other
  // kernels go on to the lifters below.
  auto Gemm = [&](const FunctionDecl *FD, const TemplateParameterList *TPL) {
    std::string Name = FD->getNameAsString();
    for (auto Lift : {liftMatmul, liftScan}) {
      std::vector<std::string> Renamed;
      Attempt A = Named(
          FD, TPL,
          [&]() {
            Attempt R;
            Kernel K;
            if (Lift(TC, FD, K, R.Why))
              R.K = std::move(K);
            return R;
          },
          Renamed);
      if (A.K) {
        Lifted(Name, FD, std::move(*A.K), Renamed);
        return true;
      }
      if (A.Why) {
        // The shape matcher's refusal: the kernel model may still prove it
        // (a contraction however its tiles and locals are written).
        if (!TPL) {
          std::vector<std::string> MRenamed;
          Attempt M = MapAttempt(FD, MRenamed);
          if (M.K) {
            Lifted(Name, FD, std::move(*M.K), MRenamed);
            return true;
          }
        }
        Report(Name, FD->getLocation(), *A.Why);
        return true;
      }
    }
    return false;
  };

  for (const FunctionTemplateDecl *FT : Templates) {
    if (Gemm(FT->getTemplatedDecl(), FT->getTemplateParameters()))
      continue;
    Scan S(TC.Ctx());
    S.run(FT->getTemplatedDecl());
    Report(FT->getNameAsString(), FT->getLocation(),
           S.F ? *S.F
               : Refusal{RuleId::PK5007, FT->getLocation(),
                         "template kernels are not lifted (each "
                         "instantiation would be a kernel of its own)"});
  }

  for (const FunctionDecl *FD : Kernels) {
    if (Gemm(FD, nullptr))
      continue;
    std::string Name = FD->getNameAsString();
    // Element-wise maps, read from the kernel model (LiftMap.cpp): lifted,
    // refused with the reason a recognised map has no tile program, or
    // left to the lifters below (with the reason it is not a map).
    std::optional<Refusal> MapWhy;
    {
      std::vector<std::string> Renamed;
      Attempt M = MapAttempt(FD, Renamed);
      if (M.K) {
        Lifted(Name, FD, std::move(*M.K), Renamed);
        continue;
      }
      if (M.Why && M.Why->Definite) {
        Report(Name, FD->getLocation(), *M.Why);
        continue;
      }
      MapWhy = M.Why;
    }
    Scan S(TC.Ctx());
    S.run(FD);
    // The kernel model (LiftRows.cpp): lifts a row program however its
    // threads cooperate; otherwise its reason is kept for the report.
    std::optional<Refusal> ModelWhy;
    auto Model = [&]() -> bool {
      std::vector<std::string> Renamed;
      Attempt M = Named(
          FD, nullptr,
          [&]() {
            Attempt R;
            Kernel K;
            K.Name = Name;
            if (liftRows(TC, FD, K, R.Why))
              R.K = std::move(K);
            return R;
          },
          Renamed);
      if (M.K) {
        Lifted(Name, FD, std::move(*M.K), Renamed);
        return true;
      }
      ModelWhy = M.Why;
      return false;
    };
    // The reason reported: a data-dependent access or a fragment found by
    // the scan stands; otherwise the model's, which names what it could
    // not follow, before a shape lifter's.
    auto Choose = [&](const Refusal &Old) {
      if (ModelWhy && ModelWhy->Definite && Old.Rule != RuleId::PK5003 &&
          Old.Rule != RuleId::PK5005)
        return *ModelWhy;
      return Old;
    };
    if (S.F && S.F->Rule != RuleId::PK5004) {
      if (S.F->Rule == RuleId::PK5002 && Model())
        continue;
      Report(Name, FD->getLocation(),
             S.F->Rule == RuleId::PK5002 && ModelWhy && ModelWhy->Definite
                 ? *ModelWhy
                 : *S.F);
      continue;
    }
    std::vector<std::string> Renamed;
    Attempt A = Named(
        FD, nullptr,
        [&]() -> Attempt {
          Kernel K;
          K.Name = Name;
          if (S.F) {
            // Threads that communicate: lifted when the kernel is a row
            // program whose communication is a recognised reduction; else
            // the scan's reason stands.
            Kernel RK;
            RK.Name = Name;
            Kernel TK;
            TK.Name = Name;
            TransposeLifter TL(TC, FD, TK);
            if (auto TF = TL.run(); TL.recognised()) {
              if (TF)
                return Attempt{std::nullopt, *TF};
              RK = std::move(TK);
            } else if (WarpRowLifter(TC, FD, RK).run()) {
              // One block per row: reported with its own reason once the
              // kernel is recognised as a block row program.
              Kernel BK;
              BK.Name = Name;
              WarpRowLifter BL(TC, FD, BK, /*BlockMode=*/true);
              if (auto BF = BL.run())
                return Attempt{std::nullopt, BL.recognised() ? *BF : *S.F};
              RK = std::move(BK);
            }
            K = std::move(RK);
          } else if (auto Fl = liftElementwise(TC, FD, K)) {
            return Attempt{std::nullopt, *Fl};
          }
          return Attempt{std::move(K), std::nullopt};
        },
        Renamed);
    if (A.Why) {
      if (Model())
        continue;
      // Threads that do not communicate: why the model's reading is not a
      // map says more than the spelling matcher's reason.
      Report(Name, FD->getLocation(),
             Choose(!S.F && MapWhy && MapWhy->Preferred ? *MapWhy : *A.Why));
      continue;
    }
    Lifted(Name, FD, std::move(*A.K), Renamed);
  }
  return Out;
}
