//===- LiftElementwise.cpp - element-wise kernels to NKI tile programs ----===//
// Rules: PK5006, PK5007, PK5008
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
// This file: indices, bounds, loads and layouts, the lift and its
// registered unit; LiftElementwiseExpr.cpp: values and statements.
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

std::optional<std::string> ElementwiseLifter::scalarExpr(const Expr *E) {
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

std::optional<char> ElementwiseLifter::globalCoord(const Expr *E) {
  E = strip(E);
  auto *B = dyn_cast<BinaryOperator>(E);
  if (!B || B->getOpcode() != BO_Add)
    return std::nullopt;
  auto Prod = [&](const Expr *X, char &D) {
    auto *M = dyn_cast<BinaryOperator>(strip(X));
    if (!M || M->getOpcode() != BO_Mul)
      return false;
    std::optional<BuiltinIndex> B1 = builtinIndex(M->getLHS());
    std::optional<BuiltinIndex> B2 = builtinIndex(M->getRHS());
    if (!B1 || !B2 || B1->Dim != B2->Dim)
      return false;
    if (!((B1->Var == "blockIdx" && B2->Var == "blockDim") ||
          (B1->Var == "blockDim" && B2->Var == "blockIdx")))
      return false;
    D = B1->axis();
    return true;
  };
  auto Tid = [&](const Expr *X, char &D) {
    std::optional<BuiltinIndex> B = builtinIndex(X);
    if (!B)
      return false;
    D = B->axis();
    return B->Var == "threadIdx";
  };
  char D1, D2;
  if (Prod(B->getLHS(), D1) && Tid(B->getRHS(), D2) && D1 == D2)
    return D1;
  if (Tid(B->getLHS(), D1) && Prod(B->getRHS(), D2) && D1 == D2)
    return D1;
  return std::nullopt;
}

std::optional<char> ElementwiseLifter::strideOf(const Expr *E) {
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
  std::optional<BuiltinIndex> B1 = builtinIndex(M->getLHS());
  std::optional<BuiltinIndex> B2 = builtinIndex(M->getRHS());
  if (!B1 || !B2 || B1->Dim != B2->Dim)
    return std::nullopt;
  if ((B1->Var == "blockDim" && B2->Var == "gridDim") ||
      (B1->Var == "gridDim" && B2->Var == "blockDim"))
    return B1->axis();
  return std::nullopt;
}

std::optional<Affine> ElementwiseLifter::index(const Expr *E) {
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

bool ElementwiseLifter::boundAtLeast(const Expr *E, bool Negated) {
  E = strip(E);
  auto *B = dyn_cast<BinaryOperator>(E);
  if (!B)
    return false;
  if (B->getOpcode() == BO_LOr && !Negated)
    return boundAtLeast(B->getLHS(), false) && boundAtLeast(B->getRHS(), false);
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

NodeP ElementwiseLifter::scalarNode(PyExpr S, DType T) {
  return scalarLeaf(std::move(S), T);
}

NodeP ElementwiseLifter::load(const Expr *Base, const Expr *Idx,
                              SourceLocation Loc) {
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
    N->Name = P->getName().str();
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
  N->Name = P->getName().str();
  return N;
}

NodeP ElementwiseLifter::rowLoad(const Value &RP, const Expr *Idx,
                                 SourceLocation Loc) {
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
  N->Name = P->getName().str();
  return N;
}

bool ElementwiseLifter::readAs(const ParmVarDecl *P, char Lay, RuleId R,
                               SourceLocation Loc) {
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

TensorUse &ElementwiseLifter::use(const ParmVarDecl *P, SourceLocation Loc) {
  TensorUse &U = Uses[P];
  if (!U.P) {
    U.P = P;
    U.FirstUse = Loc;
  }
  return U;
}

char ElementwiseLifter::layout(const ParmVarDecl *P, const Expr *IdxE,
                               SourceLocation Loc) {
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
  std::vector<std::pair<PyExpr, std::string>> Checks;
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
  Spec.Ey = TwoD ? PyExpr(Extent['y']) : PyExpr(1);
  Spec.Checks = Checks;
  Spec.Launch = Launch;
  for (const ParmVarDecl *P : FD->parameters()) {
    auto UI = L.Uses.find(P);
    if (UI == L.Uses.end())
      continue;
    const TensorUse &U = UI->second;
    if (U.Layout == 'e' && TwoD) {
      auto RP = L.RowPitch.find(P);
      if (RP == L.RowPitch.end() || PyExpr(RP->second) != Spec.Ex)
        return Refusal{
            RuleId::PK5008, U.FirstUse,
            llvm::formatv("'{0}' is indexed with a row pitch ({1}) that is "
                          "not the x extent ({2}): its 2-D shape is not "
                          "recovered",
                          P->getName(),
                          RP == L.RowPitch.end() ? "none" : RP->second, Spec.Ex)
                .str()};
    }
    Spec.Uses[P] = MapSpec::Use{U.Layout, U.Read, U.Written};
  }
  for (const Store &St : L.Stores)
    Spec.Stores.push_back({St.P, St.V});
  Spec.Family = TwoD ? "element-wise map over a 2-D index space (rows on "
                       "partitions, columns on the free axis)"
                     : "element-wise map over a 1-D index space (rows of 512 "
                       "elements on the partitions, a ragged tail row)";
  return emitMap(TC, FD, Spec, K);
}

/// Kernels the prescan finds nothing in, read as element-wise maps.
class ElementwiseUnit final : public Lifter {
public:
  LiftAnswer lift(TargetContext &TC, const FunctionDecl *FD,
                  const TemplateParameterList *TPL) const override {
    if (TPL || prescan(TC.Ctx(), FD))
      return LiftAnswer::notMine();
    Kernel K;
    K.Name = FD->getNameAsString();
    if (std::optional<Refusal> Fl = liftElementwise(TC, FD, K))
      return LiftAnswer::refused(*Fl);
    return LiftAnswer::lifted(std::move(K));
  }
};

} // namespace lift
} // namespace nki
} // namespace pk

const Lifter &nki::elementwiseLifter() {
  static const lift::ElementwiseUnit L;
  return L;
}
