//===- LiftInternal.h - internals shared by the NKI lifters ---------------===//
// Rules: none (declarations)
//
// What the element-wise, warp-row and transpose lifters and the driver
// share: the Python names of a kernel being lifted, AST helpers, the
// prescan and the element-wise lifter that the row lifters build on.
//
//===----------------------------------------------------------------------===//
#ifndef PK_NKI_LIFTINTERNAL_H
#define PK_NKI_LIFTINTERNAL_H

#include "Lift.h"
#include "LiftLower.h"
#include "LiftMap.h"
#include "pk/BuiltinVars.h"

#include "pk/DynamicVisitor.h"
#include "clang/AST/ASTContext.h"
#include "clang/AST/Attr.h"
#include "clang/AST/Decl.h"
#include "clang/AST/DeclTemplate.h"
#include "clang/AST/Expr.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/Stmt.h"
#include "clang/AST/StmtCXX.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/Support/FormatVariadic.h"
#include <functional>
#include <map>
#include <optional>
#include <set>

namespace pk {
namespace nki {
namespace lift {

using namespace clang;

/// The names a user identifier must not take in the output: Python keywords,
/// builtins (the generated code calls range, min, max, len, ... and the
/// simulator evaluates shapes with min and max), the modules the output
/// imports and the module's calling-convention table.
bool isPythonReserved(llvm::StringRef N);

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
/// The scope of the kernel being lifted (set by the driver, read by
/// pyName); none outside a lift.
extern thread_local PyNameScope *CurrentNames;

const Expr *strip(const Expr *E);
bool isFloat(DType T);

/// The first construct of \p FD (or of a device function it calls) that
/// the element-wise model cannot express (LiftPrescan.cpp): atomics
/// (PK5002), data-dependent indices (PK5003), shuffles, votes, barriers and
/// shared memory (PK5004), tensor-core fragments (PK5005); none when the
/// kernel has none.
std::optional<Refusal> prescan(ASTContext &Ctx, const FunctionDecl *FD);

//===----------------------------------------------------------------------===//
// The element-wise lifter.
//===----------------------------------------------------------------------===//

/// An integer index: sum of Coef * atom (atoms "gx", "gy") plus Off, with
/// coefficients and offset as Python expressions.
struct Affine {
  std::map<std::string, std::string> Terms;
  std::string Off = "0";
};

std::string pyAdd(const std::string &A, const std::string &B);
std::string pyMul(const std::string &A, const std::string &B);

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
  std::optional<std::string> scalarExpr(const Expr *E);

  // --- index expressions ----------------------------------------------
  std::optional<char> globalCoord(const Expr *E);

  std::optional<char> strideOf(const Expr *E);

  std::optional<Affine> index(const Expr *E);

  // --- bounds ------------------------------------------------------------
  /// `gX >= B` (or `B <= gX`): records the extent of X.
  bool boundAtLeast(const Expr *E, bool Negated);

  // --- element values ------------------------------------------------------
  NodeP scalarNode(PyExpr S, DType T);

  NodeP load(const Expr *Base, const Expr *Idx, SourceLocation Loc);

  /// x[c] with x = p + row * pitch and c the column variable.
  /// (Idx null: the caller matched the column already.)
  NodeP rowLoad(const Value &RP, const Expr *Idx, SourceLocation Loc);

  /// Records a read of \p P with layout \p Lay; fails (rule \p R) when
  /// \p P is written or was accessed with another layout.
  bool readAs(const ParmVarDecl *P, char Lay, RuleId R, SourceLocation Loc);

  TensorUse &use(const ParmVarDecl *P, SourceLocation Loc);

  /// The layout of an access p[Idx]: 'e' the thread's own element, 'r' the
  /// element of its column gx (a row vector), 'c' of its row gy.
  char layout(const ParmVarDecl *P, const Expr *IdxE, SourceLocation Loc);
  std::map<const ParmVarDecl *, std::string> RowPitch;
  /// Calls already evaluated (block reductions inlined by a row lifter):
  /// their per-row results.
  std::map<const CallExpr *, NodeP> Precomputed;
  /// Reads of __shared__ arrays, for a row lifter that follows them.
  std::function<NodeP(const ArraySubscriptExpr *)> SharedRead;
  /// Reads of global memory (`p[i]`, `__ldg(&p[i])`), for a lifter that
  /// places them itself (a staged transpose); none: load().
  std::function<NodeP(const ArraySubscriptExpr *)> GlobalRead;
  /// p[row * cols + c] in a row lifter's column loop: the pitch when Idx
  /// has that form (the access is then the row's element, as through a
  /// row pointer).
  std::function<std::optional<std::string>(const Expr *)> RowIndex;

  NodeP elem(const Expr *E);

  NodeP castTo(NodeP S, QualType T, SourceLocation Loc);

  NodeP bin(const char *Fn, NodeP L, NodeP R, bool);

  NodeP call(const CallExpr *C);

  // --- statements ---------------------------------------------------------
  bool declare(const DeclStmt *DS);
  std::set<const VarDecl *> Assigned;

  bool store(const BinaryOperator *B) {
    return store(B->getLHS(), B->getRHS(), B->getOpcode(), B->getBeginLoc(),
                 B->getOperatorLoc());
  }
  bool store(const Expr *LHS, const Expr *RHS, BinaryOperatorKind Opc,
             SourceLocation Begin, SourceLocation OpLoc);

  bool stmt(const clang::Stmt *S);

  /// for (int i = gX; i < B; i += blockDim.X * gridDim.X) body
  bool gridStride(const ForStmt *F);
};

/// The element-wise lift of \p FD into \p K (LiftElementwise.cpp): its
/// refusal, none when lifted.
std::optional<Refusal> liftElementwise(TargetContext &TC,
                                       const FunctionDecl *FD, Kernel &K);

} // namespace lift
} // namespace nki
} // namespace pk

#endif
