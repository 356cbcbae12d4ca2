//===- LiftTranspose.h - transposes staged through a shared tile ----------===//
// Rules: none (declarations)
//
// The reader of LiftTranspose.cpp and the emission of LiftTransposeEmit.cpp
// share the affine forms the indices are read as and the facts the reader
// proves.
//
//===----------------------------------------------------------------------===//
#ifndef PK_NKI_LIFTTRANSPOSE_H
#define PK_NKI_LIFTTRANSPOSE_H

#include "LiftInternal.h"
#include "pk/Polynomial.h"

namespace pk {
namespace nki {
namespace lift {

/// A linear form over the scalar parameters: an integer polynomial
/// (pk/Polynomial.h) whose terms are a constant and parameters.
using LinearMap = Polynomial<std::string>;
/// An affine form over the index atoms tx, ty, bx, by, j with LinearMap
/// coefficients; atom "" is the constant part.
using Aff = std::map<std::string, LinearMap>;

void linAdd(LinearMap &A, const LinearMap &B, int64_t S);
void affAdd(Aff &A, const Aff &B, int64_t S);
std::optional<int64_t> linConst(const LinearMap &L);
std::optional<Aff> affMul(const Aff &A, const Aff &B);
bool threadFree(const Aff &A);
/// The constant coefficient of \p Atom in \p A (0 when absent); none when
/// it has parameters.
std::optional<int64_t> affCoef(const Aff &A, const std::string &Atom);
PyExpr linExpr(const LinearMap &L);

/// A bound check `coordinate < bound` read from a guard.
struct Bound {
  Aff Coord;
  LinearMap Size;
};

class TransposeLifter {
public:
  TransposeLifter(TargetContext &TC, const FunctionDecl *FD, Kernel &K)
      : TC(TC), FD(FD), K(K), Elem(TC, FD) {}
  std::optional<Refusal> run();
  /// A 2-D shared tile, or a flat one that a staging store fills.
  bool recognised() const { return Tile && (!Flat || In); }

private:
  TargetContext &TC;
  const FunctionDecl *FD;
  Kernel &K;
  /// The shared tile: a 2-D array [TileRows][TileCols], or a flat array of
  /// TileRows elements indexed `i * Pitch + k` (Pitch fixed by the staging
  /// store).
  const VarDecl *Tile = nullptr;
  int64_t TileRows = 0, TileCols = 0;
  bool Flat = false;
  QualType TileTy;
  int64_t Pitch = 0;
  std::map<const VarDecl *, Aff> Env;
  const VarDecl *J = nullptr;
  std::optional<Refusal> F;
  int Phase = 0;
  // Phase 1 facts.
  const ParmVarDecl *In = nullptr;
  Aff R0, C0;
  LinearMap Rows, Cols;
  /// TD: the tile's side; R: the rows one pass of the block's threads
  /// covers (the tile loop's step, TD without a tile loop; 0: the step is
  /// blockDim.y).
  int64_t TD = 0, R = 0;
  bool Looped = false;
  // Phase 2.
  const ParmVarDecl *Out = nullptr;
  /// The element values: the staged value as a function of the element of
  /// `in` (leaf InLeaf), the stored value as a function of the tile's
  /// element (leaf TileLeaf).
  ElementwiseLifter Elem;
  NodeP InLeaf, TileLeaf, StageVal, StoreVal;
  /// Other tensors the stored value reads, by the output's element
  /// out[c][r]: 'c' at its row c (a vector of cols), 'r' at its column r
  /// (a vector of rows), 'e' at the element itself (a cols x rows tensor).
  std::map<const ParmVarDecl *, char> EpiReads;

  bool fail(SourceLocation L, std::string M) {
    if (!F)
      F = Refusal{RuleId::PK5009, L, std::move(M)};
    return false;
  }
  const VarDecl *varOf(const Expr *E);
  std::optional<Aff> aff(const Expr *E);
  /// A guard: a conjunction of bound checks `coord < size` (or `size >
  /// coord`, `<=`, `>=`), appended to \p G.
  bool guard(const Expr *E, std::vector<Bound> &G);
  /// A statement of a phase: ifs on bounds and at most one tile loop
  /// around one store.
  bool phaseStmt(const clang::Stmt *S, std::vector<Bound> &G, bool InLoop);
  bool loopHeader(const ForStmt *Fo);
  /// Whether \p A indexes the tile at (\p I0, \p I1); a flat tile's pitch
  /// is fixed by the first access (\p FixPitch).
  bool tileAt(const ArraySubscriptExpr *A, const Aff &I0, const Aff &I1,
              bool FixPitch);
  const VarDecl *tileOf(const Expr *Base);
  bool stage(const Expr *Lhs, const Expr *Rhs, SourceLocation Loc,
             std::vector<Bound> &G);
  bool store(const Expr *Lhs, const Expr *Rhs, SourceLocation Loc,
             std::vector<Bound> &G);
  /// The value \p E as an element-wise function of one leaf.
  NodeP value(const Expr *E, SourceLocation Loc);
  std::optional<Refusal> finish();
  /// The tile program (LiftTransposeEmit.cpp).
  std::optional<Refusal> emit();
};

} // namespace lift
} // namespace nki
} // namespace pk

#endif
