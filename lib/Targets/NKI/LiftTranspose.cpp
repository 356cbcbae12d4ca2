//===- LiftTranspose.cpp - transposes staged through a shared tile --------===//
// Rules: PK5004, PK5007, PK5008, PK5009
//
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
//
//===----------------------------------------------------------------------===//
#include "LiftInternal.h"
#include "Lifter.h"

using namespace pk;
using namespace pk::nki;
using namespace clang;

namespace pk {
namespace nki {
namespace lift {

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
  bool stage(const BinaryOperator *St,
             std::vector<std::pair<Aff, LinearMap>> &G);
  bool store(const BinaryOperator *St,
             std::vector<std::pair<Aff, LinearMap>> &G);
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

/// Kernels whose threads communicate (the prescan's PK5004), read as
/// transposes staged through a shared tile; one whose shared tile is not
/// found is not this lifter's.
class TransposeUnit final : public Lifter {
public:
  LiftAnswer lift(TargetContext &TC, const FunctionDecl *FD,
                  const TemplateParameterList *TPL) const override {
    std::optional<Refusal> F = TPL ? std::nullopt : prescan(TC.Ctx(), FD);
    if (!F || F->Rule != RuleId::PK5004)
      return LiftAnswer::notMine();
    Kernel K;
    K.Name = FD->getNameAsString();
    TransposeLifter TL(TC, FD, K);
    std::optional<Refusal> TF = TL.run();
    if (!TL.recognised())
      return LiftAnswer::notMine();
    return TF ? LiftAnswer::refused(*TF) : LiftAnswer::lifted(std::move(K));
  }
};

} // namespace lift
} // namespace nki
} // namespace pk

const Lifter &nki::transposeLifter() {
  static const lift::TransposeUnit L;
  return L;
}
