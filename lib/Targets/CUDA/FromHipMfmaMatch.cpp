//===- FromHipMfmaMatch.cpp - the MFMA fragment pattern and its WMMA form -===//
// Rules: PK6042, PK6043, PK6044
//
// Recogniser::run: one kernel's MFMA builtin, its accumulator, K loop,
// operand loads and result store, checked against AMD's 16x16x16 lane
// layout (the reasons it is not go to PK6042), and the WMMA region that
// replaces them, the first warp of each wave computing the tile (PK6044).
//
//===----------------------------------------------------------------------===//
#include "FromHipMfmaGemm.h"

namespace pk::cuda::mfmagemm {

bool isMfmaCall(const CallExpr *CE, llvm::StringRef &Name) {
  const FunctionDecl *F = CE->getDirectCallee();
  if (!F || !F->getIdentifier() ||
      !F->getName().starts_with("__builtin_amdgcn_mfma_"))
    return false;
  Name = F->getName();
  return true;
}

std::vector<const CallExpr *> mfmaCalls(const Stmt *S) {
  struct W : DynamicASTVisitor {
    std::vector<const CallExpr *> Calls;
    bool VisitCallExpr(CallExpr *CE) override {
      llvm::StringRef N;
      if (isMfmaCall(CE, N))
        Calls.push_back(CE);
      return true;
    }
  } Wk;
  Wk.TraverseStmt(const_cast<Stmt *>(S));
  return Wk.Calls;
}

const VarDecl *refVar(const Expr *E) {
  if (!E)
    return nullptr;
  if (const auto *D = dyn_cast<DeclRefExpr>(E->IgnoreParenImpCasts()))
    return dyn_cast<VarDecl>(D->getDecl());
  return nullptr;
}

/// `for (int v = 0; v < N; ++v)`: the variable, or null.
const VarDecl *countedLoop(const ForStmt *F, int64_t N) {
  const auto *DS = dyn_cast_or_null<DeclStmt>(F->getInit());
  if (!DS || !DS->isSingleDecl())
    return nullptr;
  const auto *V = dyn_cast<VarDecl>(DS->getSingleDecl());
  Expr::EvalResult R;
  if (!V || !V->getInit() ||
      !V->getInit()->EvaluateAsInt(R, V->getASTContext()) ||
      R.Val.getInt() != 0)
    return nullptr;
  const auto *C = dyn_cast_or_null<BinaryOperator>(F->getCond());
  if (!C || C->getOpcode() != BO_LT || refVar(C->getLHS()) != V ||
      !C->getRHS()->EvaluateAsInt(R, V->getASTContext()) || R.Val.getInt() != N)
    return nullptr;
  const Expr *I = F->getInc();
  if (const auto *U = dyn_cast_or_null<UnaryOperator>(I)) {
    if (U->isIncrementOp() && refVar(U->getSubExpr()) == V)
      return V;
  } else if (const auto *B = dyn_cast_or_null<CompoundAssignOperator>(I)) {
    if (B->getOpcode() == BO_AddAssign && refVar(B->getLHS()) == V &&
        B->getRHS()->EvaluateAsInt(R, V->getASTContext()) &&
        R.Val.getInt() == 1)
      return V;
  }
  return nullptr;
}

/// The statements of a loop body (a block or one statement).
std::vector<const Stmt *> stmts(const Stmt *S) {
  if (const auto *CS = dyn_cast<CompoundStmt>(S))
    return std::vector<const Stmt *>(CS->body_begin(), CS->body_end());
  return {S};
}

/// An ext_vector_type of \p N elements whose element type satisfies \p P;
/// records the typedef it is spelled with.
bool extVector(QualType T, unsigned N, bool Half,
               std::set<const TypedefNameDecl *> &Types) {
  if (const auto *TT = T->getAs<TypedefType>())
    Types.insert(TT->getDecl());
  const auto *V = T->getAs<ExtVectorType>();
  if (!V || V->getNumElements() != N)
    return false;
  QualType E = V->getElementType();
  return Half ? E->isFloat16Type() || E->isHalfType()
              : E->isSpecificBuiltinType(BuiltinType::Float);
}

std::string halfPointee(QualType P) {
  const auto *PT = P->getAs<PointerType>();
  if (!PT)
    return "";
  QualType E = PT->getPointeeType().getUnqualifiedType();
  if (E->isFloat16Type())
    return "_Float16";
  if (const auto *R = E->getAsRecordDecl())
    if (R->getName() == "__half")
      return "__half";
  return "";
}

std::optional<Mapping> Recogniser::run(std::vector<Failure> &Fails) {
  auto Fail = [&](const Stmt *S, std::string Why) -> std::optional<Mapping> {
    // The place of a failed evaluation, else the statement.
    Fails.push_back({ErrLoc.isValid() ? ErrLoc : S->getBeginLoc(), Why});
    return std::nullopt;
  };
  const auto *Body = dyn_cast_or_null<CompoundStmt>(FD->getBody());
  std::vector<const CallExpr *> Calls =
      Body ? mfmaCalls(Body) : std::vector<const CallExpr *>();
  if (Calls.empty())
    return std::nullopt;
  const CallExpr *CE = Calls[0];
  CallLoc = CE->getBeginLoc();
  llvm::StringRef Name;
  isMfmaCall(CE, Name);
  if (Calls.size() > 1)
    return Fail(Calls[1], "more than one MFMA builtin in the kernel");
  if (!FD->hasAttr<CUDAGlobalAttr>())
    return Fail(CE, "the builtin is not in a __global__ kernel (the "
                    "mapping needs the kernel's wave structure)");
  if (Name != "__builtin_amdgcn_mfma_f32_16x16x16f16")
    return Fail(CE, "only __builtin_amdgcn_mfma_f32_16x16x16f16 is mapped "
                    "to WMMA (m16n16k16)");
  if (CE->getNumArgs() != 6)
    return Fail(CE, "the builtin takes six arguments");
  for (unsigned I = 3; I < 6; ++I) {
    Expr::EvalResult R;
    if (!CE->getArg(I)->EvaluateAsInt(R, TC.Ctx()) || R.Val.getInt() != 0)
      return Fail(CE, "cbsz, abid and blgp must be 0 (they reroute lanes)");
  }
  // acc = builtin(a, b, acc, 0, 0, 0); as a statement of the K loop's body.
  const VarDecl *VA = refVar(CE->getArg(0)), *VB = refVar(CE->getArg(1)),
                *Acc = refVar(CE->getArg(2));
  if (!VA || !VB || !Acc || VA == VB)
    return Fail(CE, "the operands and the accumulator must be local variables");
  size_t LoopIdx = 0;
  const ForStmt *KLoop = nullptr;
  const Stmt *MmaStmt = nullptr;
  for (size_t I = 0; I < Body->size(); ++I) {
    const auto *F = dyn_cast<ForStmt>(Body->body_begin()[I]);
    if (!F || !F->getBody())
      continue;
    for (const Stmt *S : stmts(F->getBody()))
      if (const auto *BO = dyn_cast<BinaryOperator>(S))
        if (BO->getOpcode() == BO_Assign && refVar(BO->getLHS()) == Acc &&
            BO->getRHS()->IgnoreParenImpCasts() == CE) {
          KLoop = F;
          LoopIdx = I;
          MmaStmt = S;
        }
  }
  if (!KLoop)
    return Fail(CE, "the builtin is not a statement 'acc = builtin(a, b, "
                    "acc, 0, 0, 0)' of a K loop at the top level of the "
                    "kernel");
  if (LoopIdx == 0 || LoopIdx + 1 >= Body->size())
    return Fail(KLoop, "the K loop is not between the accumulator's "
                       "declaration and its store");
  // The accumulator: declared, zero-initialised, just before the loop.
  const auto *AccDS = dyn_cast<DeclStmt>(Body->body_begin()[LoopIdx - 1]);
  if (!AccDS || !AccDS->isSingleDecl() || AccDS->getSingleDecl() != Acc)
    return Fail(KLoop,
                "the accumulator is not declared just before the K loop");
  std::set<const TypedefNameDecl *> Types;
  if (!extVector(Acc->getType(), 4, false, Types))
    return Fail(AccDS, "the accumulator is not a vector of 4 floats");
  {
    const Expr *I = Acc->getInit();
    const auto *IL =
        I ? dyn_cast<InitListExpr>(I->IgnoreParenImpCasts()) : nullptr;
    bool Zero = IL != nullptr;
    if (IL)
      for (const Expr *X : IL->inits()) {
        Expr::EvalResult R;
        if (!X->EvaluateAsRValue(R, TC.Ctx()) ||
            !(R.Val.isFloat() ? R.Val.getFloat().isZero()
                              : R.Val.isInt() && R.Val.getInt() == 0))
          Zero = false;
      }
    if (!Zero)
      return Fail(AccDS, "the accumulator does not start at zero (only "
                         "C = A * B is mapped)");
  }
  // The K loop: a uniform counter.
  const auto *KInit = dyn_cast_or_null<DeclStmt>(KLoop->getInit());
  if (!KInit || !KInit->isSingleDecl())
    return Fail(KLoop, "the K loop does not declare its counter");
  K0 = dyn_cast<VarDecl>(KInit->getSingleDecl());
  if (!K0 || !K0->getType()->isIntegerType() || !K0->getInit())
    return Fail(KLoop, "the K loop's counter is not an integer");
  {
    Digit = nullptr;
    std::optional<Poly> P = eval(K0->getInit());
    if (!P)
      return Fail(KLoop, "the K loop's start: " + Err);
    if (hasDigit(*P, {DR, DQ, DE}))
      return Fail(KLoop, "the K loop's start differs between lanes");
    const auto *Cond = dyn_cast_or_null<BinaryOperator>(KLoop->getCond());
    if (!Cond || !Cond->isComparisonOp())
      return Fail(KLoop, "the K loop's condition is not a comparison");
    std::optional<Poly> CL = eval(Cond->getLHS()), CR = eval(Cond->getRHS());
    if (!CL || !CR)
      return Fail(KLoop, "the K loop's condition: " + Err);
    if (hasDigit(*CL, {DR, DQ, DE}) || hasDigit(*CR, {DR, DQ, DE}))
      return Fail(KLoop, "the K loop's trip count differs between lanes");
    const auto *Inc = dyn_cast_or_null<CompoundAssignOperator>(KLoop->getInc());
    if (!Inc || Inc->getOpcode() != BO_AddAssign || refVar(Inc->getLHS()) != K0)
      return Fail(KLoop, "the K loop does not step its counter with +=");
    std::optional<Poly> St = eval(Inc->getRHS());
    if (!St || asConstant(*St) != std::optional<int64_t>(16))
      return Fail(KLoop, "the K loop does not step by 16 (the K of one "
                         "16x16x16 MFMA)");
    // The counter is only changed by the step.
    struct W : DynamicASTVisitor {
      const VarDecl *V;
      bool Hit = false;
      bool VisitBinaryOperator(BinaryOperator *B) override {
        Hit |= B->isAssignmentOp() && refVar(B->getLHS()) == V;
        return true;
      }
      bool VisitUnaryOperator(UnaryOperator *U) override {
        Hit |= (U->isIncrementDecrementOp() || U->getOpcode() == UO_AddrOf) &&
               refVar(U->getSubExpr()) == V;
        return true;
      }
    } Wk;
    Wk.V = K0;
    Wk.TraverseStmt(const_cast<Stmt *>(KLoop->getBody()));
    if (Wk.Hit)
      return Fail(KLoop, "the K loop's counter is changed in its body");
  }
  // The K loop's body: the operand declarations, their loads, the MFMA.
  struct Load {
    const ParmVarDecl *Ptr = nullptr;
    std::string Pointee;
    Poly Index;
    const Expr *At = nullptr;
  };
  std::map<const VarDecl *, Load> Loads;
  std::vector<const Stmt *> KBody = stmts(KLoop->getBody());
  if (KBody.empty() || KBody.back() != MmaStmt)
    return Fail(KLoop, "the MFMA is not the last statement of the K loop");
  for (const Stmt *S : KBody) {
    if (S == MmaStmt)
      continue;
    if (const auto *DS = dyn_cast<DeclStmt>(S)) {
      for (const Decl *D : DS->decls())
        if ((D != VA && D != VB) ||
            !extVector(cast<VarDecl>(D)->getType(), 4, true, Types) ||
            cast<VarDecl>(D)->hasInit())
          return Fail(S, "the K loop declares something other than the two "
                         "uninitialised 4 x half operands");
      continue;
    }
    const auto *EL = dyn_cast<ForStmt>(S);
    const VarDecl *EV = EL ? countedLoop(EL, 4) : nullptr;
    if (!EV)
      return Fail(S, "a statement of the K loop that is not an operand load "
                     "'for (int e = 0; e < 4; ++e) a[e] = A[...]'");
    Digit = EV;
    for (const Stmt *X : stmts(EL->getBody())) {
      const auto *BO = dyn_cast<BinaryOperator>(X);
      const auto *L =
          BO && BO->getOpcode() == BO_Assign
              ? dyn_cast<ArraySubscriptExpr>(BO->getLHS()->IgnoreParens())
              : nullptr;
      const VarDecl *Op = L ? refVar(L->getBase()) : nullptr;
      if (!Op || (Op != VA && Op != VB) || refVar(L->getIdx()) != EV)
        return Fail(X, "an operand load that is not 'a[e] = A[...]'");
      if (Loads.count(Op))
        return Fail(X, "an operand loaded twice");
      // The value: an element of a half pointer parameter (through its
      // conversion to _Float16).
      const Expr *R = BO->getRHS();
      while (true) {
        R = R->IgnoreParenImpCasts();
        if (const auto *MC = dyn_cast<CXXMemberCallExpr>(R))
          if (isa_and_nonnull<CXXConversionDecl>(MC->getMethodDecl())) {
            R = MC->getImplicitObjectArgument();
            continue;
          }
        if (const auto *M = dyn_cast<MaterializeTemporaryExpr>(R)) {
          R = M->getSubExpr();
          continue;
        }
        if (const auto *CC = dyn_cast<CXXConstructExpr>(R))
          if (CC->getNumArgs() == 1) {
            R = CC->getArg(0);
            continue;
          }
        break;
      }
      const auto *AS = dyn_cast<ArraySubscriptExpr>(R);
      const auto *PV =
          AS ? dyn_cast_or_null<ParmVarDecl>(refVar(AS->getBase())) : nullptr;
      if (!PV)
        return Fail(X,
                    "an operand load that does not read a pointer parameter");
      std::string Pointee = halfPointee(PV->getType());
      if (Pointee.empty())
        return Fail(X, "an operand load from '" + PV->getName().str() +
                           "', which does not point to __half or _Float16");
      if (modified(PV))
        return Fail(X,
                    "'" + PV->getName().str() + "' is assigned in the kernel");
      std::optional<Poly> P = eval(AS->getIdx());
      if (!P)
        return Fail(X, "an operand index the pattern does not follow: " + Err);
      Loads[Op] = {PV, Pointee, *P, AS->getIdx()};
    }
    Digit = nullptr;
  }
  if (!Loads.count(VA) || !Loads.count(VB))
    return Fail(KLoop, "an operand is not loaded in the K loop");
  // The store: for (int r = 0; r < 4; ++r) C[...] = acc[r];
  const auto *SL = dyn_cast<ForStmt>(Body->body_begin()[LoopIdx + 1]);
  const VarDecl *RV = SL ? countedLoop(SL, 4) : nullptr;
  std::vector<const Stmt *> SB =
      RV ? stmts(SL->getBody()) : std::vector<const Stmt *>();
  const auto *SA = SB.size() == 1 ? dyn_cast<BinaryOperator>(SB[0]) : nullptr;
  const auto *SLhs =
      SA && SA->getOpcode() == BO_Assign
          ? dyn_cast<ArraySubscriptExpr>(SA->getLHS()->IgnoreParens())
          : nullptr;
  const auto *SRhs =
      SLhs ? dyn_cast<ArraySubscriptExpr>(SA->getRHS()->IgnoreParenImpCasts())
           : nullptr;
  if (!SRhs || refVar(SRhs->getBase()) != Acc || refVar(SRhs->getIdx()) != RV)
    return Fail(Body->body_begin()[LoopIdx + 1],
                "the K loop is not followed by the store 'for (int r = 0; r "
                "< 4; ++r) C[...] = acc[r];'");
  const auto *CP = dyn_cast_or_null<ParmVarDecl>(refVar(SLhs->getBase()));
  if (!CP || !CP->getType()->isPointerType() ||
      !CP->getType()->getPointeeType()->isSpecificBuiltinType(
          BuiltinType::Float) ||
      CP->getType()->getPointeeType().isConstQualified() || modified(CP))
    return Fail(SA, "the result is not stored to a float pointer parameter");
  Digit = RV;
  std::optional<Poly> CIdx = eval(SLhs->getIdx());
  Digit = nullptr;
  if (!CIdx)
    return Fail(SA, "a result index the pattern does not follow: " + Err);
  // The accumulator is used only by the pattern.
  {
    struct W : DynamicASTVisitor {
      const VarDecl *V;
      unsigned N = 0;
      bool VisitDeclRefExpr(DeclRefExpr *D) override {
        N += D->getDecl() == V;
        return true;
      }
    } Wk;
    Wk.V = Acc;
    Wk.TraverseStmt(const_cast<CompoundStmt *>(Body));
    if (Wk.N != 3)
      return Fail(AccDS, "the accumulator is used outside the MFMA and its "
                         "store");
  }

  // The rest of the kernel runs with the thread numbers it has on AMD (the
  // block keeps its threads, the wave number stays threadIdx.x / 64), but a
  // warp collective or warpSize would see 32 lanes instead of 64.
  {
    struct W : DynamicASTVisitor {
      std::set<const Stmt *> Skip;
      const Stmt *Hit = nullptr;
      std::string What;
      bool dataTraverseStmtPre(Stmt *S) override {
        return !Skip.count(S) && !Hit;
      }
      // `const int lane = __lane_id();` is the HIP lane only where the
      // mapping replaces its uses: CUDA's lane helper counts 32 lanes.
      std::set<const VarDecl *> LaneVars;
      // (and so are the variables computed from it, where only the mapping
      // uses them).
      bool VisitVarDecl(VarDecl *V) override {
        Expr *I = V->getInit();
        if (!I)
          return true;
        struct R : DynamicASTVisitor {
          const std::set<const VarDecl *> *Vars;
          bool Lane = false;
          bool VisitCallExpr(CallExpr *CE) override {
            Lane |= CE->getDirectCallee() &&
                    CE->getDirectCallee()->getIdentifier() &&
                    CE->getDirectCallee()->getName() == "__lane_id";
            return true;
          }
          bool VisitDeclRefExpr(DeclRefExpr *D) override {
            Lane |= Vars->count(dyn_cast<VarDecl>(D->getDecl())) > 0;
            return true;
          }
        } Rd;
        Rd.Vars = &LaneVars;
        Rd.TraverseStmt(I);
        if (Rd.Lane) {
          Skip.insert(I);
          LaneVars.insert(V);
        }
        return true;
      }
      bool VisitCallExpr(CallExpr *CE) override {
        const FunctionDecl *F = CE->getDirectCallee();
        if (!F || !F->getIdentifier())
          return true;
        llvm::StringRef N = F->getName();
        for (const char *P :
             {"__shfl", "__ballot", "__any", "__all", "__activemask",
              "__syncwarp", "__match", "__reduce", "__builtin_amdgcn", "__lane",
              "__pk_"})
          if (N.starts_with(P) && !Hit) {
            Hit = CE;
            What = N.str();
          }
        return true;
      }
      bool VisitDeclRefExpr(DeclRefExpr *D) override {
        if (LaneVars.count(dyn_cast<VarDecl>(D->getDecl())) && !Hit) {
          Hit = D;
          What = "the __lane_id() value";
        }
        if (D->getDecl()->getIdentifier() &&
            D->getDecl()->getName() == "warpSize" && !Hit) {
          Hit = D;
          What = "warpSize";
        }
        return true;
      }
    } Wk;
    Wk.Skip = {AccDS, KLoop, Body->body_begin()[LoopIdx + 1]};
    Wk.TraverseStmt(const_cast<CompoundStmt *>(Body));
    if (Wk.Hit)
      return Fail(Wk.Hit, "the kernel also uses " + Wk.What +
                              ", which counts 32 lanes on a CUDA warp while "
                              "the mapping keeps 64-lane wave numbers");
  }

  // Layouts.  Operand X[r][c] with r the lane's row/column digit R and c the
  // K index 4 * Q + E.
  struct Side {
    std::string Layout, Ld, Base;
  };
  std::string Notes;
  auto Match = [&](const Expr *At, const Poly &P, bool EIsInner,
                   llvm::StringRef What, unsigned MinLd, llvm::StringRef Row,
                   llvm::StringRef Col) -> std::optional<Side> {
    Poly Base, CRr, CQ, CEe;
    if (!split(At, P, Base, CRr, CQ, CEe)) {
      Fails.push_back({ErrLoc, Err});
      return std::nullopt;
    }
    auto Bad = [&](std::string Why) -> std::optional<Side> {
      Fails.push_back({At->getBeginLoc(), (What + ": " + Why).str()});
      return std::nullopt;
    };
    if (CQ != scale(CEe, 4))
      return Bad("the lane's K group (lane / 16) does not step 4 elements");
    Side S;
    Poly Ld;
    // EIsInner: the element digit walks the contiguous dimension in the
    // row-major form (A: ptr[i * ld + k]; B, D: ptr[r * ld + j] with the
    // register/element along rows).
    bool ROne = CRr == constant(1), EOne = CEe == constant(1);
    if (EOne == ROne)
      return Bad("the index is not ptr[row * ld + col] nor ptr[row + col * "
                 "ld] of the MFMA layout");
    if (EIsInner ? EOne : ROne) {
      S.Layout = Row.str();
      Ld = EIsInner ? CRr : CEe;
    } else {
      S.Layout = Col.str();
      Ld = EIsInner ? CEe : CRr;
    }
    if (hasDigit(Ld, {DW, DR, DQ, DE}) || Ld.empty())
      return Bad("the leading dimension differs between waves or is 0");
    if (auto C = asConstant(Ld)) {
      if (*C <= 0 || *C % MinLd)
        return Bad(llvm::formatv("a leading dimension of {0} (WMMA needs a "
                                 "positive multiple of {1})",
                                 *C, MinLd)
                       .str());
    } else {
      Notes += llvm::formatv("{0}'s leading dimension {1} must be a multiple "
                             "of {2} and its tiles 32-byte aligned at run "
                             "time; ",
                             What, print(Ld), MinLd)
                   .str();
    }
    S.Ld = print(Ld);
    S.Base = print(Base);
    return S;
  };
  const Load &LA = Loads[VA], &LB = Loads[VB];
  std::optional<Side> SAa =
      Match(LA.At, LA.Index, true, "A operand", 8, "row_major", "col_major");
  if (!SAa)
    return std::nullopt;
  std::optional<Side> SBb =
      Match(LB.At, LB.Index, false, "B operand", 8, "row_major", "col_major");
  if (!SBb)
    return std::nullopt;
  std::optional<Side> SCc = Match(SLhs->getIdx(), *CIdx, false, "result", 4,
                                  "mem_row_major", "mem_col_major");
  if (!SCc)
    return std::nullopt;

  // The rewrite.
  Mapping M;
  M.FD = FD;
  M.Call = CE->getBeginLoc();
  M.VectorTypes = Types;
  M.Notes = Notes;
  SourceLocation B = AccDS->getBeginLoc(), E = SL->getEndLoc();
  if (B.isMacroID() || E.isMacroID() || !TC.isUserLoc(B))
    return Fail(AccDS, "the pattern is written through macros");
  M.File = TC.fileOf(B);
  M.RegionBegin = SM().getFileOffset(B);
  M.RegionEnd = SM().getFileOffset(
      Lexer::getLocForEndOfToken(SM().getExpansionLoc(E), 0, SM(), LO()));
  llvm::StringRef Buf = TC.contents(M.File);
  if (!isa<CompoundStmt>(SL->getBody())) {
    size_t P = M.RegionEnd;
    while (P < Buf.size() && (Buf[P] == ' ' || Buf[P] == '\t'))
      ++P;
    if (P >= Buf.size() || Buf[P] != ';')
      return Fail(SL, "the store loop does not end with ';'");
    M.RegionEnd = P + 1;
  }
  size_t LS = Buf.take_front(M.RegionBegin).rfind('\n');
  LS = LS == llvm::StringRef::npos ? 0 : LS + 1;
  llvm::StringRef Ind = Buf.slice(LS, M.RegionBegin);
  if (!Ind.trim().empty())
    return Fail(AccDS, "the accumulator's declaration does not start a line");
  M.GuardAt = LS;
  M.Indent = Ind.str();
  std::string I1 = M.Indent + "  ", I2 = I1 + "  ";
  auto Ptr = [&](const Load &L, const Side &S) {
    std::string P = L.Ptr->getName().str() + " + " + S.Base;
    if (S.Base == "0")
      P = L.Ptr->getName().str();
    if (L.Pointee != "__half")
      P = "reinterpret_cast<const __half *>(" + P + ")";
    return P;
  };
  // The K loop's header, as written.
  SourceLocation HB = KLoop->getBeginLoc(), HE = KLoop->getRParenLoc();
  std::string Header =
      Buf.slice(SM().getFileOffset(SM().getExpansionLoc(HB)),
                SM().getFileOffset(SM().getExpansionLoc(HE)) + 1)
          .str();
  std::string NA = VA->getName().str(), NB = VB->getName().str(),
              NC = Acc->getName().str();
  const std::string W = "nvcuda::wmma::";
  std::string CPtr = SCc->Base == "0" ? CP->getName().str()
                                      : CP->getName().str() + " + " + SCc->Base;
  M.Region = W + "fragment<" + W + "accumulator, 16, 16, 16, float> " + NC +
             ";\n" + I1 + W + "fill_fragment(" + NC + ", 0.0f);\n" + I1 +
             Header + " {\n" + I2 + W + "fragment<" + W +
             "matrix_a, 16, 16, 16, __half, " + W + SAa->Layout + "> " + NA +
             ";\n" + I2 + W + "fragment<" + W +
             "matrix_b, 16, 16, 16, __half, " + W + SBb->Layout + "> " + NB +
             ";\n" + I2 + W + "load_matrix_sync(" + NA + ", " + Ptr(LA, *SAa) +
             ", " + SAa->Ld + ");\n" + I2 + W + "load_matrix_sync(" + NB +
             ", " + Ptr(LB, *SBb) + ", " + SBb->Ld + ");\n" + I2 + W +
             "mma_sync(" + NC + ", " + NA + ", " + NB + ", " + NC + ");\n" +
             I1 + "}\n" + I1 + W + "store_matrix_sync(" + CPtr + ", " + NC +
             ", " + SCc->Ld + ", " + W + SCc->Layout + ");";
  return M;
}

} // namespace pk::cuda::mfmagemm
