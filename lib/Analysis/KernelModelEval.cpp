//===- KernelModelEval.cpp - expressions of the kernel model --------------===//
// Rules: none (shared analysis)
//
// An expression is evaluated for all active threads at once (one value per
// thread), which is what lets a shuffle read another lane's operand: the
// operand is evaluated for every lane first, then each lane takes its
// source's.  Calls to device functions are executed inline; CUDA's math,
// conversion, shuffle, atomic and barrier intrinsics have their meaning
// here.
//
//===----------------------------------------------------------------------===//
#include "KernelModelImpl.h"
#include "pk/BuiltinVars.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/Attr.h"
#include "clang/AST/DeclCXX.h"
#include "clang/AST/ExprCXX.h"
#include "llvm/ADT/StringSwitch.h"
#include "llvm/Support/FormatVariadic.h"
#include <cmath>
#include <set>

using namespace pk;
using namespace pk::km;
using namespace clang;

SymP Exec::convert(SymP V, QualType To) {
  if (!V)
    return V;
  if (To->isPointerType() || V->K == SK::Ptr ||
      (V->K == SK::Param && !V->D))
    return V;
  return P.cast(tyOf(To), V);
}

const VarDecl *Exec::localVar(const Expr *E) {
  E = stripE(E)->IgnoreParenImpCasts();
  auto *DR = dyn_cast<DeclRefExpr>(E);
  if (!DR)
    return nullptr;
  auto *V = dyn_cast<VarDecl>(DR->getDecl());
  if (!V)
    return nullptr;
  for (auto It = Alias.find(V); It != Alias.end(); It = Alias.find(V))
    V = It->second;
  if (V->hasAttr<CUDASharedAttr>() ||
      Ctx.getAsConstantArrayType(V->getType()) || lanesOf(V->getType()) ||
      RefAddr.count(V))
    return nullptr;
  return V;
}

SymP Exec::arith1(llvm::StringRef Op, SymP A, SymP B, SourceLocation L) {
  if (A->K == SK::Ptr && B->isInt() && (Op == "+" || Op == "-"))
    return P.ptr(A->D, P.bin(Op, A->Ops[0], B), A->T);
  if (B->K == SK::Ptr && A->isInt() && Op == "+")
    return P.ptr(B->D, P.bin("+", B->Ops[0], A), B->T);
  if (A->K == SK::Ptr || B->K == SK::Ptr) {
    fail(Failure::Unsupported, L, "pointer arithmetic the model does not "
                                  "follow");
    return P.undef();
  }
  return P.bin(Op, A, B);
}

Vals Exec::arith(llvm::StringRef Op, const Vals &A, const Vals &B,
                 const Mask &M, SourceLocation L) {
  Vals R(Th.size());
  for (unsigned T : M)
    R[T] = arith1(Op, A[T], B[T], L);
  return R;
}

static const char *binOpName(BinaryOperatorKind K) {
  switch (K) {
  case BO_Add: case BO_AddAssign: return "+";
  case BO_Sub: case BO_SubAssign: return "-";
  case BO_Mul: case BO_MulAssign: return "*";
  case BO_Div: case BO_DivAssign: return "/";
  case BO_Rem: case BO_RemAssign: return "%";
  case BO_Shl: case BO_ShlAssign: return "<<";
  case BO_Shr: case BO_ShrAssign: return ">>";
  case BO_And: case BO_AndAssign: return "&";
  case BO_Or: case BO_OrAssign: return "|";
  case BO_Xor: case BO_XorAssign: return "^";
  case BO_LT: return "<";
  case BO_GT: return ">";
  case BO_LE: return "<=";
  case BO_GE: return ">=";
  case BO_EQ: return "==";
  case BO_NE: return "!=";
  default: return nullptr;
  }
}

Vals Exec::eval(const Expr *E, const Mask &M) {
  Vals R = evalExpr(E, M);
  // A failed evaluation may leave threads without a value; callers combine
  // values before they look at failed(): an undefined value instead.
  if (failed() && R.size() == Th.size())
    for (unsigned T : M)
      if (!R[T])
        R[T] = P.undef();
  return R;
}

Vals Exec::evalExpr(const Expr *E, const Mask &M) {
  Vals R(Th.size());
  auto All = [&](SymP V) {
    for (unsigned T : M)
      R[T] = V;
    return R;
  };
  if (failed())
    return All(P.undef());
  E = stripE(E);
  QualType Q = E->getType();
  // Whatever the compiler folds (constexpr locals, sizeof, enumerators).
  if (!E->isValueDependent() && !E->isTypeDependent() &&
      Q->isIntegralOrEnumerationType() && !E->HasSideEffects(Ctx)) {
    Expr::EvalResult Res;
    if (E->EvaluateAsInt(Res, Ctx))
      return All(P.intc(Res.Val.getInt().getExtValue(), tyOf(Q)));
  }
  if (auto *I = dyn_cast<IntegerLiteral>(E))
    return All(P.intc(I->getValue().getSExtValue(), tyOf(Q)));
  if (auto *F = dyn_cast<FloatingLiteral>(E))
    return All(P.flt(F->getValueAsApproximateDouble(), tyOf(Q)));
  if (auto *B = dyn_cast<CXXBoolLiteralExpr>(E))
    return All(P.boolc(B->getValue()));
  if (std::optional<BuiltinIndex> BI = builtinIndex(E)) {
    llvm::StringRef BV = BI->Var;
    unsigned Dim = BI->Dim;
    if (Dim > 0 && (BV == "threadIdx" || BV == "blockDim"))
      (Dim == 1 ? Tr.UsesDimY : Tr.UsesDimZ) = true;
    if (BV == "threadIdx") {
      for (unsigned T : M)
        R[T] = P.intc(Tr.Tid[T][Dim], Ty::U32);
      return R;
    }
    if (BV == "blockDim")
      return All(P.intc(Dim == 0 ? Shape.X : Dim == 1 ? Shape.Y : Shape.Z,
                        Ty::U32));
    return All(BV == "blockIdx" ? P.blockIdx(Dim) : P.gridDim(Dim));
  }
  // A value of a record of one scalar type is N lanes: only its copies
  // (evalLanes, storeLanes), its fields and its address are modelled.
  if (lanesOf(Q) && !isa<CXXOperatorCallExpr>(E)) {
    fail(Failure::Unsupported, E->getExprLoc(),
         llvm::formatv("a value of type {0} where the model needs a scalar "
                       "(records of one scalar type are modelled in copies, "
                       "initialisers and through their fields)",
                       Q.getAsString())
             .str());
    return All(P.undef());
  }
  if (auto *DR = dyn_cast<DeclRefExpr>(E)) {
    const ValueDecl *D = DR->getDecl();
    if (auto *EC = dyn_cast<EnumConstantDecl>(D))
      return All(P.intc(EC->getInitVal().getSExtValue()));
    auto *V = dyn_cast<VarDecl>(D);
    if (!V) {
      fail(Failure::Unsupported, E->getExprLoc(),
           llvm::formatv("reference to '{0}'", D->getName()).str());
      return All(P.undef());
    }
    for (auto It = Alias.find(V); It != Alias.end(); It = Alias.find(V))
      V = It->second;
    if (V->getName() == "warpSize")
      return All(P.intc(Wave));
    // A reference bound to memory: what is there now.
    if (auto RA = RefAddr.find(V); RA != RefAddr.end()) {
      for (unsigned T : M)
        if (!failed())
          R[T] = readPtr(RA->second[T] ? RA->second[T] : P.undef(), T,
                         E->getExprLoc());
      return failed() ? All(P.undef()) : R;
    }
    if (V->hasAttr<CUDASharedAttr>() && !Ctx.getAsArrayType(V->getType())) {
      // A __shared__ scalar: its one slot.
      SymP Ptr = P.ptr(V, P.intc(0), tyOf(V->getType()));
      for (unsigned T : M)
        if (!failed())
          R[T] = readPtr(Ptr, T, E->getExprLoc());
      return failed() ? All(P.undef()) : R;
    }
    if (V->hasAttr<CUDASharedAttr>() || Th[M[0]].Arrays.count(V)) {
      QualType El = V->getType();
      while (auto *A = Ctx.getAsArrayType(El))
        El = A->getElementType();
      return All(P.ptr(V, P.intc(0), tyOf(El)));
    }
    bool Known = true;
    for (unsigned T : M) {
      auto It = Th[T].Env.find(V);
      if (It == Th[T].Env.end()) {
        Known = false;
        break;
      }
      R[T] = It->second;
    }
    if (Known)
      return R;
    if (V->hasGlobalStorage() && V->getType().isConstQualified() &&
        V->getInit()) {
      Expr::EvalResult Res;
      if (V->getInit()->EvaluateAsRValue(Res, Ctx)) {
        if (Res.Val.isInt())
          return All(P.intc(Res.Val.getInt().getExtValue()));
        if (Res.Val.isFloat())
          return All(P.flt(Res.Val.getFloat().convertToDouble(),
                           tyOf(V->getType())));
      }
    }
    fail(Failure::Unsupported, E->getExprLoc(),
         llvm::formatv("'{0}' is a variable outside the kernel (a global or "
                       "__constant__ variable) whose value is not known when "
                       "the kernel is traced",
                       V->getName())
             .str());
    return All(P.undef());
  }
  if (auto *IC = dyn_cast<ImplicitCastExpr>(E)) {
    Vals X = eval(IC->getSubExpr(), M);
    if (IC->getCastKind() == CK_PointerToBoolean) // `if (bias)`
      return nonNull(X, M, IC->getExprLoc(), true);
    switch (IC->getCastKind()) {
    case CK_LValueToRValue:
    case CK_NoOp:
    case CK_ArrayToPointerDecay:
    case CK_FunctionToPointerDecay:
    case CK_BitCast:
      return X;
    default:
      for (unsigned T : M)
        R[T] = convert(X[T], Q);
      return R;
    }
  }
  if (auto *CE = dyn_cast<ExplicitCastExpr>(E)) {
    // A pointer seen as a pointer to a record of one scalar type
    // (reinterpret_cast<const float4 *>(x)): the same scalars, N a step,
    // when the scalar type is the one pointed to.
    QualType To = Q->isPointerType() ? Q->getPointeeType() : QualType();
    QualType From = CE->getSubExpr()->getType();
    QualType LE;
    if (!To.isNull() && lanesOf(To, &LE) && From->isPointerType()) {
      QualType FE = From->getPointeeType();
      lanesOf(FE, &FE); // float4 * -> int4 * compares the lanes' types
      if (FE.getCanonicalType().getUnqualifiedType() != LE) {
        fail(Failure::NoTile, E->getExprLoc(),
             llvm::formatv("a cast of {0} to {1}: the bits of one scalar "
                           "type read as another",
                           From.getAsString(), Q.getAsString())
                 .str());
        return All(P.undef());
      }
    }
    Vals X = eval(CE->getSubExpr(), M);
    for (unsigned T : M)
      R[T] = convert(X[T], Q);
    return R;
  }
  if (auto *B = dyn_cast<BinaryOperator>(E))
    return evalBinary(B, M);
  if (auto *U = dyn_cast<UnaryOperator>(E))
    return evalUnary(U, M);
  if (auto *C = dyn_cast<ConditionalOperator>(E)) {
    // Each operand is evaluated by the threads that may take it (C
    // evaluates one: `lane < n ? s[lane] : 0` must not read s[lane] past
    // the end for the others); a symbolic condition takes both.
    Vals Cv = eval(C->getCond(), M);
    if (failed())
      return All(P.undef());
    Mask MA, MB;
    for (unsigned T : M) {
      bool Known = Cv[T]->isConst();
      bool True = Known && (Cv[T]->K == SK::Int ? Cv[T]->I != 0 : Cv[T]->F != 0);
      if (!Known || True)
        MA.push_back(T);
      if (!Known || !True)
        MB.push_back(T);
    }
    Vals A = MA.empty() ? Vals(Th.size()) : eval(C->getTrueExpr(), MA);
    Vals B = MB.empty() ? Vals(Th.size()) : eval(C->getFalseExpr(), MB);
    if (failed())
      return All(P.undef());
    for (unsigned T : M) {
      SymP Cb = Cv[T]->T == Ty::Bool ? Cv[T] : P.logicalNot(P.logicalNot(Cv[T]));
      R[T] = !A[T] ? B[T] : !B[T] ? A[T] : P.select(Cb, A[T], B[T]);
    }
    return R;
  }
  if (isa<ArraySubscriptExpr>(E)) {
    Vals FI;
    if (const VarDecl *FV = fragElem(E, M, FI)) {
      for (unsigned T : M)
        R[T] = Th[T].Frags[FV][size_t(FI[T]->I)];
      return R;
    }
    if (failed())
      return All(P.undef());
    Vals A = evalAddr(E, M);
    for (unsigned T : M)
      if (!failed())
        R[T] = readPtr(A[T], T, E->getExprLoc());
    if (failed())
      return All(P.undef());
    return R;
  }
  if (auto *C = dyn_cast<CallExpr>(E))
    return evalCall(C, M);
  if (auto *CC = dyn_cast<CXXConstructExpr>(E)) {
    if (CC->getNumArgs() == 1) {
      Vals X = eval(CC->getArg(0), M);
      for (unsigned T : M)
        R[T] = convert(X[T], Q);
      return R;
    }
    if (CC->getNumArgs() == 0)
      return All(P.undef(tyOf(Q)));
  }
  if (auto *DA = dyn_cast<CXXDefaultArgExpr>(E))
    return eval(DA->getExpr(), M);
  // A member enumerator through an object (frag.num_elements).
  if (auto *ME = dyn_cast<MemberExpr>(E)) {
    if (auto *EC = dyn_cast<EnumConstantDecl>(ME->getMemberDecl()))
      return All(P.intc(EC->getInitVal().getSExtValue()));
    // A field of a record of one scalar type: its lane.
    QualType BT = ME->getBase()->getType();
    if (ME->isArrow() && BT->isPointerType())
      BT = BT->getPointeeType();
    if (lanesOf(BT)) {
      Vals A = evalAddr(E, M);
      for (unsigned T : M)
        if (!failed())
          R[T] = readPtr(A[T], T, E->getExprLoc());
      return failed() ? All(P.undef()) : R;
    }
  }
  fail(Failure::Unsupported, E->getExprLoc(),
       llvm::formatv("expression ({0}) is not modelled",
                     E->getStmtClassName())
           .str());
  return All(P.undef());
}

Vals Exec::evalAddr(const Expr *E, const Mask &M) {
  Vals R(Th.size());
  E = stripE(E)->IgnoreParenImpCasts();
  if (auto *A = dyn_cast<ArraySubscriptExpr>(E)) {
    const Expr *Base = A->getBase()->IgnoreParenImpCasts();
    Vals Bp = Ctx.getAsArrayType(Base->getType()) ? evalAddr(Base, M)
                                                  : eval(A->getBase(), M);
    if (Bp.empty() || failed())
      return Vals(Th.size(), P.undef());
    Vals I = eval(A->getIdx(), M);
    int64_t Stride = 1;
    QualType El = A->getType();
    while (auto *CA = Ctx.getAsConstantArrayType(El)) {
      Stride *= int64_t(CA->getSize().getZExtValue());
      El = CA->getElementType();
    }
    if (unsigned N = lanesOf(El))
      Stride *= int64_t(N);
    for (unsigned T : M) {
      if (Bp[T]->K != SK::Ptr) {
        fail(Failure::Unsupported, A->getExprLoc(),
             "a subscript of something that is not an array or pointer the "
             "model follows");
        return Vals(Th.size(), P.undef());
      }
      R[T] = P.ptr(Bp[T]->D,
                   P.bin("+", Bp[T]->Ops[0], P.bin("*", I[T], P.intc(Stride))),
                   Bp[T]->T);
    }
    return R;
  }
  if (auto *ME = dyn_cast<MemberExpr>(E)) {
    // A field of a record of one scalar type: the record's address plus
    // the field's lane.
    auto *FD = dyn_cast<FieldDecl>(ME->getMemberDecl());
    QualType BT = ME->getBase()->getType();
    if (ME->isArrow() && BT->isPointerType())
      BT = BT->getPointeeType();
    if (FD && lanesOf(BT)) {
      Vals Bp =
          ME->isArrow() ? eval(ME->getBase(), M) : evalAddr(ME->getBase(), M);
      if (failed())
        return Vals(Th.size(), P.undef());
      for (unsigned T : M) {
        if (Bp[T]->K != SK::Ptr) {
          fail(Failure::Unsupported, ME->getExprLoc(),
               "a field of a record the model does not follow");
          return Vals(Th.size(), P.undef());
        }
        R[T] = P.ptr(
            Bp[T]->D,
            P.bin("+", Bp[T]->Ops[0], P.intc(int64_t(FD->getFieldIndex()))),
            tyOf(FD->getType()));
      }
      return R;
    }
  }
  if (auto *DR = dyn_cast<DeclRefExpr>(E))
    if (auto *V = dyn_cast<VarDecl>(DR->getDecl())) {
      for (auto It = Alias.find(V); It != Alias.end(); It = Alias.find(V))
        V = It->second;
      if (auto RA = RefAddr.find(V); RA != RefAddr.end()) {
        for (unsigned T : M)
          R[T] = RA->second[T] ? RA->second[T] : P.undef();
        return R;
      }
      QualType LE;
      if (!V->hasAttr<CUDASharedAttr>() && lanesOf(V->getType(), &LE) &&
          Th[M[0]].Arrays.count(V)) {
        for (unsigned T : M)
          R[T] = P.ptr(V, P.intc(0), tyOf(LE));
        return R;
      }
      if (V->hasAttr<CUDASharedAttr>() && !Ctx.getAsArrayType(V->getType())) {
        for (unsigned T : M)
          R[T] = P.ptr(V, P.intc(0), tyOf(V->getType()));
        return R;
      }
      if (V->hasAttr<CUDASharedAttr>() || Th[M[0]].Arrays.count(V))
        return eval(E, M);
    }
  if (auto *U = dyn_cast<UnaryOperator>(E))
    if (U->getOpcode() == UO_Deref)
      return eval(U->getSubExpr(), M);
  fail(Failure::Unsupported, E->getExprLoc(),
       llvm::formatv("an access through {0} (structures and vector types "
                     "are not modelled)",
                     E->getStmtClassName())
           .str());
  return Vals(Th.size(), P.undef());
}

void Exec::assign(const Expr *L, const Vals &V, const Mask &M,
                  llvm::StringRef Acc) {
  if (const VarDecl *Var = localVar(L)) {
    for (unsigned T : M)
      Th[T].Env[Var] = convert(V[T], Var->getType());
    return;
  }
  Vals FI;
  if (const VarDecl *FV = fragElem(L, M, FI)) {
    for (unsigned T : M)
      Th[T].Frags[FV][size_t(FI[T]->I)] = P.cast(FragTy[FV].Elem, V[T]);
    return;
  }
  if (failed())
    return;
  Vals A = evalAddr(L, M);
  for (unsigned T : M) {
    if (failed())
      return;
    writePtr(A[T], T, V[T], L->getExprLoc(), Acc);
  }
}

Vals Exec::nonNull(const Vals &Ptrs, const Mask &M, SourceLocation L,
                   bool NonNull) {
  Vals R(Th.size());
  for (unsigned T : M) {
    if (failed())
      break;
    if (!Ptrs[T] || Ptrs[T]->K != SK::Ptr) {
      fail(Failure::Unsupported, L,
           "a pointer compared with null that the model does not follow");
      break;
    }
    R[T] = P.boolc(NonNull);
  }
  return failed() ? Vals(Th.size(), P.undef()) : R;
}

bool Exec::readLanes(const Vals &A, unsigned N, QualType Elem, const Mask &M,
                     SourceLocation L, std::vector<Vals> &Out) {
  for (unsigned T : M) {
    if (failed())
      return false;
    if (!A[T] || A[T]->K != SK::Ptr) {
      fail(Failure::Unsupported, L, "a record the model does not follow");
      return false;
    }
    for (unsigned K = 0; K < N && !failed(); ++K)
      Out[K][T] = readPtr(lanePtr(A[T], K, Elem), T, L);
  }
  return !failed();
}

bool Exec::evalLanes(const Expr *E, unsigned N, QualType Elem, const Mask &M,
                     std::vector<Vals> &Out) {
  Out.assign(N, Vals(Th.size()));
  const Expr *S = stripE(E)->IgnoreParenImpCasts();
  // A copy (a trivial copy or move constructor) reads its source; a
  // functional cast of a braced list (`Stats{a, b}`) is that list.
  while (true) {
    if (auto *FC = dyn_cast<CXXFunctionalCastExpr>(S);
        FC && isa<InitListExpr>(FC->getSubExpr()->IgnoreImplicit())) {
      S = FC->getSubExpr()->IgnoreImplicit();
      continue;
    }
    auto *CC = dyn_cast<CXXConstructExpr>(S);
    if (!CC || CC->getNumArgs() != 1 ||
        !CC->getConstructor()->isCopyOrMoveConstructor())
      break;
    S = stripE(CC->getArg(0))->IgnoreParenImpCasts();
  }
  auto Conv = [&](Vals X) {
    for (unsigned T : M)
      X[T] = convert(X[T], Elem);
    return X;
  };
  if (auto *IL = dyn_cast<InitListExpr>(S)) {
    if (IL->getNumInits() > N)
      return false;
    for (unsigned K = 0; K < N; ++K) {
      if (K < IL->getNumInits() && !isa<ImplicitValueInitExpr>(IL->getInit(K)))
        Out[K] = Conv(eval(IL->getInit(K), M));
      else // aggregate initialisation: the rest are zero
        for (unsigned T : M)
          Out[K][T] = P.cast(tyOf(Elem), P.intc(0));
      if (failed())
        return false;
    }
    return true;
  }
  // A cache-hinted load of a record (__ldg(p4 + i)): the record at *p.
  if (auto *C = dyn_cast<CallExpr>(S))
    if (C->getNumArgs() == 1 && isCacheHintLoad(calleeName(C))) {
      Vals A = eval(C->getArg(0), M);
      return !failed() && readLanes(A, N, Elem, M, S->getExprLoc(), Out);
    }
  // make_float4(x, y, z, w) and its kin: the CUDA vector constructors,
  // one argument per field in order.
  if (auto *C = dyn_cast<CallExpr>(S))
    if (C->getNumArgs() == N && calleeName(C).starts_with("make_") &&
        lanesOf(C->getType())) {
      for (unsigned K = 0; K < N; ++K) {
        Out[K] = Conv(eval(C->getArg(K), M));
        if (failed())
          return false;
      }
      return true;
    }
  if (S->isGLValue() && lanesOf(S->getType())) {
    Vals A = evalAddr(S, M);
    return !failed() && readLanes(A, N, Elem, M, S->getExprLoc(), Out);
  }
  // A device function returning the record by value: executed inline, its
  // return statements give the lanes.
  if (auto *C = dyn_cast<CallExpr>(S)) {
    const FunctionDecl *F = C->getDirectCallee();
    if (F && F->getDefinition() && F->getDefinition()->hasBody() &&
        !F->hasAttr<CUDAGlobalAttr>() && !isa<CXXMethodDecl>(F) &&
        lanesOf(F->getReturnType()) == N) {
      std::vector<Vals> L;
      inlineCall(F, C, M, &L);
      if (failed())
        return false;
      for (unsigned K = 0; K < N; ++K)
        Out[K] = Conv(std::move(L[K]));
      return true;
    }
  }
  fail(Failure::Unsupported, S->getExprLoc(),
       llvm::formatv("a value of type {0} made by {1}: records of one scalar "
                     "type are modelled from initialiser lists, make_* "
                     "constructors and copies",
                     S->getType().getAsString(), S->getStmtClassName())
           .str());
  return false;
}

void Exec::storeLanes(const Expr *Dst, const std::vector<Vals> &Lanes,
                      QualType Elem, const Mask &M) {
  Vals A = evalAddr(Dst, M);
  if (failed())
    return;
  storeLanesAt(A, Lanes, Elem, M, Dst->getExprLoc());
}

void Exec::storeLanesAt(const Vals &A, const std::vector<Vals> &Lanes,
                        QualType Elem, const Mask &M, SourceLocation L) {
  for (unsigned T : M) {
    if (failed())
      return;
    if (!A[T] || A[T]->K != SK::Ptr) {
      fail(Failure::Unsupported, L,
           "a store of a record the model does not follow");
      return;
    }
    for (size_t K = 0; K < Lanes.size() && !failed(); ++K)
      writePtr(lanePtr(A[T], unsigned(K), Elem), T, Lanes[K][T], L);
  }
}

SymP Exec::lanePtr(SymP A, unsigned K, QualType Elem) {
  return P.ptr(A->D, P.bin("+", A->Ops[0], P.intc(int64_t(K))), tyOf(Elem));
}

Vals Exec::evalBinary(const BinaryOperator *B, const Mask &M) {
  BinaryOperatorKind K = B->getOpcode();
  Vals R(Th.size());
  if (K == BO_Comma) {
    (void)eval(B->getLHS(), M);
    return eval(B->getRHS(), M);
  }
  if (K == BO_Assign) {
    Vals V = eval(B->getRHS(), M);
    if (failed())
      return V;
    Vals Conv(Th.size());
    for (unsigned T : M)
      Conv[T] = convert(V[T], B->getLHS()->getType());
    assign(B->getLHS(), Conv, M);
    return Conv;
  }
  // A pointer to a record of one scalar type steps N scalars.
  auto Scaled = [&](const Expr *PtrE, Vals V) {
    QualType PT = PtrE->getType();
    unsigned N = PT->isPointerType() ? lanesOf(PT->getPointeeType()) : 0;
    if (N > 1)
      for (unsigned T : M)
        if (V[T])
          V[T] = P.bin("*", V[T], P.intc(int64_t(N)));
    return V;
  };
  if (B->isCompoundAssignmentOp()) {
    Vals Old = eval(B->getLHS(), M), V = eval(B->getRHS(), M);
    if (failed())
      return V;
    if (K == BO_AddAssign || K == BO_SubAssign)
      V = Scaled(B->getLHS(), V);
    const char *Op = binOpName(K);
    Vals N = arith(Op, Old, V, M, B->getOperatorLoc());
    for (unsigned T : M)
      N[T] = convert(N[T], B->getLHS()->getType());
    assign(B->getLHS(), N, M);
    return N;
  }
  if (K == BO_LAnd || K == BO_LOr) {
    // The right operand is evaluated only by the threads whose left one
    // does not decide (as C does): `tid < s && f(s_arr[tid + s])` must not
    // read past the array for the threads where tid < s is false.  A
    // symbolic left operand evaluates both.
    Vals A = eval(B->getLHS(), M);
    if (failed())
      return A;
    Mask MR;
    for (unsigned T : M) {
      bool Known = A[T]->isConst();
      bool True = Known && (A[T]->K == SK::Int ? A[T]->I != 0 : A[T]->F != 0);
      if (!Known || True == (K == BO_LAnd))
        MR.push_back(T);
    }
    Vals C = MR.empty() ? Vals(Th.size()) : eval(B->getRHS(), MR);
    if (failed())
      return A;
    for (unsigned T : M) {
      SymP X = A[T]->T == Ty::Bool ? A[T] : P.logicalNot(P.logicalNot(A[T]));
      if (!C[T]) { // decided by the left operand: false for &&, true for ||
        R[T] = X;
        continue;
      }
      SymP Y = C[T]->T == Ty::Bool ? C[T] : P.logicalNot(P.logicalNot(C[T]));
      R[T] = K == BO_LAnd ? P.logicalAnd(X, Y)
                          : P.logicalNot(P.logicalAnd(P.logicalNot(X),
                                                      P.logicalNot(Y)));
    }
    return R;
  }
  // A pointer compared with null (`mean != nullptr`: an optional input or
  // output): pointers the model follows point to something.
  if (K == BO_EQ || K == BO_NE)
    for (auto [X, Y] : {std::pair{B->getLHS(), B->getRHS()},
                        std::pair{B->getRHS(), B->getLHS()}})
      if (X->getType()->isPointerType() &&
          Y->IgnoreParenImpCasts()->isNullPointerConstant(
              Ctx, Expr::NPC_ValueDependentIsNotNull))
        return nonNull(eval(X, M), M, B->getOperatorLoc(), K == BO_NE);
  Vals A = eval(B->getLHS(), M), C = eval(B->getRHS(), M);
  if (failed())
    return A;
  const char *Op = binOpName(K);
  if (!Op) {
    fail(Failure::Unsupported, B->getOperatorLoc(),
         llvm::formatv("operator {0}", B->getOpcodeStr()).str());
    return A;
  }
  if (B->isComparisonOp()) {
    for (unsigned T : M)
      R[T] = P.cmp(Op, A[T], C[T]);
    return R;
  }
  if (K == BO_Add || K == BO_Sub) {
    if (B->getLHS()->getType()->isPointerType() &&
        !B->getRHS()->getType()->isPointerType())
      C = Scaled(B->getLHS(), C);
    else if (B->getRHS()->getType()->isPointerType() &&
             !B->getLHS()->getType()->isPointerType())
      A = Scaled(B->getRHS(), A);
    else if (B->getLHS()->getType()->isPointerType() &&
             lanesOf(B->getLHS()->getType()->getPointeeType()) > 1) {
      fail(Failure::Unsupported, B->getOperatorLoc(),
           "the difference of two pointers to records");
      return A;
    }
  }
  return arith(Op, A, C, M, B->getOperatorLoc());
}

Vals Exec::evalUnary(const UnaryOperator *U, const Mask &M) {
  Vals R(Th.size());
  switch (U->getOpcode()) {
  case UO_Deref: {
    Vals A = eval(U->getSubExpr(), M);
    for (unsigned T : M)
      if (!failed())
        R[T] = readPtr(A[T], T, U->getExprLoc());
    return R;
  }
  case UO_AddrOf:
    return evalAddr(U->getSubExpr(), M);
  case UO_Plus:
    return eval(U->getSubExpr(), M);
  case UO_Minus: {
    Vals A = eval(U->getSubExpr(), M);
    for (unsigned T : M)
      R[T] = P.un("neg", A[T]);
    return R;
  }
  case UO_LNot: {
    Vals A = eval(U->getSubExpr(), M);
    for (unsigned T : M)
      R[T] = P.logicalNot(A[T]);
    return R;
  }
  case UO_Not: {
    Vals A = eval(U->getSubExpr(), M);
    for (unsigned T : M)
      R[T] = P.bin("^", A[T], P.intc(-1));
    return R;
  }
  case UO_PreInc:
  case UO_PreDec:
  case UO_PostInc:
  case UO_PostDec: {
    Vals Old = eval(U->getSubExpr(), M);
    Vals One(Th.size());
    QualType PT = U->getSubExpr()->getType();
    unsigned Step = PT->isPointerType() ? lanesOf(PT->getPointeeType()) : 0;
    for (unsigned T : M)
      One[T] = P.intc(Step > 1 ? int64_t(Step) : 1);
    Vals N = arith(U->isIncrementOp() ? "+" : "-", Old, One, M,
                   U->getOperatorLoc());
    for (unsigned T : M)
      N[T] = convert(N[T], U->getSubExpr()->getType());
    assign(U->getSubExpr(), N, M);
    return U->isPrefix() ? N : Old;
  }
  default:
    fail(Failure::Unsupported, U->getOperatorLoc(),
         llvm::formatv("operator {0}",
                       UnaryOperator::getOpcodeStr(U->getOpcode()))
             .str());
    return R;
  }
}
