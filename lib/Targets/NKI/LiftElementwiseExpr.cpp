//===- LiftElementwiseExpr.cpp - values and statements of the element-wise
//lifter ---===//
// Rules: PK5004, PK5006, PK5007
//
// The element-wise lifter (LiftElementwise.cpp) on values (loads, casts,
// operators, calls of math functions) and statements (declarations,
// stores, bounds, grid-stride loops).
//
//===----------------------------------------------------------------------===//
#include "LiftInternal.h"

using namespace pk;
using namespace pk::nki;
using namespace clang;

namespace pk {
namespace nki {
namespace lift {

NodeP ElementwiseLifter::elem(const Expr *E) {
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
           llvm::formatv("type '{0}' has no NKI dtype", T.getAsString()).str());
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
    if (GlobalRead)
      return GlobalRead(A);
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

NodeP ElementwiseLifter::castTo(NodeP S, QualType T, SourceLocation Loc) {
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
      return scalarNode(PyExpr::call("float", {S->Val}), *Ty);
    if (isFloat(*Ty) != isFloat(S->Ty))
      return fail(RuleId::PK5007, Loc,
                  "conversion of a floating scalar to an integer"),
             nullptr;
    return scalarNode(S->Val, *Ty);
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

NodeP ElementwiseLifter::bin(const char *Fn, NodeP L, NodeP R, bool) {
  if (L->K == Node::Scalar && R->K == Node::Scalar) {
    static const std::map<std::string, std::string> Py = {{"nl.add", "+"},
                                                          {"nl.subtract", "-"},
                                                          {"nl.multiply", "*"},
                                                          {"nl.divide", "/"}};
    auto It = Py.find(Fn);
    if (It != Py.end())
      return scalarNode(PyExpr::binary(It->second, L->Val, R->Val), L->Ty);
    return scalarNode(Fn == std::string("nl.maximum")
                          ? PyExpr::max(L->Val, R->Val)
                          : PyExpr::min(L->Val, R->Val),
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

NodeP ElementwiseLifter::call(const CallExpr *C) {
  auto Pre = Precomputed.find(C);
  if (Pre != Precomputed.end())
    return Pre->second;
  const FunctionDecl *FD = C->getDirectCallee();
  if (!FD)
    return fail(RuleId::PK5007, C->getBeginLoc(), "indirect call: not lifted"),
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
    return bin(N.find("max") != std::string::npos ? "nl.maximum" : "nl.minimum",
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
        return GlobalRead ? GlobalRead(A)
                          : load(A->getBase(), A->getIdx(), A->getExprLoc());
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

bool ElementwiseLifter::declare(const DeclStmt *DS) {
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

bool ElementwiseLifter::store(const Expr *LHS, const Expr *RHS,
                              BinaryOperatorKind Opc, SourceLocation Begin,
                              SourceLocation OpLoc) {
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

bool ElementwiseLifter::stmt(const clang::Stmt *S) {
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

bool ElementwiseLifter::gridStride(const ForStmt *F) {
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

} // namespace lift
} // namespace nki
} // namespace pk
