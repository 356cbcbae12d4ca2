//===- MfmaWarpTiles.cpp - a logical warp's fragments as 32x32 tiles ------===//
// Rules: PK3005, PK3016
//
// PK3005: a logical warp's 2x2 groups of 16x16 fragments (arrays a[R],
// b[C], acc[R][C] multiplied in one loop nest) become 32x32 tiles on
// v_mfma_f32_32x32x8 (--mfma-shape=auto and 32x32x8).  An array is a tile
// only when every use of it allows it, and a nest only with all three of
// its arrays.  PK3016 says what the other fragments use.
//
//===----------------------------------------------------------------------===//
#include "MfmaRules.h"
#include "pk/ASTUtil.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/ParentMapContext.h"
#include "clang/AST/TypeLoc.h"
#include "clang/Basic/SourceManager.h"
#include "clang/Lex/Lexer.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FormatVariadic.h"

using namespace pk;
using namespace pk::mfma;
using namespace clang;

namespace {

/// `V[i]...` with loop-variable indices: V and the index variables.
const VarDecl *subscripts(const Expr *E, std::vector<const VarDecl *> &Idx) {
  E = E->IgnoreParenImpCasts();
  while (const auto *ASE = dyn_cast<ArraySubscriptExpr>(E)) {
    const auto *I = dyn_cast<DeclRefExpr>(ASE->getIdx()->IgnoreParenImpCasts());
    const auto *IV = I ? dyn_cast<VarDecl>(I->getDecl()) : nullptr;
    if (!IV)
      return nullptr;
    Idx.insert(Idx.begin(), IV);
    E = ASE->getBase()->IgnoreParenImpCasts();
  }
  const auto *D = dyn_cast<DeclRefExpr>(E);
  return D ? dyn_cast<VarDecl>(D->getDecl()) : nullptr;
}

/// Finds the loop nests and the arrays that can be tiles.
class TilePlanner {
public:
  TilePlanner(TargetContext &TC, const FragmentPlan &P) : TC(TC), P(P) {}

  WarpTiles plan();

private:
  TargetContext &TC;
  const FragmentPlan &P;

  SourceManager &SM() const { return TC.SM(); }
  const LangOptions &LO() const { return TC.Ctx().getLangOpts(); }

  bool countedLoop(const ForStmt *F, const VarDecl *&V, int64_t &N);
  const ForStmt *loopAround(const Stmt *S, const Stmt *&Attr);
  bool matchNest(const FragCall &C, TileNest &N, std::string &Why);
  bool usedAsFragment(const DeclRefExpr *Ref, unsigned Rank,
                      const std::set<const CallExpr *> &NestCalls,
                      std::string &Why);
  const Stmt *declStmtOf(const VarDecl *V) {
    auto Ps = TC.parents(*V);
    return Ps.empty() ? nullptr : Ps[0].get<Stmt>();
  }
};

/// \p F is `for (int v = 0; v < N; ++v)` (or v++, v += 1) with constant N.
bool TilePlanner::countedLoop(const ForStmt *F, const VarDecl *&V, int64_t &N) {
  const auto *DS = dyn_cast_or_null<DeclStmt>(F->getInit());
  if (!DS || !DS->isSingleDecl())
    return false;
  V = dyn_cast<VarDecl>(DS->getSingleDecl());
  Expr::EvalResult R;
  const auto *Cond = dyn_cast_or_null<BinaryOperator>(
      F->getCond() ? F->getCond()->IgnoreParenImpCasts() : nullptr);
  if (!V || !fromZeroByOne(TC, F, V) || !Cond || Cond->getOpcode() != BO_LT ||
      !refersTo(Cond->getLHS(), V) || Cond->getRHS()->isValueDependent() ||
      !Cond->getRHS()->EvaluateAsInt(R, TC.Ctx()))
    return false;
  N = R.Val.getInt().getExtValue();
  return true;
}

/// The loop whose body is \p S (through a one-statement block and a loop
/// pragma).
const ForStmt *TilePlanner::loopAround(const Stmt *S, const Stmt *&Attr) {
  Attr = nullptr;
  const Stmt *Par = parentStmt(TC, S);
  if (const auto *CS = dyn_cast_or_null<CompoundStmt>(Par)) {
    if (CS->size() != 1)
      return nullptr;
    S = CS;
    Par = parentStmt(TC, CS);
  }
  const auto *F = dyn_cast_or_null<ForStmt>(Par);
  if (!F || F->getBody() != S)
    return nullptr;
  if (const auto *A = dyn_cast_or_null<AttributedStmt>(parentStmt(TC, F)))
    Attr = A;
  return F;
}

/// Recognises the nest around a mma_sync call; \p Why says why not.
bool TilePlanner::matchNest(const FragCall &C, TileNest &N, std::string &Why) {
  const CallExpr *CE = C.CE;
  if (CE->getNumArgs() < 4) {
    Why = "mma_sync with fewer than four arguments";
    return false;
  }
  std::vector<const VarDecl *> ID, IA, IB, IC;
  const VarDecl *D = subscripts(CE->getArg(0), ID);
  const VarDecl *A = subscripts(CE->getArg(1), IA);
  const VarDecl *B = subscripts(CE->getArg(2), IB);
  const VarDecl *Cc = subscripts(CE->getArg(3), IC);
  if (!D || !A || !B || D != Cc || ID.size() != 2 || IA.size() != 1 ||
      IB.size() != 1 || ID != IC || IA[0] != ID[0] || IB[0] != ID[1] ||
      ID[0] == ID[1]) {
    Why = "it is not mma_sync(acc[i][j], a[i], b[j], acc[i][j])";
    return false;
  }
  if (!P.FragArrays.count(D) || !P.FragArrays.count(A) ||
      !P.FragArrays.count(B)) {
    Why = "the fragments are not local arrays";
    return false;
  }
  std::vector<uint64_t> DD = constantArrayDims(D->getType()),
                        DA = constantArrayDims(A->getType()),
                        DB = constantArrayDims(B->getType());
  if (DD.size() != 2 || DA.size() != 1 || DB.size() != 1 || DD[0] != DA[0] ||
      DD[1] != DB[0] || DD[0] % 2 || DD[1] % 2) {
    Why = "the arrays are not acc[R][C], a[R], b[C] with R and C even";
    return false;
  }
  const Stmt *AttrIn = nullptr, *AttrOut = nullptr;
  const ForStmt *Inner = loopAround(CE, AttrIn);
  const ForStmt *Outer =
      Inner ? loopAround(AttrIn ? AttrIn : Inner, AttrOut) : nullptr;
  const VarDecl *VI = nullptr, *VO = nullptr;
  int64_t NI = 0, NO = 0;
  if (!Outer || !countedLoop(Inner, VI, NI) || !countedLoop(Outer, VO, NO)) {
    Why = "it is not the only statement of two counted for loops over the "
          "arrays";
    return false;
  }
  // Either loop order; the bounds are the array sizes.
  bool Ok = (VO == ID[0] && VI == ID[1] && NO == DD[0] && NI == DD[1]) ||
            (VO == ID[1] && VI == ID[0] && NO == DD[1] && NI == DD[0]);
  if (!Ok) {
    Why = "the loops do not run over all fragments of the arrays";
    return false;
  }
  SourceLocation B0 = Outer->getBeginLoc(), E0 = Outer->getEndLoc();
  if (B0.isMacroID() || E0.isMacroID()) {
    Why = "the loops are written in a macro";
    return false;
  }
  N.Call = CE;
  N.Outer = Outer;
  N.Acc = D;
  N.A = A;
  N.B = B;
  N.File = TC.fileOf(B0);
  llvm::StringRef Buf = TC.contents(N.File);
  N.Begin = SM().getFileOffset(B0);
  N.End = SM().getFileOffset(Lexer::getLocForEndOfToken(E0, 0, SM(), LO()));
  // Take the #pragma lines right before the outer loop along; the call
  // keeps the loop's indentation.
  size_t ForLine = Buf.take_front(N.Begin).rfind('\n');
  ForLine = ForLine == llvm::StringRef::npos ? 0 : ForLine + 1;
  if (Buf.slice(ForLine, N.Begin).trim().empty())
    N.Indent = Buf.slice(ForLine, N.Begin).str();
  while (AttrOut) {
    size_t LS = Buf.take_front(N.Begin).rfind('\n');
    if (LS == llvm::StringRef::npos)
      break;
    size_t PS = Buf.take_front(LS).rfind('\n');
    PS = PS == llvm::StringRef::npos ? 0 : PS + 1;
    llvm::StringRef Line = Buf.slice(PS, LS);
    if (!Line.ltrim().starts_with("#pragma"))
      break;
    N.Begin = PS;
    N.Pragmas = true;
  }
  llvm::StringRef Text = Buf.slice(N.Begin, N.End);
  if (Text.contains("//") || Text.contains("/*")) {
    Why = "the loops contain comments";
    return false;
  }
  N.Braced = Text.ends_with("}");
  return true;
}

/// How \p Ref (a reference to a fragment array) is used: OK when it is a
/// fully indexed fragment passed to fill/load/store, or an operand of a
/// recognised nest.
bool TilePlanner::usedAsFragment(const DeclRefExpr *Ref, unsigned Rank,
                                 const std::set<const CallExpr *> &NestCalls,
                                 std::string &Why) {
  const Stmt *E = Ref;
  for (unsigned K = 0; K < Rank; ++K) {
    const Stmt *Par = parentStmt(TC, E);
    while (Par && isa<ImplicitCastExpr, ParenExpr>(Par))
      Par = parentStmt(TC, Par);
    const auto *ASE = dyn_cast_or_null<ArraySubscriptExpr>(Par);
    if (!ASE || ASE->getBase()->IgnoreParenImpCasts() != E) {
      Why = "'" + brief(TC.text(Ref->getSourceRange())) +
            "' is used other than as a whole fragment";
      return false;
    }
    E = ASE;
  }
  const Stmt *Par = parentStmt(TC, E);
  while (Par && isa<ImplicitCastExpr, ParenExpr, MaterializeTemporaryExpr>(Par))
    Par = parentStmt(TC, Par);
  const auto *CE = dyn_cast_or_null<CallExpr>(Par);
  const FragCall *FC = nullptr;
  for (const FragCall &C : P.Calls)
    if (C.CE == CE)
      FC = &C;
  auto IsArg = [&](unsigned I) {
    return CE && CE->getNumArgs() > I &&
           CE->getArg(I)->IgnoreParenImpCasts() == E;
  };
  if (FC && FC->Name == "mma_sync" && NestCalls.count(CE))
    return true;
  if (FC && (FC->Name == "fill_fragment" || FC->Name == "load_matrix_sync") &&
      IsArg(0))
    return true;
  if (FC && FC->Name == "store_matrix_sync" && IsArg(1))
    return true;
  const Expr *User = dyn_cast<Expr>(Par ? Par : E);
  Why = "'" +
        brief(TC.text(User ? User->getSourceRange() : Ref->getSourceRange())) +
        "' uses a fragment other than in fill_fragment, load_matrix_sync, "
        "store_matrix_sync or the mma_sync loop nest";
  return false;
}

WarpTiles TilePlanner::plan() {
  WarpTiles T;
  if (TC.Opts.Mfma == MfmaShape::M16N16K16)
    return T;
  std::vector<TileNest> Cand;
  std::set<const VarDecl *> Bad;
  for (const FragCall &C : P.Calls) {
    if (C.Name != "mma_sync")
      continue;
    TileNest N;
    std::string Why;
    if (matchNest(C, N, Why)) {
      Cand.push_back(N);
      continue;
    }
    // Arrays that appear in an unrecognised mma_sync stay fragments.
    std::vector<const VarDecl *> Idx;
    for (unsigned I = 0; I < C.CE->getNumArgs() && I < 4; ++I)
      if (const VarDecl *V = subscripts(C.CE->getArg(I), Idx))
        if (P.FragArrays.count(V)) {
          Bad.insert(V);
          T.NotFused.emplace(
              V, llvm::formatv("mma_sync at line {0}: {1}",
                               SM().getExpansionLineNumber(C.CE->getBeginLoc()),
                               Why)
                     .str());
        }
  }
  std::set<const CallExpr *> NestCalls;
  for (const TileNest &N : Cand)
    NestCalls.insert(N.Call);
  for (const DeclRefExpr *R : P.ArrayRefs) {
    const auto *V = cast<VarDecl>(R->getDecl());
    if (!P.FragArrays.count(V) || Bad.count(V))
      continue;
    std::optional<FragType> F = fragType(V->getType());
    std::string Why;
    if (!usedAsFragment(R, F && F->U == Use::Acc ? 2 : 1, NestCalls, Why)) {
      Bad.insert(V);
      T.NotFused.emplace(V, Why);
    }
  }
  for (const VarDecl *V : P.FragArrays) {
    const auto *DS = dyn_cast_or_null<DeclStmt>(declStmtOf(V));
    const auto *Init =
        V->hasInit()
            ? dyn_cast<CXXConstructExpr>(V->getInit()->IgnoreImplicit())
            : nullptr;
    bool Written = V->hasInit() && (!Init || Init->getNumArgs() ||
                                    Init->getParenOrBraceRange().isValid());
    if (!DS || !DS->isSingleDecl() || Written || V->getBeginLoc().isMacroID() ||
        V->getLocation().isMacroID()) {
      Bad.insert(V);
      T.NotFused.emplace(V,
                         "its declaration is not a plain single declaration");
    }
  }
  // A nest is fused only with all three of its arrays; an array only with
  // all of its nests.
  for (bool Changed = true; Changed;) {
    Changed = false;
    for (const TileNest &N : Cand)
      if (Bad.count(N.Acc) || Bad.count(N.A) || Bad.count(N.B))
        for (const VarDecl *V : {N.Acc, N.A, N.B})
          if (Bad.insert(V).second) {
            T.NotFused.emplace(V, "an array it is multiplied with cannot be "
                                  "held as 32x32 tiles");
            Changed = true;
          }
  }
  for (const TileNest &N : Cand) {
    if (Bad.count(N.Acc))
      continue;
    T.Nests.push_back(N);
    for (const VarDecl *V : {N.Acc, N.A, N.B})
      T.Fused.insert(V);
  }
  return T;
}

} // namespace

bool WarpTiles::inRewrittenNest(TargetContext &TC, SourceLocation L) const {
  L = TC.SM().getSpellingLoc(L);
  std::string F = TC.fileOf(L);
  unsigned O = TC.SM().getFileOffset(L);
  for (const TileNest &N : Nests)
    if (N.File == F && O >= N.Begin && O < N.End)
      return true;
  return false;
}

WarpTiles mfma::planWarpTiles(TargetContext &TC, const FragmentPlan &P) {
  return TilePlanner(TC, P).plan();
}

std::set<std::string> mfma::rewriteWarpTiles(TargetContext &TC,
                                             const WarpTiles &Tiles) {
  SourceManager &SM = TC.SM();
  const LangOptions &LO = TC.Ctx().getLangOpts();
  std::set<std::string> TileFiles;
  const char *Why =
      "the fragments of this array form 32x32 tiles of one logical warp: "
      "each v_mfma_f32_32x32x8 computes a whole 32x32 tile (four of the "
      "CUDA fragments), no product discarded";
  for (const VarDecl *V : Tiles.Fused) {
    TypeLoc TL = V->getTypeSourceInfo()->getTypeLoc();
    std::vector<std::string> Dims;
    SourceLocation LastBracket;
    while (auto AL = TL.getAs<ArrayTypeLoc>()) {
      Dims.push_back(AL.getSizeExpr() ? TC.text(AL.getSizeExpr()) : "?");
      LastBracket = AL.getRBracketLoc();
      TL = AL.getElementLoc();
    }
    SourceLocation TB = TL.getBeginLoc(), TE = TL.getEndLoc();
    if (TB.isMacroID() || TE.isMacroID() || LastBracket.isMacroID())
      continue; // checked before; kept for safety
    std::string Tail =
        ", " + llvm::join(Dims, ", ") + "> " + V->getName().str();
    TC.insert(TB, "pk_mfma::fragment_array<", RuleId::PK3005, Why);
    TC.replace(CharSourceRange::getCharRange(
                   Lexer::getLocForEndOfToken(TE, 0, SM, LO),
                   Lexer::getLocForEndOfToken(LastBracket, 0, SM, LO)),
               Tail, RuleId::PK3005, Why);
    TileFiles.insert(TC.fileOf(V->getLocation()));
  }
  for (const TileNest &N : Tiles.Nests) {
    std::string Call =
        llvm::formatv("{4}pk_mfma::mma_sync({0}, {1}, {2}, {0}){3}",
                      N.Acc->getName(), N.A->getName(), N.B->getName(),
                      N.Braced ? ";" : "", N.Pragmas ? N.Indent : std::string())
            .str();
    TC.edit(N.File, N.Begin, N.End - N.Begin, Call, RuleId::PK3005,
            "one call multiplies every 32x32 tile of the logical warp "
            "(v_mfma_f32_32x32x8, two per 16-wide k-step and tile) in place "
            "of the loops over its 16x16 fragments");
  }
  return TileFiles;
}

void mfma::reportUnfused(TargetContext &TC, const FragmentPlan &P,
                         const WarpTiles &Tiles) {
  bool Forced = TC.Opts.Mfma == MfmaShape::M32N32K8;
  std::vector<const DeclContext *> Order;
  std::map<const DeclContext *, std::vector<const DeclaratorDecl *>> ByFn;
  for (const DeclaratorDecl *D : P.FragDecls) {
    const auto *V = dyn_cast<VarDecl>(D);
    if (V && Tiles.Fused.count(V))
      continue;
    bool Acc2D = V && Tiles.NotFused.count(V) &&
                 fragType(V->getType())->U == Use::Acc &&
                 constantArrayDims(V->getType()).size() == 2;
    if (!Forced && !Acc2D)
      continue; // auto: single fragments are simply 16x16x16
    const DeclContext *DC = D->getDeclContext();
    if (!ByFn.count(DC))
      Order.push_back(DC);
    ByFn[DC].push_back(D);
  }
  for (const DeclContext *DC : Order) {
    const auto &Ds = ByFn[DC];
    std::vector<std::string> Names, Reasons;
    for (const DeclaratorDecl *D : Ds) {
      Names.push_back("'" + D->getName().str() + "'");
      const auto *V = dyn_cast<VarDecl>(D);
      auto NF = V ? Tiles.NotFused.find(V) : Tiles.NotFused.end();
      if (NF != Tiles.NotFused.end() &&
          !llvm::is_contained(Reasons, NF->second))
        Reasons.push_back(NF->second);
    }
    std::string Why = Reasons.empty() ? std::string()
                                      : " (" + llvm::join(Reasons, "; ") + ")";
    std::string What = llvm::join(Names, ", ");
    bool One = Names.size() == 1;
    if (Forced)
      TC.finding(Ds.front()->getLocation(), RuleId::PK3016, Severity::Note,
                 llvm::formatv("{0} {1} not part of a logical warp's 32x32 "
                               "tile{2}: with --mfma-shape=32x32x8 one "
                               "v_mfma_f32_32x32x8 computes the 16x16 tiles "
                               "of both logical warps of a wave as its "
                               "diagonal blocks and discards the other half "
                               "of its products; --mfma-shape=auto uses "
                               "v_mfma_f32_16x16x16 for such fragments",
                               What, One ? "is" : "are", Why)
                     .str());
    else
      TC.finding(Ds.front()->getLocation(), RuleId::PK3016, Severity::Note,
                 llvm::formatv("{0} {1} not held as 32x32 tiles{2}; {3} "
                               "fragments use v_mfma_f32_16x16x16",
                               What, One ? "is" : "are", Why,
                               One ? "its" : "their")
                     .str());
  }
}
