//===- KernelModel.cpp - symbolic execution of one block of a kernel ------===//
// Rules: none (shared analysis)
//
// Statements run for a mask of threads in lockstep: an expression is
// evaluated for every active thread before any of its side effects happen
// (as a warp executes an instruction), so warp-synchronous code and
// shuffles mean what they mean on the hardware.  A condition that is
// concrete per thread (tid < s) splits the mask; a symbolic one (row <
// rows) runs both branches for the thread and merges the locals with
// selects, a `return` under it becoming a guard on everything after.
// See KernelModel.h for the model; KernelModelLoops.cpp has the loops.
//
//===----------------------------------------------------------------------===//
#include "KernelModelImpl.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/Attr.h"
#include "clang/AST/ExprCXX.h"
#include "llvm/Support/FormatVariadic.h"
#include <algorithm>
#include <functional>

using namespace pk;
using namespace pk::km;
using namespace clang;

Ty km::tyOf(QualType Q) {
  Q = Q.getCanonicalType().getUnqualifiedType();
  if (Q->isReferenceType())
    Q = Q->getPointeeType().getCanonicalType().getUnqualifiedType();
  if (Q->isBooleanType())
    return Ty::Bool;
  if (Q->isHalfType() || Q->isFloat16Type())
    return Ty::F16;
  if (Q->isBFloat16Type())
    return Ty::BF16;
  if (Q->isRealFloatingType())
    return Ty::F32;
  if (Q->isIntegerType() || Q->isEnumeralType())
    return Q->isUnsignedIntegerType() ? Ty::U32 : Ty::I32;
  std::string S = Q.getAsString();
  if (S.find("bfloat16") != std::string::npos)
    return Ty::BF16;
  if (S.find("__half") != std::string::npos && S.find("half2") == std::string::npos)
    return Ty::F16;
  return Ty::F32;
}

bool km::isScalarType(QualType Q) {
  Q = Q.getCanonicalType();
  if (Q->isReferenceType())
    Q = Q->getPointeeType().getCanonicalType();
  if (Q->isArithmeticType() || Q->isEnumeralType())
    return true;
  std::string S = Q.getUnqualifiedType().getAsString();
  return S == "struct __half" || S == "__half" || S == "struct __nv_bfloat16" ||
         S == "__nv_bfloat16" || S == "struct __hip_bfloat16";
}

bool Exec::bindRef(const VarDecl *V, const Expr *E, const Mask &M) {
  const Expr *S = stripE(E)->IgnoreParenImpCasts();
  if (!S->isGLValue())
    return false;
  Vals A = evalAddr(S, M);
  if (failed())
    return false;
  for (unsigned T : M)
    if (!A[T] || A[T]->K != SK::Ptr)
      return false;
  Vals &R = RefAddr[V];
  R.resize(Th.size());
  for (unsigned T : M)
    R[T] = A[T];
  return true;
}

unsigned km::lanesOf(QualType Q, QualType *Elem) {
  Q = Q.getCanonicalType().getUnqualifiedType();
  if (isScalarType(Q))
    return 0; // __half and friends are records too
  const RecordDecl *R = Q->getAsRecordDecl();
  if (!R || R->isUnion() || !R->getDefinition())
    return 0;
  R = R->getDefinition();
  if (auto *C = dyn_cast<CXXRecordDecl>(R))
    if (C->getNumBases() || C->isPolymorphic() || !C->isTriviallyCopyable())
      return 0;
  unsigned N = 0;
  QualType E;
  for (const FieldDecl *F : R->fields()) {
    QualType FT = F->getType().getCanonicalType().getUnqualifiedType();
    if (F->isBitField() || !isScalarType(FT) || (N && FT != E))
      return 0;
    E = FT;
    ++N;
  }
  if (N == 0 || N > 16)
    return 0;
  if (Elem)
    *Elem = E;
  return N;
}

const Expr *km::stripE(const Expr *E) {
  while (true) {
    const Expr *N = E->IgnoreParens();
    if (auto *EW = dyn_cast<ExprWithCleanups>(N))
      N = EW->getSubExpr();
    if (auto *MT = dyn_cast<MaterializeTemporaryExpr>(N))
      N = MT->getSubExpr();
    if (auto *BT = dyn_cast<CXXBindTemporaryExpr>(N))
      N = BT->getSubExpr();
    if (N == E)
      return E;
    E = N;
  }
}

//===----------------------------------------------------------------------===//
// The executor: state and statements.
//===----------------------------------------------------------------------===//

Exec::Exec(ASTContext &Ctx, const FunctionDecl *FD, BlockShape Shape,
           SymPool &P, Trace &Tr, unsigned Wave)
    : Ctx(Ctx), FD(FD), Shape(Shape), P(P), Tr(Tr), Wave(Wave) {
  unsigned N = Shape.size();
  Th.resize(N);
  Tr.Shape = Shape;
  for (unsigned Z = 0; Z < Shape.Z; ++Z)
    for (unsigned Y = 0; Y < Shape.Y; ++Y)
      for (unsigned X = 0; X < Shape.X; ++X)
        Tr.Tid.push_back({X, Y, Z});
}

void Exec::fail(Failure::Kind K, SourceLocation L, std::string M) {
  if (!Tr.F)
    Tr.F = Failure{K, L, std::move(M)};
}

Mask Exec::live(const Mask &M) const {
  Mask R;
  R.reserve(M.size());
  for (unsigned T : M)
    if (Th[T].Live && !(Frames.size() && Frames.back().Done[T]))
      R.push_back(T);
  return R;
}

void Exec::run() {
  for (const ParmVarDecl *PV : FD->parameters()) {
    Tr.Params.push_back(PV);
    QualType Q = PV->getType();
    SymP V;
    QualType LE;
    if (Q->isPointerType())
      V = P.ptr(
          PV, P.intc(0),
          tyOf(lanesOf(Q->getPointeeType(), &LE) ? LE : Q->getPointeeType()));
    else if (PV == BlockParam && Q->isIntegerType())
      V = P.intc(int64_t(Shape.X), tyOf(Q));
    else if (isScalarType(Q))
      V = P.param(PV, tyOf(Q));
    else {
      fail(Failure::Unsupported, PV->getLocation(),
           llvm::formatv("parameter '{0}' of type {1} (only pointers and "
                         "scalars are modelled)",
                         PV->getName(), Q.getAsString())
               .str());
      return;
    }
    for (ThreadState &S : Th)
      S.Env[PV] = V;
  }
  Mask All;
  for (unsigned T = 0; T < Th.size(); ++T)
    All.push_back(T);
  exec(FD->getBody(), All);
}

void Exec::exec(const Stmt *S, const Mask &M0) {
  if (!S || failed())
    return;
  Mask M = live(M0);
  if (M.empty())
    return;
  if (auto *C = dyn_cast<CompoundStmt>(S)) {
    for (const Stmt *X : C->body()) {
      exec(X, M);
      if (failed())
        return;
    }
    return;
  }
  if (auto *A = dyn_cast<AttributedStmt>(S))
    return exec(A->getSubStmt(), M);
  if (isa<NullStmt>(S))
    return;
  if (auto *DS = dyn_cast<DeclStmt>(S))
    return declare(DS, M);
  if (auto *I = dyn_cast<IfStmt>(S))
    return execIf(I, M);
  if (auto *F = dyn_cast<ForStmt>(S))
    return execLoop(F, F->getInit(), F->getCond(), F->getInc(), F->getBody(),
                    M);
  if (auto *W = dyn_cast<WhileStmt>(S))
    return execLoop(W, nullptr, W->getCond(), nullptr, W->getBody(), M);
  if (auto *R = dyn_cast<ReturnStmt>(S)) {
    if (Frames.empty()) {
      for (unsigned T : M)
        Th[T].Live = false;
      return;
    }
    if (Frame &Fr = Frames.back(); Fr.Lanes) {
      // A record returned by value: its lanes, per thread.
      std::vector<Vals> L;
      if (!R->getRetValue() ||
          !evalLanes(R->getRetValue(), Fr.Lanes, Fr.LaneElem, M, L))
        return;
      for (unsigned T : M) {
        for (unsigned K = 0; K < Fr.Lanes; ++K)
          Fr.RetLanes[K][T] = L[K][T];
        Fr.Done[T] = 1;
      }
      return;
    }
    Vals V;
    if (R->getRetValue())
      V = eval(R->getRetValue(), M);
    if (failed())
      return;
    for (unsigned T : M) {
      Frames.back().Ret[T] = V.empty() ? nullptr : V[T];
      Frames.back().Done[T] = 1;
    }
    return;
  }
  if (auto *E = dyn_cast<Expr>(S)) {
    (void)eval(E, M);
    return;
  }
  fail(Failure::Unsupported, S->getBeginLoc(),
       llvm::formatv("statement ({0}) is not modelled", S->getStmtClassName())
           .str());
}

void Exec::declare(const DeclStmt *DS, const Mask &M) {
  for (const Decl *D : DS->decls()) {
    auto *V = dyn_cast<VarDecl>(D);
    if (!V)
      continue;
    if (V->hasAttr<CUDASharedAttr>()) {
      QualType Base =
          V->getType()->isArrayType()
              ? QualType(V->getType()->getBaseElementTypeUnsafe(), 0)
              : V->getType();
      // An array of records of one scalar type: their lanes in a row.
      QualType LE;
      unsigned Lanes = V->getType()->isArrayType() ? lanesOf(Base, &LE) : 0;
      Shared[V].Elem = tyOf(Lanes ? LE : Base);
      if (auto *CA = Ctx.getAsConstantArrayType(V->getType())) {
        uint64_t N = Lanes ? Lanes : 1;
        QualType Q = V->getType();
        while (auto *A = Ctx.getAsConstantArrayType(Q)) {
          N *= A->getSize().getZExtValue();
          Q = A->getElementType();
        }
        (void)CA;
        Shared[V].Size = int64_t(N);
      } else {
        Shared[V].Size = -1;
        Tr.UsesSharedBytes = true;
      }
      continue;
    }
    if (V->isStaticLocal() && !V->getType().isConstQualified()) {
      fail(Failure::Unsupported, V->getLocation(),
           llvm::formatv("static local '{0}'", V->getName()).str());
      return;
    }
    QualType Q = V->getType();
    if (auto *CA = Ctx.getAsConstantArrayType(Q)) {
      uint64_t N = CA->getSize().getZExtValue();
      if (!isScalarType(CA->getElementType()) || N > 1024) {
        fail(Failure::Unsupported, V->getLocation(),
             llvm::formatv("local array '{0}' of {1}", V->getName(),
                           Q.getAsString())
                 .str());
        return;
      }
      for (unsigned T : M)
        Th[T].Arrays[V].assign(N, P.undef(tyOf(CA->getElementType())));
      if (auto *IL = dyn_cast_or_null<InitListExpr>(V->getInit())) {
        for (unsigned I = 0; I < IL->getNumInits() && I < N; ++I) {
          Vals X = eval(IL->getInit(I), M);
          for (unsigned T : M)
            Th[T].Arrays[V][I] = X[T];
        }
      }
      continue;
    }
    if (Q->isReferenceType()) {
      // A reference binds to a local (an alias) or to memory, anew each
      // time its declaration runs.
      Alias.erase(V);
      RefAddr.erase(V);
      const Expr *Init = V->getInit();
      if (Init)
        if (auto *DR = dyn_cast<DeclRefExpr>(stripE(Init)->IgnoreImpCasts()))
          if (auto *Tgt = dyn_cast<VarDecl>(DR->getDecl()))
            if (!Tgt->hasAttr<CUDASharedAttr>() &&
                !Ctx.getAsConstantArrayType(Tgt->getType())) {
              Alias[V] = Tgt;
              continue;
            }
      if (Init && bindRef(V, Init, M))
        continue;
      if (failed())
        return;
      fail(Failure::Unsupported, V->getLocation(),
           llvm::formatv("reference '{0}' to memory", V->getName()).str());
      return;
    }
    std::string FragWhy;
    if (auto FI = fragInfo(Q, FragWhy)) {
      if (!FI->Ok) {
        fail(Failure::Unsupported, V->getLocation(),
             llvm::formatv("WMMA fragment '{0}': {1}", V->getName(), FragWhy)
                 .str());
        return;
      }
      declareFrag(V, *FI, M);
      continue;
    }
    if (groupSize(Q)) {
      Vals X = eval(V->getInit(), M);
      for (unsigned T : M)
        Th[T].Env[V] = X[T];
      continue;
    }
    QualType LE;
    if (unsigned N = lanesOf(Q, &LE)) {
      // N lanes, like a local array; undefined until written (C leaves a
      // local without an initialiser so).
      for (unsigned T : M)
        Th[T].Arrays[V].assign(N, P.undef(tyOf(LE)));
      const Expr *Init = V->getInit();
      if (Init && !isa<ImplicitValueInitExpr>(Init)) {
        const Expr *I = stripE(Init)->IgnoreParenImpCasts();
        auto *CC = dyn_cast<CXXConstructExpr>(I);
        if (!CC || CC->getNumArgs() != 0) {
          std::vector<Vals> Lanes;
          if (!evalLanes(Init, N, LE, M, Lanes))
            return;
          for (unsigned T : M)
            for (unsigned K = 0; K < N; ++K)
              Th[T].Arrays[V][K] = Lanes[K][T];
        }
      }
      continue;
    }
    if (!Q->isPointerType() && !isScalarType(Q)) {
      fail(Failure::Unsupported, V->getLocation(),
           llvm::formatv("local '{0}' of type {1}: only scalars, pointers, "
                         "arrays of scalars and records of one scalar type "
                         "are modelled",
                         V->getName(), Q.getAsString())
               .str());
      return;
    }
    Vals X;
    if (V->getInit() && !isa<ImplicitValueInitExpr>(V->getInit()))
      X = eval(V->getInit(), M);
    if (failed())
      return;
    Ty T = Q->isPointerType() ? Ty::I32 : tyOf(Q);
    for (unsigned Th_ : M) {
      SymP Val = X.empty() ? P.undef(T) : X[Th_];
      if (!Q->isPointerType() && Val->T != T)
        Val = P.cast(T, Val);
      Th[Th_].Env[V] = Val;
    }
  }
}

bool Exec::hasCollective(const Stmt *S) {
  if (!S)
    return false;
  if (auto *C = dyn_cast<CallExpr>(S)) {
    llvm::StringRef N = calleeName(C);
    if (auto *F = C->getDirectCallee())
      if (F->getQualifiedNameAsString().find("cooperative_groups") !=
              std::string::npos &&
          (N.starts_with("shfl") || N == "sync" || N == "reduce"))
        return true;
    if (N == "__syncthreads" || N.starts_with("__shfl") ||
        N == "load_matrix_sync" || N == "store_matrix_sync" ||
        N == "mma_sync" ||
        N.starts_with("__ballot") || N.starts_with("__any") ||
        N.starts_with("__all") || N.starts_with("__reduce"))
      return true;
    if (auto *F = C->getDirectCallee())
      if (F->hasBody() && !F->hasAttr<CUDAGlobalAttr>() && Depth < 8) {
        ++Depth;
        bool R = hasCollective(F->getBody());
        --Depth;
        if (R)
          return true;
      }
  }
  for (const Stmt *Ch : S->children())
    if (hasCollective(Ch))
      return true;
  return false;
}

void Exec::execIf(const IfStmt *I, const Mask &M) {
  if (I->getInit())
    exec(I->getInit(), M);
  Vals C = eval(I->getCond(), M);
  if (failed())
    return;
  Mask Mt, Mf, Ms;
  for (unsigned T : M) {
    if (C[T]->K == SK::Undef) {
      fail(Failure::Undefined, I->getCond()->getBeginLoc(),
           "the condition reads a value no thread wrote");
      return;
    }
    if (C[T]->isConst())
      (C[T]->K == SK::Int ? C[T]->I != 0 : C[T]->F != 0) ? Mt.push_back(T)
                                                         : Mf.push_back(T);
    else
      Ms.push_back(T);
  }
  exec(I->getThen(), Mt);
  if (I->getElse())
    exec(I->getElse(), Mf);
  if (Ms.empty() || failed())
    return;
  if (hasCollective(I)) {
    fail(Failure::Divergent, I->getIfLoc(),
         "a barrier or warp operation under a condition that depends on the "
         "sizes or the data (not on the thread index alone): the threads "
         "that reach it cannot be known");
    return;
  }
  // Both branches for each thread of Ms, then merge.
  std::vector<ThreadState> Before;
  for (unsigned T : Ms)
    Before.push_back(Th[T]);
  SymP OuterBase = UniformBase;
  if (SymBranch == 0) {
    UniformBase = nullptr;
    bool First = true, Same = true;
    for (const ThreadState &X : Th)
      if (X.Live) {
        Same &= First || X.Guard == UniformBase;
        UniformBase = X.Guard;
        First = false;
      }
    if (!Same)
      UniformBase = nullptr;
  }
  ++SymBranch;
  for (size_t K = 0; K < Ms.size(); ++K)
    Th[Ms[K]].Guard = P.logicalAnd(Before[K].Guard, C[Ms[K]]);
  exec(I->getThen(), Ms);
  std::vector<ThreadState> After;
  for (unsigned T : Ms)
    After.push_back(Th[T]);
  for (size_t K = 0; K < Ms.size(); ++K) {
    Th[Ms[K]] = Before[K];
    Th[Ms[K]].Guard = P.logicalAnd(Before[K].Guard, P.logicalNot(C[Ms[K]]));
  }
  if (I->getElse())
    exec(I->getElse(), Ms);
  --SymBranch;
  UniformBase = OuterBase;
  if (failed())
    return;
  for (size_t K = 0; K < Ms.size(); ++K) {
    unsigned T = Ms[K];
    ThreadState &E = Th[T];
    ThreadState &A = After[K];
    if (Frames.size() && Frames.back().Done[T]) {
      fail(Failure::Unsupported, I->getIfLoc(),
           "a device function returns under a condition on the sizes or "
           "the data");
      return;
    }
    if (!A.Live && !E.Live)
      continue;
    if (!A.Live) { // the then-branch returned: the rest runs under !C
      E.Guard = P.logicalAnd(Before[K].Guard, P.logicalNot(C[T]));
      continue;
    }
    if (!E.Live) {
      E = A;
      E.Guard = P.logicalAnd(Before[K].Guard, C[T]);
      continue;
    }
    for (auto &[V, XA] : A.Env) {
      auto It = E.Env.find(V);
      if (It == E.Env.end() || !Before[K].Env.count(V))
        continue;
      if (It->second != XA)
        It->second = P.select(C[T], XA, It->second);
    }
    for (auto &[V, XA] : A.Arrays) {
      auto It = E.Arrays.find(V);
      if (It == E.Arrays.end() || !Before[K].Arrays.count(V))
        continue;
      for (size_t J = 0; J < XA.size() && J < It->second.size(); ++J)
        if (It->second[J] != XA[J])
          It->second[J] = P.select(C[T], XA[J], It->second[J]);
    }
    for (auto &[V, XA] : A.Frags) {
      auto It = E.Frags.find(V);
      if (It == E.Frags.end() || !Before[K].Frags.count(V))
        continue;
      for (size_t J = 0; J < XA.size() && J < It->second.size(); ++J)
        if (It->second[J] != XA[J])
          It->second[J] = P.select(C[T], XA[J], It->second[J]);
    }
    E.Guard = Before[K].Guard;
  }
}

//===----------------------------------------------------------------------===//
// Memory.
//===----------------------------------------------------------------------===//

std::optional<size_t> Exec::ownStore(unsigned T, const ValueDecl *D, SymP Off,
                                     std::map<SymP, SymP> &Ren) {
  auto Iters = [&](SymP S) {
    std::vector<SymP> Out;
    std::set<SymP> Seen;
    std::vector<SymP> Work{S};
    while (!Work.empty()) {
      SymP X = Work.back();
      Work.pop_back();
      if (!P.containsKind(X, SK::Iter) || !Seen.insert(X).second)
        continue;
      if (X->K == SK::Iter)
        Out.push_back(X);
      Work.insert(Work.end(), X->Ops.begin(), X->Ops.end());
    }
    return Out;
  };
  const auto &Own = Th[T].Own;
  for (auto It = Own.rbegin(); It != Own.rend(); ++It) {
    const Store &St = Tr.Stores[*It];
    if (St.P != D || St.Guard != Th[T].Guard)
      continue;
    Ren.clear();
    if (St.Idx == Off)
      return *It;
    // One loop variable each, over the same range: the same elements.
    std::vector<SymP> A = Iters(St.Idx), B = Iters(Off);
    if (A.size() != 1 || B.size() != 1 || A[0]->Ops != B[0]->Ops)
      continue;
    Ren[A[0]] = B[0];
    if (P.subst(St.Idx, Ren) == Off)
      return *It;
  }
  Ren.clear();
  return std::nullopt;
}

SymP Exec::readPtr(SymP Ptr, unsigned T, SourceLocation L) {
  if (Ptr->K != SK::Ptr) {
    fail(Failure::Unsupported, L, "a pointer the model does not follow");
    return P.undef();
  }
  const ValueDecl *D = Ptr->D;
  SymP Off = Ptr->Ops[0];
  // Global memory: the kernel's pointer parameters (a device function's
  // record parameter by value is a local's lanes).
  if (isa<ParmVarDecl>(D) && !Th[T].Arrays.count(cast<VarDecl>(D))) {
    if (P.containsKind(Off, SK::Load)) {
      fail(Failure::DataDependent, L,
           "the index of this access depends on data read at run time (a "
           "gather): a tile access must be a rectangle known when the kernel "
           "is traced");
      return P.undef();
    }
    // What this thread stored there itself (a row written, then read
    // back or normalised in place).
    std::map<SymP, SymP> Ren;
    if (auto I = ownStore(T, D, Off, Ren))
      return Ren.empty() ? Tr.Stores[*I].Val : P.subst(Tr.Stores[*I].Val, Ren);
    for (size_t I : Th[T].Own)
      if (Tr.Stores[I].P == D) {
        if (!llvm::is_contained(Tr.ReadAfterOwnStore, D))
          Tr.ReadAfterOwnStore.push_back(D);
        break;
      }
    return P.load(D, Off, Ptr->T);
  }
  auto *V = cast<VarDecl>(D);
  if (Off->K != SK::Int) {
    fail(Off->isConst() || P.containsKind(Off, SK::Load)
             ? Failure::DataDependent
             : Failure::Unsupported,
         L,
         llvm::formatv("the index into '{0}' is not decided by the thread "
                       "index and the block shape",
                       V->getName())
             .str());
    return P.undef();
  }
  auto SA = Shared.find(V);
  if (SA == Shared.end()) { // a local array
    auto &Arr = Th[T].Arrays[V];
    if (Off->I < 0 || size_t(Off->I) >= Arr.size()) {
      fail(Failure::Unsupported, L,
           llvm::formatv("index {0} outside local array '{1}'", Off->I,
                         V->getName())
               .str());
      return P.undef();
    }
    return Arr[Off->I];
  }
  SharedArr &A = SA->second;
  if (Off->I < 0 || (A.Size >= 0 && Off->I >= A.Size)) {
    fail(Failure::Shape, L,
         llvm::formatv("index {0} outside __shared__ '{1}' ({2} elements) "
                       "at this block shape",
                       Off->I, V->getName(), A.Size)
             .str());
    return P.undef();
  }
  Slot &S = A.Slots[Off->I];
  unsigned W = T / Wave;
  // A read of another thread's write needs a barrier between, or, within
  // a warp, __syncwarp (lanes are not in lockstep since Volta).
  if (S.WPhase == Phase && S.Writer != T && !S.Atomic &&
      (S.Writer / Wave != W || S.WSync == WarpSync[W])) {
    fail(Failure::Race, L,
         llvm::formatv("'{0}[{1}]' is read by thread {2} and written by "
                       "thread {3} with no {4} between (a data race: "
                       "independent thread scheduling does not keep lanes "
                       "in lockstep)",
                       V->getName(), Off->I, T, S.Writer,
                       S.Writer / Wave != W ? "__syncthreads()"
                                          : "__syncwarp() or barrier")
             .str());
    return P.undef();
  }
  if (S.RPhase != Phase) {
    S.RPhase = Phase;
    S.ReadWarps = 0;
    S.Readers.clear();
  }
  S.ReadWarps |= uint64_t(1) << (W & 63);
  if (S.Readers.size() < 4)
    S.Readers.push_back({T, WarpSync[W]});
  if (!S.V)
    return P.undef(A.Elem);
  return S.V;
}

void Exec::writePtr(SymP Ptr, unsigned T, SymP Val, SourceLocation L,
                    llvm::StringRef Acc) {
  if (Ptr->K != SK::Ptr) {
    fail(Failure::Unsupported, L, "a store through a pointer the model does "
                                  "not follow");
    return;
  }
  const ValueDecl *D = Ptr->D;
  SymP Off = Ptr->Ops[0];
  // Global memory: the kernel's pointer parameters (a device function's
  // record parameter by value is a local's lanes).
  if (isa<ParmVarDecl>(D) && !Th[T].Arrays.count(cast<VarDecl>(D))) {
    if (P.containsKind(Off, SK::Load)) {
      fail(Failure::DataDependent, L,
           Acc.empty()
               ? "the position of this store depends on data read at run "
                 "time (a scatter or compaction): a tile store must be a "
                 "rectangle known when the kernel is traced"
               : (Acc == "+" ? std::string("atomicAdd")
                             : Acc == "max" ? "atomicMax" : "atomicMin") +
                     ": an atomic update at an address that depends on data "
                     "read at run time (a histogram-style scatter): NKI has "
                     "no contended read-modify-write of HBM");
      return;
    }
    if (Ptr->T != Val->T)
      Val = P.cast(Ptr->T, Val);
    bool Plain = !P.identity(Acc, Ty::F32);
    // A store of this thread to an element it stored before replaces it
    // (the last store is what memory holds).
    std::map<SymP, SymP> Ren;
    if (Plain)
      if (auto I = ownStore(T, D, Off, Ren)) {
        Store &St = Tr.Stores[*I];
        St.Idx = Off;
        St.Val = Val;
        St.Loc = L;
        return;
      }
    Tr.Stores.push_back(
        Store{T, D, Off, Val, Th[T].Guard, Plain ? "" : Acc, L});
    if (Plain)
      Th[T].Own.push_back(Tr.Stores.size() - 1);
    return;
  }
  auto *V = cast<VarDecl>(D);
  if (Off->K != SK::Int) {
    bool Data = P.containsKind(Off, SK::Load);
    fail(Data ? Failure::DataDependent : Failure::Unsupported, L,
         Data && !Acc.empty()
             ? llvm::formatv("{1}: an atomic update of '{0}' at an index "
                             "that depends on data read at run time (a "
                             "histogram-style scatter): tiles have no "
                             "contended read-modify-write",
                             V->getName(),
                             Acc == "+" ? "atomicAdd"
                                        : Acc == "max" ? "atomicMax"
                                                       : "atomicMin")
                   .str()
             : llvm::formatv("the index into '{0}' {1}", V->getName(),
                             Data ? "depends on data read at run time"
                                  : "is not decided by the thread index "
                                    "and the block shape")
                   .str());
    return;
  }
  auto SA = Shared.find(V);
  if (SA == Shared.end()) {
    auto &Arr = Th[T].Arrays[V];
    if (Off->I < 0 || size_t(Off->I) >= Arr.size()) {
      fail(Failure::Unsupported, L,
           llvm::formatv("index {0} outside local array '{1}'", Off->I,
                         V->getName())
               .str());
      return;
    }
    Arr[Off->I] = Val;
    return;
  }
  SharedArr &A = SA->second;
  if (Off->I < 0 || (A.Size >= 0 && Off->I >= A.Size)) {
    fail(Failure::Shape, L,
         llvm::formatv("index {0} outside __shared__ '{1}' ({2} elements) "
                       "at this block shape",
                       Off->I, V->getName(), A.Size)
             .str());
    return;
  }
  if (Val->T != A.Elem)
    Val = P.cast(A.Elem, Val);
  Slot &S = A.Slots[Off->I];
  // Under a condition on the sizes or the data (staging under a bounds
  // check): the slot keeps its value where the condition is false.
  if (SymBranch && Th[T].Guard && Acc.empty()) {
    // Without the block-uniform conditions of earlier returns.
    SymP G = Th[T].Guard;
    if (UniformBase) {
      std::vector<SymP> Base, Own;
      std::function<void(SymP, std::vector<SymP> &)> Split =
          [&](SymP X, std::vector<SymP> &Out) {
            if (X->K == SK::Bin && X->Op == "&&")
              for (SymP O : X->Ops)
                Split(O, Out);
            else
              Out.push_back(X);
          };
      Split(UniformBase, Base);
      Split(G, Own);
      G = nullptr;
      for (SymP X : Own)
        if (std::find(Base.begin(), Base.end(), X) == Base.end())
          G = P.logicalAnd(G, X);
    }
    if (G)
      Val = P.select(G, Val, S.V ? S.V : P.undef(A.Elem));
  } else if (SymBranch && !Acc.empty()) {
    fail(Failure::Unsupported, L,
         llvm::formatv("an atomic update of __shared__ '{0}' under a "
                       "condition on the sizes or the data",
                       V->getName())
             .str());
    return;
  }
  unsigned W = T / Wave;
  bool Atomic = !Acc.empty();
  bool ReadRace = S.RPhase == Phase &&
                  (S.ReadWarps & ~(uint64_t(1) << (W & 63)));
  if (S.RPhase == Phase)
    for (auto [R, Sync] : S.Readers)
      ReadRace |= R != T && R / Wave == W && Sync == WarpSync[W];
  if (ReadRace ||
      (S.WPhase == Phase && S.Writer != T && !(Atomic && S.Atomic) &&
       (S.Writer / Wave != W || S.WSync == WarpSync[W]) && S.V != Val)) {
    fail(Failure::Race, L,
         llvm::formatv("'{0}[{1}]' is written by warp {2} while other warps "
                       "use it, with no barrier between",
                       V->getName(), Off->I, W)
             .str());
    return;
  }
  if (Atomic) {
    SymP Old = S.V ? S.V : P.undef(A.Elem);
    Val = P.bin(Acc, Old, Val);
  }
  S.V = Val;
  S.WPhase = Phase;
  S.Writer = T;
  S.Atomic = Atomic;
  S.LoopDepth = LoopDepth;
  S.WSync = WarpSync[W];
}

void Exec::barrier(const Mask &M, SourceLocation L) {
  unsigned LiveCount = 0;
  for (const ThreadState &S : Th)
    LiveCount += S.Live;
  if (M.size() != LiveCount) {
    fail(Failure::Divergent, L,
         "__syncthreads() reached by only some of the block's threads");
    return;
  }
  ++Phase;
  ++Tr.Barriers;
  for (unsigned &W : WarpSync)
    ++W;
}

Trace km::executeBlock(ASTContext &Ctx, const FunctionDecl *FD,
                       BlockShape Shape, SymPool &Pool, unsigned Wave,
                       const ParmVarDecl *BlockParam) {
  Trace Tr;
  Exec E(Ctx, FD, Shape, Pool, Tr, Wave);
  E.BlockParam = BlockParam;
  E.run();
  checkFragLayout(Ctx, FD, Shape, Pool, Wave, Tr);
  return Tr;
}
