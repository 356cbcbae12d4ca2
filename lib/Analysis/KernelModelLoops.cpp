//===- KernelModelLoops.cpp - loops of the kernel model -------------------===//
// Rules: none (shared analysis)
//
// A loop whose condition every thread can decide at every iteration (its
// bounds come from the thread index, the block shape and constants: a
// shared-memory tree, a butterfly, a tile's inner loop) is unrolled.  A
// loop whose condition is symbolic from the first iteration (`i < n`) is
// summarised: its variable becomes an Iter value over [start, end) by
// step, the body runs once, and each local it updates must come out as
// `acc op g` with g free of the loop's other updates: the local becomes
// `acc op reduce_op(iter, g)`.  Anything else carried across iterations
// (a running rescale, a value and its index) is reported as such.
//
//===----------------------------------------------------------------------===//
#include "KernelModelImpl.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/ExprCXX.h"
#include "clang/Basic/SourceManager.h"
#include "llvm/Support/FormatVariadic.h"
#include <functional>
#include <set>

using namespace pk;
using namespace pk::km;
using namespace clang;

namespace {

/// The locals a statement assigns (=, op=, ++/--, operator= of classes).
void assigned(const Stmt *S, std::set<const VarDecl *> &Out) {
  if (!S)
    return;
  const Expr *L = nullptr;
  if (auto *B = dyn_cast<BinaryOperator>(S)) {
    if (B->isAssignmentOp())
      L = B->getLHS();
  } else if (auto *U = dyn_cast<UnaryOperator>(S)) {
    if (U->isIncrementDecrementOp())
      L = U->getSubExpr();
  } else if (auto *OC = dyn_cast<CXXOperatorCallExpr>(S)) {
    if (OC->isAssignmentOp() && OC->getNumArgs() >= 1)
      L = OC->getArg(0);
  } else if (auto *C = dyn_cast<CallExpr>(S)) {
    // A local passed by reference to a device function.
    if (auto *F = C->getDirectCallee())
      for (unsigned I = 0; I < C->getNumArgs() && I < F->getNumParams(); ++I)
        if (F->getParamDecl(I)->getType()->isReferenceType())
          if (auto *DR = dyn_cast<DeclRefExpr>(
                  C->getArg(I)->IgnoreParenImpCasts()))
            if (auto *V = dyn_cast<VarDecl>(DR->getDecl()))
              Out.insert(V);
  }
  if (L)
    if (auto *DR = dyn_cast<DeclRefExpr>(L->IgnoreParenImpCasts()))
      if (auto *V = dyn_cast<VarDecl>(DR->getDecl()))
        Out.insert(V);
  for (const Stmt *Ch : S->children())
    assigned(Ch, Out);
}

bool hasBreak(const Stmt *S, bool Nested) {
  if (!S)
    return false;
  if (isa<BreakStmt>(S) || isa<ContinueStmt>(S))
    return !Nested;
  bool Loop = isa<ForStmt>(S) || isa<WhileStmt>(S) || isa<DoStmt>(S);
  for (const Stmt *Ch : S->children())
    if (hasBreak(Ch, Nested || Loop))
      return true;
  return false;
}

const VarDecl *declRefVar(const Expr *E) {
  if (!E)
    return nullptr;
  auto *DR = dyn_cast<DeclRefExpr>(E->IgnoreParenImpCasts());
  return DR ? dyn_cast<VarDecl>(DR->getDecl()) : nullptr;
}

/// Where a finding about the carried local \p X points: its last
/// assignment in \p Body (the update in the loop), else its declaration.
SourceLocation carriedUpdateLoc(const Stmt *Body, const VarDecl *X) {
  SourceLocation At = X->getLocation();
  std::function<void(const Stmt *)> Find = [&](const Stmt *St) {
    if (!St)
      return;
    if (auto *B = dyn_cast<BinaryOperator>(St))
      if (B->isAssignmentOp() && declRefVar(B->getLHS()) == X)
        At = B->getOperatorLoc();
    for (const Stmt *Ch : St->children())
      Find(Ch);
  };
  Find(Body);
  return At;
}

} // namespace

void Exec::execLoop(const Stmt *Loop, const Stmt *Init, const Expr *Cond,
                    const Expr *Inc, const Stmt *Body, const Mask &M0) {
  if (hasBreak(Body, false)) {
    fail(Failure::Unsupported, Loop->getBeginLoc(),
         "a loop left by break or continue");
    return;
  }
  if (Init)
    exec(Init, M0);
  Mask Cur = live(M0);
  for (unsigned Iter = 0; !Cur.empty() && !failed(); ++Iter) {
    if (Iter > 4096) {
      fail(Failure::Shape, Loop->getBeginLoc(),
           "a loop of more than 4096 iterations decided by the block shape");
      return;
    }
    Mask Go, Sym;
    if (Cond) {
      Vals C = eval(Cond, Cur);
      if (failed())
        return;
      for (unsigned T : Cur) {
        if (C[T]->K == SK::Undef) {
          fail(Failure::Undefined, Cond->getBeginLoc(),
               "a loop condition reads a value no thread wrote");
          return;
        }
        if (C[T]->isConst()) {
          if (C[T]->K == SK::Int ? C[T]->I : C[T]->F)
            Go.push_back(T);
        } else {
          Sym.push_back(T);
        }
      }
    } else {
      Go = Cur;
    }
    if (!Sym.empty()) {
      if (Iter > 0 || !Go.empty()) {
        fail(Failure::Unsupported, Loop->getBeginLoc(),
             "a loop whose trip count is decided partly by the block shape "
             "and partly by the sizes");
        return;
      }
      const VarDecl *V = nullptr;
      if (auto *B = dyn_cast<BinaryOperator>(Cond->IgnoreParenImpCasts()))
        V = declRefVar(B->getLHS());
      if (!V || !localVar(cast<BinaryOperator>(Cond->IgnoreParenImpCasts())
                              ->getLHS())) {
        fail(Failure::Unsupported, Cond->getBeginLoc(),
             "a loop over the sizes whose condition is not `i < bound` "
             "(or <=) on a local");
        return;
      }
      summarise(Loop, Cond, Inc, Body, V, Sym);
      return;
    }
    if (Go.empty())
      return;
    ++LoopDepth;
    exec(Body, Go);
    --LoopDepth;
    if (Inc)
      (void)eval(Inc, live(Go));
    Cur = live(Go);
  }
}

void Exec::summarise(const Stmt *Loop, const Expr *Cond, const Expr *Inc,
                     const Stmt *Body, const VarDecl *V, const Mask &M) {
  auto Bad = [&](const char *Why) {
    fail(Failure::Unsupported, Loop->getBeginLoc(),
         llvm::formatv("loop over '{0}': {1}", V->getName(), Why).str());
  };
  auto *CB = cast<BinaryOperator>(Cond->IgnoreParenImpCasts());
  if (CB->getOpcode() != BO_LT && CB->getOpcode() != BO_LE &&
      CB->getOpcode() != BO_NE)
    return Bad("the condition is not `i < bound`");
  // The step: i += s, ++i, i++, i = i + s.
  const Expr *Step = nullptr;
  bool One = false;
  auto StepOf = [&](const Expr *E) {
    const Expr *I = E->IgnoreParenImpCasts();
    if (auto *U = dyn_cast<UnaryOperator>(I)) {
      if (U->isIncrementOp() && declRefVar(U->getSubExpr()) == V)
        One = true;
    } else if (auto *B = dyn_cast<BinaryOperator>(I)) {
      if (B->getOpcode() == BO_AddAssign && declRefVar(B->getLHS()) == V)
        Step = B->getRHS();
      else if (B->getOpcode() == BO_Assign && declRefVar(B->getLHS()) == V)
        if (auto *A =
                dyn_cast<BinaryOperator>(B->getRHS()->IgnoreParenImpCasts()))
          if (A->getOpcode() == BO_Add) {
            if (declRefVar(A->getLHS()) == V)
              Step = A->getRHS();
            else if (declRefVar(A->getRHS()) == V)
              Step = A->getLHS();
          }
    }
    return One || Step;
  };
  // A while loop: its step is the last statement of the body, when that
  // is the only update of the variable (`while (i < n) { ...; i += s; }`);
  // the body then runs without it.
  const CompoundStmt *Stepped = nullptr;
  if (!Inc) {
    auto *CS = dyn_cast<CompoundStmt>(Body);
    auto *Last = CS && !CS->body_empty() ? dyn_cast<Expr>(CS->body_back())
                                         : nullptr;
    std::set<const VarDecl *> Before;
    if (Last)
      for (const Stmt *X : CS->body())
        if (X != Last)
          assigned(X, Before);
    if (!Last || Before.count(V) || !StepOf(Last))
      return Bad("no increment (a while loop over the sizes whose body does "
                 "not end with `i += step`, its only update of the variable)");
    Stepped = CS;
  } else if (!StepOf(Inc)) {
    return Bad("the increment is not `i += step` or `++i`");
  }
  Vals End = eval(CB->getRHS(), M);
  Vals S = One ? Vals() : eval(Step, M);
  if (failed())
    return;
  std::set<const VarDecl *> Set;
  assigned(Body, Set);
  Set.erase(V);
  std::vector<const VarDecl *> Carried;
  for (const VarDecl *X : Set)
    if (Th[M[0]].Env.count(X))
      Carried.push_back(X);
  std::sort(Carried.begin(), Carried.end(),
            [](const VarDecl *A, const VarDecl *B) {
              return A->getLocation() < B->getLocation();
            });
  for (const VarDecl *X : Set)
    if (Th[M[0]].Arrays.count(X))
      return Bad("a local array is updated across its iterations");
  // Iteration variables; the old values of the carried locals.
  std::vector<std::vector<SymP>> Old(Th.size());
  SymP First = nullptr;
  bool Uniform = true;
  for (unsigned T : M) {
    SymP St = Th[T].Env[V];
    SymP Sp = One ? P.intc(1) : S[T];
    if (Sp->K == SK::Int && Sp->I <= 0)
      return Bad("the step is not positive");
    if (P.containsKind(Sp, SK::Load) || P.containsKind(End[T], SK::Load) ||
        P.containsKind(St, SK::Load)) {
      fail(Failure::DataDependent, Loop->getBeginLoc(),
           "a loop whose bounds are read from memory (data-dependent trip "
           "count)");
      return;
    }
    SymP E = End[T];
    if (CB->getOpcode() == BO_LE)
      E = P.bin("+", E, P.intc(1));
    SymP It = P.iter(Loop, St, E, Sp);
    if (!First)
      First = It;
    Uniform &= It == First;
    Th[T].Env[V] = It;
    for (const VarDecl *X : Carried) {
      Old[T].push_back(Th[T].Env[X]);
      Th[T].Env[X] = P.carried(X, Loop, Th[T].Env[X]->T);
    }
  }
  // Shared memory inside: each iteration's values stay inside it; a
  // barrier needs every thread to iterate alike.
  std::map<const VarDecl *, std::map<int64_t, Slot>> Before;
  for (auto &[SV, A] : Shared)
    Before[SV] = A.Slots;
  int PhaseBefore = Phase;
  std::vector<llvm::DenseMap<const VarDecl *, std::vector<SymP>>> FragsBefore;
  for (unsigned T : M)
    FragsBefore.push_back(Th[T].Frags);
  Summarised.push_back(Loop);
  ++LoopDepth;
  if (Stepped) {
    for (const Stmt *X : Stepped->body())
      if (X != Stepped->body_back() && !failed())
        exec(X, M);
  } else {
    exec(Body, M);
  }
  --LoopDepth;
  Summarised.pop_back();
  if (failed())
    return;
  for (size_t K = 0; K < M.size(); ++K)
    for (auto &[FV, Es] : Th[M[K]].Frags) {
      auto B = FragsBefore[K].find(FV);
      if (B == FragsBefore[K].end() || B->second != Es) {
        fail(Failure::Unsupported, Loop->getBeginLoc(),
             llvm::formatv("WMMA fragment '{0}' is updated in a loop whose "
                           "trip count the sizes decide (fragments are "
                           "modelled in loops the block shape unrolls)",
                           FV->getName())
                 .str());
        return;
      }
    }
  if (Phase != PhaseBefore && !Uniform) {
    fail(Failure::Divergent, Loop->getBeginLoc(),
         "a barrier inside a loop whose iterations differ between threads");
    return;
  }
  for (auto &[SV, A] : Shared)
    for (auto &[Off, Sl] : A.Slots) {
      auto B = Before[SV].find(Off);
      bool Changed = B == Before[SV].end() || B->second.V != Sl.V;
      if (Changed)
        Sl.V = P.undef(A.Elem); // the last iteration's value, not modelled
    }
  for (unsigned T : M) {
    if (!Th[T].Live) {
      fail(Failure::Unsupported, Loop->getBeginLoc(),
           "a return inside a loop over the sizes");
      return;
    }
    SymP It = Th[T].Env[V];
    std::vector<SymP> New;
    for (const VarDecl *X : Carried)
      New.push_back(Th[T].Env[X]);
    for (size_t K = 0; K < Carried.size(); ++K) {
      const VarDecl *X = Carried[K];
      SymP Ph = P.carried(X, Loop, Old[T][K]->T);
      SymP N = New[K], N0 = N;
      if (N == Ph) {
        Th[T].Env[X] = Old[T][K];
        continue;
      }
      // An index carried with a value: `if (v > best) { best = v; i = c; }`.
      std::string ArgWhy;
      if (SymP I = argIndex(Loop, Body, Carried, Old[T], New, K, It, ArgWhy)) {
        Th[T].Env[X] = I;
        continue;
      }
      if (!ArgWhy.empty()) {
        SourceLocation At = carriedUpdateLoc(Body, X);
        fail(Failure::Carried, At,
             llvm::formatv("'{0}' is carried with a value as its index "
                           "(an arg-max or arg-min), but {1}",
                           X->getName(), ArgWhy)
                 .str());
        return;
      }
      // acc op g, possibly under a condition: c ? acc op g : acc.
      SymP Cond = nullptr;
      if (N->K == SK::Select && N->Ops[2] == Ph) {
        Cond = N->Ops[0];
        N = N->Ops[1];
      }
      llvm::StringRef Op;
      SymP G = nullptr;
      if (N->isInt()) {
        // Integer accumulations are polynomials: acc + g.
        if (auto Pl = P.poly(N)) {
          Poly Rest = *Pl;
          auto Mi = Rest.find(Mono{Ph});
          if (Mi != Rest.end() && Mi->second == 1) {
            Rest.erase(Mi);
            G = P.fromPoly(Rest);
            Op = "+";
          }
        }
      }
      // Float accumulations; integer max and min (the int32 ones reduce
      // exactly).
      if (!G && N->K == SK::Bin &&
          (N->isInt() ? (N->Op == "max" || N->Op == "min")
                      : (N->Op == "+" || N->Op == "*" || N->Op == "max" ||
                         N->Op == "min" || N->Op == "-"))) {
        if (N->Ops[0] == Ph)
          G = N->Ops[1];
        else if (N->Ops[1] == Ph && N->Op != "-")
          G = N->Ops[0];
        Op = N->Op;
        // ((acc + a) + b) + c, an unrolled inner loop's updates in one
        // iteration: acc + (a + b + c), as a reduction reassociates.
        if (!G && N->Op != "-") {
          std::vector<SymP> Rest;
          SymP X = N;
          while (X->K == SK::Bin && X->Op == N->Op && X->Ops[0] != Ph) {
            Rest.push_back(X->Ops[1]);
            X = X->Ops[0];
          }
          if (X->K == SK::Bin && X->Op == N->Op && X->Ops[0] == Ph) {
            Rest.push_back(X->Ops[1]);
            G = Rest.back();
            for (size_t R = Rest.size() - 1; R-- > 0;)
              G = P.bin(N->Op, G, Rest[R]);
          }
        }
      }
      // Any placeholder of this loop inside g couples the updates.
      auto HasPh = [&](SymP S) { return readsCarried(S, Loop); };
      bool Free = G && !HasPh(G) && (!Cond || !HasPh(Cond));
      // Updates under conditions of their own (`acc += a; if (c) acc +=
      // b;`, an if/else of updates): the value is `acc op g` when each
      // side of every select on the way is, with the identity for a side
      // that leaves acc as it was.
      std::function<bool(SymP, llvm::StringRef &, SymP &)> Acc =
          [&](SymP S, llvm::StringRef &AOp, SymP &AG) -> bool {
        if (S == Ph) {
          AG = nullptr;
          return true;
        }
        if (!P.containsKind(S, SK::Carried) || !P.contains(S, Ph))
          return false;
        if (S->K == SK::Select) {
          SymP A = nullptr, B = nullptr;
          if (!Acc(S->Ops[1], AOp, A) || !Acc(S->Ops[2], AOp, B))
            return false;
          if (!A && !B) {
            AG = nullptr;
            return true;
          }
          SymP Id = AOp.empty() ? nullptr : P.identity(AOp, Ph->T);
          if (!Id)
            return false;
          AG = P.select(S->Ops[0], A ? A : Id, B ? B : Id);
          return true;
        }
        if (S->K != SK::Bin || (S->Op != "+" && S->Op != "*" &&
                                S->Op != "max" && S->Op != "min"))
          return false;
        if (!AOp.empty() && AOp != S->Op)
          return false;
        for (unsigned Side = 0; Side < 2; ++Side) {
          llvm::StringRef Inner = S->Op;
          SymP GI = nullptr;
          if (!Acc(S->Ops[Side], Inner, GI))
            continue;
          AOp = S->Op;
          AG = GI ? P.bin(S->Op, GI, S->Ops[1 - Side]) : S->Ops[1 - Side];
          return true;
        }
        return false;
      };
      if (!Free && !N0->isInt()) {
        llvm::StringRef AOp;
        SymP AG = nullptr;
        if (Acc(N0, AOp, AG) && AG && !HasPh(AG)) {
          Op = AOp;
          G = AG;
          Cond = nullptr;
          Free = true;
        }
      }
      // A running rescale (online softmax): S = S * exp(M' - M) + h(M)
      // with M = max(M', g) another carried local's update.
      if (!Free && !N0->isInt())
        if (SymP R = onlineSum(Loop, Carried, Old[T], New, K, It)) {
          Th[T].Env[X] = R;
          continue;
        }
      if (!Free) {
        SourceLocation At = carriedUpdateLoc(Body, X);
        fail(Failure::Carried, At,
             llvm::formatv(
                 "'{0}' is carried across the iterations of the loop at "
                 "line {1} as something other than an accumulation `{0} = "
                 "{0} op value` (op +, *, max or min) of values that do not "
                 "depend on other carried locals: a running rescale (online "
                 "softmax) other than `s = s * exp(m_old - m) + exp(v - m)` "
                 "with `m = max(m_old, v)`, a value paired with its index "
                 "(arg-max) or the last iteration's value has no tile "
                 "reduction",
                 X->getName(),
                 Ctx.getSourceManager().getSpellingLineNumber(
                     Loop->getBeginLoc()))
                 .str());
        return;
      }
      llvm::StringRef ROp = Op == "-" ? "+" : Op;
      if (Cond) {
        SymP Id = P.identity(ROp, G->T);
        if (!Id) {
          fail(Failure::Carried, X->getLocation(),
               llvm::formatv("'{0}' is accumulated under a condition with an "
                             "operation that has no identity",
                             X->getName())
                   .str());
          return;
        }
        G = P.select(Cond, G, Id);
      }
      SymP Red = P.reduce(ROp, It, G);
      Th[T].Env[X] = P.cast(Old[T][K]->T, P.bin(Op, Old[T][K], Red));
    }
    Th[T].Env[V] = P.undef(Ty::I32);
  }
}

bool Exec::readsCarried(SymP S, const Stmt *Loop) {
  std::set<SymP> Seen;
  std::function<bool(SymP)> Go = [&](SymP X) {
    if (!P.containsKind(X, SK::Carried) || !Seen.insert(X).second)
      return false;
    if (X->K == SK::Carried && X->Site == Loop)
      return true;
    for (SymP O : X->Ops)
      if (Go(O))
        return true;
    return false;
  };
  return Go(S);
}

SymP Exec::onlineSum(const Stmt *Loop,
                     const std::vector<const VarDecl *> &Carried,
                     const std::vector<SymP> &Old, const std::vector<SymP> &New,
                     size_t K, SymP It) {
  auto Ph = [&](size_t I) { return P.carried(Carried[I], Loop, Old[I]->T); };
  auto Free = [&](SymP S) { return !readsCarried(S, Loop); };
  SymP PhS = Ph(K);
  // The other carried local M whose update is max(M, g), g free.
  for (size_t KM = 0; KM < Carried.size(); ++KM) {
    if (KM == K)
      continue;
    SymP PhM = Ph(KM), NM = New[KM];
    if (NM->K != SK::Bin || NM->Op != "max")
      continue;
    SymP G = NM->Ops[0] == PhM   ? NM->Ops[1]
             : NM->Ops[1] == PhM ? NM->Ops[0]
                                 : nullptr;
    if (!G || !Free(G))
      continue;
    // exp(t - Sub) (t free): t; else null.
    auto ExpOf = [&](SymP E, SymP Sub) -> SymP {
      if (E->K == SK::Cast)
        E = E->Ops[0];
      if (E->K != SK::Un || E->Op != "exp" || E->Ops[0]->K != SK::Bin ||
          E->Ops[0]->Op != "-" || E->Ops[0]->Ops[1] != Sub)
        return nullptr;
      return E->Ops[0]->Ops[0];
    };
    auto Flat = [&](SymP X) { return P.operandsOf(X, "+"); };
    // \p X as S * exp(M' - Sub) plus terms c * exp(t - Sub) (c, t free):
    // the terms (c or null, t); none when X is not that.
    using AddT = std::pair<SymP, SymP>;
    auto Match = [&](SymP X, SymP Sub) -> std::optional<std::vector<AddT>> {
      bool Rescaled = false;
      std::vector<AddT> Adds;
      for (SymP Y : Flat(X)) {
        if (Y->K == SK::Bin && Y->Op == "*") {
          bool Done = false;
          for (unsigned Side = 0; Side < 2 && !Done && !Rescaled; ++Side)
            if (Y->Ops[Side] == PhS && ExpOf(Y->Ops[1 - Side], Sub) == PhM)
              Done = Rescaled = true;
          for (unsigned Side = 0; Side < 2 && !Done; ++Side)
            if (SymP T = ExpOf(Y->Ops[Side], Sub);
                T && Free(T) && Free(Y->Ops[1 - Side])) {
              Adds.push_back({Y->Ops[1 - Side], T});
              Done = true;
            }
          if (Done)
            continue;
        }
        if (SymP T = ExpOf(Y, Sub); T && Free(T)) {
          Adds.push_back({nullptr, T});
          continue;
        }
        return std::nullopt;
      }
      if (!Rescaled || Adds.empty())
        return std::nullopt;
      return Adds;
    };
    auto Term = [&](const AddT &A, SymP Sub) {
      SymP E = P.un("exp", P.bin("-", A.second, Sub));
      return A.first ? P.bin("*", A.first, E) : E;
    };
    std::optional<std::vector<AddT>> Adds;
    if (SymP N = New[K]; N->K == SK::Select) {
      // `if (g > m) { s = s * exp(m - g) + ...; m = g; } else s += ...`:
      // where the max moves to g, the online form at g; elsewhere the
      // same terms at the old max, s not rescaled.
      SymP C = N->Ops[0];
      bool Moves = C->K == SK::Cmp && (((C->Op == "<" || C->Op == "<=") &&
                                        C->Ops[0] == PhM && C->Ops[1] == G) ||
                                       ((C->Op == ">" || C->Op == ">=") &&
                                        C->Ops[0] == G && C->Ops[1] == PhM));
      if (Moves)
        if (auto A = Match(N->Ops[1], G)) {
          std::multiset<SymP> Want{PhS}, Have;
          for (const AddT &T : *A)
            Want.insert(Term(T, PhM));
          for (SymP Y : Flat(N->Ops[2]))
            Have.insert(Y);
          if (Want == Have)
            Adds = A;
        }
    } else {
      Adds = Match(N, NM);
    }
    if (!Adds)
      continue;
    // Every step keeps S = S0 * exp(M0 - M) + sum of the terms at M: at
    // the end, M is M's final value (as M's own summary writes it).
    SymP MFin =
        P.cast(Old[KM]->T, P.bin("max", Old[KM], P.reduce("max", It, G)));
    SymP Body = nullptr;
    for (const AddT &A : *Adds) {
      SymP T = Term(A, MFin);
      Body = Body ? P.bin("+", Body, T) : T;
    }
    if (!Free(Body))
      continue;
    SymP R = P.reduce("+", It, Body);
    // S0 = 0 contributes nothing (not even exp(M0 - M) of an empty range).
    SymP S0 = Old[K];
    bool Zero =
        (S0->K == SK::Flt && S0->F == 0.0) ||
        (S0->K == SK::Int && S0->I == 0) ||
        (S0->K == SK::Cast && S0->Ops[0]->K == SK::Int && S0->Ops[0]->I == 0);
    if (!Zero)
      R = P.bin("+", P.bin("*", S0, P.un("exp", P.bin("-", Old[KM], MFin))), R);
    return P.cast(S0->T, R);
  }
  return nullptr;
}

SymP Exec::argIndex(const Stmt *Loop, const Stmt *Body,
                    const std::vector<const VarDecl *> &Carried,
                    const std::vector<SymP> &Old, const std::vector<SymP> &New,
                    size_t K, SymP It, std::string &Why) {
  (void)Body;
  SymP Ph = P.carried(Carried[K], Loop, Old[K]->T);
  SymP N = New[K];
  if (N->K != SK::Select)
    return nullptr;
  // N = Cond ? Take : the old index.
  SymP Cond, Take;
  if (N->Ops[2] == Ph) {
    Cond = N->Ops[0];
    Take = N->Ops[1];
  } else if (N->Ops[1] == Ph) {
    Cond = P.logicalNot(N->Ops[0]);
    Take = N->Ops[2];
  } else {
    return nullptr;
  }
  // The value: Y = Dir(Y, g), and Cond compares g with Y alone.
  for (size_t J = 0; J < Carried.size(); ++J) {
    if (J == K)
      continue;
    SymP PhY = P.carried(Carried[J], Loop, Old[J]->T);
    SymP NY = New[J];
    if (NY->K != SK::Bin || (NY->Op != "max" && NY->Op != "min"))
      continue;
    SymP G = NY->Ops[0] == PhY   ? NY->Ops[1]
             : NY->Ops[1] == PhY ? NY->Ops[0]
                                 : nullptr;
    if (!G || !P.contains(Cond, PhY) || P.containsKind(G, SK::Carried))
      continue;
    // Who takes the candidate, for each order of g against the value.
    int Wins[3];
    bool Read = true;
    for (int Rv = -1; Rv <= 1 && Read; ++Rv) {
      std::function<int(SymP)> Ev = [&](SymP C) -> int {
        if (C->K == SK::Int)
          return C->I != 0;
        if (C->K == SK::Un && C->Op == "!") {
          int X = Ev(C->Ops[0]);
          return X < 0 ? X : !X;
        }
        if (C->K == SK::Bin && (C->Op == "&&" || C->Op == "||")) {
          int X = Ev(C->Ops[0]), Y = Ev(C->Ops[1]);
          if (X < 0 || Y < 0)
            return -1;
          return C->Op == "&&" ? (X && Y) : (X || Y);
        }
        if (C->K != SK::Cmp)
          return -1;
        int Rel;
        if (C->Ops[0] == G && C->Ops[1] == PhY)
          Rel = Rv;
        else if (C->Ops[0] == PhY && C->Ops[1] == G)
          Rel = -Rv;
        else
          return -1;
        llvm::StringRef O = C->Op;
        return O == "<"    ? Rel < 0
               : O == "<=" ? Rel <= 0
               : O == ">"  ? Rel > 0
               : O == ">=" ? Rel >= 0
               : O == "==" ? Rel == 0
                           : Rel != 0;
      };
      Wins[Rv + 1] = Ev(Cond);
      Read = Wins[Rv + 1] >= 0;
    }
    if (!Read) {
      Why = "the condition that takes a new index is not a comparison of "
            "the new value with the carried one";
      return nullptr;
    }
    bool Max = NY->Op == "max";
    int Better = Max ? 2 : 0, Worse = Max ? 0 : 2;
    if (Wins[Better] != 1 || Wins[Worse] != 0) {
      Why = llvm::formatv("the index is taken when the value is not the "
                          "new {0}",
                          NY->Op)
                .str();
      return nullptr;
    }
    if (Take != It || !N->isInt()) {
      Why = "what it takes is not the loop's index (a value paired with "
            "something other than its position)";
      return nullptr;
    }
    SymP Red = P.reduce(NY->Op, It, G);
    SymP Val = P.cast(Old[J]->T, P.bin(NY->Op, Old[J], Red));
    return P.argLoop(NY->Op, Wins[1] == 0, It, G, Val, Old[J], Old[K], Why);
  }
  return nullptr;
}
