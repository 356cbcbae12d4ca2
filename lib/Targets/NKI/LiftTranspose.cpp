//===- LiftTranspose.cpp - transposes staged through a shared tile --------===//
// Rules: PK5004, PK5007, PK5008, PK5009
//
// Transposes staged through a shared tile.
//
//   __shared__ T tile[TD][TD + pad];          (or T tile[N], indexed i * P + k)
//   int x = blockIdx.x * TD + threadIdx.x, y = blockIdx.y * TD + threadIdx.y;
//   for (j = 0; j < TD; j += R)               (no loop: R = TD)
//     if (x < cols && y + j < rows)           (any conjunction, any order)
//       tile[threadIdx.y + j][threadIdx.x] = g(in[(y + j) * cols + x]);
//   __syncthreads();
//   x = blockIdx.y * TD + threadIdx.x;  y = blockIdx.x * TD + threadIdx.y;
//   for (j = 0; j < TD; j += R)
//     if (x < rows && y + j < cols)
//       out[(y + j) * rows + x] = f(tile[threadIdx.x][threadIdx.y + j]);
//
// Index expressions are evaluated as affine forms over the thread and block
// indices and j, with coefficients linear in the scalar parameters.  The
// guards of each store are bound checks `coordinate < size` (nested ifs and
// conjunctions, `>` and `<=` spellings too); each must bound the row or the
// column of the element the store touches, and both must be bounded: they
// are the ragged edges of the matrix, the min()-bounded slices of the tile
// program.  The first phase is proven to fill tile[a][b] = g(in[R0 + a][C0
// + b]) (R0, C0 of the block only) where the source is in bounds, the
// second to store out[c][r] = f(tile[r - R0][c - C0]) exactly where it
// reads filled elements; f and g are element-wise (scalars, arithmetic,
// math functions).  The block must be TD x R threads (so j and the thread
// indices cover the tile) and the grid must cover the matrix (both
// asserted when traced).  The tile program: 128 x 128 tiles loaded with
// dma_copy, g, nc_transpose into PSUM, evicted with tensor_copy, f, stored
// transposed (LiftTransposeEmit.cpp).
//
//===----------------------------------------------------------------------===//
#include "LiftTranspose.h"

using namespace pk;
using namespace pk::nki;
using namespace clang;

namespace pk {
namespace nki {
namespace lift {

void linAdd(LinearMap &A, const LinearMap &B, int64_t S) { A = A + B * S; }
void affAdd(Aff &A, const Aff &B, int64_t S) {
  for (auto &[K, V] : B) {
    linAdd(A[K], V, S);
    if (A[K].empty())
      A.erase(K);
  }
}
/// The constant of a LinearMap that has no parameter.
std::optional<int64_t> linConst(const LinearMap &L) { return L.asConstant(); }
std::optional<LinearMap> linMul(const LinearMap &A, const LinearMap &B) {
  std::optional<LinearMap> R;
  if (auto C = linConst(A))
    R = B * *C;
  else if (auto C = linConst(B))
    R = A * *C;
  if (R && R->overflowed())
    R.reset();
  return R;
}
bool affOverflowed(const Aff &A) {
  for (auto &[K, V] : A)
    if (V.overflowed())
      return true;
  return false;
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

std::optional<int64_t> affCoef(const Aff &A, const std::string &Atom) {
  auto It = A.find(Atom);
  return It == A.end() ? std::optional<int64_t>(0) : linConst(It->second);
}

PyExpr linExpr(const LinearMap &L) {
  PyExpr S;
  for (auto &[M, V] : L) {
    PyExpr T = M.empty() ? PyExpr::integer(V)
                         : PyExpr::integer(V) * PyExpr::name(M[0]);
    S = S.empty() ? T : S + T;
  }
  return S.empty() ? PyExpr(0) : S;
}

const VarDecl *TransposeLifter::varOf(const Expr *E) {
  auto *D = dyn_cast<DeclRefExpr>(strip(E));
  return D ? dyn_cast<VarDecl>(D->getDecl()) : nullptr;
}

std::optional<Aff> TransposeLifter::aff(const Expr *E) {
  E = strip(E);
  if (auto *I = dyn_cast<IntegerLiteral>(E))
    return Aff{{"", LinearMap::constant(I->getValue().getSExtValue())}};
  std::optional<BuiltinIndex> BI = builtinIndex(E);
  if (BI && (BI->axis() == 'x' || BI->axis() == 'y')) {
    llvm::StringRef N = BI->Var;
    char D = BI->axis();
    if (N == "threadIdx")
      return Aff{{std::string("t") + D, LinearMap::constant(1)}};
    if (N == "blockIdx")
      return Aff{{std::string("b") + D, LinearMap::constant(1)}};
    return std::nullopt;
  }
  if (auto *DR = dyn_cast<DeclRefExpr>(E)) {
    auto *V = dyn_cast<VarDecl>(DR->getDecl());
    if (!V)
      return std::nullopt;
    if (V == J)
      return Aff{{"j", LinearMap::constant(1)}};
    auto It = Env.find(V);
    if (It != Env.end())
      return It->second;
    if (auto *P = dyn_cast<ParmVarDecl>(V))
      if (P->getDeclContext() == FD && P->getType()->isIntegerType())
        return Aff{{"", LinearMap::atom(pyName(P->getName()))}};
    return std::nullopt;
  }
  if (auto *B = dyn_cast<BinaryOperator>(E)) {
    auto L = aff(B->getLHS()), R = aff(B->getRHS());
    if (!L || !R)
      return std::nullopt;
    switch (B->getOpcode()) {
    case BO_Add:
    case BO_Sub:
      affAdd(*L, *R, B->getOpcode() == BO_Add ? 1 : -1);
      // Beyond 64-bit integers: no index the lifter knows.
      if (affOverflowed(*L))
        return std::nullopt;
      return L;
    case BO_Mul:
      return affMul(*L, *R);
    default:
      return std::nullopt;
    }
  }
  return std::nullopt;
}

bool TransposeLifter::guard(const Expr *E, std::vector<Bound> &G) {
  auto *B = dyn_cast<BinaryOperator>(strip(E));
  if (!B)
    return false;
  if (B->getOpcode() == BO_LAnd)
    return guard(B->getLHS(), G) && guard(B->getRHS(), G);
  const Expr *L = B->getLHS(), *Rh = B->getRHS();
  BinaryOperatorKind Op = B->getOpcode();
  if (Op == BO_GT || Op == BO_GE) {
    std::swap(L, Rh);
    Op = Op == BO_GT ? BO_LT : BO_LE;
  }
  if (Op != BO_LT && Op != BO_LE)
    return false;
  auto A = aff(L), Bd = aff(Rh);
  if (!A || !Bd || !threadFree(*Bd) || Bd->count("bx") || Bd->count("by"))
    return false;
  LinearMap Size = Bd->count("") ? Bd->at("") : LinearMap();
  if (Op == BO_LE)
    linAdd(Size, LinearMap::constant(1), 1);
  G.push_back({*A, Size});
  return true;
}

bool TransposeLifter::loopHeader(const ForStmt *Fo) {
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
      !Inc || Inc->getOpcode() != BO_AddAssign || varOf(Inc->getLHS()) != V)
    return fail(Fo->getForLoc(), "loop that is not `for (j = 0; j < TILE; j "
                                 "+= ROWS)` over constants");
  // The step: a constant, or the block's rows (`j += blockDim.y`: R = 0,
  // the launch's block_y, asserted to divide the tile).
  int64_t S = 0;
  std::optional<BuiltinIndex> Step;
  if (Inc->getRHS()->EvaluateAsInt(E2, Ctx))
    S = E2.Val.getInt().getExtValue();
  else if (!(Step = builtinIndex(Inc->getRHS())) || Step->Var != "blockDim" ||
           Step->axis() != 'y')
    return fail(Fo->getForLoc(), "loop that is not `for (j = 0; j < TILE; j "
                                 "+= ROWS)` over constants (or `j += "
                                 "blockDim.y`)");
  int64_t T = E1.Val.getInt().getExtValue();
  if (S < 0 || T <= 0 || (S && T % S != 0) || (TD && (TD != T || R != S)) ||
      (Phase == 1 && !Looped))
    return fail(Fo->getForLoc(), "tile loops with different or uneven "
                                 "steps");
  TD = T;
  R = S;
  J = V;
  return true;
}

bool TransposeLifter::phaseStmt(const clang::Stmt *S, std::vector<Bound> &G,
                                bool InLoop) {
  if (auto *CS = dyn_cast<CompoundStmt>(S)) {
    if (CS->size() != 1)
      return fail(CS->getBeginLoc(), "block of statements in a phase of a "
                                     "staged transpose (one store each)");
    return phaseStmt(CS->body_front(), G, InLoop);
  }
  if (auto *EW = dyn_cast<ExprWithCleanups>(S))
    S = EW->getSubExpr();
  if (auto *If = dyn_cast<IfStmt>(S)) {
    if (If->getElse() || If->getInit() || If->getConditionVariable() ||
        !guard(If->getCond(), G))
      return fail(If->getIfLoc(), "condition that is not a bound check "
                                  "`coordinate < size` (or a conjunction of "
                                  "them) around a store of the transpose");
    return phaseStmt(If->getThen(), G, InLoop);
  }
  if (auto *Fo = dyn_cast<ForStmt>(S)) {
    if (InLoop)
      return fail(Fo->getForLoc(), "nested tile loops");
    // The bounds outside the loop cannot depend on its variable.
    if (!loopHeader(Fo))
      return false;
    if (Phase == 0)
      Looped = true;
    bool Ok = phaseStmt(Fo->getBody(), G, true);
    J = nullptr;
    return Ok;
  }
  const Expr *Lhs = nullptr, *Rhs = nullptr;
  SourceLocation Loc = S->getBeginLoc();
  if (auto *B = dyn_cast<BinaryOperator>(S); B && B->getOpcode() == BO_Assign) {
    Lhs = B->getLHS();
    Rhs = B->getRHS();
  } else if (auto *OC = dyn_cast<CXXOperatorCallExpr>(S);
             OC && OC->getOperator() == OO_Equal && OC->getNumArgs() == 2) {
    Lhs = OC->getArg(0);
    Rhs = OC->getArg(1);
  }
  if (!Lhs)
    return fail(Loc, "guarded statement that is not one store");
  if (Phase == 1 && Looped != InLoop)
    return fail(Loc, "the staging and the store are not both in tile loops "
                     "or both without");
  return Phase == 0 ? stage(Lhs, Rhs, Loc, G) : store(Lhs, Rhs, Loc, G);
}

const VarDecl *TransposeLifter::tileOf(const Expr *Base) {
  const VarDecl *V = varOf(Base);
  return V && V == Tile ? V : nullptr;
}

bool TransposeLifter::tileAt(const ArraySubscriptExpr *A, const Aff &I0,
                             const Aff &I1, bool FixPitch) {
  if (!Flat) {
    auto *A1 = dyn_cast<ArraySubscriptExpr>(A->getBase()->IgnoreParenImpCasts());
    if (!A1 || !tileOf(A1->getBase()))
      return false;
    auto X0 = aff(A1->getIdx()), X1 = aff(A->getIdx());
    return X0 && X1 && *X0 == I0 && *X1 == I1;
  }
  if (!tileOf(A->getBase()))
    return false;
  auto X = aff(A->getIdx());
  if (!X)
    return false;
  // tile[i * P + k]: P is the coefficient of the row's thread index.
  if (FixPitch) {
    auto P = affCoef(*X, "ty");
    if (!P || *P <= 0)
      return false;
    Pitch = *P;
  }
  auto Want = affMul(I0, Aff{{"", LinearMap::constant(Pitch)}});
  if (!Want)
    return false;
  affAdd(*Want, I1, 1);
  return *Want == *X;
}

NodeP TransposeLifter::value(const Expr *E, SourceLocation Loc) {
  Elem.F.reset();
  NodeP V = Elem.elem(E);
  if (!V) {
    // The reasons of the reads placed here are the transpose's own.
    if (!F && Elem.F && Elem.F->Rule == RuleId::PK5009)
      F = Elem.F;
    if (!F)
      F = Refusal{Elem.F ? Elem.F->Rule : RuleId::PK5009,
                  Elem.F ? Elem.F->Loc : Loc,
                  "stored value not lifted: " +
                      (Elem.F ? Elem.F->Msg : std::string("no tile value"))};
    return nullptr;
  }
  return V;
}

/// tile[ty + j][tx] = g(in[Gr * Cols + Gc]) with guard Gc < Cols, Gr < Rows.
bool TransposeLifter::stage(const Expr *Lhs, const Expr *Rhs,
                            SourceLocation Loc, std::vector<Bound> &G) {
  Aff I0{{"ty", LinearMap::constant(1)}}, I1{{"tx", LinearMap::constant(1)}};
  if (J)
    I0["j"] = LinearMap::constant(1);
  auto *A = dyn_cast<ArraySubscriptExpr>(Lhs->IgnoreParens());
  const Expr *Base = A ? A->getBase()->IgnoreParenImpCasts() : nullptr;
  if (A && !Flat)
    if (auto *A1 = dyn_cast<ArraySubscriptExpr>(Base))
      Base = A1->getBase();
  if (!A || !tileOf(Base))
    return fail(Loc, "staging store that is not tile[i][k] = p[index] from a "
                     "pointer parameter");
  if (In)
    return fail(Loc, "a second staging store");
  if (!tileAt(A, I0, I1, true))
    return fail(Loc, "staging store whose tile index is not [threadIdx.y + "
                     "j][threadIdx.x]");
  // The value: g of one element of one pointer parameter.
  const ParmVarDecl *P = nullptr;
  std::optional<Aff> Idx;
  bool Bad = false;
  InLeaf = std::make_shared<Node>();
  InLeaf->K = Node::Ref;
  InLeaf->Name = "(staged element)";
  Elem.SharedRead = [&](const ArraySubscriptExpr *) -> NodeP {
    Bad = true;
    Elem.fail(RuleId::PK5009, Loc, "the staged value reads shared memory");
    return nullptr;
  };
  Elem.GlobalRead = [&](const ArraySubscriptExpr *S) -> NodeP {
    const Expr *Root = S->getBase()->IgnoreParenImpCasts();
    while (auto *Sub = dyn_cast<ArraySubscriptExpr>(Root))
      Root = Sub->getBase()->IgnoreParenImpCasts();
    if (tileOf(Root))
      return Elem.SharedRead(S);
    auto *PD = dyn_cast<DeclRefExpr>(strip(S->getBase()));
    auto *Q = PD ? dyn_cast<ParmVarDecl>(PD->getDecl()) : nullptr;
    auto X = aff(S->getIdx());
    auto Ty = Q && Q->getType()->isPointerType()
                  ? dtypeOf(Q->getType()->getPointeeType())
                  : std::nullopt;
    if (!Q || !Ty || !X || (P && (P != Q || *Idx != *X))) {
      Bad = true;
      Elem.fail(RuleId::PK5009, Loc,
                "staging store that is not tile[i][k] = p[index] from a "
                "pointer parameter (one element of one parameter)");
      return nullptr;
    }
    P = Q;
    Idx = X;
    InLeaf->Ty = *Ty;
    return InLeaf;
  };
  StageVal = value(Rhs, Loc);
  Elem.GlobalRead = nullptr;
  Elem.SharedRead = nullptr;
  if (StageVal)
    StageVal = Elem.castTo(StageVal, TileTy, Loc);
  if (!StageVal)
    return F || !Elem.F ? false : fail(Elem.F->Loc, Elem.F->Msg);
  if (!P)
    return fail(Loc, "staging store that is not tile[i][k] = p[index] from a "
                     "pointer parameter");
  // Each bound is on the staged element's row (Gr - I0 free of the thread
  // indices) or its column (Gc - I1); both are bounded, once each (up to
  // repetitions of the same check).
  std::optional<Bound> Gr, Gc;
  for (const Bound &Bd : G) {
    Aff RR = Bd.Coord, CC = Bd.Coord;
    affAdd(RR, I0, -1);
    affAdd(CC, I1, -1);
    std::optional<Bound> &Slot =
        threadFree(RR) ? Gr : threadFree(CC) ? Gc : Gr;
    if (!threadFree(RR) && !threadFree(CC))
      return fail(Loc, "a bound check on something other than the staged "
                       "element's row or column");
    if (Slot && (Slot->Coord != Bd.Coord || Slot->Size != Bd.Size))
      return fail(Loc, "two different bounds on the staged element's row or "
                       "column");
    Slot = Bd;
  }
  if (!Gr || !Gc)
    return fail(Loc, "staging store without bound checks on both the row "
                     "and the column of the staged element (the ragged "
                     "edges of the matrix)");
  auto GW = affMul(Gr->Coord, Aff{{"", Gc->Size}});
  if (GW) {
    Aff Want = *GW;
    affAdd(Want, Gc->Coord, 1);
    if (Want == *Idx) {
      In = P;
      R0 = Gr->Coord;
      affAdd(R0, I0, -1);
      C0 = Gc->Coord;
      affAdd(C0, I1, -1);
      Rows = Gr->Size;
      Cols = Gc->Size;
      return true;
    }
  }
  return fail(Loc, "staging load whose index is not (row) * cols + (column) "
                   "of the guarded row and column, with cols the column "
                   "bound");
}

/// out[Oc * Rows + Or] = f(tile[tx][ty + j]) with guard Or < Rows, Oc <
/// Cols: out[c][r] = f(g(in[r][c])).
bool TransposeLifter::store(const Expr *Lhs, const Expr *Rhs,
                            SourceLocation Loc, std::vector<Bound> &G) {
  auto *Dst = dyn_cast<ArraySubscriptExpr>(Lhs->IgnoreParens());
  auto *PD = Dst ? dyn_cast<DeclRefExpr>(strip(Dst->getBase())) : nullptr;
  auto *P = PD ? dyn_cast<ParmVarDecl>(PD->getDecl()) : nullptr;
  if (!P || !P->getType()->isPointerType() || !In)
    return fail(Loc, "store that is not p[index] = tile[i][k] after the tile "
                     "was staged");
  if (Out)
    return fail(Loc, "a second store of the tile");
  if (P == In)
    return fail(Loc, "a transpose in place (the store writes the staged "
                     "matrix)");
  Aff J0{{"tx", LinearMap::constant(1)}}, J1{{"ty", LinearMap::constant(1)}};
  if (J)
    J1["j"] = LinearMap::constant(1);
  TileLeaf = std::make_shared<Node>();
  TileLeaf->K = Node::Ref;
  TileLeaf->Name = "(tile element)";
  TileLeaf->Ty = StageVal->Ty;
  bool Read = false;
  Elem.SharedRead = [&](const ArraySubscriptExpr *A) -> NodeP {
    if (!tileAt(A, J0, J1, false)) {
      Elem.fail(RuleId::PK5009, Loc,
                "read of the tile that is not the transposed "
                "[threadIdx.x][threadIdx.y + j]");
      return nullptr;
    }
    Read = true;
    return TileLeaf;
  };
  // The element read is in[R0 + J0][C0 + J1] (r, c): the output's
  // element is out[c][r].
  Aff SrcRow = R0, SrcCol = C0;
  affAdd(SrcRow, J0, 1);
  affAdd(SrcCol, J1, 1);
  Elem.GlobalRead = [&](const ArraySubscriptExpr *A) -> NodeP {
    // tile[i][k]: the element-wise reader sees the shared array only
    // under one subscript.
    const Expr *Root = A->getBase()->IgnoreParenImpCasts();
    while (auto *Sub = dyn_cast<ArraySubscriptExpr>(Root))
      Root = Sub->getBase()->IgnoreParenImpCasts();
    if (tileOf(Root))
      return Elem.SharedRead(A);
    // Another tensor at the output's row, column or element (an epilogue:
    // a bias per output row, a residual).
    auto *PD = dyn_cast<DeclRefExpr>(strip(A->getBase()));
    auto *Q = PD ? dyn_cast<ParmVarDecl>(PD->getDecl()) : nullptr;
    auto X = aff(A->getIdx());
    auto Ty = Q && Q->getType()->isPointerType()
                  ? dtypeOf(Q->getType()->getPointeeType())
                  : std::nullopt;
    auto Elt = affMul(SrcCol, Aff{{"", Rows}});
    if (Elt)
      affAdd(*Elt, SrcRow, 1);
    char Lay = !X                  ? 0
               : *X == SrcCol      ? 'c'
               : *X == SrcRow      ? 'r'
               : Elt && *X == *Elt ? 'e'
                                   : 0;
    if (!Q || !Ty || Q == In || Q == P || !Lay) {
      Elem.fail(RuleId::PK5009, A->getBeginLoc(),
                !Q || !Ty
                    ? "the stored value reads memory other than the tile and "
                      "pointer parameters with an NKI dtype"
                : Q == In || Q == P
                    ? "the stored value reads the staged matrix or the output "
                      "again besides the tile"
                    : "the stored value reads another tensor at an index that "
                      "is not the output element's row c, column r or "
                      "element c * rows + r");
      return nullptr;
    }
    auto [It, New] = EpiReads.insert({Q, Lay});
    if (!New && It->second != Lay) {
      Elem.fail(RuleId::PK5009, A->getBeginLoc(),
                "the stored value reads one tensor at two kinds of index");
      return nullptr;
    }
    auto N = std::make_shared<Node>();
    N->K = Node::Load;
    N->Name = pyName(Q->getName());
    N->Layout = Lay;
    N->Ty = *Ty;
    return N;
  };
  NodeP V = value(Rhs, Loc);
  Elem.SharedRead = nullptr;
  Elem.GlobalRead = nullptr;
  if (!V)
    return false;
  if (!Read)
    return fail(Loc, "store that is not p[index] = tile[i][k] after the tile "
                     "was staged");
  V = Elem.castTo(V, P->getType()->getPointeeType(), Loc);
  if (!V)
    return fail(Loc, "stored value not lifted: " +
                         (Elem.F ? Elem.F->Msg : std::string("a conversion")));
  // The store must touch out at the element's transposed place exactly
  // where that element is in bounds.
  bool RowB = false, ColB = false, Other = false;
  for (const Bound &Bd : G) {
    if (Bd.Coord == SrcRow && Bd.Size == Rows)
      RowB = true;
    else if (Bd.Coord == SrcCol && Bd.Size == Cols)
      ColB = true;
    else
      Other = true;
  }
  auto GW = affMul(SrcCol, Aff{{"", Rows}});
  if (RowB && ColB && !Other && GW) {
    Aff Want = *GW;
    affAdd(Want, SrcRow, 1);
    auto OIdx = aff(Dst->getIdx());
    if (OIdx && Want == *OIdx) {
      Out = P;
      StoreVal = V;
      return true;
    }
  }
  return fail(Loc, "store that is not out[c * rows + r] = in[r][c] under the "
                   "bounds r < rows, c < cols of the staged matrix");
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
          ASTContext &Ctx = FD->getASTContext();
          auto *A0 = Ctx.getAsConstantArrayType(V->getType());
          auto *A1 =
              A0 ? Ctx.getAsConstantArrayType(A0->getElementType()) : nullptr;
          bool IsFlat = A0 && !A1 && dtypeOf(A0->getElementType());
          if (Tile || (!IsFlat && (!A1 || !dtypeOf(A1->getElementType()))))
            return Refusal{RuleId::PK5004, V->getLocation(),
                           "__shared__ array that is not one 2-D tile"};
          Tile = V;
          Flat = IsFlat;
          TileTy = IsFlat ? A0->getElementType() : A1->getElementType();
          TileRows = A0->getSize().getSExtValue();
          TileCols = A1 ? A1->getSize().getSExtValue() : 1;
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
        Bo && Bo->getOpcode() == BO_Assign && varOf(Bo->getLHS()) &&
        Env.count(varOf(Bo->getLHS()))) {
      auto A = aff(Bo->getRHS());
      if (!A)
        return Refusal{RuleId::PK5009, Bo->getBeginLoc(),
                       "assignment that is not a new affine index"};
      Env[varOf(Bo->getLHS())] = *A;
      continue;
    }
    if (auto *C = dyn_cast<CallExpr>(S);
        C && !isa<CXXOperatorCallExpr>(C)) {
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
    if (isa<IfStmt>(S) || isa<ForStmt>(S) || isa<BinaryOperator>(S) ||
        isa<CXXOperatorCallExpr>(S)) {
      if (Phase == 1 && Out)
        return Refusal{RuleId::PK5009, S->getBeginLoc(),
                       "a second store loop"};
      std::vector<Bound> G;
      if (!phaseStmt(S, G, false))
        return F ? F
                 : Refusal{RuleId::PK5009, S->getBeginLoc(),
                           "statement of a staged transpose not lifted"};
      continue;
    }
    return Refusal{RuleId::PK5009, S->getBeginLoc(),
                   "statement of a staged transpose not lifted"};
  }
  return finish();
}

std::optional<Refusal> TransposeLifter::finish() {
  if (!In || !Out)
    return Refusal{RuleId::PK5009, FD->getLocation(),
                   "the staged tile is not stored transposed"};
  // Without tile loops the block covers the tile in one pass: its side is
  // the block's stride over the matrix.
  if (!Looped) {
    auto T = affCoef(R0, "by");
    if (!T || *T <= 0)
      return Refusal{RuleId::PK5009, Tile->getLocation(),
                     "the block's tile does not start at (blockIdx.y * "
                     "TILE, blockIdx.x * TILE)"};
    TD = R = *T;
  }
  if (Flat ? Pitch < TD || (TD - 1) * Pitch + TD > TileRows
           : TD > TileRows || TD > TileCols)
    return Refusal{RuleId::PK5009, Tile->getLocation(),
                   "the tile loops run past the shared tile"};
  // The blocks must be TD x R threads; R0 and C0 must be TD times the block
  // indices so that the blocks' tiles cover the matrix (the grid covers it).
  Aff WantR0{{"by", LinearMap::constant(TD)}},
      WantC0{{"bx", LinearMap::constant(TD)}};
  if (R0 != WantR0 || C0 != WantC0)
    return Refusal{RuleId::PK5009, Tile->getLocation(),
                   "the block's tile does not start at (blockIdx.y * TILE, "
                   "blockIdx.x * TILE)"};
  return emit();
}

} // namespace lift
} // namespace nki
} // namespace pk
