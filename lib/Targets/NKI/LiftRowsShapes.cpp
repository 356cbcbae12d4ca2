//===- LiftRowsShapes.cpp - the row model at candidate block shapes -------===//
// Rules: PK5001, PK5004, PK5007
//
// nki::liftRows: the kernel (or a kernel template's instantiations) is
// executed for one block at each candidate block shape and each trace
// read as a row program, per-block partial sums or sums over the grid
// (LiftRows.cpp, LiftPartials.cpp, LiftRowsGrid.cpp); the program proven at
// the most shapes is emitted.  A kernel given its block size as an
// argument is executed again with that parameter bound to the block size.
//
//===----------------------------------------------------------------------===//
#include "LiftRowsRead.h"

#include "clang/AST/DeclTemplate.h"
#include "llvm/ADT/STLExtras.h"
#include <set>

using namespace pk;
using namespace pk::nki;
using namespace pk::nki::rows;
using namespace pk::km;
using namespace clang;

namespace rowsread {

RuleId ruleOf(const Failure &F) {
  switch (F.K) {
  case Failure::DataDependent:
    return F.Msg.find("atomic") != std::string::npos ? RuleId::PK5002
                                                     : RuleId::PK5003;
  case Failure::Divergent:
  case Failure::Race:
  case Failure::Undefined:
    return RuleId::PK5004;
  case Failure::Layout:
    return RuleId::PK5005;
  default:
    return RuleId::PK5007;
  }
}

} // namespace rowsread

namespace rowsread {

/// The per-block partial sums read at each block shape (LiftPartials.cpp):
/// the first reading, the shapes that agree with it, the first refusal.
struct PartialShapes {
  bool Seen = false;
  std::optional<rows::PartialProgram> Chosen;
  std::vector<BlockShape> Valid;
  std::optional<Refusal> FirstWhy;
  /// Whether \p Tr is read as partial sums (then not as a row program).
  bool add(const Trace &Tr, SymPool &P, const BlockShape &S) {
    rows::PartialVerdict PV = rows::readPartials(Tr, P, S);
    if (PV.NotMine)
      return false;
    Seen = true;
    if (PV.Why && !FirstWhy)
      FirstWhy = PV.Why;
    if (PV.Prog && (!Chosen || Chosen->Key == PV.Prog->Key)) {
      if (!Chosen)
        Chosen = PV.Prog;
      Valid.push_back(S);
    }
    return true;
  }
  bool finish(TargetContext &TC, const FunctionDecl *FD, SymPool &P, Kernel &K,
              std::optional<Refusal> &Why) {
    if (!Chosen) {
      Why = FirstWhy;
      return false;
    }
    return rows::emitPartials(TC, FD, *Chosen, P, Valid, K, Why);
  }
};

} // namespace rowsread

bool nki::liftRows(TargetContext &TC, const FunctionDecl *FD, Kernel &K,
                   std::optional<Refusal> &Why) {
  LaunchDims DS;
  DS.TraverseStmt(const_cast<clang::Stmt *>(FD->getBody()));
  if (DS.Thread[2])
    return false;
  const std::vector<BlockShape> Cands1D = {{256, 1, 1}, {32, 1, 1},
                                           {64, 1, 1},  {128, 1, 1},
                                           {512, 1, 1}, {1024, 1, 1}};
  // A kernel template: its explicit instantiations are executed, and read
  // as per-block partial sums only (the block size a template parameter
  // fixes is asserted of the launch).
  if (const FunctionTemplateDecl *FT = FD->getDescribedFunctionTemplate()) {
    if (DS.Thread[1])
      return false;
    SymPool P;
    rowsread::PartialShapes PS;
    const FunctionDecl *Inst = nullptr;
    for (const FunctionDecl *Sp : FT->specializations()) {
      const FunctionDecl *Def = Sp->getDefinition();
      if (!Def || !Def->hasBody())
        continue;
      for (const BlockShape &S : Cands1D) {
        Trace Tr = executeBlock(TC.Ctx(), Def, S, P, waveOf(TC));
        if (Tr.F) {
          if (Tr.F->K == Failure::Race && !PS.FirstWhy)
            PS.FirstWhy = Refusal{RuleId::PK5004, Tr.F->Loc, Tr.F->Msg, true};
          continue;
        }
        if (PS.add(Tr, P, S) && PS.Chosen && !Inst)
          Inst = Def;
      }
    }
    if (!PS.Seen && !PS.FirstWhy)
      return false;
    if (!PS.Chosen) {
      Why = PS.FirstWhy;
      return false;
    }
    return PS.finish(TC, Inst, P, K, Why);
  }
  // The generic reading at every candidate shape; \p BlockParam, an int
  // parameter, bound to the block's x size (null: none).
  auto Generic = [&](const ParmVarDecl *BlockParam, Kernel &K,
                     std::optional<Refusal> &Why) -> bool {
    std::vector<BlockShape> Cands;
    if (DS.Thread[1]) {
      for (unsigned Y : {4u, 1u, 2u, 8u, 16u, 32u})
        Cands.push_back({32, Y, 1});
      Cands.push_back({64, 4, 1});
      Cands.push_back({16, 16, 1});
    } else {
      Cands = Cands1D;
    }
    SymPool P;
    rowsread::PartialShapes Partials;
    std::optional<rows::Program> Chosen;
    std::vector<std::pair<BlockShape, int64_t>> Valid;
    std::optional<Refusal> FirstWhy, RaceWhy;
    bool AnyNotMine = false, SharedBytes = false, RaceFree = false;
    // PK_NKI_MODEL_DEBUG=1: each block shape's verdict on stderr.
    bool Debug = std::getenv("PK_NKI_MODEL_DEBUG") != nullptr;
    auto Say = [&](const BlockShape &S, const std::string &What) {
      if (Debug)
        llvm::errs() << "model: " << FD->getName() << " at " << S.X << "x"
                     << S.Y << ": " << What << "\n";
    };
    for (const BlockShape &S : Cands) {
      Trace Tr = executeBlock(TC.Ctx(), FD, S, P, waveOf(TC), BlockParam);
      if (Tr.F)
        Say(S, "model: " + Tr.F->Msg);
      SharedBytes |= Tr.UsesSharedBytes;
      // A block of one warp (wave) needs no barrier: that it runs without a
      // race says nothing of the barriers between warps.
      RaceFree |= !Tr.F && int64_t(S.X) * S.Y * S.Z > int64_t(waveOf(TC));
      if (Tr.F) {
        if (!FirstWhy)
          FirstWhy = Refusal{rowsread::ruleOf(*Tr.F), Tr.F->Loc, Tr.F->Msg,
                             Tr.F->K != Failure::Unsupported &&
                                 Tr.F->K != Failure::Shape};
        // A data race is a bug of the kernel, whatever it computes: it is
        // the reason, unless the kernel runs without one at another shape
        // of several warps (a tile whose side is a constant races only at
        // the block shapes it was not written for: those are not shapes to
        // run at).  What
        // the model cannot follow at all is the same at every shape.
        if (Tr.F->K == Failure::Race) {
          if (!RaceWhy)
            RaceWhy = Refusal{RuleId::PK5004, Tr.F->Loc, Tr.F->Msg, true};
          continue;
        }
        if (Tr.F->K == Failure::Unsupported || Tr.F->K == Failure::Carried ||
            Tr.F->K == Failure::DataDependent || Tr.F->K == Failure::Layout ||
            Tr.F->K == Failure::NoTile)
          break;
        continue;
      }
      // Stores at blockIdx.x of what the block's elements sum to.
      if (Partials.add(Tr, P, S)) {
        Say(S, Partials.Chosen
                   ? "per-block partial sums " + Partials.Chosen->Key
                   : "refused: " + Partials.FirstWhy->Msg);
        continue;
      }
      // Atomics into an address no block owns: their sum over the grid.
      rows::GridSum GS = rows::sumOverGrid(Tr, P);
      if (GS.Why) {
        Say(S, "refused: " + GS.Why->Msg);
        if (!FirstWhy)
          FirstWhy = GS.Why;
        continue;
      }
      rows::Verdict V = rows::analyse(TC.Ctx(), FD, GS.Tr ? *GS.Tr : Tr, P);
      if (V.Prog && GS.Applies) {
        V.Prog->RowGrid = GS.RowGrid;
        V.Prog->Reach = GS.Reach;
        V.Prog->Key += ";" + GS.RowGrid;
        for (auto &[Lhs, E] : GS.Reach)
          V.Prog->Key += ";" + Lhs + ">=" + std::to_string(E->Id);
      }
      Say(S, V.NotMine ? "not a row program"
             : V.Prog  ? "row program " + V.Prog->Key
                       : "refused: " + V.Why->Msg);
      if (V.NotMine) {
        AnyNotMine = true;
        if (Partials.Seen)
          continue;
        break;
      }
      if (!V.Prog) {
        if (!FirstWhy) {
          FirstWhy = V.Why;
          // The reading's refusals are about what the kernel computes.
          FirstWhy->Definite |= FirstWhy->Rule != RuleId::PK5007;
        }
        continue;
      }
      if (Chosen && Chosen->Key != V.Prog->Key)
        continue; // another meaning at this shape: not a shape to run at
      if (!Chosen)
        Chosen = V.Prog;
      Valid.push_back({S, V.Prog->A});
    }
    if (RaceWhy && !RaceFree) {
      Why = RaceWhy;
      return false;
    }
    if (Partials.Seen)
      return Partials.finish(TC, FD, P, K, Why);
    if (AnyNotMine)
      return false;
    if (!Chosen) {
      Why = FirstWhy;
      return false;
    }
    bool Ok = rows::emit(TC, FD, *Chosen, P, Valid, DS.Thread[1], SharedBytes,
                         K, Why);
    // The kernel was proven a row program: what has no tile operation in it
    // is what the kernel computes, more precise than a spelling's reason.
    if (!Ok && Why)
      Why->Definite = true;
    if (!Ok && Debug && Why)
      llvm::errs() << "model: " << FD->getName()
                   << ": not emitted: " << Why->Msg << "\n";
    return Ok;
  };
  if (Generic(nullptr, K, Why))
    return true;
  // A kernel given its block size as an argument: each int parameter its
  // loops use as one (the step of a loop from threadIdx, `i +=
  // block_size`; the start of a tree, `s = block_size / 2` or `>> 1`) is
  // tried as the block size; the output asserts that the launch passes
  // the block size there.
  std::set<const ParmVarDecl *> InLoops;
  struct LoopParams : DynamicASTVisitor {
    std::set<const ParmVarDecl *> *Out;
    const FunctionDecl *FD;
    const ParmVarDecl *param(const Expr *E) {
      auto *DR = dyn_cast<DeclRefExpr>(E->IgnoreParenImpCasts());
      auto *PV = DR ? dyn_cast<ParmVarDecl>(DR->getDecl()) : nullptr;
      return PV && PV->getDeclContext() == FD && PV->getType()->isIntegerType()
                 ? PV
                 : nullptr;
    }
    static bool readsThreadIdx(const clang::Stmt *S) {
      struct R : DynamicASTVisitor {
        bool Found = false;
        bool VisitMemberExpr(MemberExpr *M) override {
          if (auto *DR =
                  dyn_cast<DeclRefExpr>(M->getBase()->IgnoreParenImpCasts()))
            Found |= DR->getDecl()->getName() == "threadIdx";
          return true;
        }
        bool VisitDeclRefExpr(DeclRefExpr *E) override {
          Found |= E->getDecl()->getName() == "threadIdx";
          return true;
        }
      } V;
      if (S)
        V.TraverseStmt(const_cast<clang::Stmt *>(S));
      return V.Found;
    }
    bool VisitForStmt(ForStmt *F) override {
      const Expr *Inc = F->getInc();
      // i += P, from a start that reads threadIdx.
      if (auto *CA = dyn_cast_or_null<CompoundAssignOperator>(Inc))
        if (CA->getOpcode() == BO_AddAssign && readsThreadIdx(F->getInit()))
          if (const ParmVarDecl *PV = param(CA->getRHS()))
            Out->insert(PV);
      // s = P / 2 or P >> 1 at the start.
      auto Half = [&](const Expr *E) {
        auto *B =
            E ? dyn_cast<BinaryOperator>(E->IgnoreParenImpCasts()) : nullptr;
        if (B && (B->getOpcode() == BO_Div || B->getOpcode() == BO_Shr))
          if (const ParmVarDecl *PV = param(B->getLHS()))
            Out->insert(PV);
      };
      if (auto *DS = dyn_cast_or_null<DeclStmt>(F->getInit()))
        for (const Decl *D : DS->decls())
          if (auto *V = dyn_cast<VarDecl>(D))
            Half(V->getInit());
      if (auto *B = dyn_cast_or_null<BinaryOperator>(F->getInit()))
        if (B->isAssignmentOp())
          Half(B->getRHS());
      return true;
    }
  } LP;
  LP.Out = &InLoops;
  LP.FD = FD;
  LP.TraverseStmt(const_cast<clang::Stmt *>(FD->getBody()));
  for (const ParmVarDecl *BP : InLoops) {
    Kernel K2;
    std::optional<Refusal> W2;
    if (!Generic(BP, K2, W2))
      continue;
    std::string Py = pyName(BP->getName());
    if (!llvm::is_contained(K2.Launch, "block_x"))
      K2.Launch.insert(K2.Launch.begin() + (K2.Launch.empty() ? 0 : 1),
                       "block_x");
    nki::Stmt C;
    C.K = nki::Stmt::Check;
    C.Value = PyExpr::compare(PyExpr::name(Py), "==", PyExpr::name("block_x"));
    C.Var = "'" + BP->getName().str() +
            "' is the block size: the kernel was proven with it so";
    K2.Body.insert(K2.Body.begin(), C);
    K2.Family += "; '" + BP->getName().str() +
                 "' is the block size (the kernel reads it as such; asserted "
                 "of the launch)";
    K = std::move(K2);
    Why.reset();
    return true;
  }
  return false;
}
