//===- LegacyWarpSync.cpp - implicit warp-synchronous shared memory -------===//
// Rules: PK6004, PK6005, PK6006
//
// Before Volta the lanes of a warp ran in lockstep, and code relied on it:
// a lane read what another lane of its warp had just written to shared
// memory with no barrier.  With independent thread scheduling (sm_70+) the
// lanes of a warp may interleave in any order between two synchronisation
// points, so such code races.
//   PK6004  the unrolled `volatile` tail (`vs[tid] += vs[tid + 16];` ...):
//           every step becomes read, __syncwarp, write, __syncwarp.
//   PK6005  a store to a __shared__ array that other lanes of the same warp
//           read in a later statement, with no barrier between: a
//           __syncwarp after the store.
//   PK6006  the same patterns where the lanes cannot be computed or the
//           reader is in another warp (that needs __syncthreads, which
//           cannot be inserted in code that not every thread runs).
//
//===----------------------------------------------------------------------===//
#include "LegacyPasses.h"

#include "pk/ASTUtil.h"
#include "pk/Wave64Analysis.h"

#include "pk/DynamicVisitor.h"
#include "clang/AST/ASTContext.h"
#include "clang/AST/ParentMapContext.h"
#include "clang/Basic/SourceManager.h"
#include "clang/Lex/Lexer.h"
#include "llvm/Support/FormatVariadic.h"
#include <functional>
#include <set>

using namespace pk;
using namespace pk::cudaleg;
using namespace clang;

namespace {

std::string syncText(const Lanes &L) {
  if (L.Kind == Lanes::All)
    return "__syncwarp()";
  return llvm::formatv("__syncwarp({0:x8}u)", L.Mask).str();
}

bool knownLanes(const Lanes &L) {
  return L.Kind == Lanes::All || L.Kind == Lanes::Constant;
}

bool isBarrier(llvm::StringRef N) {
  return N.starts_with("__syncthreads") || N == "__syncwarp" || N == "sync" ||
         N == "barrier_sync" || N == "__barrier_sync";
}

/// True when \p S contains a barrier call.
bool hasBarrier(const Stmt *S) {
  if (!S)
    return false;
  if (const auto *CE = dyn_cast<CallExpr>(S))
    if (isBarrier(calleeName(CE)))
      return true;
  for (const Stmt *C : S->children())
    if (hasBarrier(C))
      return true;
  return false;
}

const VarDecl *sharedArray(const Expr *E) {
  const VarDecl *VD = subscriptBase(E);
  return VD && VD->hasAttr<CUDASharedAttr>() ? VD : nullptr;
}

struct Access {
  const ArraySubscriptExpr *A;
  bool Store;
};

/// Subscripts of __shared__ arrays in \p S (a store: the left side of an
/// assignment), outside the statements of \p Skip.
void accesses(const Stmt *S, std::vector<Access> &Out,
              const std::set<const Stmt *> &Skip, bool Lhs = false) {
  if (!S || Skip.count(S) || isa<LambdaExpr>(S))
    return;
  if (const auto *BO = dyn_cast<BinaryOperator>(S))
    if (BO->isAssignmentOp()) {
      accesses(BO->getLHS(), Out, Skip, true);
      if (BO->isCompoundAssignmentOp())
        accesses(BO->getLHS(), Out, Skip, false);
      accesses(BO->getRHS(), Out, Skip, false);
      return;
    }
  if (const auto *A = dyn_cast<ArraySubscriptExpr>(S)) {
    if (sharedArray(A)) {
      Out.push_back({A, Lhs});
      accesses(A->getIdx(), Out, Skip, false);
      return;
    }
  }
  for (const Stmt *C : S->children())
    accesses(C, Out, Skip, Lhs && isa<ParenExpr, ImplicitCastExpr>(S));
}

class WarpSync {
public:
  WarpSync(TargetContext &TC, bool Port) : TC(TC), Port(Port), Conv(TC) {}

  void run() {
    Wave64Analysis A(TC);
    A.run(Wave64Strategy::Logical32);
    for (const W64Site &S : A.sites())
      if (S.Kind == W64Site::VolatileStep)
        Steps.insert(S.S);
    for (const Stmt *S : Steps)
      volatileStep(cast<BinaryOperator>(S));
    struct Bodies : DynamicASTVisitor {
      std::vector<const CompoundStmt *> Out;
      TargetContext &TC;
      explicit Bodies(TargetContext &TC) : TC(TC) {}
      bool VisitCompoundStmt(CompoundStmt *CS) override {
        if (TC.isUserLoc(CS->getBeginLoc()))
          Out.push_back(CS);
        return true;
      }
    } B(TC);
    for (Decl *D : TC.userTopLevelDecls()) // records user code only
      B.TraverseDecl(D);
    for (const CompoundStmt *CS : B.Out)
      sequence(CS);
  }

private:
  TargetContext &TC;
  bool Port;
  Convergence Conv;
  std::set<const Stmt *> Steps;
  std::set<const Stmt *> Synced; ///< statements a __syncwarp follows

  void unsafe(SourceLocation Loc, const std::string &Msg) {
    TC.finding(Loc, RuleId::PK6006, Severity::Warning, Msg);
  }

  void volatileStep(const BinaryOperator *BO) {
    std::string Step = TC.text(BO);
    Lanes L = Conv.lanesAt(BO);
    SourceLocation B = BO->getBeginLoc(), E = BO->getEndLoc();
    if (!knownLanes(L) || !B.isFileID() || !E.isFileID()) {
      unsafe(B, llvm::formatv(
                    "'{0}' reads another lane's volatile shared-memory slot "
                    "and writes its own with no __syncwarp: on Volta and "
                    "newer the lanes of a warp do not run in lockstep, so "
                    "this races; {1}: split it into a read, __syncwarp(mask), "
                    "the write and __syncwarp(mask) by hand",
                    Step,
                    !knownLanes(L)
                        ? "the lanes that run it are not known (" + L.Why + ")"
                        : std::string("it is written in a macro"))
                    .str());
      return;
    }
    if (!Port) {
      TC.finding(B, RuleId::PK6004, Severity::Warning,
                 llvm::formatv("'{0}': warp-synchronous volatile step races "
                               "on Volta and newer; port splits it with {1}",
                               Step, syncText(L))
                     .str());
      return;
    }
    std::string Lhs = TC.text(BO->getLHS());
    std::string Rhs = TC.text(BO->getRHS());
    std::string Op = BO->getOpcode() == BO_Assign
                         ? "="
                         : BinaryOperator::getOpcodeStr(BO->getOpcode()).str();
    std::string Sync = syncText(L);
    std::string Text = "{ auto __pk_v = " + Rhs + "; " + Sync + "; " + Lhs +
                       " " + Op + " __pk_v; " + Sync + "; }";
    SourceLocation After = Lexer::findLocationAfterToken(
        E, tok::semi, TC.SM(), TC.Ctx().getLangOpts(),
        /*SkipTrailingWhitespaceAndNewLine=*/false);
    if (After.isInvalid()) {
      unsafe(B, llvm::formatv("'{0}' reads another lane's volatile "
                              "shared-memory slot and writes its own with no "
                              "__syncwarp; it is not a statement of its own: "
                              "split it by hand",
                              Step)
                    .str());
      return;
    }
    CharSourceRange Rg = CharSourceRange::getCharRange(B, After);
    TC.replace(Rg, Text, RuleId::PK6004,
               llvm::formatv("'{0}' reads another lane's slot and writes its "
                             "own: on Volta and newer the lanes of a warp do "
                             "not run in lockstep, so every lane reads, then "
                             "{1}, then every lane writes, then {1}",
                             Step, Sync)
                   .str());
  }

  /// The threads (threadIdx.x) among 0..1023 that run \p S, given that the
  /// statement \p Top of the same sequence runs; none when not computable.
  std::optional<std::array<uint32_t, 32>> runners(const Stmt *S,
                                                  const Stmt *Top) {
    std::array<uint32_t, 32> M;
    M.fill(0xffffffffu);
    bool OK = true;
    DynTypedNode N = DynTypedNode::create(*S);
    const Stmt *Child = S;
    while (OK && Child != Top) {
      auto Ps = TC.parents(N);
      if (Ps.empty())
        return std::nullopt;
      N = Ps[0];
      const Stmt *P = N.get<Stmt>();
      if (!P) {
        if (N.get<VarDecl>())
          continue;
        return std::nullopt;
      }
      const Expr *Cond = nullptr;
      bool Neg = false;
      if (const auto *If = dyn_cast<IfStmt>(P)) {
        if (Child == If->getThen())
          Cond = If->getCond();
        else if (Child == If->getElse()) {
          Cond = If->getCond();
          Neg = true;
        }
      } else if (isa<ForStmt, WhileStmt, DoStmt, SwitchStmt,
                     AbstractConditionalOperator>(P)) {
        OK = false;
      }
      if (Cond && !Conv.uniform(Cond)) {
        for (unsigned W = 0; W < 32 && OK; ++W) {
          auto V = Conv.perLane(Cond, W);
          if (!V) {
            OK = false;
            break;
          }
          for (unsigned L = 0; L < 32; ++L)
            if (((*V)[L] != 0) == Neg)
              M[W] &= ~(1u << L);
        }
      }
      Child = P;
    }
    if (!OK)
      return std::nullopt;
    return M;
  }

  /// Stores to a __shared__ array followed, in a later statement of the same
  /// sequence and with no barrier between, by reads of other slots.
  void sequence(const CompoundStmt *CS) {
    struct Pending {
      const ArraySubscriptExpr *Store;
      const Stmt *Top;
    };
    std::vector<Pending> Stores;
    for (const Stmt *S : CS->body()) {
      if (hasBarrier(S)) {
        Stores.clear();
        continue;
      }
      std::vector<Access> Acc;
      accesses(S, Acc, Steps);
      std::set<const Stmt *> Flagged;
      for (const Access &R : Acc) {
        if (R.Store)
          continue;
        for (const Pending &P : Stores) {
          if (Flagged.count(P.Top) || Synced.count(P.Top) ||
              sharedArray(P.Store) != sharedArray(R.A))
            continue;
          if (check(P.Store, P.Top, R.A, S))
            Flagged.insert(P.Top);
        }
      }
      for (const Access &W : Acc)
        if (W.Store)
          Stores.push_back({W.A, S});
    }
  }

  /// Returns true when the pair was handled (synchronised or reported).
  bool check(const ArraySubscriptExpr *Store, const Stmt *StoreTop,
             const ArraySubscriptExpr *Load, const Stmt *LoadTop) {
    std::string Name = sharedArray(Store)->getNameAsString();
    auto Writers = runners(Store, StoreTop);
    auto Readers = runners(Load, LoadTop);
    bool Known = Writers && Readers;
    // Index written and read by each thread.
    std::vector<std::array<int64_t, 32>> WIdx, RIdx;
    for (unsigned W = 0; W < 32 && Known; ++W) {
      auto A = Conv.perLane(Store->getIdx(), W);
      auto B = Conv.perLane(Load->getIdx(), W);
      if (!A || !B)
        Known = false;
      else {
        WIdx.push_back(*A);
        RIdx.push_back(*B);
      }
    }
    if (!Known) {
      // Each lane its own slot, or one slot for the whole warp: no data
      // passes between lanes.
      if (TC.text(Store->getIdx()) == TC.text(Load->getIdx()) ||
          (Conv.uniform(Store->getIdx()) && Conv.uniform(Load->getIdx())))
        return false;
      unsafe(Load->getBeginLoc(),
             llvm::formatv("'{0}' reads shared memory ('{1}') written by "
                           "'{2}' with no barrier between; which lanes "
                           "write and read which slot cannot be computed: if "
                           "other lanes wrote it, add __syncwarp(mask) (same "
                           "warp) or __syncthreads() (other warps) after the "
                           "store",
                           TC.text(Load), Name, TC.text(Store))
                 .str());
      return true;
    }
    bool SameWarp = false, OtherWarp = false;
    for (unsigned W = 0; W < 32; ++W)
      for (unsigned L = 0; L < 32; ++L) {
        if (!((*Readers)[W] >> L & 1))
          continue;
        int64_t R = RIdx[W][L];
        for (unsigned W2 = 0; W2 < 32; ++W2)
          for (unsigned L2 = 0; L2 < 32; ++L2) {
            if (!((*Writers)[W2] >> L2 & 1) || WIdx[W2][L2] != R)
              continue;
            if (W2 != W)
              OtherWarp = true;
            else if (L2 != L)
              SameWarp = true;
          }
      }
    if (OtherWarp) {
      unsafe(Load->getBeginLoc(),
             llvm::formatv("'{0}' reads a slot of '{1}' that a thread of "
                           "another warp writes ('{2}') with no "
                           "__syncthreads() between: a race on any GPU; it "
                           "needs a block barrier that every thread reaches",
                           TC.text(Load), Name, TC.text(Store))
                 .str());
      return true;
    }
    if (!SameWarp)
      return false;
    Lanes L = Conv.lanesAt(StoreTop);
    if (!knownLanes(L)) {
      unsafe(Load->getBeginLoc(),
             llvm::formatv("'{0}' reads a slot of '{1}' that another lane of "
                           "its warp writes ('{2}') with no barrier: it races "
                           "on Volta and newer; the lanes here are not known "
                           "({3}): add __syncwarp(mask) after the store",
                           TC.text(Load), Name, TC.text(Store), L.Why)
                 .str());
      return true;
    }
    std::string Sync = syncText(L);
    Synced.insert(StoreTop);
    if (!Port) {
      TC.finding(Load->getBeginLoc(), RuleId::PK6005, Severity::Warning,
                 llvm::formatv("'{0}' reads a slot of '{1}' that another lane "
                               "of its warp writes ('{2}') with no barrier: "
                               "races on Volta and newer; port adds {3} after "
                               "the store",
                               TC.text(Load), Name, TC.text(Store), Sync)
                     .str());
      return true;
    }
    SourceLocation End = StoreTop->getEndLoc();
    if (!End.isFileID())
      End = TC.SM().getExpansionRange(End).getEnd();
    SourceLocation After = Lexer::findLocationAfterToken(
        End, tok::semi, TC.SM(), TC.Ctx().getLangOpts(), false);
    if (After.isInvalid())
      After =
          Lexer::getLocForEndOfToken(End, 0, TC.SM(), TC.Ctx().getLangOpts());
    std::string File = TC.fileOf(StoreTop->getBeginLoc());
    unsigned Off =
        TC.SM().getFileOffset(TC.SM().getFileLoc(StoreTop->getBeginLoc()));
    llvm::StringRef Buf = TC.contents(File);
    size_t LS = Buf.take_front(Off).rfind('\n');
    LS = LS == llvm::StringRef::npos ? 0 : LS + 1;
    llvm::StringRef Indent = Buf.slice(LS, Off);
    if (!Indent.trim().empty())
      Indent = "";
    TC.insert(After, "\n" + Indent.str() + Sync + ";", RuleId::PK6005,
              llvm::formatv("other lanes of the warp read what '{0}' stores "
                            "('{1}'): on Volta and newer they may run before "
                            "the store; {2} orders them",
                            TC.text(Store), TC.text(Load), Sync)
                  .str());
    return true;
  }
};

} // namespace

void pk::cudaleg::portWarpSync(TargetContext &TC) {
  if (TC.PF.Language != Lang::CUDA)
    return;
  WarpSync(TC, true).run();
}

void pk::cudaleg::checkWarpSync(TargetContext &TC) {
  if (TC.PF.Language != Lang::CUDA)
    return;
  WarpSync(TC, false).run();
}
