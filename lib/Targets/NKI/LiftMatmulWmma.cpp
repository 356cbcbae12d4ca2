//===- LiftMatmulWmma.cpp - WMMA GEMMs loaded from global memory ----------===//
// Rules: PK5040, PK5041, PK5042, PK5043, PK5044
//
// Structure 1 of LiftMatmul.cpp: WMMA fragments loaded from global memory
// through `P + off` in a K loop, accumulated with mma_sync and stored into C.
//===----------------------------------------------------------------------===//
#include "LiftMatmulImpl.h"

using namespace clang;

namespace pk {
namespace nki {
namespace gemm {

std::optional<Frag> fragOf(QualType T) {
  auto *TS = T.getCanonicalType()->getAs<TemplateSpecializationType>();
  const ClassTemplateSpecializationDecl *CT = nullptr;
  if (auto *RT = T.getCanonicalType()->getAs<RecordType>())
    CT = dyn_cast<ClassTemplateSpecializationDecl>(RT->getDecl());
  (void)TS;
  if (!CT || CT->getName() != "fragment")
    return std::nullopt;
  const TemplateArgumentList &Args = CT->getTemplateArgs();
  if (Args.size() < 5)
    return std::nullopt;
  Frag F;
  auto TypeName = [](const TemplateArgument &A) {
    return A.getKind() == TemplateArgument::Type
               ? A.getAsType().getCanonicalType().getAsString()
               : std::string();
  };
  F.Use = TypeName(Args[0]);
  auto Pos = F.Use.rfind("::");
  if (Pos != std::string::npos)
    F.Use = F.Use.substr(Pos + 2);
  for (unsigned I = 1; I <= 3; ++I)
    if (Args[I].getKind() != TemplateArgument::Integral)
      return std::nullopt;
  F.Mi = Args[1].getAsIntegral().getExtValue();
  F.Ni = Args[2].getAsIntegral().getExtValue();
  F.Ki = Args[3].getAsIntegral().getExtValue();
  F.Ty = TypeName(Args[4]);
  if (Args.size() > 5) {
    F.Layout = TypeName(Args[5]);
    Pos = F.Layout.rfind("::");
    if (Pos != std::string::npos)
      F.Layout = F.Layout.substr(Pos + 2);
  }
  return F;
}

Gemm WmmaGemm::run() {
  auto *Body = dyn_cast<CompoundStmt>(FD->getBody());
  Gemm G;
  const CallExpr *LoadA = nullptr, *LoadB = nullptr, *Store = nullptr;
  const VarDecl *AccV = nullptr;
  const ForStmt *KLoop = nullptr;
  std::string KVar;
  Poly KStep;
  std::optional<std::string> Alpha;
  bool Filled = false;
  for (const clang::Stmt *S0 : Body->body()) {
    const clang::Stmt *S = unwrap(S0);
    if (auto *DS = dyn_cast<DeclStmt>(S)) {
      for (const Decl *D : DS->decls()) {
        auto *V = dyn_cast<VarDecl>(D);
        if (!V)
          continue;
        if (V->hasAttr<CUDASharedAttr>())
          refuse(RuleId::PK5040, V->getLocation(),
                 "shared array '" + V->getNameAsString() +
                     "' in a WMMA kernel: WMMA GEMMs whose fragments or "
                     "results go through shared memory are not lifted "
                     "(fragments loaded from and stored to global memory "
                     "are)");
        if (auto F = fragOf(V->getType())) {
          Frags[V] = *F;
          continue;
        }
        if (V->getType()->isIntegerType() && V->hasInit() &&
            V->getType().isConstQualified()) {
          auto P = IE.eval(V->getInit());
          if (!P)
            refuse(RuleId::PK5044, V->getLocation(),
                   "'" + V->getNameAsString() +
                       "' is not an integer expression of the thread, "
                       "block and size variables");
          IE.Env[V] = *P;
          continue;
        }
        refuse(RuleId::PK5040, V->getLocation(),
               "local '" + V->getNameAsString() +
                   "' is not part of a recognised WMMA GEMM");
      }
      continue;
    }
    if (auto *I = dyn_cast<IfStmt>(S)) {
      const clang::Stmt *Th = I->getThen();
      if (auto *CS = dyn_cast<CompoundStmt>(Th))
        if (CS->size() == 1)
          Th = CS->body_front();
      if (!isa<ReturnStmt>(Th) || I->getElse() || !Exits.empty() ||
          !condsOf(IE, I->getCond(), Exits, /*Negated=*/true))
        refuse(RuleId::PK5044, I->getIfLoc(),
               "only one early return on tile bounds ('if (row >= M || col "
               ">= N) return;') is lifted in a WMMA GEMM");
      ExitLoc = I->getIfLoc();
      continue;
    }
    if (auto *C = dyn_cast<CallExpr>(S)) {
      std::string N = calleeName(C);
      if (N == "fill_fragment" && C->getNumArgs() == 2 &&
          fragVar(C->getArg(0)) && isZeroLiteral(C->getArg(1)) && !KLoop) {
        Filled = true;
        continue;
      }
      if (N == "store_matrix_sync" && C->getNumArgs() == 4 && KLoop && !Store) {
        Store = C;
        continue;
      }
      refuse(RuleId::PK5040, C->getBeginLoc(),
             "call '" + N + "' is not part of a recognised WMMA GEMM");
    }
    if (auto *F = dyn_cast<ForStmt>(S)) {
      // for (int v = 0; v < E; ++v) acc.x[v] *= s;  (after the K loop)
      if (KLoop && !Alpha) {
        auto *CS = dyn_cast<CompoundStmt>(F->getBody());
        const clang::Stmt *B1 =
            CS && CS->size() == 1 ? CS->body_front() : F->getBody();
        auto *MA = dyn_cast<CompoundAssignOperator>(unwrap(B1));
        std::optional<std::string> Sc;
        if (MA && MA->getOpcode() == BO_MulAssign)
          Sc = scalarOf(MA->getRHS());
        auto *Cond = dyn_cast<BinaryOperator>(F->getCond());
        auto *NE =
            Cond ? dyn_cast<MemberExpr>(Cond->getRHS()->IgnoreParenImpCasts())
                 : nullptr;
        auto *X = MA ? dyn_cast<ArraySubscriptExpr>(
                           MA->getLHS()->IgnoreParenImpCasts())
                     : nullptr;
        auto *XM = X ? dyn_cast<MemberExpr>(X->getBase()->IgnoreParenImpCasts())
                     : nullptr;
        // The loop runs over every element: from 0 by one, indexing x[] with
        // its own variable.
        auto *IDS = dyn_cast_or_null<DeclStmt>(F->getInit());
        auto *IV = IDS && IDS->isSingleDecl()
                       ? dyn_cast<VarDecl>(IDS->getSingleDecl())
                       : nullptr;
        auto *IInc = dyn_cast_or_null<UnaryOperator>(F->getInc());
        auto *CV =
            Cond ? dyn_cast<DeclRefExpr>(Cond->getLHS()->IgnoreParenImpCasts())
                 : nullptr;
        auto *XV = X ? dyn_cast<DeclRefExpr>(X->getIdx()->IgnoreParenImpCasts())
                     : nullptr;
        bool Every = IV && IV->hasInit() && isZeroLiteral(IV->getInit()) &&
                     IInc && IInc->isIncrementOp() && CV &&
                     CV->getDecl() == IV && Cond->getOpcode() == BO_LT && XV &&
                     XV->getDecl() == IV;
        if (Every && Sc && NE &&
            NE->getMemberDecl()->getName() == "num_elements" && XM &&
            XM->getMemberDecl()->getName() == "x" && AccV &&
            fragVar(XM->getBase()) == AccV && fragVar(NE->getBase()) == AccV) {
          Alpha = Sc;
          continue;
        }
        refuse(RuleId::PK5043, F->getForLoc(),
               "after the K loop only an element-wise scaling of the "
               "accumulator ('acc.x[i] *= alpha' over acc.num_elements) is "
               "lifted");
      }
      if (KLoop)
        refuse(RuleId::PK5040, F->getForLoc(),
               "a second loop after the WMMA K loop is not lifted");
      KLoop = F;
      auto *DS = dyn_cast_or_null<DeclStmt>(F->getInit());
      auto *V = DS && DS->isSingleDecl()
                    ? dyn_cast<VarDecl>(DS->getSingleDecl())
                    : nullptr;
      auto Begin = V && V->hasInit() ? IE.eval(V->getInit()) : std::nullopt;
      auto *Inc = dyn_cast_or_null<CompoundAssignOperator>(F->getInc());
      if (!V || !Begin || Begin->constant() != 0 || !Inc ||
          Inc->getOpcode() != BO_AddAssign)
        refuse(RuleId::PK5042, F->getForLoc(),
               "the WMMA K loop is not 'for (int k = 0; k < K; k += 16)'");
      KVar = "v_" + V->getNameAsString() + "_";
      IE.Env[V] = Poly::atom(KVar);
      Conds KC;
      auto St = IE.eval(Inc->getRHS());
      if (!condsOf(IE, F->getCond(), KC) || KC.size() != 1 ||
          KC[0].first != Poly::atom(KVar) || !KC[0].second.single() || !St)
        refuse(RuleId::PK5042, F->getForLoc(),
               "the WMMA K loop is not 'for (int k = 0; k < K; k += 16)' "
               "with K a size parameter");
      G.K = *KC[0].second.single();
      KStep = *St;
      auto *LB = dyn_cast<CompoundStmt>(F->getBody());
      if (!LB || LB->size() != 3)
        refuse(RuleId::PK5040, F->getForLoc(),
               "the WMMA K loop body is not two load_matrix_sync and one "
               "mma_sync");
      auto It = LB->body_begin();
      auto *L1 = dyn_cast<CallExpr>(unwrap(*It++));
      auto *L2 = dyn_cast<CallExpr>(unwrap(*It++));
      auto *MM = dyn_cast<CallExpr>(unwrap(*It));
      if (!L1 || !L2 || !MM || calleeName(L1) != "load_matrix_sync" ||
          calleeName(L2) != "load_matrix_sync" ||
          calleeName(MM) != "mma_sync" || MM->getNumArgs() != 4)
        refuse(RuleId::PK5040, F->getForLoc(),
               "the WMMA K loop body is not two load_matrix_sync and one "
               "mma_sync");
      const VarDecl *D = fragVar(MM->getArg(0)), *Af = fragVar(MM->getArg(1)),
                    *Bf = fragVar(MM->getArg(2)), *Cf = fragVar(MM->getArg(3));
      if (!D || D != Cf || !Af || !Bf)
        refuse(RuleId::PK5042, MM->getBeginLoc(),
               "mma_sync does not accumulate into its own accumulator "
               "(mma_sync(acc, a, b, acc))");
      AccV = D;
      for (const CallExpr *L : {L1, L2}) {
        const VarDecl *FV = fragVar(L->getArg(0));
        if (FV == Af)
          LoadA = L;
        else if (FV == Bf)
          LoadB = L;
      }
      if (!LoadA || !LoadB || LoadA == LoadB)
        refuse(RuleId::PK5040, F->getForLoc(),
               "the loads of the K loop are not the fragments mma_sync "
               "multiplies");
      continue;
    }
    refuse(RuleId::PK5040, S->getBeginLoc(),
           "statement is not part of a recognised WMMA GEMM");
  }
  if (!KLoop || !Store || !Filled)
    refuse(RuleId::PK5040, FD->getLocation(),
           "the kernel does not zero an accumulator, run mma_sync over a K "
           "loop and store the accumulator");
  const Frag &FA = Frags[fragVar(LoadA->getArg(0))];
  const Frag &FB = Frags[fragVar(LoadB->getArg(0))];
  const Frag &FC = Frags[AccV];
  if (fragVar(Store->getArg(1)) != AccV)
    refuse(RuleId::PK5040, Store->getBeginLoc(),
           "the stored fragment is not the accumulator");
  int64_t T16 = FA.Mi;
  if (FA.Mi != FA.Ni || FA.Ni != FA.Ki || FC.Ty != "float" ||
      FA.Use != "matrix_a" || FB.Use != "matrix_b" || FC.Use != "accumulator" ||
      FA.Layout != "row_major" || KStep != Poly::c(FA.Ki))
    refuse(RuleId::PK5041, LoadA->getBeginLoc(),
           "lifted: square fragments (16x16x16) with a row-major A, a float "
           "accumulator and a K loop stepping by the fragment's K");
  auto *LayE = dyn_cast<DeclRefExpr>(Store->getArg(3)->IgnoreParenImpCasts());
  if (!LayE || LayE->getDecl()->getName() != "mem_row_major")
    refuse(RuleId::PK5041, Store->getBeginLoc(),
           "the accumulator is not stored row-major (wmma::mem_row_major)");
  // C[off_c + i * ldc + j]: off_c = Rc * ldc + Cc.
  auto [PC, OffC] = pointer(Store->getArg(0));
  G.N = ldParam(Store->getArg(2));
  Poly Rc, Cc;
  OffC.divide(G.N, Rc, Cc);
  if (Cc.mentions(G.N))
    refuse(RuleId::PK5041, Store->getBeginLoc(),
           "the C offset is not row * N + col");
  auto [PA, OffA] = pointer(LoadA->getArg(1));
  if (ldParam(LoadA->getArg(2)) != G.K)
    refuse(RuleId::PK5041, LoadA->getBeginLoc(),
           "A's leading dimension is not the K loop's bound " + G.K);
  Poly Ra, Ka;
  OffA.divide(G.K, Ra, Ka);
  if (Ra != Rc || Ka != Poly::atom(KVar))
    refuse(RuleId::PK5041, LoadA->getBeginLoc(),
           "the A fragment is not at (the C tile's row, k): offset " +
               OffA.py() + ", expected (" + Rc.py() + ") * " + G.K + " + " +
               KVar);
  auto [PB, OffB] = pointer(LoadB->getArg(1));
  Poly Rb, Kb;
  if (FB.Layout == "row_major") {
    if (ldParam(LoadB->getArg(2)) != G.N)
      refuse(RuleId::PK5041, LoadB->getBeginLoc(),
             "a row-major B's leading dimension is not C's (" + G.N + ")");
    OffB.divide(G.N, Rb, Kb);
    if (Rb != Poly::atom(KVar) || Kb != Cc)
      refuse(RuleId::PK5041, LoadB->getBeginLoc(),
             "the B fragment is not at (k, the C tile's column)");
  } else {
    G.BTransposed = true;
    if (ldParam(LoadB->getArg(2)) != G.K)
      refuse(RuleId::PK5041, LoadB->getBeginLoc(),
             "a col-major B's leading dimension is not K (" + G.K + ")");
    OffB.divide(G.K, Rb, Kb);
    if (Rb != Cc || Kb != Poly::atom(KVar))
      refuse(RuleId::PK5041, LoadB->getBeginLoc(),
             "the col-major B fragment is not at (the C tile's column, k)");
  }
  if (FB.Ty != FA.Ty ||
      dtypeOf(PA->getType()->getPointeeType()) !=
          dtypeOf(PB->getType()->getPointeeType()) ||
      dtypeOf(PC->getType()->getPointeeType()) != DType::F32 || PA == PB ||
      PA == PC || PB == PC)
    refuse(RuleId::PK5041, Store->getBeginLoc(),
           "A, B and C must be distinct parameters, A and B of the "
           "fragments' element type, C float");
  // The rows: Rc < M from the early return.
  std::string M;
  bool ColBound = false;
  for (const auto &[L, R] : Exits) {
    if (L == Rc && R.single())
      M = *R.single();
    else if (L == Cc && R == Poly::atom(G.N))
      ColBound = true;
    else
      refuse(RuleId::PK5044, ExitLoc,
             "the early return is not on the C tile's row and column");
  }
  if (M.empty() || !ColBound)
    refuse(RuleId::PK5044, ExitLoc.isValid() ? ExitLoc : FD->getLocation(),
           "no early return bounds the C tile's row and column by size "
           "parameters (if (row >= M || col >= N) return;)");
  for (const Poly *P : {&Rc, &Cc})
    for (const std::string &A : P->atoms()) {
      std::string S = A;
      size_t Pos;
      while ((Pos = S.find("(tid_x // 32)")) != std::string::npos)
        S.replace(Pos, 13, "w");
      if (S.find("tid_") != std::string::npos ||
          S.find("block_") != std::string::npos ||
          S.find("grid_") != std::string::npos || !P->mentions(A))
        refuse(RuleId::PK5044, Store->getBeginLoc(),
               "the C tile depends on the thread other than through its "
               "warp (threadIdx.x / 32): fragments are per warp");
    }
  G.A = PA;
  G.B = PB;
  G.C = PC;
  G.M = M;
  G.Alpha = Alpha.value_or("");
  std::string S = std::to_string(T16);
  for (const std::string *D : {&G.M, &G.N, &G.K})
    G.Checks.push_back({*D + " % " + S + " == 0",
                        *D + " is a multiple of the fragment size " + S +
                            " (the CUDA kernel reads and writes whole " + S +
                            "x" + S + " tiles)"});
  G.Checks.push_back({"block_x % 32 == 0", "blocks are whole warps"});
  G.Checks.push_back({"block_y == 1", "one-dimensional blocks"});
  // Every C tile is stored by some warp: rows and columns separately where
  // they depend on different indices (linear in M + N), else every warp.
  std::vector<CoverGen> Gens = {{"bid_x", "range(grid_x)", {}, true},
                                {"bid_y", "range(grid_y)", {}, true},
                                {"tid_x", "range(0, block_x, 32)", {}, true}};
  std::string Full =
      "len({(r_, c_) for (r_, c_) in {(" + Rc.py() + ", " + Cc.py() +
      ") for bid_x in range(grid_x) for bid_y in range(grid_y) for tid_x in "
      "range(0, block_x, 32)} if r_ < " +
      M + " and c_ < " + G.N + " and r_ % " + S + " == 0 and c_ % " + S +
      " == 0}) == (" + M + " // " + S + ") * (" + G.N + " // " + S + ")";
  std::string Cover =
      splitCoverCheck(Rc, Cc, Gens, "r_ < " + M + " and r_ % " + S + " == 0",
                      "c_ < " + G.N + " and c_ % " + S + " == 0",
                      M + " // " + S, G.N + " // " + S, Full);
  G.Checks.push_back(
      {Cover, "the launch stores every " + S + "x" + S + " tile of C"});
  G.Family = std::string("GEMM from WMMA fragments loaded from global memory "
                         "(C = ") +
             (Alpha ? "alpha * " : "") + "A * B" +
             (G.BTransposed ? "t^T" : "") +
             "; nc_matmul over K tiles of 128 into PSUM)";
  return G;
}

} // namespace gemm
} // namespace nki
} // namespace pk
