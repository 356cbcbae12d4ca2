//===- Wave64Decide.cpp - the strategy of each kernel ---------------------===//
// Rules: PK2000
//
// Functions and macros whose edits must agree are unified: a caller and the
// warp code it calls, every user of a macro or named constant that holds an
// edit.  A group goes native under --wave64=auto only when it holds a kernel
// and no blocker; a kernel that keeps logical warps gets the reason (its own
// earliest blocker, launch shapes first, or the kernel it shares warp code
// with), which the PK2000 note reports.
//
//===----------------------------------------------------------------------===//
#include "Wave64Internal.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/Attr.h"
#include "clang/AST/ParentMapContext.h"
#include "clang/Basic/SourceManager.h"
#include <cassert>
#include "llvm/Support/FormatVariadic.h"

using namespace pk;
using namespace pk::w64;
using namespace clang;

void Wave64Analysis::Impl::decide() {
  // Call edges into warp code unify caller and callee.
  for (const FunctionDecl *FD : FnOrder) {
    FnInfo &F = Fns[FD];
    for (const FunctionDecl *G : F.Callees) {
      FnInfo &GI = Fns[G];
      if (GI.Relevant && F.Relevant)
        unite(F.Entity, GI.Entity);
    }
  }
  // Uses of W constants nobody claimed: native cannot widen them safely.
  for (auto &[E, Ent] : WUses) {
    if (Claimed.count(E))
      continue;
    const Expr *X = E;
    std::string Name;
    if (const auto *IL = dyn_cast<IntegerLiteral>(X))
      inWarpMacro(IL, &Name);
    else if (const auto *DRE = dyn_cast<DeclRefExpr>(X))
      Name = DRE->getDecl()->getNameAsString();
    // The enclosing expression, for the message.
    std::string Ctx2 = Name;
    DynTypedNode N = DynTypedNode::create(*X);
    for (int G = 0; G < 3; ++G) {
      auto Ps = Src.parents(N);
      if (Ps.empty() || !Ps[0].get<Expr>())
        break;
      N = Ps[0];
    }
    if (const auto *PE = N.get<Expr>())
      Ctx2 = Src.text(PE);
    blocker(Ent, X->getBeginLoc(),
            llvm::formatv("the warp width {0} is used in '{1}', which is not "
                          "one of the idioms native warps widen",
                          Name, Ctx2)
                .str());
    // Keep every user of the macro (or named constant) together.
    SourceLocation Spell = SM.getSpellingLoc(X->getBeginLoc());
    entityFor(Spell, Ent);
    if (const auto *DRE = dyn_cast<DeclRefExpr>(X))
      if (const auto *VD = dyn_cast<VarDecl>(DRE->getDecl()))
        if (const Expr *Init = VD->getAnyInitializer()) {
          SourceLocation L =
              SM.getSpellingLoc(Init->IgnoreParenImpCasts()->getBeginLoc());
          auto It = TokenEnt.find(tokKey(Src.fileOf(L), SM.getFileOffset(L)));
          if (It != TokenEnt.end())
            unite(It->second, Ent);
        }
  }
}

void Wave64Analysis::Impl::chooseStrategies() {
  // Group facts (the groups' blockers are summarize()'s).
  std::vector<char> GroupSites(Ents.size(), 0);
  for (size_t E = 0; E < Ents.size(); ++E)
    GroupSites[RootOf[E]] |= Ents[E].HasSites;
  for (const FunctionDecl *FD : FnOrder) {
    FnInfo &F = Fns[FD];
    if (!FD->hasAttr<CUDAGlobalAttr>())
      continue;
    W64Kernel K;
    K.FD = FD;
    K.Name = FD->getNameAsString();
    int R = RootOf[F.Entity];
    K.HasWarpCode = F.Relevant && GroupSites[R];
    const std::vector<W64Blocker> &Bs = GroupBlockers[R];
    if (!Bs.empty())
      explainBlockers(K, Bs, R);
    if (Requested == Wave64Strategy::Auto)
      K.Strategy =
          Bs.empty() ? Wave64Strategy::Native : Wave64Strategy::Logical32;
    else {
      K.Strategy = Requested;
      K.Forced = true;
    }
    A.Kernels.push_back(K);
  }
}

void Wave64Analysis::Impl::explainBlockers(W64Kernel &K,
                                           const std::vector<W64Blocker> &Bs,
                                           int Group) {
  // Its own blockers first (in the functions it calls), earliest first;
  // else the kernel it shares warp code with.
  std::set<int> OwnEnts;
  for (const FunctionDecl *G : callClosure(K.FD))
    OwnEnts.insert(Fns[G].Entity);
  // Launch shapes first: they decide before any line of the kernel.
  const W64Blocker *Best = nullptr;
  for (const W64Blocker &B : Bs)
    if (OwnEnts.count(B.Ent) &&
        (!Best || (B.Launch && !Best->Launch) ||
         (B.Launch == Best->Launch &&
          SM.isBeforeInTranslationUnit(B.Loc, Best->Loc))))
      Best = &B;
  if (Best) {
    K.Reason = Best->Msg;
    K.ReasonLoc = Best->Loc;
    return;
  }
  Best = &Bs.front();
  for (const W64Blocker &B : Bs)
    if (SM.isBeforeInTranslationUnit(B.Loc, Best->Loc))
      Best = &B;
  std::string Other = Best->Ent >= 0 ? Ents[Best->Ent].Name : "";
  for (const FunctionDecl *G : FnOrder) {
    if (!G->hasAttr<CUDAGlobalAttr>() || G == K.FD ||
        find(Fns[G].Entity) != Group)
      continue;
    for (const FunctionDecl *H : callClosure(G))
      if (Fns[H].Entity == Best->Ent) {
        Other = "kernel " + G->getNameAsString();
        break;
      }
  }
  K.Reason = "it shares warp code with " + Other + ", where " + Best->Msg;
  K.ReasonLoc = Best->Loc;
}

// ---- queries of the rewrites ------------------------------------------------

void Wave64Analysis::Impl::summarize() {
  size_t N = Ents.size();
  RootOf.assign(N, 0);
  GroupKernel.assign(N, 0);
  GroupBlockers.assign(N, {});
  for (size_t X = 0; X < N; ++X) {
    int R = find((int)X);
    RootOf[X] = R;
    GroupKernel[R] |= Ents[X].IsKernel;
    for (const W64Blocker &B : Ents[X].Blockers)
      GroupBlockers[R].push_back(B);
  }
  FnRanges.clear();
  FnMaxEnd.clear();
  for (const auto &[FD, F] : Fns)
    FnRanges[F.File.str()].push_back({F.Begin, F.End, FD, F.Entity});
  for (auto &[File, V] : FnRanges) {
    llvm::stable_sort(V, [](const FnRange &A, const FnRange &B) {
      return A.Begin < B.Begin;
    });
    std::vector<unsigned> &M = FnMaxEnd[File];
    unsigned Max = 0;
    for (const FnRange &R : V)
      M.push_back(Max = std::max(Max, R.End));
  }
  Summarized = true;
}

Wave64Strategy Wave64Analysis::strategyOfEntity(int E) const {
  if (E < 0 || E >= (int)P->Ents.size())
    return Wave64Strategy::Logical32;
  if (P->Requested != Wave64Strategy::Auto)
    return P->Requested;
  assert(P->Summarized && "a query before run()");
  int R = P->RootOf[E];
  return P->GroupKernel[R] && P->GroupBlockers[R].empty()
             ? Wave64Strategy::Native
             : Wave64Strategy::Logical32;
}

Wave64Strategy Wave64Analysis::strategyOf(const W64Site &S) const {
  return strategyOfEntity(S.Entity);
}

Wave64Strategy Wave64Analysis::strategyAtOffset(llvm::StringRef File,
                                                unsigned Offset) const {
  auto It = P->WarpSizeEnt.find({File.str(), Offset});
  if (It != P->WarpSizeEnt.end())
    return strategyOfEntity(It->second);
  // A macro body or a function body by position.  #defines do not overlap:
  // only the last one that starts at or before the offset can hold it.
  auto MIt = P->MacroEnts.upper_bound({File.str(), Offset});
  auto MBegin = MIt == P->MacroEnts.begin() ? MIt : std::prev(MIt);
  for (auto It = MBegin; It != MIt; ++It)
    if (const auto &[K, E] = *It; K.first == File && K.second <= Offset) {
      llvm::StringRef Buf = P->Src.contents(File);
      llvm::StringRef Line = Buf.drop_front(K.second);
      // The end of the #define (continued lines included).
      size_t End = 0;
      while (true) {
        size_t NL = Line.find('\n', End);
        if (NL == llvm::StringRef::npos) {
          End = Line.size();
          break;
        }
        if (NL > 0 && Line[NL - 1] == '\\') {
          End = NL + 1;
          continue;
        }
        End = NL;
        break;
      }
      if (Offset < K.second + End)
        return strategyOfEntity(E);
    }
  // The bodies that start at or before the offset, walked back while one of
  // them can still reach it; of those holding it, the first in the order of
  // Fns.
  auto RIt = P->FnRanges.find(File.str());
  if (RIt != P->FnRanges.end()) {
    const auto &V = RIt->second;
    const auto &M = P->FnMaxEnd.find(File.str())->second;
    size_t I = llvm::partition_point(V, [&](const Impl::FnRange &R) {
                 return R.Begin <= Offset;
               }) - V.begin();
    const Impl::FnRange *Best = nullptr;
    for (size_t J = I; J-- > 0 && M[J] > Offset;)
      if (V[J].End > Offset &&
          (!Best || std::less<const FunctionDecl *>()(V[J].FD, Best->FD)))
        Best = &V[J];
    if (Best)
      return strategyOfEntity(Best->Entity);
  }
  return P->Requested == Wave64Strategy::Native ? Wave64Strategy::Native
                                                : Wave64Strategy::Logical32;
}

std::vector<W64Blocker> Wave64Analysis::blockersOf(int E) const {
  if (E < 0)
    return {};
  assert(P->Summarized && "a query before run()");
  return P->GroupBlockers[P->RootOf[E]];
}

bool Wave64Analysis::anyLogical() const {
  for (const W64Kernel &K : Kernels)
    if (K.HasWarpCode && K.Strategy == Wave64Strategy::Logical32)
      return true;
  return false;
}

bool Wave64Analysis::anyNative() const {
  for (const W64Kernel &K : Kernels)
    if (K.HasWarpCode && K.Strategy == Wave64Strategy::Native)
      return true;
  return false;
}
