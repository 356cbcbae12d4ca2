//===- Wave64Analysis.cpp - warp-32 assumptions in CUDA device code --------===//
// Rules: PK2000, PK2101-PK2111
//
// How it works
//
//  1. Pre-scan: collect the user functions with bodies (kernels, device
//     functions, host functions with launches; template patterns, not
//     instantiations), their call edges (unresolved template calls by name)
//     and whether they contain warp code.
//  2. Value flow: every expression evaluates to a Val -- what it depends on
//     (thread index, lane id, warp id, warps per block, warp width, lane
//     mask, lane rank, lane count) and, for the exact idioms, what it is
//     (`tid & 31` is a lane id, `__ballot_sync(..)` a lane mask, `1u << lane`
//     a lane bit, `WARP_SIZE / 2` half the warp width, ...).  Variables,
//     parameters and return values collect the Vals of everything assigned
//     to them (flow-insensitive); the TU is walked until nothing changes.
//  3. Record: one more walk classifies every use.  Idioms that a 64-lane
//     warp can express are "claimed" and become edits of the native strategy
//     (Token sites: 31 -> 63, 16 -> 32, ...); every use that would change
//     what the code computes under 64-lane warps is a blocker; every
//     construct of the hazard classes is a hazard (for `check`).
//  4. Decide: functions and macros whose edits must agree are unified
//     (union-find over call edges and over the macros that hold edits); a
//     group goes native under --wave64=auto only when it holds a kernel and
//     no blocker.
//
//===----------------------------------------------------------------------===//
#include "pk/Wave64Analysis.h"
#include "pk/ASTUtil.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/Attr.h"
#include "clang/AST/Decl.h"
#include "clang/AST/DeclCXX.h"
#include "clang/AST/DeclTemplate.h"
#include "clang/AST/Expr.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/ParentMapContext.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/AST/Stmt.h"
#include "clang/AST/StmtCXX.h"
#include "clang/AST/TypeLoc.h"
#include "clang/Basic/SourceManager.h"
#include "clang/Lex/Lexer.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FormatVariadic.h"
#include <algorithm>
#include <functional>

using namespace pk;
using namespace clang;

RuleId pk::w64CheckID(W64Class C) {
  switch (C) {
  case W64Class::Mask: return RuleId::PK2101;
  case W64Class::Ballot: return RuleId::PK2102;
  case W64Class::LaneArith: return RuleId::PK2103;
  case W64Class::ShflWidth: return RuleId::PK2104;
  case W64Class::PerWarpArray: return RuleId::PK2105;
  case W64Class::LoopBound: return RuleId::PK2106;
  case W64Class::Block32: return RuleId::PK2107;
  case W64Class::LaneBits: return RuleId::PK2108;
  case W64Class::WarpSync: return RuleId::PK2109;
  case W64Class::TensorFrag: return RuleId::PK2110;
  case W64Class::WarpSizeConst: return RuleId::PK2111;
  }
  llvm_unreachable("hazard class without a check rule");
}

namespace {

// ---- values ----------------------------------------------------------------

// What a value depends on.
enum : unsigned {
  D_TID = 1u << 0,    // threadIdx
  D_LANE = 1u << 1,   // a lane id
  D_WARP = 1u << 2,   // a warp id
  D_NWARPS = 1u << 3, // warps per block
  D_W = 1u << 4,      // the warp width
  D_MASK = 1u << 5,   // a lane mask (ballot, activemask, lane bits)
  D_RANK = 1u << 6,   // a rank among the lanes of a warp
  D_COUNT = 1u << 7,  // a count of lanes
};
const unsigned D_UNSAFE =
    D_LANE | D_WARP | D_NWARPS | D_W | D_MASK | D_RANK | D_COUNT;
const unsigned D_CMP = D_LANE | D_WARP | D_NWARPS | D_MASK | D_RANK | D_COUNT;

// What a value is (exact idioms).
enum : unsigned {
  K_TID = 1u << 0,     // threadIdx.x (or a copy)
  K_LANE = 1u << 1,    // a lane id
  K_WARP = 1u << 2,    // a warp id
  K_NWARPS = 1u << 3,  // warps per block
  K_W = 1u << 4,       // the warp width (WARP_SIZE, warpSize, tile.size())
  K_HALFW = 1u << 5,   // half of it
  K_W1 = 1u << 6,      // the warp width minus one
  K_MASK = 1u << 7,    // a lane mask
  K_LANEBIT = 1u << 8, // 1 << lane
  K_BELOW = 1u << 9,   // the lanes below this one
  K_RANK = 1u << 10,   // popc(mask & below)
  K_COUNT = 1u << 11,  // popc(mask)
  K_RED = 1u << 12,    // offset of a full-warp reduction loop (16 .. 1)
  K_SCAN = 1u << 13,   // offset of a full-warp scan loop (1 .. 16)
  K_SUBRED = 1u << 14, // offset of a sub-warp reduction loop (<= 8 .. 1)
  K_FULL = 1u << 15,   // 0xffffffff
  K_ZERO = 1u << 16,
  K_ONE = 1u << 17,
  K_LIT32 = 1u << 18,
  K_LIT31 = 1u << 19,
  K_LIT16 = 1u << 20,
  K_LIT5 = 1u << 21,
  K_BDIM = 1u << 22,   // blockDim
  K_CONST = 1u << 23,  // a compile-time or launch-time constant
  K_FFS = 1u << 24,    // __ffs(mask)
  K_CLZ = 1u << 25,    // __clz(mask)
  K_WARPM1 = 1u << 26, // warp id minus a constant
  K_WIDX = 1u << 27,   // loop index over the warps of a block
  K_RUP = 1u << 28,    // X + 31 (rounding up to whole warps)
  K_GTID = 1u << 29,   // a linear or global thread index (x fastest)
};

struct Val {
  unsigned Dep = 0, Kind = 0;
  const Expr *Tok = nullptr;  // the constant behind K_LIT*/K_W/K_HALFW/K_W1
  const Expr *Tok2 = nullptr; // K_RUP: the 31
  int64_t C = 0;              // value when K_CONST and known
  bool HasC = false;
};

bool is32(const Val &V) { return V.Kind & (K_LIT32 | K_W); }
bool is31(const Val &V) { return V.Kind & (K_LIT31 | K_W1); }
bool tidish(const Val &V) {
  return (V.Kind & (K_TID | K_GTID)) && !(V.Dep & (D_LANE | D_WARP | D_MASK));
}

enum class Space { Unknown, Global, Shared, Local };

struct VarInfo {
  std::map<const void *, Val> Sources;
  std::set<int> Spaces; // Space values of pointer sources
  unsigned LoopKind = 0;
  Val Merged;
  bool Dirty = true;
};

struct EntityT {
  std::string Name;
  const FunctionDecl *FD = nullptr;
  bool IsKernel = false, IsMacro = false;
  int Parent = -1;
  std::vector<W64Blocker> Blockers;
  bool HasSites = false;
  std::string File; // macros: file of the #define
  unsigned DefOffset = 0;
};

struct FnInfo {
  const FunctionDecl *FD = nullptr;
  int Entity = -1;
  bool Direct = false;   // contains warp code itself
  bool Relevant = false; // warp code in it or around it
  std::set<const FunctionDecl *> Callees;
  std::string File;
  unsigned Begin = 0, End = 0;
};

bool isShuffleName(llvm::StringRef N) {
  return N == "__shfl_sync" || N == "__shfl_up_sync" ||
         N == "__shfl_down_sync" || N == "__shfl_xor_sync" || N == "__shfl" ||
         N == "__shfl_up" || N == "__shfl_down" || N == "__shfl_xor";
}
bool isVoteName(llvm::StringRef N) {
  return N == "__ballot_sync" || N == "__any_sync" || N == "__all_sync" ||
         N == "__activemask" || N == "__ballot" || N == "__any" ||
         N == "__all";
}
bool isWmmaCall(const CallExpr *CE) {
  const FunctionDecl *FD = CE->getDirectCallee();
  if (!FD)
    return false;
  std::string Q = FD->getQualifiedNameAsString();
  return llvm::StringRef(Q).starts_with("nvcuda::wmma::");
}

bool isUnsupportedWarpName(llvm::StringRef N) {
  return N == "__match_any_sync" || N == "__match_all_sync" ||
         N.starts_with("__reduce_") || N == "__fns";
}

/// A cooperative-groups thread_block_tile<N> type (through references,
/// pointers and qualifiers); N = 0 when unknown.
bool tileType(QualType T, unsigned &N) {
  if (T.isNull())
    return false;
  if (const auto *PT = T->getAs<PointerType>())
    T = PT->getPointeeType();
  T = T.getNonReferenceType().getCanonicalType();
  const auto *TST = T->getAs<TemplateSpecializationType>();
  const CXXRecordDecl *RD = T->getAsCXXRecordDecl();
  const ClassTemplateSpecializationDecl *CTS =
      dyn_cast_or_null<ClassTemplateSpecializationDecl>(RD);
  llvm::StringRef Name;
  if (CTS)
    Name = CTS->getName();
  else if (TST)
    if (TemplateDecl *TD = TST->getTemplateName().getAsTemplateDecl())
      Name = TD->getName();
  if (Name != "thread_block_tile" && !Name.ends_with("thread_block_tile_base"))
    return false;
  N = 0;
  if (CTS && CTS->getTemplateArgs().size() >= 1 &&
      CTS->getTemplateArgs()[0].getKind() == TemplateArgument::Integral)
    N = CTS->getTemplateArgs()[0].getAsIntegral().getZExtValue();
  return true;
}

/// The object of a member call is a tile.
bool tileOf(const Expr *Obj, unsigned &N) {
  // Through the derived-to-base cast of members declared in a base class.
  return Obj && (tileType(Obj->IgnoreImpCasts()->getType(), N) ||
                 tileType(Obj->getType(), N));
}

} // namespace

// ---- the analysis ------------------------------------------------------------

struct Wave64Analysis::Impl {
  const UserSource &Src;
  Wave64Analysis &A;
  SourceManager &SM;
  const LangOptions &LO;
  ASTContext &Ctx;

  std::vector<EntityT> Ents;
  std::map<const FunctionDecl *, FnInfo> Fns;
  std::vector<const FunctionDecl *> FnOrder;
  std::map<std::pair<std::string, unsigned>, int> MacroEnts; // (file, #define offset)
  std::map<const VarDecl *, VarInfo> Vars;
  std::map<const FunctionDecl *, VarInfo> Rets;
  std::map<std::string, std::vector<const FunctionDecl *>> ByName;
  bool Changed = false;
  bool Record = false;
  Wave64Strategy Requested = Wave64Strategy::Auto;

  // Record-phase bookkeeping.
  std::set<const Expr *> Claimed;           // W uses consumed by an idiom
  std::vector<std::pair<const Expr *, int>> WUses; // W uses and their function entity
  std::set<std::pair<std::string, unsigned>> TokenAt;
  /// Entity of the site at each edited token: every user of the token is
  /// unified with it (a named constant read by several kernels).
  std::map<std::pair<std::string, unsigned>, int> TokenEnt;
  std::set<const Stmt *> SiteStmts;
  std::set<const Decl *> HazardDecls;
  std::set<std::pair<unsigned, unsigned>> HazardAt; // (loc, class)
  std::set<const Stmt *> ChainOK; // shuffles of recognised unrolled chains
  std::map<std::pair<std::string, unsigned>, int> WarpSizeEnt;
  std::set<const VarDecl *> SharedHazard;
  /// Shared arrays (and the dimension) indexed by a warp id: per-warp slots.
  std::set<std::pair<const VarDecl *, unsigned>> PerWarp;

  Impl(const UserSource &Src, Wave64Analysis &A)
      : Src(Src), A(A), SM(Src.SM()), LO(Src.Ctx().getLangOpts()),
        Ctx(Src.Ctx()) {}

  /// Source text of a range as written at its use (macro expansions show
  /// the macro as written, not its body).
  std::string exprText(SourceRange R) {
    CharSourceRange FR =
        Lexer::makeFileCharRange(CharSourceRange::getTokenRange(R), SM, LO);
    if (FR.isInvalid()) {
      // Climb both ends to the innermost expansion holding both.
      auto Chain = [&](SourceLocation L, bool Begin) {
        std::vector<std::pair<FileID, SourceLocation>> V;
        for (int G = 0; G < 32; ++G) {
          V.push_back({SM.getFileID(L), L});
          if (!L.isMacroID())
            break;
          CharSourceRange X = SM.getImmediateExpansionRange(L);
          L = Begin ? X.getBegin() : X.getEnd();
        }
        return V;
      };
      auto CB = Chain(R.getBegin(), true), CE = Chain(R.getEnd(), false);
      SourceLocation B, E;
      for (auto &[F, L] : CB) {
        for (auto &[F2, L2] : CE)
          if (F == F2) {
            B = L;
            E = L2;
            break;
          }
        if (B.isValid())
          break;
      }
      if (B.isValid()) {
        B = SM.getSpellingLoc(B);
        E = SM.getSpellingLoc(E);
      }
      if (B.isValid() && SM.getFileID(B) == SM.getFileID(E) &&
          !SM.isBeforeInTranslationUnit(E, B))
        FR = CharSourceRange::getTokenRange(B, E);
      else
        FR = CharSourceRange::getTokenRange(SM.getExpansionRange(R).getAsRange());
    }
    std::string T = Lexer::getSourceText(FR, SM, LO).str();
    if (T.find('\n') != std::string::npos && T.size() > 60) {
      // keep messages on one line
      T = T.substr(0, T.find('\n')) + " ...";
    }
    return T;
  }

  // ---- entities ----
  int newEntity(std::string Name) {
    Ents.push_back({});
    Ents.back().Name = std::move(Name);
    Ents.back().Parent = (int)Ents.size() - 1;
    return (int)Ents.size() - 1;
  }
  int find(int E) {
    while (Ents[E].Parent != E) {
      Ents[E].Parent = Ents[Ents[E].Parent].Parent;
      E = Ents[E].Parent;
    }
    return E;
  }
  void unite(int A1, int B1) {
    if (A1 < 0 || B1 < 0)
      return;
    A1 = find(A1);
    B1 = find(B1);
    if (A1 != B1)
      Ents[std::max(A1, B1)].Parent = std::min(A1, B1);
  }

  /// The #define containing the spelling location \p L, if any:
  /// (file, offset of the '#').
  bool defineAt(SourceLocation L, std::string &File, unsigned &Off,
                std::string *Name = nullptr) {
    if (L.isInvalid() || !L.isFileID())
      return false;
    File = Src.fileOf(L);
    if (File.empty())
      return false;
    llvm::StringRef Buf = Src.contents(File);
    unsigned O = SM.getFileOffset(L);
    if (O > Buf.size())
      return false;
    // Start of the logical line (continuations included).
    size_t LS = Buf.take_front(O).rfind('\n');
    LS = LS == llvm::StringRef::npos ? 0 : LS + 1;
    while (LS >= 2 && Buf[LS - 1] == '\n' &&
           (Buf[LS - 2] == '\\' || (LS >= 3 && Buf[LS - 2] == '\r' &&
                                    Buf[LS - 3] == '\\'))) {
      size_t P = Buf.take_front(LS - 1).rfind('\n');
      LS = P == llvm::StringRef::npos ? 0 : P + 1;
    }
    llvm::StringRef Line = Buf.drop_front(LS).ltrim(" \t");
    if (!Line.consume_front("#"))
      return false;
    Line = Line.ltrim(" \t");
    if (!Line.consume_front("define"))
      return false;
    Off = LS;
    if (Name) {
      Line = Line.ltrim(" \t");
      *Name = Line.take_while([](char C) { return llvm::isAlnum(C) || C == '_'; }).str();
    }
    return true;
  }

  int macroEntity(const std::string &File, unsigned Off,
                  const std::string &Name) {
    auto It = MacroEnts.find({File, Off});
    if (It != MacroEnts.end())
      return It->second;
    int E = newEntity("macro " + Name);
    Ents[E].IsMacro = true;
    Ents[E].File = File;
    Ents[E].DefOffset = Off;
    MacroEnts[{File, Off}] = E;
    return E;
  }

  /// Entity owning an edit at spelling location \p Spell found while
  /// walking function entity \p FnEnt.
  int entityFor(SourceLocation Spell, int FnEnt) {
    std::string File, Name;
    unsigned Off;
    if (defineAt(Spell, File, Off, &Name)) {
      int M = macroEntity(File, Off, Name);
      unite(M, FnEnt);
      return M;
    }
    return FnEnt;
  }

  // ---- variables ----
  Val merged(VarInfo &VI) {
    if (!VI.Dirty)
      return VI.Merged;
    Val M;
    bool First = true;
    for (auto &[K, V] : VI.Sources) {
      M.Dep |= V.Dep;
      if (First) {
        M.Kind = V.Kind;
        M.Tok = V.Tok;
        M.Tok2 = V.Tok2;
        M.C = V.C;
        M.HasC = V.HasC;
        First = false;
      } else {
        M.Kind &= V.Kind;
        if (M.Tok != V.Tok)
          M.Tok = nullptr;
        M.HasC = M.HasC && V.HasC && M.C == V.C;
      }
    }
    if (VI.Sources.size() > 1)
      M.Kind &= ~(K_LIT32 | K_LIT31 | K_LIT16 | K_LIT5 | K_ZERO | K_ONE |
                  K_FULL | K_W | K_HALFW | K_W1);
    VI.Merged = M;
    VI.Dirty = false;
    return M;
  }

  void addSource(VarInfo &VI, const void *Key, const Val &V) {
    auto It = VI.Sources.find(Key);
    if (It == VI.Sources.end()) {
      VI.Sources[Key] = V;
      VI.Dirty = true;
      Changed = true;
      return;
    }
    Val &O = It->second;
    if (O.Dep != V.Dep || O.Kind != V.Kind || O.Tok != V.Tok) {
      O = V;
      VI.Dirty = true;
      Changed = true;
    }
  }

  void addSpace(VarInfo &VI, Space S) {
    if (VI.Spaces.insert((int)S).second)
      Changed = true;
  }

  // ---- findings of the record phase ----
  void hazard(W64Class C, SourceLocation Loc, std::string Msg) {
    if (!Record || Loc.isInvalid())
      return;
    SourceLocation F = SM.getFileLoc(Loc);
    if (Loc.isMacroID() && SM.isMacroArgExpansion(Loc))
      F = SM.getSpellingLoc(Loc);
    if (!Src.isUserLoc(F))
      return;
    if (!HazardAt.insert({F.getRawEncoding(), (unsigned)C}).second)
      return;
    A.Hazards.push_back({C, Loc, std::move(Msg)});
  }

  void blocker(int Ent, SourceLocation Loc, std::string Msg, bool Launch = false) {
    if (!Record || Ent < 0)
      return;
    for (const W64Blocker &B : Ents[Ent].Blockers)
      if (B.Loc == Loc && B.Msg == Msg)
        return;
    Ents[Ent].Blockers.push_back({Loc, std::move(Msg), Ent, Launch});
  }
  /// \p FD and every function it calls, transitively.
  std::set<const FunctionDecl *> callClosure(const FunctionDecl *FD) {
    std::set<const FunctionDecl *> Out;
    std::vector<const FunctionDecl *> Work = {FD};
    while (!Work.empty()) {
      const FunctionDecl *G = Work.back();
      Work.pop_back();
      if (Out.insert(G).second)
        for (const FunctionDecl *H : Fns[G].Callees)
          Work.push_back(H);
    }
    return Out;
  }

  W64Site &site(W64Site::KindT K, const Stmt *S, int Ent) {
    A.Sites.push_back({});
    W64Site &X = A.Sites.back();
    X.Kind = K;
    X.S = S;
    X.Entity = Ent;
    if (Ent >= 0)
      Ents[Ent].HasSites = true;
    return X;
  }

  /// A one-token edit of the native strategy at the spelling of \p Tok.
  void tokenSite(const Expr *Tok, int FnEnt, std::string Native,
                 RuleId Rule, llvm::StringRef Why,
                 std::string Logical = "") {
    if (!Record || !Tok)
      return;
    SourceLocation L = SM.getSpellingLoc(Tok->getBeginLoc());
    if (!Src.isUserLoc(L))
      return;
    std::string File = Src.fileOf(L);
    unsigned Off = SM.getFileOffset(L);
    int Ent = entityFor(L, FnEnt);
    if (!TokenAt.insert({File, Off}).second) {
      auto It = TokenEnt.find({File, Off});
      if (It != TokenEnt.end())
        unite(It->second, Ent);
      if (Ent >= 0)
        Ents[Ent].HasSites = true;
      return;
    }
    TokenEnt[{File, Off}] = Ent;
    unsigned Len = Lexer::MeasureTokenLength(L, SM, LO);
    W64Site &X = site(W64Site::Token, nullptr, Ent);
    X.Loc = L;
    X.Len = Len;
    X.Native = std::move(Native);
    X.Logical = std::move(Logical);
    X.Rule = Rule;
    X.Why = Why.str();
  }

  std::string tokText(SourceLocation Spell) {
    unsigned Len = Lexer::MeasureTokenLength(Spell, SM, LO);
    bool Invalid = false;
    const char *P = SM.getCharacterData(Spell, &Invalid);
    if (Invalid)
      return "";
    return std::string(P, Len);
  }

  /// The text of an integer literal token with its value replaced by \p V
  /// (same base and suffix).
  std::string relit(const Expr *Tok, uint64_t V) {
    std::string T = tokText(SM.getSpellingLoc(Tok->getBeginLoc()));
    llvm::StringRef S(T);
    bool Hex = S.starts_with_insensitive("0x");
    size_t SufPos = S.find_first_not_of(Hex ? "0123456789abcdefABCDEFxX"
                                            : "0123456789");
    llvm::StringRef Suffix = SufPos == llvm::StringRef::npos ? "" : S.drop_front(SufPos);
    std::string Num = Hex ? llvm::formatv("{0:x}", V).str() : std::to_string(V);
    if (Hex) {
      bool Upper = S.size() > 2 && llvm::any_of(S.drop_front(2).take_front(SufPos - 2),
                                                 [](char C) { return C >= 'A' && C <= 'F'; });
      Num = (S.take_front(2) + (Upper ? llvm::StringRef(Num).upper() : Num)).str();
    }
    return Num + Suffix.str();
  }

  bool isLiteralTok(const Expr *Tok) {
    return Tok && isa<IntegerLiteral>(Tok->IgnoreParenImpCasts());
  }

  /// Consumes a warp-width constant (32, WARP_SIZE, warpSize, a named
  /// constant) used by an accepted idiom; native widens it to \p Native
  /// (64 for the width, 63 for width - 1, 32 for the half width).
  void claim(const Val &V, int FnEnt, uint64_t Native, llvm::StringRef What) {
    if (!Record || !V.Tok)
      return;
    const Expr *T = V.Tok->IgnoreParenImpCasts();
    Claimed.insert(T);
    if (const auto *DRE = dyn_cast<DeclRefExpr>(T)) {
      const auto *VD = dyn_cast<VarDecl>(DRE->getDecl());
      if (!VD || VD->getName() == "warpSize")
        return; // the warpSize pass renames it
      // A named constant: widen its initialiser.
      if (const Expr *Init = VD->getAnyInitializer()) {
        const Expr *L = Init->IgnoreParenImpCasts();
        if (isa<IntegerLiteral>(L)) {
          uint64_t Old = cast<IntegerLiteral>(L)->getValue().getZExtValue();
          uint64_t New = Old == 32 ? 64 : Old == 31 ? 63 : Old;
          tokenSite(L, FnEnt, relit(L, New), RuleId::PK2021,
                    llvm::formatv("{0}: the warp width constant {1} is the "
                                  "64-lane wave under native warps",
                                  VD->getName(), Old)
                        .str());
        }
      }
      return;
    }
    if (isa<CallExpr>(T) || isa<CXXMemberCallExpr>(T))
      return; // tile.size(): the tile type is widened
    if (const auto *IL = dyn_cast<IntegerLiteral>(T)) {
      uint64_t Old = IL->getValue().getZExtValue();
      uint64_t New = Native;
      if (Old == 32 && Native == 63)
        New = 64; // W - 1 spelled as 32 - 1
      else if (Old == 32 && Native == 32)
        New = 64; // W / 2 spelled as 32 / 2
      tokenSite(IL, FnEnt, relit(IL, New), RuleId::PK2021,
                llvm::formatv("{0}: {1} -> {2} for 64-lane warps", What, Old,
                              New)
                    .str());
    }
  }

  // ---- W names ----
  static bool warpName(llvm::StringRef N) {
    std::string L = N.lower();
    return llvm::StringRef(L).contains("warp") ||
           (llvm::StringRef(L).contains("lane") && !llvm::StringRef(L).contains("mask"));
  }

  /// True when the literal at \p L is the whole body of an object-like macro
  /// named like a warp width.
  bool inWarpMacro(const IntegerLiteral *IL, std::string *MName = nullptr) {
    SourceLocation L = IL->getLocation();
    if (!L.isMacroID() || !SM.isMacroBodyExpansion(L))
      return false;
    SourceLocation Spell = SM.getSpellingLoc(L);
    std::string File, Name;
    unsigned Off;
    if (!defineAt(Spell, File, Off, &Name) || !warpName(Name))
      return false;
    llvm::StringRef Buf = Src.contents(File);
    llvm::StringRef Line = Buf.drop_front(Off);
    Line = Line.take_until([](char C) { return C == '\n'; });
    // "#define NAME <ws> [(] literal [)]"
    size_t P = Line.find(Name);
    if (P == llvm::StringRef::npos)
      return false;
    llvm::StringRef Body = Line.drop_front(P + Name.size());
    if (Body.starts_with("("))
      return false; // function-like
    Body = Body.trim(" \t\r(").rtrim(" \t\r)");
    if (Body != tokText(Spell))
      return false;
    if (MName)
      *MName = Name;
    return true;
  }

  // ---- builtins ----
  static bool builtinMember(const Expr *E, llvm::StringRef &Var,
                            llvm::StringRef &Field) {
    E = E->IgnoreParenImpCasts();
    if (const auto *POE = dyn_cast<PseudoObjectExpr>(E))
      E = POE->getSyntacticForm()->IgnoreParenImpCasts();
    if (const auto *P = dyn_cast<MSPropertyRefExpr>(E)) {
      const Expr *Base = P->getBaseExpr()->IgnoreParenImpCasts();
      if (const auto *O = dyn_cast<OpaqueValueExpr>(Base))
        if (O->getSourceExpr())
          Base = O->getSourceExpr()->IgnoreParenImpCasts();
      if (const auto *DRE = dyn_cast<DeclRefExpr>(Base)) {
        Var = DRE->getDecl()->getName();
        Field = P->getPropertyDecl()->getName();
        return Var == "threadIdx" || Var == "blockDim" || Var == "blockIdx" ||
               Var == "gridDim";
      }
    }
    if (const auto *M = dyn_cast<MemberExpr>(E)) {
      if (const auto *DRE =
              dyn_cast<DeclRefExpr>(M->getBase()->IgnoreParenImpCasts())) {
        Var = DRE->getDecl()->getName();
        if (M->getMemberDecl()->getIdentifier())
          Field = M->getMemberDecl()->getName();
        return Var == "threadIdx" || Var == "blockDim" || Var == "blockIdx" ||
               Var == "gridDim";
      }
    }
    return false;
  }

  // ---- pre-scan ----
  void collect();
  void computeRelevance();
  void walkAll();
  void decide();
  void emitKernels();
  void warpSizeUses();
  void launchChecks();
  void maskTypes();
  void maskTypeSite(const DeclaratorDecl *D, TypeLoc TL, int FnEnt,
                    llvm::StringRef What);
};

namespace {

/// Collects user functions with bodies.
class Collector : public RecursiveASTVisitor<Collector> {
public:
  Collector(Wave64Analysis::Impl &I) : I(I) {}
  bool shouldVisitTemplateInstantiations() const { return false; }
  bool VisitFunctionDecl(FunctionDecl *FD) {
    if (!FD->doesThisDeclarationHaveABody() || FD->isImplicit())
      return true;
    if (!I.Src.isUserLoc(FD->getLocation()))
      return true;
    if (FD->isTemplateInstantiation())
      return true;
    if (I.Fns.count(FD))
      return true;
    FnInfo &F = I.Fns[FD];
    F.FD = FD;
    std::string Name = FD->getNameAsString();
    F.Entity = I.newEntity(Name);
    I.Ents[F.Entity].FD = FD;
    I.Ents[F.Entity].IsKernel = FD->hasAttr<CUDAGlobalAttr>();
    I.FnOrder.push_back(FD);
    if (FD->getIdentifier())
      I.ByName[FD->getName().str()].push_back(FD);
    SourceRange R = FD->getSourceRange();
    SourceLocation B = I.SM.getExpansionLoc(R.getBegin());
    SourceLocation E = I.SM.getExpansionLoc(R.getEnd());
    F.File = I.Src.fileOf(B);
    F.Begin = I.SM.getFileOffset(B);
    F.End = I.SM.getFileOffset(E) + 1;
    return true;
  }

private:
  Wave64Analysis::Impl &I;
};

} // namespace

static const FunctionDecl *canonFn(const FunctionDecl *FD) {
  if (!FD)
    return nullptr;
  if (const FunctionDecl *P = FD->getTemplateInstantiationPattern())
    FD = P;
  if (const FunctionDecl *D = FD->getDefinition())
    FD = D;
  return FD;
}

void Wave64Analysis::Impl::collect() {
  Collector C(*this);
  C.TraverseDecl(Ctx.getTranslationUnitDecl());
  // Call edges and direct warp code.
  for (const FunctionDecl *FD : FnOrder) {
    FnInfo &F = Fns[FD];
    std::function<void(const Stmt *)> Scan = [&](const Stmt *S) {
      if (!S)
        return;
      if (const auto *CE = dyn_cast<CallExpr>(S)) {
        llvm::StringRef N = calleeName(CE);
        if (isShuffleName(N) || isVoteName(N) || N == "__syncwarp" ||
            isUnsupportedWarpName(N) || N == "tiled_partition" ||
            isWmmaCall(CE))
          F.Direct = true;
        if (const auto *MC = dyn_cast<CXXMemberCallExpr>(CE)) {
          unsigned TN;
          if (tileOf(MC->getImplicitObjectArgument(), TN))
            F.Direct = true;
        }
        const FunctionDecl *Callee = canonFn(CE->getDirectCallee());
        if (Callee && Fns.count(Callee))
          F.Callees.insert(Callee);
        else if (!Callee && !N.empty()) {
          auto It = ByName.find(N.str());
          if (It != ByName.end())
            for (const FunctionDecl *G : It->second)
              F.Callees.insert(G);
        }
      }
      if (const auto *AS = dyn_cast<GCCAsmStmt>(S)) {
        llvm::StringRef T = AS->getAsmString()->getString();
        if (T.contains("%laneid") || T.contains("%lanemask") ||
            T.contains("%warpid") || T.contains("shfl.sync") ||
            T.contains("vote."))
          F.Direct = true;
      }
      if (const auto *DRE = dyn_cast<DeclRefExpr>(S))
        if (DRE->getDecl()->getName() == "warpSize")
          F.Direct = true;
      if (const auto *IL = dyn_cast<IntegerLiteral>(S))
        if (IL->getValue() == 32 && inWarpMacro(IL))
          F.Direct = true;
      if (const auto *ASE = dyn_cast<ArraySubscriptExpr>(S))
        if (ASE->getType().isVolatileQualified())
          F.Direct = true; // warp-synchronous volatile code
      for (const Stmt *C : S->children())
        Scan(C);
    };
    Scan(FD->getBody());
  }
}

void Wave64Analysis::Impl::computeRelevance() {
  // Closure of each kernel; relevant when the closure holds warp code.
  std::function<void(const FunctionDecl *, std::set<const FunctionDecl *> &)>
      Close = [&](const FunctionDecl *F, std::set<const FunctionDecl *> &S) {
        if (!S.insert(F).second)
          return;
        for (const FunctionDecl *G : Fns[F].Callees)
          Close(G, S);
      };
  for (const FunctionDecl *FD : FnOrder) {
    FnInfo &F = Fns[FD];
    std::set<const FunctionDecl *> S;
    Close(FD, S);
    bool Any = false;
    for (const FunctionDecl *G : S)
      Any |= Fns[G].Direct;
    if (F.FD->hasAttr<CUDAGlobalAttr>() && Any)
      for (const FunctionDecl *G : S)
        Fns[G].Relevant = true;
    if (Any)
      F.Relevant = true;
  }
}

// ---- the walker -------------------------------------------------------------

namespace {

class Walker {
public:
  Walker(Wave64Analysis::Impl &I, const FunctionDecl *FD)
      : I(I), FD(FD), F(I.Fns[FD]), Ent(F.Entity), Rec(I.Record),
        Rel(F.Relevant) {}

  void run() {
    for (const ParmVarDecl *P : FD->parameters())
      tileDecl(P);
    stmt(FD->getBody());
  }

private:
  Wave64Analysis::Impl &I;
  const FunctionDecl *FD;
  FnInfo &F;
  int Ent;
  bool Rec, Rel;
  std::vector<const ForStmt *> Loops;
  std::vector<const Expr *> LaneConds; // enclosing lane-selecting conditions
  int ConstDepth = 0;

  /// A condition that picks lanes by their position in a 32-lane warp
  /// (lane == 31, lane == leader, lane < n), as opposed to lane 0, the
  /// first warp, or a mask test.
  bool laneWise(const Expr *C) {
    bool LW = false;
    std::function<void(const Expr *)> F = [&](const Expr *E) {
      if (!E || LW)
        return;
      E = E->IgnoreParenImpCasts();
      if (const auto *BO = dyn_cast<BinaryOperator>(E)) {
        if (BO->isLogicalOp()) {
          F(BO->getLHS());
          F(BO->getRHS());
          return;
        }
        if (BO->isComparisonOp()) {
          Val L = peek(BO->getLHS()), R = peek(BO->getRHS());
          if (!(L.Kind & K_LANE) && (R.Kind & K_LANE))
            std::swap(L, R);
          // lane < nwarps guards a read of the per-warp slots: no choice
          if ((L.Kind & K_LANE) && !(R.Kind & (K_ZERO | K_NWARPS)))
            LW = true;
          else if ((L.Dep & (D_LANE | D_RANK)) && !(L.Kind & K_LANE))
            LW = true;
          return;
        }
      }
      if (const auto *UO = dyn_cast<UnaryOperator>(E))
        if (UO->getOpcode() == UO_LNot)
          return F(UO->getSubExpr());
      Val V = peek(E);
      if (V.Dep & (D_LANE | D_RANK))
        LW = !(V.Kind & K_LANE); // if (lane) is lane != 0
    };
    F(C);
    return LW;
  }

  SourceManager &SM() { return I.SM; }
  std::string text(const Expr *E) { return I.exprText(E->getSourceRange()); }
  std::string text(const Stmt *S) { return I.exprText(S->getSourceRange()); }
  bool record() const { return Rec; }

  void block(SourceLocation L, std::string Msg) {
    if (Rec)
      I.blocker(Ent, L, std::move(Msg));
  }
  void hazard(W64Class C, SourceLocation L, std::string Msg) {
    if (Rec && Rel)
      I.hazard(C, L, std::move(Msg));
  }
  void claim(const Val &V, uint64_t Native, llvm::StringRef What) {
    if (!Rec || !V.Tok)
      return;
    // Bare literals only in code around warp code; W constants always.
    if ((V.Kind & (K_W | K_HALFW | K_W1)) || Rel) {
      bool IsW = false;
      const Expr *T = V.Tok->IgnoreParenImpCasts();
      if (const auto *IL = dyn_cast<IntegerLiteral>(T))
        IsW = I.inWarpMacro(IL);
      if (IsW) {
        // The macro's body is widened once; mark the use consumed.
        I.Claimed.insert(T);
        uint64_t Old = cast<IntegerLiteral>(T)->getValue().getZExtValue();
        std::string MName;
        I.inWarpMacro(cast<IntegerLiteral>(T), &MName);
        I.tokenSite(T, Ent, I.relit(T, Old == 31 ? 63 : 64), RuleId::PK2021,
                    llvm::formatv("{0}: the warp width is 64 lanes under "
                                  "native warps",
                                  MName)
                        .str());
        return;
      }
      I.claim(V, Ent, Native, What);
    }
  }

  Val konst(int64_t C) {
    Val V;
    V.Kind = K_CONST;
    V.C = C;
    V.HasC = true;
    return V;
  }

  // ---- memory ----
  Space spaceOfVar(const VarDecl *VD) {
    if (!VD)
      return Space::Unknown;
    if (VD->hasAttr<CUDASharedAttr>())
      return Space::Shared;
    QualType T = VD->getType();
    if (T->isArrayType())
      return VD->hasLocalStorage() ? Space::Local : Space::Global;
    if (T->isPointerType() || T->isReferenceType()) {
      auto It = I.Vars.find(VD);
      if (It != I.Vars.end() && !It->second.Spaces.empty()) {
        const std::set<int> &S = It->second.Spaces;
        if (S.count((int)Space::Global) || S.count((int)Space::Unknown))
          return Space::Global;
        if (S.count((int)Space::Shared) && S.size() == 1)
          return Space::Shared;
        if (S.count((int)Space::Local) && S.size() == 1)
          return Space::Local;
        return Space::Global;
      }
      return Space::Global;
    }
    if (VD->hasLocalStorage())
      return Space::Local;
    return Space::Global;
  }

  const VarDecl *rootVar(const Expr *E) {
    E = E->IgnoreParenCasts();
    if (const auto *ASE = dyn_cast<ArraySubscriptExpr>(E))
      return rootVar(ASE->getBase());
    if (const auto *DRE = dyn_cast<DeclRefExpr>(E))
      return dyn_cast<VarDecl>(DRE->getDecl());
    if (const auto *BO = dyn_cast<BinaryOperator>(E))
      if (BO->isAdditiveOp())
        return rootVar(BO->getLHS()->getType()->isPointerType() ? BO->getLHS()
                                                                : BO->getRHS());
    if (const auto *UO = dyn_cast<UnaryOperator>(E))
      if (UO->getOpcode() == UO_AddrOf || UO->getOpcode() == UO_Deref)
        return rootVar(UO->getSubExpr());
    if (const auto *ME = dyn_cast<MemberExpr>(E))
      return rootVar(ME->getBase());
    return nullptr;
  }

  Space spaceOf(const Expr *E) {
    E = E->IgnoreParenCasts();
    if (const auto *ASE = dyn_cast<ArraySubscriptExpr>(E))
      return spaceOf(ASE->getBase());
    if (const auto *DRE = dyn_cast<DeclRefExpr>(E))
      return spaceOfVar(dyn_cast<VarDecl>(DRE->getDecl()));
    if (const auto *BO = dyn_cast<BinaryOperator>(E)) {
      if (BO->isAdditiveOp())
        return spaceOf(BO->getLHS()->getType()->isPointerType() ? BO->getLHS()
                                                                : BO->getRHS());
      if (BO->getOpcode() == BO_Comma)
        return spaceOf(BO->getRHS());
    }
    if (const auto *UO = dyn_cast<UnaryOperator>(E)) {
      if (UO->getOpcode() == UO_AddrOf || UO->getOpcode() == UO_Deref)
        return spaceOf(UO->getSubExpr());
    }
    if (const auto *ME = dyn_cast<MemberExpr>(E)) {
      if (ME->isArrow())
        return spaceOf(ME->getBase());
      return spaceOf(ME->getBase());
    }
    if (const auto *CO = dyn_cast<ConditionalOperator>(E)) {
      Space A = spaceOf(CO->getTrueExpr()), B = spaceOf(CO->getFalseExpr());
      return A == B ? A : Space::Global;
    }
    if (isa<CXXThisExpr>(E))
      return Space::Local;
    return Space::Global;
  }

  bool isPerWarpIndex(const Val &V) {
    return (V.Kind & (K_LANE | K_WARP | K_WARPM1 | K_WIDX)) != 0;
  }

  /// The declared element count of dimension \p Dim (0 = outermost) of a
  /// shared array, and the expression that spells it.
  bool arrayDim(const VarDecl *VD, unsigned Dim, uint64_t &N,
                const Expr *&SizeE) {
    SizeE = nullptr;
    QualType T = VD->getType();
    for (unsigned D = 0;; ++D) {
      const auto *CAT = I.Ctx.getAsConstantArrayType(T);
      if (!CAT) {
        if (const auto *DAT = dyn_cast<DependentSizedArrayType>(T.getTypePtr())) {
          if (D == Dim) {
            SizeE = DAT->getSizeExpr();
            return false;
          }
          T = DAT->getElementType();
          continue;
        }
        return false;
      }
      if (D == Dim) {
        N = CAT->getSize().getZExtValue();
        SizeE = CAT->getSizeExpr();
        break;
      }
      T = CAT->getElementType();
    }
    if (!SizeE) {
      if (TypeSourceInfo *TSI = VD->getTypeSourceInfo()) {
        TypeLoc TL = TSI->getTypeLoc();
        for (unsigned D = 0; !TL.isNull(); ++D) {
          auto AT = TL.getAs<ArrayTypeLoc>();
          if (!AT) {
            TL = TL.getNextTypeLoc();
            if (D > 8)
              break;
            --D;
            continue;
          }
          if (D == Dim) {
            SizeE = AT.getSizeExpr();
            break;
          }
          TL = AT.getElementLoc();
        }
      }
    }
    return true;
  }

  /// Depth of a subscript chain: a[i] -> 0, a[i][j] (outer) -> 1.
  unsigned subscriptDim(const ArraySubscriptExpr *ASE) {
    unsigned D = 0;
    const Expr *B = ASE->getBase()->IgnoreParenImpCasts();
    while (const auto *In = dyn_cast<ArraySubscriptExpr>(B)) {
      ++D;
      B = In->getBase()->IgnoreParenImpCasts();
    }
    return D;
  }

  /// Checks one memory access: base \p B, index \p Idx (may be null),
  /// stored value \p Stored (null for loads).
  void access(const Expr *Whole, const Expr *B, const Val &BaseV,
              const Expr *IdxE, const Val &Idx, const Val *Stored) {
    if (!Rec)
      return;
    Space S = spaceOf(B);
    unsigned Dep = (BaseV.Dep | Idx.Dep);
    if (S == Space::Global) {
      if (Dep & D_UNSAFE) {
        // rank + the warp's exclusive offset: a block-level rank.
        bool RankOK = false;
        if ((Dep & D_RANK) && !(Dep & (D_UNSAFE & ~(D_RANK | D_WARP)))) {
          std::function<bool(const Expr *)> HasPerWarpRead =
              [&](const Expr *E) -> bool {
            if (!E)
              return false;
            E = E->IgnoreParenImpCasts();
            if (const auto *A = dyn_cast<ArraySubscriptExpr>(E)) {
              const VarDecl *VD = rootVar(A->getBase());
              if (VD && VD->hasAttr<CUDASharedAttr>()) {
                Val IV = peek(A->getIdx());
                if (IV.Kind & K_WARP)
                  return true;
              }
            }
            for (const Stmt *C : E->children())
              if (const auto *CE = dyn_cast_or_null<Expr>(C))
                if (HasPerWarpRead(CE))
                  return true;
            return false;
          };
          RankOK = HasPerWarpRead(IdxE ? IdxE : Whole);
        }
        if (!RankOK)
          block(Whole->getBeginLoc(),
                llvm::formatv("'{0}' addresses global memory with a value "
                              "that depends on the 32-lane warp numbering",
                              text(Whole))
                    .str());
      }
      if (Stored && (Stored->Dep & D_UNSAFE))
        block(Whole->getBeginLoc(),
              llvm::formatv("'{0}' stores a value that depends on the 32-lane "
                            "warp numbering in global memory",
                            text(Whole))
                  .str());
      else if (Stored && !LaneConds.empty())
        block(Whole->getBeginLoc(),
              llvm::formatv("'{0}' is stored only by the lanes that '{1}' "
                            "selects by their place in a 32-lane warp",
                            text(Whole), text(LaneConds.back()))
                  .str());
      return;
    }
    if (S != Space::Shared)
      return;
    if (Stored && (Stored->Dep & (D_MASK)))
      block(Whole->getBeginLoc(),
            llvm::formatv("'{0}' keeps a lane mask in shared memory",
                          text(Whole))
                .str());
    else if (Stored && (Stored->Dep & (D_LANE | D_WARP | D_NWARPS | D_W)))
      // Read back, it would lose what it is; keep the layout instead.
      block(Whole->getBeginLoc(),
            llvm::formatv("'{0}' keeps a lane or warp number in shared memory",
                          text(Whole))
                .str());
    if (!IdxE)
      return;
    const VarDecl *VD = rootVar(B);
    const auto *ASE = dyn_cast<ArraySubscriptExpr>(Whole->IgnoreParenImpCasts());
    // tid + W: the first warp folds the second warp's values in.
    if (const auto *BO = dyn_cast<BinaryOperator>(IdxE->IgnoreParenImpCasts())) {
      if (BO->getOpcode() == BO_Add) {
        Val L = peek(BO->getLHS()), R = peek(BO->getRHS());
        const Val *W = is32(R) ? &R : is32(L) ? &L : nullptr;
        const Val *T = W == &R ? &L : &R;
        if (W && (T->Kind & K_TID) && (W->Kind & K_W || Rel)) {
          uint64_t N = 0;
          const Expr *SE;
          bool Known = VD && ASE && arrayDim(VD, subscriptDim(ASE), N, SE);
          if (Known && N >= 128)
            claim(*W, 64, "index of the second warp's half");
          else
            block(Whole->getBeginLoc(),
                  llvm::formatv("'{0}' folds the values of the next warp: with "
                                "64-lane warps the array needs 128 elements",
                                text(Whole))
                      .str());
          return;
        }
      }
    }
    if (!(Idx.Dep & (D_LANE | D_WARP | D_NWARPS | D_MASK | D_RANK | D_COUNT))) {
      // A per-warp slot read at an index that is not a warp id, a loop
      // over this kernel's warps or slot 0: the slots it reads depend on
      // how many 32-lane warps there are.
      if (!Stored && VD && ASE && I.PerWarp.count({VD, subscriptDim(ASE)}) &&
          !(Idx.HasC && Idx.C == 0))
        block(Whole->getBeginLoc(),
              llvm::formatv("'{0}' reads per-warp slots over a range that is "
                            "not the warp count of this kernel",
                            text(Whole))
                  .str());
      return;
    }
    if (!isPerWarpIndex(Idx) ||
        (Idx.Dep & (D_MASK | D_RANK | D_COUNT))) {
      block(Whole->getBeginLoc(),
            llvm::formatv("'{0}' indexes shared memory with arithmetic on the "
                          "lane or warp id",
                          text(Whole))
                .str());
      return;
    }
    if (!VD || !ASE)
      return;
    uint64_t N = 0;
    const Expr *SE = nullptr;
    bool Known = arrayDim(VD, subscriptDim(ASE), N, SE);
    if (I.SharedHazard.insert(VD).second && Rel) {
      std::string Sz = SE ? text(SE) : std::to_string(N);
      hazard(W64Class::PerWarpArray, VD->getLocation(),
             llvm::formatv("per-warp shared array '{0}[{1}]' is {2} by the "
                           "{3} id: it holds one slot per 32-lane warp or lane; "
                           "on 64-lane waves the warp and lane numbering differ",
                           VD->getName(), Sz,
                           (Idx.Kind & K_LANE) ? "indexed" : "indexed",
                           (Idx.Kind & K_LANE) ? "lane" : "warp")
                 .str());
    }
    if (!(Idx.Kind & K_LANE))
      return; // fewer warps under native: the array is large enough
    Val SV = SE ? peek(SE) : Val();
    if (SE && is32(SV))
      claim(SV, 64, "per-warp array size");
    else if (!Known || N < 64)
      block(Whole->getBeginLoc(),
            llvm::formatv("'{0}' is indexed by the lane id but holds fewer "
                          "than 64 elements",
                          text(Whole))
                .str());
  }

  /// Evaluates without recording (for idiom checks of subexpressions).
  Val peek(const Expr *E) {
    bool Old = Rec;
    Rec = false;
    Val V = eval(E);
    Rec = Old;
    return V;
  }

  // ---- expressions ----
public:
  Val eval(const Expr *E);

private:
  Val literal(const IntegerLiteral *IL) {
    uint64_t V = IL->getValue().getLimitedValue();
    Val R = konst((int64_t)V);
    R.Tok = IL;
    if (V == 32)
      R.Kind |= K_LIT32;
    if (V == 31)
      R.Kind |= K_LIT31;
    if (V == 16)
      R.Kind |= K_LIT16;
    if (V == 5)
      R.Kind |= K_LIT5;
    if (V == 0)
      R.Kind |= K_ZERO;
    if (V == 1)
      R.Kind |= K_ONE;
    if (V == 0xffffffffull)
      R.Kind |= K_FULL;
    if ((V == 32 || V == 31) && I.inWarpMacro(IL)) {
      R.Kind |= V == 32 ? K_W : K_W1;
      R.Dep |= D_W;
      if (Rec)
        I.WUses.push_back({IL, Ent});
    }
    return R;
  }

  Val declRef(const DeclRefExpr *DRE) {
    const ValueDecl *D = DRE->getDecl();
    if (isa<NonTypeTemplateParmDecl>(D)) {
      Val V;
      V.Kind = K_CONST;
      return V;
    }
    if (const auto *EC = dyn_cast<EnumConstantDecl>(D))
      return konst(EC->getInitVal().getSExtValue());
    const auto *VD = dyn_cast<VarDecl>(D);
    if (!VD)
      return {};
    if (VD->getName() == "warpSize" && !I.Src.isUserLoc(VD->getLocation())) {
      Val V = konst(32);
      V.Kind |= K_W;
      V.Dep |= D_W;
      V.Tok = DRE;
      return V;
    }
    auto It = I.Vars.find(VD);
    if (It != I.Vars.end() && It->second.LoopKind) {
      Val V;
      unsigned LK = It->second.LoopKind;
      V.Kind = LK;
      V.Dep = LK == K_WIDX ? D_NWARPS : LK == K_SUBRED ? 0 : D_W;
      return V;
    }
    if (It != I.Vars.end() && !It->second.Sources.empty())
      return I.merged(It->second);
    // Constants: their initialiser.
    if (VD->getType().isConstQualified() || VD->isConstexpr()) {
      if (const Expr *Init = VD->getAnyInitializer()) {
        if (ConstDepth > 8)
          return {};
        ++ConstDepth;
        Val V = eval(Init);
        --ConstDepth;
        if (!VD->hasLocalStorage() || !I.Vars.count(VD)) {
          // A named warp width: 'constexpr int kWarpSize = 32'.
          if ((V.Kind & K_LIT32) && warpNameVar(VD)) {
            V.Kind |= K_W;
            V.Dep |= D_W;
            V.Tok = DRE;
            if (Rec)
              I.WUses.push_back({DRE, Ent});
          } else if (V.Tok && (V.Kind & (K_LIT32 | K_LIT31 | K_LIT16 | K_LIT5 |
                                         K_FULL | K_ONE | K_ZERO))) {
            // keep the literal as the token: it is edited where it is written
          }
        }
        V.Kind |= K_CONST;
        return V;
      }
    }
    return {};
  }

  static bool warpNameVar(const VarDecl *VD) {
    return VD->getIdentifier() &&
           Wave64Analysis::Impl::warpName(VD->getName());
  }

  void assignTo(const Expr *LHS, const void *Key, const Val &V,
                const Expr *RHS) {
    const Expr *L = LHS->IgnoreParenImpCasts();
    if (const auto *DRE = dyn_cast<DeclRefExpr>(L)) {
      if (const auto *VD = dyn_cast<VarDecl>(DRE->getDecl())) {
        VarInfo &VI = I.Vars[VD];
        if (!VI.LoopKind)
          I.addSource(VI, Key, V);
        if (RHS && (VD->getType()->isPointerType() ||
                    VD->getType()->isReferenceType()))
          I.addSpace(VI, spaceOf(RHS));
      }
    }
  }

  Val binop(const BinaryOperator *BO);
  /// `n / 32` or `n >> 5` with n a thread count: a count of 32-lane warps
  /// (\p Native: the divisor or shift for 64-lane waves).
  void warpCount(const BinaryOperator *BO, const Val &L, const Val &R, Val &V,
                 uint64_t Native);
  Val unop(const UnaryOperator *UO);
  Val call(const CallExpr *CE);
  Val subscript(const ArraySubscriptExpr *ASE, const Val *Stored);
  bool compare(const BinaryOperator *BO, const Val &L, const Val &R);
  void shuffle(const CallExpr *CE, llvm::StringRef Name,
               const std::vector<Val> &Args);
  void checkMaskArg(const CallExpr *CE, llvm::StringRef Name, const Val &M);
  Val memberCall(const CallExpr *CE, const Expr *Obj, llvm::StringRef Name,
                 unsigned N, const std::vector<Val> &Args);
  void volatileStep(const BinaryOperator *BO);

  // ---- statements ----
public:
  void stmt(const Stmt *S);

private:
  void forStmt(const ForStmt *FS);
  void asmStmt(const GCCAsmStmt *AS);
  void compound(const CompoundStmt *CS);
  void declStmt(const DeclStmt *DS);
  void varDecl(const VarDecl *VD);
  void tileDecl(const DeclaratorDecl *D);
};

} // namespace

Val Walker::eval(const Expr *E) {
  if (!E)
    return {};
  if (const auto *PE = dyn_cast<ParenExpr>(E))
    return eval(PE->getSubExpr());
  if (const auto *CE = dyn_cast<ConstantExpr>(E))
    return eval(CE->getSubExpr());
  if (const auto *M = dyn_cast<MaterializeTemporaryExpr>(E))
    return eval(M->getSubExpr());
  if (const auto *B = dyn_cast<CXXBindTemporaryExpr>(E))
    return eval(B->getSubExpr());
  if (const auto *EWC = dyn_cast<ExprWithCleanups>(E))
    return eval(EWC->getSubExpr());
  if (const auto *CE = dyn_cast<CastExpr>(E))
    return eval(CE->getSubExpr());
  if (const auto *DA = dyn_cast<CXXDefaultArgExpr>(E))
    return peek(DA->getExpr());
  if (const auto *IL = dyn_cast<IntegerLiteral>(E))
    return literal(IL);
  if (isa<CharacterLiteral>(E) || isa<FloatingLiteral>(E) ||
      isa<CXXBoolLiteralExpr>(E))
    return konst(0);
  if (isa<UnaryExprOrTypeTraitExpr>(E))
    return konst(0);
  llvm::StringRef Var, Field;
  if (Wave64Analysis::Impl::builtinMember(E, Var, Field)) {
    Val V;
    if (Var == "threadIdx") {
      V.Dep = D_TID;
      if (Field == "x")
        V.Kind = K_TID;
    } else if (Var == "blockDim") {
      V.Kind = K_BDIM | K_CONST;
    }
    return V;
  }
  if (const auto *POE = dyn_cast<PseudoObjectExpr>(E))
    return eval(POE->getSyntacticForm());
  if (const auto *DRE = dyn_cast<DeclRefExpr>(E))
    return declRef(DRE);
  if (const auto *BO = dyn_cast<BinaryOperator>(E))
    return binop(BO);
  if (const auto *UO = dyn_cast<UnaryOperator>(E))
    return unop(UO);
  if (const auto *CO = dyn_cast<ConditionalOperator>(E)) {
    Val C = eval(CO->getCond());
    bool LW = laneWise(CO->getCond());
    Val T = eval(CO->getTrueExpr()), F2 = eval(CO->getFalseExpr());
    Val V;
    // A choice by the lane numbering (lane == last ? a : b) depends on it;
    // the first warp or lane 0 against the rest does not.
    V.Dep = (LW ? C.Dep : 0) | T.Dep | F2.Dep;
    V.Kind = T.Kind & F2.Kind & (K_MASK | K_CONST);
    return V;
  }
  if (const auto *ASE = dyn_cast<ArraySubscriptExpr>(E))
    return subscript(ASE, nullptr);
  if (const auto *CE = dyn_cast<CallExpr>(E))
    return call(CE);
  if (const auto *LE = dyn_cast<LambdaExpr>(E)) {
    stmt(LE->getBody());
    return {};
  }
  if (const auto *ME = dyn_cast<MemberExpr>(E)) {
    Val B = eval(ME->getBase());
    Val V;
    V.Dep = B.Dep;
    return V;
  }
  Val V;
  for (const Stmt *C : E->children())
    if (const auto *CE = dyn_cast_or_null<Expr>(C))
      V.Dep |= eval(CE).Dep;
    else if (C)
      stmt(C);
  return V;
}

Val Walker::unop(const UnaryOperator *UO) {
  Val S = eval(UO->getSubExpr());
  Val V;
  V.Dep = S.Dep;
  switch (UO->getOpcode()) {
  case UO_Not:
    if (S.Kind & K_ZERO) { // ~0 is the full mask
      V = konst(-1);
      V.Kind |= K_FULL;
      V.Tok = UO;
    } else if (S.Kind & K_MASK)
      V.Kind = K_MASK;
    break;
  case UO_Minus:
    if (S.Kind & K_ONE) {
      V = konst(-1);
      V.Kind |= K_FULL;
      V.Tok = UO;
    } else if (S.HasC)
      V = konst(-S.C);
    break;
  case UO_PreInc:
  case UO_PreDec:
  case UO_PostInc:
  case UO_PostDec: {
    // The variable takes another value: no longer a known constant.
    Val Changed;
    Changed.Dep = S.Dep;
    assignTo(UO->getSubExpr(), UO, Changed, nullptr);
    V = Changed;
    break;
  }
  case UO_Deref: {
    V.Dep = 0;
    Val Dummy;
    if (Rec)
      access(UO, UO->getSubExpr(), S, nullptr, Dummy, nullptr);
    break;
  }
  case UO_LNot:
    V.Kind = 0;
    break;
  case UO_AddrOf:
    V = S;
    V.Kind = 0;
    break;
  default:
    V.Kind = S.Kind & K_CONST;
    break;
  }
  return V;
}

Val Walker::subscript(const ArraySubscriptExpr *ASE, const Val *Stored) {
  Val B = eval(ASE->getBase());
  Val X = eval(ASE->getIdx());
  if (X.Kind & K_WARP)
    if (const VarDecl *VD = rootVar(ASE->getBase()))
      if (VD->hasAttr<CUDASharedAttr>() &&
          I.PerWarp.insert({VD, subscriptDim(ASE)}).second)
        I.Changed = true;
  if (Rec)
    access(ASE, ASE->getBase(), B, ASE->getIdx(), X, Stored);
  // Class 10: positions inside a tensor-core fragment.
  if (Rec && Rel) {
    if (const auto *ME = dyn_cast<MemberExpr>(ASE->getBase()->IgnoreParenImpCasts())) {
      QualType BT = ME->getBase()->IgnoreImpCasts()->getType();
      const CXXRecordDecl *RD = BT->getAsCXXRecordDecl();
      if (RD && RD->getName() == "fragment" && ME->getMemberDecl()->getName() == "x") {
        bool ElementWise = false;
        if (const auto *DRE = dyn_cast<DeclRefExpr>(ASE->getIdx()->IgnoreParenImpCasts()))
          for (const ForStmt *FS : Loops)
            if (FS->getCond() && text(FS->getCond()).find("num_elements") != std::string::npos &&
                FS->getInit() && text(FS->getInit()).find(DRE->getDecl()->getName().str()) != std::string::npos &&
                !(X.Dep & (D_TID | D_LANE)))
              ElementWise = true;
        if (!ElementWise)
          I.hazard(W64Class::TensorFrag, ASE->getBeginLoc(),
                 llvm::formatv("'{0}' reads a tensor-core fragment element by "
                               "position: NVIDIA's m16n16k16 accumulator holds "
                               "8 elements per lane over 32 lanes, AMD's MFMA "
                               "4 per lane over 64 lanes",
                               text(ASE))
                     .str());
      }
    }
  }
  return {};
}

void Walker::checkMaskArg(const CallExpr *CE, llvm::StringRef Name,
                          const Val &M) {
  if (!Rec || !Rel)
    return;
  const Expr *ME = CE->getArg(0);
  if (M.Kind & K_FULL) {
    hazard(W64Class::Mask, ME->getBeginLoc(),
           llvm::formatv("{0}: mask {1} names lanes 0-31 only; a wave has 64 "
                         "lanes and HIP's *_sync forms need a 64-bit mask",
                         Name, text(ME))
               .str());
    return;
  }
  Expr::EvalResult R;
  if (!ME->isValueDependent() && ME->EvaluateAsInt(R, I.Ctx)) {
    hazard(W64Class::Mask, ME->getBeginLoc(),
           llvm::formatv("{0}: mask {1} is a 32-bit lane set: it names a "
                         "subset of a 32-lane warp",
                         Name, text(ME))
               .str());
    block(ME->getBeginLoc(),
          llvm::formatv("{0}: mask {1} names part of a 32-lane warp", Name,
                        text(ME))
              .str());
    return;
  }
  QualType T = ME->IgnoreParenImpCasts()->getType();
  if (!T.isNull() && T->isIntegerType() && I.Ctx.getTypeSize(T) <= 32)
    hazard(W64Class::Mask, ME->getBeginLoc(),
           llvm::formatv("{0}: mask '{1}' is a 32-bit lane set; HIP's *_sync "
                         "forms need a 64-bit mask",
                         Name, text(ME))
               .str());
}

void Walker::shuffle(const CallExpr *CE, llvm::StringRef Name,
                     const std::vector<Val> &Args) {
  bool Sync = Name.ends_with("_sync");
  unsigned B = Sync ? 1 : 0;
  unsigned NArgs = 0;
  for (const Expr *A : CE->arguments())
    NArgs += !isa<CXXDefaultArgExpr>(A);
  if (NArgs < B + 2)
    return;
  if (Rec && !I.SiteStmts.count(CE)) {
    I.SiteStmts.insert(CE);
    W64Site &S = I.site(W64Site::Shuffle, CE,
                        I.entityFor(SM().getSpellingLoc(CE->getBeginLoc()), Ent));
    S.Name = Name.str();
  }
  if (Sync)
    checkMaskArg(CE, Name, Args[0]);
  llvm::StringRef Op = Name.drop_front(2); // shfl_xor_sync
  if (Sync)
    Op = Op.drop_back(5);
  const Val &O = Args[B + 1];
  bool HasWidth = NArgs >= B + 3;
  const Val *W = HasWidth ? &Args[B + 2] : nullptr;
  bool SubWarp = false;
  if (W) {
    if (is32(*W))
      claim(*W, 64, "shuffle width");
    else if (W->HasC && W->C > 0 && W->C < 32 && !(W->C & (W->C - 1)))
      SubWarp = true;
    else
      block(CE->getArg(B + 2)->getBeginLoc(),
            llvm::formatv("{0}: width '{1}' is not the warp width or a "
                          "power of two below 32",
                          Name, text(CE->getArg(B + 2)))
                .str());
  }
  const Expr *OE = CE->getArg(B + 1);
  auto Bad = [&](llvm::StringRef What) {
    block(OE->getBeginLoc(),
          llvm::formatv("{0}({1}): {2}", Name, text(OE), What).str());
  };
  bool InChain = I.ChainOK.count(CE);
  if (Op == "shfl_xor") {
    if (!((O.HasC && O.C >= 0 && O.C < 32) || (O.Kind & (K_RED | K_SUBRED)) ||
          SubWarp || InChain))
      Bad("a lane-mask operand that is not a reduction offset changes "
          "partners under 64-lane warps");
    if (!W && !(O.HasC && O.C < 32) && !(O.Kind & (K_RED | K_SUBRED)))
      hazard(W64Class::ShflWidth, CE->getBeginLoc(),
             llvm::formatv("{0}: the default width is the 64-lane wave in HIP; "
                           "a lane mask of 32 or more reads the other half",
                           Name)
                 .str());
  } else if (Op == "shfl_down") {
    if (!((O.Kind & K_RED) || SubWarp || InChain))
      Bad("outside a full-warp reduction, lanes near the end of a 32-lane "
          "warp read the next warp under 64-lane warps");
    if (!W)
      hazard(W64Class::ShflWidth, CE->getBeginLoc(),
             llvm::formatv("{0}: the default width is the 64-lane wave in HIP: "
                           "lanes 32-d..31 read the upper half instead of "
                           "keeping their own value",
                           Name)
                 .str());
  } else if (Op == "shfl_up") {
    if (!((O.Kind & K_SCAN) || SubWarp))
      Bad("outside a full-warp scan, lanes 32..31+d read the lower half "
          "under 64-lane warps");
    if (!W)
      hazard(W64Class::ShflWidth, CE->getBeginLoc(),
             llvm::formatv("{0}: the default width is the 64-lane wave in HIP: "
                           "lanes 32..31+d read the lower half",
                           Name)
                 .str());
  } else if (Op == "shfl") {
    if (O.Kind & K_ZERO) {
    } else if (is31(O)) {
      claim(O, 63, "source lane (the last lane)");
    } else if ((O.Kind & K_LANE) && !(O.Dep & ~(D_LANE | D_MASK))) {
      // __ffs(mask) - 1: the first lane of a mask
    } else if (!SubWarp)
      Bad("a source lane computed for 32-lane warps");
    if (!W)
      hazard(W64Class::ShflWidth, CE->getBeginLoc(),
             llvm::formatv("{0}: the default width is the 64-lane wave in HIP: "
                           "the broadcast reaches lanes 32-63 too",
                           Name)
                 .str());
  }
}

Val Walker::memberCall(const CallExpr *CE, const Expr *Obj,
                       llvm::StringRef Name, unsigned N,
                       const std::vector<Val> &Args) {
  Val V;
  if (Name == "thread_rank") {
    V.Dep = D_LANE;
    V.Kind = N == 32 ? K_LANE : 0;
    if (N == 32)
      hazard(W64Class::LaneArith, CE->getBeginLoc(),
             "tile.thread_rank() of a 32-thread tile: two tiles share a "
             "64-lane wave");
  } else if (Name == "meta_group_rank") {
    V.Dep = D_WARP;
    V.Kind = N == 32 ? K_WARP : 0;
  } else if (Name == "meta_group_size") {
    V.Dep = D_NWARPS;
    V.Kind = N == 32 ? K_NWARPS : 0;
  } else if (Name == "size" || Name == "num_threads") {
    V = konst(N);
    if (N == 32) {
      V.Kind |= K_W | K_LIT32;
      V.Dep |= D_W;
      V.Tok = CE;
    }
  } else if (Name == "ballot" || Name == "match_any" || Name == "match_all") {
    V.Dep = D_MASK;
    V.Kind = K_MASK;
  } else if (Name.starts_with("shfl")) {
    // Same checks as the intrinsic with an explicit width of N.
    if (Args.size() >= 2) {
      const Val &O = Args[1];
      bool Full = N == 32;
      if (Full) {
        if ((Name == "shfl_down" && !(O.Kind & K_RED)) ||
            (Name == "shfl_up" && !(O.Kind & K_SCAN)) ||
            (Name == "shfl_xor" && !((O.HasC && O.C < 32) || (O.Kind & (K_RED | K_SUBRED)))) ||
            (Name == "shfl" && !(O.Kind & K_ZERO) && !is31(O)))
          block(CE->getBeginLoc(),
                llvm::formatv("'{0}' exchanges values in a pattern laid out "
                              "for 32-lane tiles",
                              text(CE))
                    .str());
        if (Name == "shfl" && is31(O))
          claim(O, 63, "source lane (the last lane)");
      }
    }
  }
  return V;
}

Val Walker::call(const CallExpr *CE) {
  llvm::StringRef Name = calleeName(CE);
  // Member calls on cooperative-groups tiles.
  const Expr *Obj = nullptr;
  if (const auto *MC = dyn_cast<CXXMemberCallExpr>(CE))
    Obj = MC->getImplicitObjectArgument();
  else if (const auto *ME = dyn_cast<MemberExpr>(CE->getCallee()->IgnoreParenImpCasts()))
    Obj = ME->getBase();
  std::vector<Val> Args;
  if (Obj && !isa<CXXOperatorCallExpr>(CE))
    eval(Obj);
  for (const Expr *A : CE->arguments())
    Args.push_back(eval(A));
  if (isa<CXXOperatorCallExpr>(CE)) {
    Val V;
    for (const Val &X : Args)
      V.Dep |= X.Dep;
    // operator= on class types
    const auto *OC = cast<CXXOperatorCallExpr>(CE);
    if (OC->getOperator() == OO_Equal && OC->getNumArgs() == 2)
      assignTo(OC->getArg(0), OC, Args[1], OC->getArg(1));
    return V;
  }
  unsigned TileN = 0;
  if (Obj && tileOf(Obj, TileN))
    return memberCall(CE, Obj, Name, TileN, Args);

  if (isShuffleName(Name)) {
    shuffle(CE, Name, Args);
    return {};
  }
  if (isWmmaCall(CE)) {
    block(CE->getBeginLoc(),
          "it uses tensor-core fragments, whose warp-to-tile mapping the "
          "MFMA rules port");
    return {};
  }
  if (isVoteName(Name)) {
    bool Sync = Name.ends_with("_sync");
    if (Rec && !I.SiteStmts.count(CE)) {
      I.SiteStmts.insert(CE);
      W64Site &S = I.site(W64Site::Vote, CE,
                          I.entityFor(SM().getSpellingLoc(CE->getBeginLoc()), Ent));
      S.Name = Name.str();
    }
    if (Sync && !Args.empty())
      checkMaskArg(CE, Name, Args[0]);
    Val V;
    if (Name == "__ballot_sync" || Name == "__ballot" || Name == "__activemask") {
      V.Dep = D_MASK;
      V.Kind = K_MASK;
    }
    return V;
  }
  if (Name == "__syncwarp") {
    if (Rec && !I.SiteStmts.count(CE)) {
      I.SiteStmts.insert(CE);
      W64Site &S = I.site(W64Site::SyncWarp, CE,
                          I.entityFor(SM().getSpellingLoc(CE->getBeginLoc()), Ent));
      S.Name = Name.str();
    }
    if (!Args.empty() && !isa<CXXDefaultArgExpr>(CE->getArg(0)))
      checkMaskArg(CE, Name, Args[0]);
    return {};
  }
  if (isUnsupportedWarpName(Name)) {
    if (Rec && !I.SiteStmts.count(CE)) {
      I.SiteStmts.insert(CE);
      W64Site &S = I.site(W64Site::Unsupported, CE, Ent);
      S.Name = Name.str();
    }
    if (!Args.empty() && Name.ends_with("_sync"))
      checkMaskArg(CE, Name, Args[0]);
    block(CE->getBeginLoc(),
          llvm::formatv("{0} has no counterpart in HIP before ROCm 6.2", Name)
              .str());
    Val V;
    if (Name.starts_with("__match")) {
      V.Dep = D_MASK;
      V.Kind = K_MASK;
    }
    return V;
  }
  if ((Name == "__popc" || Name == "__ffs" || Name == "__clz" ||
       Name == "__brev") &&
      Args.size() == 1 && (Args[0].Dep & D_MASK)) {
    const Expr *Callee = CE->getCallee()->IgnoreParenImpCasts();
    if (Name == "__brev") {
      block(CE->getBeginLoc(), "__brev reverses a 32-bit lane mask");
      hazard(W64Class::Ballot, CE->getBeginLoc(),
             "__brev of a lane mask reverses 32 lanes");
      return {};
    }
    std::string New = Name == "__popc" ? "__popcll"
                      : Name == "__ffs" ? "__ffsll"
                                        : "(__clzll";
    if (Rec) {
      I.tokenSite(Callee, Ent, New, RuleId::PK2022,
                  llvm::formatv("{0} of a 64-bit lane mask is {1}", Name,
                                Name == "__clz" ? "__clzll - 32" : New)
                      .str());
      if (Name == "__clz") {
        // close the parenthesis: (__clzll(x) - 32)
        SourceLocation RP = SM().getSpellingLoc(CE->getRParenLoc());
        if (I.Src.isUserLoc(RP)) {
          W64Site &S = I.site(W64Site::Token, nullptr,
                              I.entityFor(RP, Ent));
          S.Loc = RP.getLocWithOffset(1);
          S.Len = 0;
          S.Native = " - 32)";
          S.Rule = RuleId::PK2022;
          S.Why = "__clz(m) counts from bit 31: __clzll(m) - 32 counts from "
                  "bit 31 of the 64-bit mask's high end";
        }
      }
      hazard(W64Class::Ballot, CE->getBeginLoc(),
             llvm::formatv("{0}({1}) on a lane mask: 32-bit {0} sees lanes "
                           "0-31 only",
                           Name, text(CE->getArg(0)))
                 .str());
    }
    Val V;
    if (Name == "__popc") {
      V.Dep = (Args[0].Kind & K_BELOW) ? D_RANK : D_COUNT;
      V.Kind = (Args[0].Kind & K_BELOW) ? K_RANK : K_COUNT;
    } else if (Name == "__ffs") {
      V.Dep = D_LANE;
      V.Kind = K_FFS;
    } else {
      V.Dep = D_LANE;
      V.Kind = K_CLZ;
    }
    return V;
  }
  if (Name == "reduce" && CE->getNumArgs() == 3) {
    unsigned N = 0;
    if (tileOf(CE->getArg(0), N)) {
      if (Rec && !I.SiteStmts.count(CE)) {
        I.SiteStmts.insert(CE);
        W64Site &S = I.site(W64Site::CgReduce, CE,
                            I.entityFor(SM().getSpellingLoc(CE->getBeginLoc()), Ent));
        S.Name = "reduce";
      }
      return {};
    }
  }
  if (Name == "tiled_partition") {
    // cg::tiled_partition<N>(g): the tile helper.
    if (Rec && !I.SiteStmts.count(CE)) {
      I.SiteStmts.insert(CE);
      unsigned N = 0;
      if (const auto *FD2 = CE->getDirectCallee())
        if (const TemplateArgumentList *TA = FD2->getTemplateSpecializationArgs())
          if (TA->size() >= 1 && TA->get(0).getKind() == TemplateArgument::Integral)
            N = TA->get(0).getAsIntegral().getZExtValue();
      if (N) {
        W64Site &S = I.site(W64Site::CgTile, CE,
                            I.entityFor(SM().getSpellingLoc(CE->getBeginLoc()), Ent));
        S.Name = std::to_string(N);
        S.Loc = SM().getSpellingLoc(CE->getBeginLoc());
        S.End = SM().getSpellingLoc(CE->getEndLoc());
        if (N == 32)
          hazard(W64Class::LaneArith, CE->getBeginLoc(),
                 "tiled_partition<32>: two 32-thread tiles share one 64-lane "
                 "wave; HIP before ROCm 6 has no tile votes");
      }
    }
    return {};
  }
  // User functions: arguments flow into parameters.
  const FunctionDecl *Callee = canonFn(CE->getDirectCallee());
  std::vector<const FunctionDecl *> Targets;
  if (Callee && I.Fns.count(Callee))
    Targets.push_back(Callee);
  else if (!Callee && !Name.empty()) {
    auto It = I.ByName.find(Name.str());
    if (It != I.ByName.end())
      Targets = It->second;
  }
  if (!Targets.empty()) {
    Val R;
    for (const FunctionDecl *T : Targets) {
      for (unsigned K = 0; K < T->getNumParams() && K < Args.size(); ++K) {
        const ParmVarDecl *P = T->getParamDecl(K);
        VarInfo &VI = I.Vars[P];
        I.addSource(VI, CE->getArg(K), Args[K]);
        if (P->getType()->isPointerType() || P->getType()->isReferenceType())
          I.addSpace(VI, spaceOf(CE->getArg(K)));
      }
      auto RI = I.Rets.find(T);
      if (RI != I.Rets.end() && !RI->second.Sources.empty()) {
        Val X = I.merged(RI->second);
        R.Dep |= X.Dep;
        R.Kind = X.Kind;
      }
    }
    return R;
  }
  Val V;
  for (const Val &X : Args)
    V.Dep |= X.Dep;
  if (Name == "min" || Name == "max") {
    // min(x, W) and friends keep the constness
    bool AllC = true;
    for (const Val &X : Args)
      AllC &= (X.Kind & K_CONST) != 0;
    if (AllC)
      V.Kind |= K_CONST;
  }
  return V;
}

bool Walker::compare(const BinaryOperator *BO, const Val &L0, const Val &R0) {
  Val L = L0, R = R0;
  BinaryOperatorKind Op = BO->getOpcode();
  // Put the lane/warp operand on the left.
  auto Tagged = [](const Val &V) { return (V.Dep & D_CMP) != 0; };
  if (!Tagged(L) && Tagged(R)) {
    std::swap(L, R);
    Op = BinaryOperator::reverseComparisonOp(Op);
  }
  if (!Tagged(L)) {
    // tid < W (the first warp), s > W (a shared-memory tree down to a warp)
    const Val *W = is32(R) ? &R : is32(L) ? &L : nullptr;
    const Val *O = W == &R ? &L : &R;
    if (W) {
      bool Tree = false;
      if (!Loops.empty() && Loops.back()->getCond() &&
          Loops.back()->getCond()->IgnoreParenImpCasts() == BO) {
        if (const auto *DRE = dyn_cast<DeclRefExpr>(
                (W == &R ? BO->getLHS() : BO->getRHS())->IgnoreParenImpCasts())) {
          const Expr *Inc = Loops.back()->getInc();
          std::string IT = Inc ? text(Inc) : "";
          llvm::StringRef IS(IT);
          Tree = IS.contains(DRE->getDecl()->getName()) &&
                 (IS.contains(">>=") || IS.contains("/=") || IS.contains(">> 1") ||
                  IS.contains("/ 2"));
        }
      }
      if ((O->Kind & K_TID) || Tree)
        claim(*W, 64, Tree ? "bound of a shared-memory tree down to one warp"
                           : "threads of the first warp");
    }
    return true;
  }
  bool Good = false;
  if (L.Kind & K_LANE) {
    if (R.Kind & K_ZERO)
      Good = true;
    else if (is31(R)) {
      claim(R, 63, "the last lane");
      Good = true;
    } else if (R.Kind & (K_NWARPS | K_SCAN | K_RED | K_LANE))
      Good = true;
  } else if (L.Kind & (K_WARP | K_WIDX)) {
    if ((R.Kind & (K_ZERO | K_NWARPS)) || (R.HasC && R.C == 1 && Op == BO_GE))
      Good = true;
  } else if (L.Kind & K_MASK) {
    if (R.Kind & (K_ZERO | K_MASK))
      Good = true;
    else if (R.Kind & K_FULL) {
      if (R.Tok)
        I.tokenSite(R.Tok, Ent, "0xffffffffffffffffull", RuleId::PK2022,
                    "a full 64-lane wave's mask has 64 bits set");
      hazard(W64Class::Ballot, BO->getOperatorLoc(),
             llvm::formatv("'{0}' compares a lane mask with 0xffffffff: on a "
                           "64-lane wave that is not \"every lane\"",
                           text(BO))
                 .str());
      Good = true;
    }
  } else if (L.Kind & K_COUNT) {
    if (R.Kind & K_ZERO)
      Good = true;
    else if (is32(R)) {
      claim(R, 64, "lanes of a full warp");
      Good = true;
    }
  } else if (!(L.Dep & ~D_NWARPS & D_CMP) && (R.Kind & K_NWARPS)) {
    Good = true;
  } else if ((L.Dep & D_NWARPS) && !(L.Dep & ~D_NWARPS & D_CMP) &&
             !(R.Dep & D_CMP)) {
    // nwarps compared with a constant: depends on the warp count
  }
  if (!Good)
    block(BO->getOperatorLoc(),
          llvm::formatv("'{0}' depends on the 32-lane warp numbering",
                        text(BO))
              .str());
  return Good;
}

void Walker::warpCount(const BinaryOperator *BO, const Val &L, const Val &R,
                       Val &V, uint64_t Native) {
  V.Dep = (V.Dep & ~D_W) | D_NWARPS;
  V.Kind = K_NWARPS | K_CONST;
  claim(R, Native, "warps per block");
  if (L.Kind & K_RUP) {
    Val T;
    T.Tok = L.Tok2;
    T.Kind = K_LIT31;
    claim(T, 63, "rounding up to whole warps");
  }
  hazard(W64Class::LaneArith, BO->getOperatorLoc(),
         llvm::formatv("'{0}' counts 32-lane warps; a 64-lane wave holds "
                       "two of them",
                       text(BO))
             .str());
}

Val Walker::binop(const BinaryOperator *BO) {
  BinaryOperatorKind Op = BO->getOpcode();
  if (BO->isAssignmentOp()) {
    Val R = eval(BO->getRHS());
    const Expr *LHS = BO->getLHS()->IgnoreParenImpCasts();
    Val Stored = R;
    if (Op != BO_Assign) {
      Val L = peek(LHS);
      Stored.Dep |= L.Dep;
      Stored.Kind = 0;
      Stored.Tok = nullptr;
      if ((Op == BO_AndAssign || Op == BO_OrAssign || Op == BO_XorAssign) &&
          (L.Kind & K_MASK) && (R.Kind & K_MASK))
        Stored.Kind = K_MASK;
    }
    if (const auto *ASE = dyn_cast<ArraySubscriptExpr>(LHS))
      subscript(ASE, &Stored);
    else if (const auto *UO = dyn_cast<UnaryOperator>(LHS);
             UO && UO->getOpcode() == UO_Deref) {
      Val P = eval(UO->getSubExpr());
      Val None;
      access(UO, UO->getSubExpr(), P, nullptr, None, &Stored);
    } else if (isa<DeclRefExpr>(LHS))
      assignTo(LHS, BO, Stored, Op == BO_Assign ? BO->getRHS() : nullptr);
    else
      eval(LHS);
    if (Rec)
      volatileStep(BO);
    return Stored;
  }
  Val L = eval(BO->getLHS());
  Val R = eval(BO->getRHS());
  Val V;
  V.Dep = L.Dep | R.Dep;
  if ((L.Kind & K_CONST) && (R.Kind & K_CONST))
    V.Kind = K_CONST;
  auto lane = [&](const Val &Lit, uint64_t Native, const char *Msg) {
    V.Dep = (V.Dep & ~(D_TID | D_W)) | D_LANE;
    V.Kind = K_LANE;
    claim(Lit, Native, "lane id");
    hazard(W64Class::LaneArith, BO->getOperatorLoc(),
           llvm::formatv("lane id '{0}' {1}: two 32-lane warps share a "
                         "64-lane wave, so votes and shuffles combine both",
                         text(BO), Msg)
               .str());
  };
  auto warp = [&](const Val &Lit, uint64_t Native) {
    V.Dep = (V.Dep & ~(D_TID | D_W)) | D_WARP;
    V.Kind = K_WARP;
    claim(Lit, Native, "warp id");
    hazard(W64Class::LaneArith, BO->getOperatorLoc(),
           llvm::formatv("warp id '{0}' counts 32-lane warps; a 64-lane wave "
                         "holds two of them",
                         text(BO))
               .str());
  };
  switch (Op) {
  case BO_And:
    if (tidish(L) && is31(R))
      lane(R, 63, "assumes 32-lane warps");
    else if (tidish(R) && is31(L))
      lane(L, 63, "assumes 32-lane warps");
    else if ((L.Kind & K_MASK) && (R.Kind & (K_MASK | K_FULL))) {
      V.Kind = K_MASK | ((L.Kind | R.Kind) & K_BELOW);
    } else if ((R.Kind & K_MASK) && (L.Kind & (K_MASK | K_FULL))) {
      V.Kind = K_MASK | ((L.Kind | R.Kind) & K_BELOW);
    } else if (((L.Dep | R.Dep) & D_MASK)) {
      const Val &O = (L.Dep & D_MASK) ? R : L;
      if (!(O.Kind & K_ONE))
        block(BO->getOperatorLoc(),
              llvm::formatv("'{0}' selects bits of a lane mask laid out for "
                            "32 lanes",
                            text(BO))
                  .str());
    }
    break;
  case BO_Or:
  case BO_Xor:
    if ((L.Kind & K_MASK) && (R.Kind & K_MASK))
      V.Kind = K_MASK;
    else if ((L.Dep | R.Dep) & D_MASK)
      block(BO->getOperatorLoc(),
            llvm::formatv("'{0}' combines a lane mask with a 32-bit constant",
                          text(BO))
                .str());
    break;
  case BO_Rem:
    if (tidish(L) && is32(R))
      lane(R, 64, "assumes 32-lane warps");
    break;
  case BO_Div:
    if (tidish(L) && is32(R))
      warp(R, 64);
    else if (is32(L) && R.HasC && R.C == 2) {
      V.Kind = K_HALFW | K_CONST;
      V.Dep |= D_W;
      V.Tok = L.Tok;
      V.HasC = true;
      V.C = 16;
    } else if (is32(R) && !(L.Dep & (D_TID | D_LANE | D_WARP | D_MASK)) &&
               (L.Kind & (K_CONST | K_BDIM | K_RUP))) {
      warpCount(BO, L, R, V, 64);
    }
    break;
  case BO_Shr:
    if (tidish(L) && (R.Kind & K_LIT5))
      warp(R, 6);
    else if ((R.Kind & K_LIT5) && !(L.Dep & (D_TID | D_LANE | D_WARP | D_MASK)) &&
             (L.Kind & (K_BDIM | K_RUP))) {
      warpCount(BO, L, R, V, 6);
    }
    else if ((L.Kind & K_MASK) && (R.Kind & K_LANE))
      ; // bit test: (mask >> lane) & 1
    else if (L.Dep & D_MASK)
      block(BO->getOperatorLoc(),
            llvm::formatv("'{0}' shifts a lane mask laid out for 32 lanes",
                          text(BO))
                .str());
    break;
  case BO_Shl:
    if ((L.Kind & (K_ONE | K_FULL)) && (R.Kind & K_LANE)) {
      V.Dep = D_MASK | (R.Dep & ~(D_LANE));
      V.Kind = K_MASK | ((L.Kind & K_ONE) ? K_LANEBIT : 0);
      if (L.Tok && Rec) {
        std::string T = I.tokText(SM().getSpellingLoc(L.Tok->getBeginLoc()));
        bool Upper = llvm::StringRef(T).contains('U') || llvm::StringRef(T).contains('L');
        std::string New = (L.Kind & K_ONE) ? (Upper ? "1ULL" : "1ull")
                                           : "0xffffffffffffffffull";
        if (Rel)
          I.tokenSite(L.Tok, Ent, New, RuleId::PK2022,
                      "a lane bit of a 64-lane wave needs a 64-bit shift");
        hazard(W64Class::LaneBits, BO->getOperatorLoc(),
               llvm::formatv("'{0}' is a 32-bit lane bit: lanes 32-63 of a "
                             "64-lane wave do not fit",
                             text(BO))
                   .str());
      }
    } else if (L.Dep & D_MASK)
      block(BO->getOperatorLoc(),
            llvm::formatv("'{0}' shifts a lane mask laid out for 32 lanes",
                          text(BO))
                .str());
    break;
  case BO_Sub:
    if ((L.Kind & K_LANEBIT) && (R.Kind & K_ONE)) {
      V.Kind = K_MASK | K_BELOW;
      V.Dep = D_MASK | (V.Dep & ~D_MASK);
    } else if ((L.Kind & K_MASK) && (R.Kind & K_ONE)) {
      V.Kind = K_MASK;
    } else if ((L.Kind & K_FFS) && (R.Kind & K_ONE)) {
      V.Kind = K_LANE;
      V.Dep = D_LANE | D_MASK;
      hazard(W64Class::LaneBits, BO->getOperatorLoc(),
             llvm::formatv("'{0}' turns a 32-bit lane mask into a lane index",
                           text(BO))
                 .str());
    } else if ((L.Kind & K_LIT31) && (R.Kind & K_CLZ)) {
      V.Kind = K_LANE;
      V.Dep = D_LANE | D_MASK;
    } else if (is32(L) && (R.Kind & K_ONE)) {
      V.Kind = K_W1 | K_CONST;
      V.Dep |= D_W;
      V.Tok = L.Tok;
      V.HasC = true;
      V.C = 31;
    } else if ((L.Kind & (K_WARP | K_WIDX)) && (R.Kind & K_CONST)) {
      V.Kind = K_WARPM1;
    } else if (L.HasC && R.HasC) {
      V.HasC = true;
      V.C = L.C - R.C;
    }
    break;
  case BO_Add:
    if (((L.Kind & K_TID) && !(R.Dep & (D_UNSAFE & ~D_W))) ||
        ((R.Kind & K_TID) && !(L.Dep & (D_UNSAFE & ~D_W))))
      V.Kind |= K_GTID;
    if ((L.Kind & (K_CONST | K_BDIM)) && is31(R) && !(L.Dep & D_TID)) {
      V.Kind = K_RUP | K_CONST;
      V.Tok2 = R.Tok;
    } else if (L.HasC && R.HasC) {
      V.HasC = true;
      V.C = L.C + R.C;
    }
    break;
  case BO_Mul:
    if (L.HasC && R.HasC) {
      V.HasC = true;
      V.C = L.C * R.C;
    }
    break;
  case BO_LT:
  case BO_GT:
  case BO_LE:
  case BO_GE:
  case BO_EQ:
  case BO_NE:
    // An accepted test of a mask or a count is the same under both
    // strategies (mask == 0, mask == all lanes, count == warp width).
    if (compare(BO, L, R))
      V.Dep &= ~(D_MASK | D_COUNT | D_RANK);
    V.Kind = 0;
    break;
  case BO_Comma:
    V = R;
    break;
  default:
    V.Kind &= K_CONST;
    break;
  }
  if (!(V.Kind & K_CONST))
    V.HasC = V.HasC && (V.Kind & (K_HALFW | K_W1));
  // Thread or block arithmetic with 32, 31 or 5 that is none of the idioms
  // above: native warps cannot tell what it means.
  if (Rec && Rel && !(V.Kind & (K_LANE | K_WARP | K_NWARPS | K_HALFW | K_W1 | K_MASK)) &&
      (Op == BO_Div || Op == BO_Rem || Op == BO_Shr || Op == BO_And ||
       Op == BO_Mul || Op == BO_Shl)) {
    auto ThreadOrBlock = [](const Val &X) {
      return (X.Kind & (K_TID | K_GTID | K_BDIM)) != 0;
    };
    auto WarpConst = [&](const Val &X) {
      return (X.Kind & (K_LIT32 | K_LIT31 | K_W | K_W1)) ||
             ((X.Kind & K_LIT5) && (Op == BO_Shr || Op == BO_Shl));
    };
    if ((ThreadOrBlock(L) && WarpConst(R)) || (ThreadOrBlock(R) && WarpConst(L)))
      block(BO->getOperatorLoc(),
            llvm::formatv("'{0}' mixes the thread index or block size with "
                          "the warp width in a way native warps do not widen",
                          text(BO))
                .str());
  }
  return V;
}

void Walker::volatileStep(const BinaryOperator *BO) {
  // vs[i] op= vs[j] / vs[i] = f(vs[i], vs[j]) on volatile shared memory.
  const auto *L = dyn_cast<ArraySubscriptExpr>(BO->getLHS()->IgnoreParenImpCasts());
  if (!L)
    return;
  QualType ET = L->getType();
  if (!ET.isVolatileQualified())
    return;
  const VarDecl *VD = rootVar(L->getBase());
  if (!VD)
    return;
  Space S = spaceOf(L->getBase());
  if (S != Space::Shared && !isa<ParmVarDecl>(VD))
    return;
  bool CrossRead = false;
  std::string LT = text(L->getIdx());
  std::function<void(const Stmt *)> Find = [&](const Stmt *X) {
    if (!X)
      return;
    if (const auto *A = dyn_cast<ArraySubscriptExpr>(X))
      if (rootVar(A->getBase()) == VD && text(A->getIdx()) != LT)
        CrossRead = true;
    for (const Stmt *C : X->children())
      Find(C);
  };
  Find(BO->getRHS());
  if (!CrossRead)
    return;
  if (!I.SiteStmts.insert(BO).second)
    return;
  W64Site &X = I.site(W64Site::VolatileStep, BO,
                      I.entityFor(SM().getSpellingLoc(BO->getBeginLoc()), Ent));
  X.Name = VD->getName().str();
  I.hazard(W64Class::WarpSync, BO->getBeginLoc(),
           llvm::formatv("'{0}' reads another lane's volatile shared-memory "
                         "slot and writes its own with no __syncwarp: "
                         "implicit warp-synchronous code",
                         text(BO))
               .str());
  block(BO->getBeginLoc(),
        llvm::formatv("warp-synchronous step '{0}' is unrolled for 32 lanes",
                      text(BO))
            .str());
}

// ---- statements -------------------------------------------------------------

void Walker::stmt(const Stmt *S) {
  if (!S)
    return;
  if (const auto *E = dyn_cast<Expr>(S)) {
    eval(E);
    return;
  }
  if (const auto *CS = dyn_cast<CompoundStmt>(S))
    return compound(CS);
  if (const auto *DS = dyn_cast<DeclStmt>(S))
    return declStmt(DS);
  if (const auto *FS = dyn_cast<ForStmt>(S))
    return forStmt(FS);
  if (const auto *AS = dyn_cast<GCCAsmStmt>(S))
    return asmStmt(AS);
  if (const auto *RS = dyn_cast<ReturnStmt>(S)) {
    Val V = eval(RS->getRetValue());
    if (RS->getRetValue())
      I.addSource(I.Rets[FD], RS, V);
    return;
  }
  if (const auto *IS = dyn_cast<IfStmt>(S)) {
    stmt(IS->getInit());
    if (IS->getConditionVariableDeclStmt())
      stmt(IS->getConditionVariableDeclStmt());
    eval(IS->getCond());
    bool LW = laneWise(IS->getCond());
    if (LW)
      LaneConds.push_back(IS->getCond());
    stmt(IS->getThen());
    stmt(IS->getElse());
    if (LW)
      LaneConds.pop_back();
    return;
  }
  if (const auto *WS = dyn_cast<WhileStmt>(S)) {
    eval(WS->getCond());
    stmt(WS->getBody());
    return;
  }
  if (const auto *DS = dyn_cast<DoStmt>(S)) {
    stmt(DS->getBody());
    eval(DS->getCond());
    return;
  }
  if (const auto *SS = dyn_cast<SwitchStmt>(S)) {
    Val C = eval(SS->getCond());
    if (C.Dep & D_CMP)
      block(SS->getBeginLoc(), "a switch on the lane or warp id");
    stmt(SS->getBody());
    return;
  }
  if (const auto *RF = dyn_cast<CXXForRangeStmt>(S)) {
    eval(RF->getRangeInit());
    stmt(RF->getBody());
    return;
  }
  for (const Stmt *C : S->children())
    stmt(C);
}

void Walker::declStmt(const DeclStmt *DS) {
  for (const Decl *D : DS->decls()) {
    if (const auto *VD = dyn_cast<VarDecl>(D))
      varDecl(VD);
    else if (const auto *SA = dyn_cast<StaticAssertDecl>(D)) {
      // static_assert(BLOCK % 32 == 0): whole warps
      std::function<void(const Expr *)> Walk = [&](const Expr *E) {
        if (!E)
          return;
        E = E->IgnoreParenImpCasts();
        if (const auto *BO = dyn_cast<BinaryOperator>(E)) {
          if (BO->getOpcode() == BO_Rem) {
            Val R = peek(BO->getRHS());
            if (is32(R))
              claim(R, 64, "whole warps per block");
          }
          Walk(BO->getLHS());
          Walk(BO->getRHS());
          return;
        }
        eval(E);
      };
      Walk(SA->getAssertExpr());
    }
  }
}

void Walker::tileDecl(const DeclaratorDecl *D) {
  unsigned N = 0;
  if (!Rec || !tileType(D->getType(), N) || !N)
    return;
  TypeSourceInfo *TSI = D->getTypeSourceInfo();
  if (!TSI)
    return;
  TypeLoc TL = TSI->getTypeLoc();
  for (int G = 0; G < 4; ++G) {
    if (auto R = TL.getAs<ReferenceTypeLoc>())
      TL = R.getPointeeLoc();
    else if (auto P = TL.getAs<PointerTypeLoc>())
      TL = P.getPointeeLoc();
    else if (auto Q = TL.getAs<QualifiedTypeLoc>())
      TL = Q.getUnqualifiedLoc();
    else
      break;
  }
  if (TL.getAs<AutoTypeLoc>())
    return;
  SourceRange R = TL.getSourceRange();
  SourceLocation B = SM().getSpellingLoc(R.getBegin());
  SourceLocation E = SM().getSpellingLoc(R.getEnd());
  if (!I.Src.isUserLoc(B) || SM().getFileID(B) != SM().getFileID(E))
    return;
  std::string File = I.Src.fileOf(B);
  if (!I.TokenAt.insert({File, SM().getFileOffset(B)}).second)
    return;
  W64Site &S = I.site(W64Site::CgTile, nullptr, I.entityFor(B, Ent));
  S.Name = std::to_string(N);
  S.Loc = B;
  S.End = E;
}

void Walker::varDecl(const VarDecl *VD) {
  tileDecl(VD);
  // Array sizes: warpCounts[THREADS / 32].
  if (TypeSourceInfo *TSI = VD->getTypeSourceInfo()) {
    TypeLoc TL = TSI->getTypeLoc();
    for (int Guard = 0; !TL.isNull() && Guard < 8; ++Guard) {
      if (auto AT = TL.getAs<ArrayTypeLoc>()) {
        if (AT.getSizeExpr()) {
          Val SV = eval(AT.getSizeExpr());
          // A larger array is harmless: widen warp-width sizes.
          if (SV.Kind & K_W)
            claim(SV, 64, "array size");
        }
        TL = AT.getElementLoc();
      } else
        TL = TL.getNextTypeLoc();
    }
  }
  if (const Expr *Init = VD->getInit()) {
    Val V = eval(Init);
    VarInfo &VI = I.Vars[VD];
    if (!VI.LoopKind)
      I.addSource(VI, VD, V);
    if (VD->getType()->isPointerType() || VD->getType()->isReferenceType())
      I.addSpace(VI, spaceOf(Init));
  }
}

void Walker::compound(const CompoundStmt *CS) {
  // Unrolled shuffle chains: v += __shfl_down_sync(m, v, 16); ... (8, 4, 2, 1)
  if (Rec) {
    std::vector<const Stmt *> Body(CS->body_begin(), CS->body_end());
    auto ConstShfl = [&](const Stmt *S, int64_t &Off) -> const CallExpr * {
      const CallExpr *Found = nullptr;
      int N = 0;
      std::function<void(const Stmt *)> F = [&](const Stmt *X) {
        if (!X)
          return;
        if (const auto *CE = dyn_cast<CallExpr>(X)) {
          llvm::StringRef Nm = calleeName(CE);
          if (Nm == "__shfl_down_sync" || Nm == "__shfl_xor_sync" ||
              Nm == "__shfl_down" || Nm == "__shfl_xor") {
            ++N;
            Found = CE;
          }
        }
        for (const Stmt *C : X->children())
          F(C);
      };
      F(S);
      if (N != 1)
        return nullptr;
      unsigned B = calleeName(Found).ends_with("_sync") ? 1 : 0;
      if (Found->getNumArgs() < B + 2)
        return nullptr;
      Expr::EvalResult R;
      const Expr *OE = Found->getArg(B + 1);
      if (OE->isValueDependent() || !OE->EvaluateAsInt(R, I.Ctx))
        return nullptr;
      Off = R.Val.getInt().getExtValue();
      return Found;
    };
    for (size_t K = 0; K + 4 < Body.size(); ++K) {
      int64_t O0;
      const CallExpr *C0 = ConstShfl(Body[K], O0);
      if (!C0 || O0 != 16)
        continue;
      std::vector<const CallExpr *> Chain{C0};
      int64_t Want = 8;
      size_t J = K + 1;
      for (; J < Body.size() && Want >= 1; ++J, Want /= 2) {
        int64_t O;
        const CallExpr *C = ConstShfl(Body[J], O);
        if (!C || O != Want || calleeName(C) != calleeName(C0))
          break;
        Chain.push_back(C);
      }
      if (Chain.size() != 5)
        continue;
      for (const CallExpr *C : Chain)
        I.ChainOK.insert(C);
      if (!I.SiteStmts.count(Body[K])) {
        I.SiteStmts.insert(Body[K]);
        SourceLocation L = Body[K]->getBeginLoc();
        if (L.isFileID()) {
          W64Site &S = I.site(W64Site::UnrolledShfl, Body[K], Ent);
          S.Name = calleeName(C0).str();
        } else
          block(L, "an unrolled shuffle chain written in a macro");
      }
      hazard(W64Class::LoopBound, Body[K]->getBeginLoc(),
             "unrolled shuffle steps 16, 8, 4, 2, 1 reduce 32 lanes only");
    }
  }
  for (const Stmt *S : CS->body())
    stmt(S);
}

void Walker::forStmt(const ForStmt *FS) {
  stmt(FS->getInit());
  // The loop variable and its start.
  const VarDecl *V = nullptr;
  const Expr *InitE = nullptr;
  if (const auto *DS = dyn_cast_or_null<DeclStmt>(FS->getInit())) {
    if (DS->isSingleDecl())
      if (const auto *VD = dyn_cast<VarDecl>(DS->getSingleDecl())) {
        V = VD;
        InitE = VD->getInit();
      }
  } else if (const auto *BO = dyn_cast_or_null<BinaryOperator>(FS->getInit())) {
    if (BO->getOpcode() == BO_Assign)
      if (const auto *DRE = dyn_cast<DeclRefExpr>(BO->getLHS()->IgnoreParenImpCasts())) {
        V = dyn_cast<VarDecl>(DRE->getDecl());
        InitE = BO->getRHS();
      }
  }
  unsigned Kind = 0;
  if (V && InitE) {
    Val IV = peek(InitE);
    auto IsVar = [&](const Expr *E) {
      const auto *D = dyn_cast_or_null<DeclRefExpr>(E ? E->IgnoreParenImpCasts() : nullptr);
      return D && D->getDecl() == V;
    };
    // Step: halving or doubling.
    bool Halve = false, Double = false;
    if (const Expr *Inc = FS->getInc()) {
      Inc = Inc->IgnoreParenImpCasts();
      if (const auto *BO = dyn_cast<BinaryOperator>(Inc)) {
        Val R = peek(BO->getRHS());
        if (IsVar(BO->getLHS())) {
          if ((BO->getOpcode() == BO_ShrAssign && R.HasC && R.C == 1) ||
              (BO->getOpcode() == BO_DivAssign && R.HasC && R.C == 2))
            Halve = true;
          if ((BO->getOpcode() == BO_ShlAssign && R.HasC && R.C == 1) ||
              (BO->getOpcode() == BO_MulAssign && R.HasC && R.C == 2) ||
              (BO->getOpcode() == BO_AddAssign && IsVar(BO->getRHS())))
            Double = true;
          if (BO->getOpcode() == BO_Assign) {
            if (const auto *In = dyn_cast<BinaryOperator>(BO->getRHS()->IgnoreParenImpCasts())) {
              Val R2 = peek(In->getRHS());
              if (IsVar(In->getLHS()) && R2.HasC &&
                  ((In->getOpcode() == BO_Shr && R2.C == 1) ||
                   (In->getOpcode() == BO_Div && R2.C == 2)))
                Halve = true;
              if (IsVar(In->getLHS()) && R2.HasC &&
                  ((In->getOpcode() == BO_Shl && R2.C == 1) ||
                   (In->getOpcode() == BO_Mul && R2.C == 2)))
                Double = true;
            }
          }
        }
      }
    }
    const auto *C = dyn_cast_or_null<BinaryOperator>(
        FS->getCond() ? FS->getCond()->IgnoreParenImpCasts() : nullptr);
    if (C) {
      const Expr *Other = nullptr;
      BinaryOperatorKind Op = C->getOpcode();
      if (IsVar(C->getLHS()))
        Other = C->getRHS();
      else if (IsVar(C->getRHS())) {
        Other = C->getLHS();
        Op = BinaryOperator::reverseComparisonOp(Op);
      }
      if (Other) {
        Val O = peek(Other);
        if (Halve && ((Op == BO_GT && (O.Kind & K_ZERO)) ||
                      (Op == BO_GE && (O.Kind & K_ONE)) ||
                      (Op == BO_NE && (O.Kind & K_ZERO)))) {
          if (IV.Kind & (K_LIT16 | K_HALFW)) {
            Kind = K_RED;
            claim(IV, 32, "start of a full-warp reduction");
            hazard(W64Class::LoopBound, FS->getBeginLoc(),
                   llvm::formatv("reduction loop starting at '{0}' covers 32 "
                                 "lanes; a 64-lane wave needs the offset-32 "
                                 "step too",
                                 text(InitE))
                       .str());
          } else if (IV.HasC && IV.C > 0 && IV.C <= 8 && !(IV.C & (IV.C - 1)))
            Kind = K_SUBRED;
        }
        if (Double && (IV.Kind & K_ONE) &&
            ((Op == BO_LT && is32(O)) ||
             (Op == BO_LE && (O.Kind & (K_LIT16 | K_HALFW))))) {
          Kind = K_SCAN;
          claim(O, Op == BO_LT ? 64 : 32, "bound of a full-warp scan");
          hazard(W64Class::LoopBound, FS->getBeginLoc(),
                 llvm::formatv("scan loop bounded by '{0}' covers 32 lanes",
                               text(Other))
                     .str());
        }
        if (!Kind && (O.Kind & K_NWARPS) && IV.HasC && IV.C >= 0 && IV.C <= 1)
          Kind = K_WIDX;
      }
    }
    if (Kind) {
      VarInfo &VI = I.Vars[V];
      if (VI.LoopKind != Kind) {
        VI.LoopKind = Kind;
        I.Changed = true;
      }
    }
  }
  Loops.push_back(FS);
  if (FS->getCond())
    eval(FS->getCond());
  if (FS->getInc() && !Kind)
    eval(FS->getInc());
  stmt(FS->getBody());
  Loops.pop_back();
}

void Walker::asmStmt(const GCCAsmStmt *AS) {
  llvm::StringRef T = AS->getAsmString()->getString();
  static const char *Regs[] = {"laneid", "lanemask_lt", "lanemask_le",
                               "lanemask_eq", "lanemask_gt", "lanemask_ge"};
  for (const char *R : Regs) {
    std::string Pat = std::string("%") + R;
    size_t P = T.find(Pat);
    if (P == llvm::StringRef::npos)
      continue;
    // The whole register name (lanemask_lt, not a prefix of another).
    size_t E = P + Pat.size();
    if (E < T.size() && (llvm::isAlnum(T[E]) || T[E] == '_'))
      continue;
    bool Simple = AS->getNumOutputs() == 1 && AS->getNumInputs() == 0 &&
                  T.trim().starts_with("mov.") &&
                  T.count(';') <= 1;
    Val V;
    if (llvm::StringRef(R) == "laneid") {
      V.Dep = D_LANE;
      V.Kind = K_LANE;
    } else {
      V.Dep = D_MASK;
      V.Kind = K_MASK | (llvm::StringRef(R) == "lanemask_lt" ? K_BELOW : 0) |
               (llvm::StringRef(R) == "lanemask_eq" ? K_LANEBIT : 0);
    }
    if (AS->getNumOutputs() >= 1)
      assignTo(AS->getOutputExpr(0), AS, V, nullptr);
    if (Rec) {
      if (Simple && !I.SiteStmts.count(AS)) {
        I.SiteStmts.insert(AS);
        W64Site &S = I.site(W64Site::PtxAsm, AS,
                            I.entityFor(SM().getSpellingLoc(AS->getBeginLoc()), Ent));
        S.Name = R;
      } else if (!Simple)
        block(AS->getBeginLoc(), "inline PTX reads a lane register");
      hazard(llvm::StringRef(R) == "laneid" ? W64Class::LaneArith
                                            : W64Class::LaneBits,
             AS->getBeginLoc(),
             llvm::formatv("inline PTX reads %{0}: a 32-lane {1}", R,
                           llvm::StringRef(R) == "laneid" ? "lane id"
                                                          : "lane mask")
                 .str());
    }
    return;
  }
  bool Warp = T.contains("%warpid") || T.contains("shfl.sync") ||
              T.contains("vote.") || T.contains("bar.warp") ||
              T.contains("redux.sync") || T.contains("match.");
  bool Mma = T.contains("mma.sync") || T.contains("ldmatrix") ||
             T.contains("wmma.");
  if (Rec && (Warp || Mma)) {
    if (Warp && !I.SiteStmts.count(AS)) {
      I.SiteStmts.insert(AS);
      W64Site &S = I.site(W64Site::Unsupported, AS, Ent);
      S.Name = "inline PTX warp instruction";
    }
    block(AS->getBeginLoc(), Mma ? "inline PTX tensor-core instruction"
                                 : "inline PTX warp instruction");
    I.hazard(Mma ? W64Class::TensorFrag : W64Class::LaneArith,
             AS->getBeginLoc(),
             Mma ? "inline PTX mma/ldmatrix: the fragment layout is NVIDIA's "
                   "32-lane layout"
                 : "inline PTX warp instruction assumes 32-lane warps");
  }
  for (unsigned K = 0; K < AS->getNumInputs(); ++K)
    eval(AS->getInputExpr(K));
}

// ---- driver -------------------------------------------------------------------

void Wave64Analysis::Impl::walkAll() {
  Record = false;
  for (int Round = 0; Round < 8; ++Round) {
    Changed = false;
    for (const FunctionDecl *FD : FnOrder) {
      Walker W(*this, FD);
      W.run();
    }
    if (!Changed)
      break;
  }
  Record = true;
  for (const FunctionDecl *FD : FnOrder) {
    Walker W(*this, FD);
    W.run();
  }
}

void Wave64Analysis::Impl::maskTypeSite(const DeclaratorDecl *D, TypeLoc TL,
                                        int FnEnt, llvm::StringRef What) {
  if (TL.isNull())
    return;
  if (auto Q = TL.getAs<QualifiedTypeLoc>())
    TL = Q.getUnqualifiedLoc();
  QualType T = TL.getType();
  if (T.isNull() || !T->isIntegerType() || T->isBooleanType() ||
      Ctx.getTypeSize(T) > 32)
    return;
  if (TL.getAs<AutoTypeLoc>())
    return;
  SourceRange R = TL.getSourceRange();
  SourceLocation B = SM.getSpellingLoc(R.getBegin());
  SourceLocation E = SM.getSpellingLoc(R.getEnd());
  if (!Src.isUserLoc(B) || SM.getFileID(B) != SM.getFileID(E))
    return;
  unsigned BO = SM.getFileOffset(B);
  unsigned EO = SM.getFileOffset(E) + Lexer::MeasureTokenLength(E, SM, LO);
  if (EO <= BO)
    return;
  std::string File = Src.fileOf(B);
  if (!TokenAt.insert({File, BO}).second)
    return;
  int Ent = entityFor(B, FnEnt);
  A.Sites.push_back({});
  W64Site &X = A.Sites.back();
  X.Kind = W64Site::MaskType;
  X.Loc = B;
  X.Len = EO - BO;
  X.Name = D->getNameAsString();
  X.Entity = Ent;
  if (Ent >= 0)
    Ents[Ent].HasSites = true;
  hazard(W64Class::Ballot, D->getLocation(),
         llvm::formatv("{0} '{1}' holds a lane mask in 32 bits "
                       "('{2}'): lanes 32-63 of a 64-lane wave are lost",
                       What, D->getName(), T.getAsString())
             .str());
}

void Wave64Analysis::Impl::maskTypes() {
  for (auto &[VD, VI] : Vars) {
    if (VI.LoopKind || VI.Sources.empty())
      continue;
    Val V = merged(VI);
    if (!(V.Kind & K_MASK))
      continue;
    const auto *FD = dyn_cast_or_null<FunctionDecl>(VD->getDeclContext());
    auto It = FD ? Fns.find(canonFn(FD)) : Fns.end();
    if (It == Fns.end())
      continue;
    if (TypeSourceInfo *TSI = VD->getTypeSourceInfo())
      maskTypeSite(VD, TSI->getTypeLoc(), It->second.Entity,
                   isa<ParmVarDecl>(VD) ? "parameter" : "variable");
  }
  for (auto &[FD, VI] : Rets) {
    if (VI.Sources.empty())
      continue;
    Val V = merged(VI);
    if (!(V.Kind & K_MASK))
      continue;
    auto It = Fns.find(FD);
    if (It == Fns.end())
      continue;
    if (TypeSourceInfo *TSI = FD->getTypeSourceInfo())
      if (auto FTL = TSI->getTypeLoc().getAs<FunctionTypeLoc>())
        maskTypeSite(FD, FTL.getReturnLoc(), It->second.Entity,
                     "the result of");
  }
}

void Wave64Analysis::Impl::launchChecks() {
  // Block sizes at launch sites and in __launch_bounds__.
  class V : public RecursiveASTVisitor<V> {
  public:
    Impl &I;
    const FunctionDecl *Cur = nullptr;
    V(Impl &I) : I(I) {}
    bool shouldVisitTemplateInstantiations() const { return false; }
    static bool dimX(Impl &I, const Expr *E, int64_t &X, int Depth = 0) {
      if (!E || Depth > 4)
        return false;
      E = E->IgnoreParenImpCasts();
      if (const auto *M = dyn_cast<MaterializeTemporaryExpr>(E))
        return dimX(I, M->getSubExpr(), X, Depth + 1);
      if (const auto *B = dyn_cast<CXXBindTemporaryExpr>(E))
        return dimX(I, B->getSubExpr(), X, Depth + 1);
      if (const auto *F = dyn_cast<CXXFunctionalCastExpr>(E))
        return dimX(I, F->getSubExpr(), X, Depth + 1);
      if (const auto *CE = dyn_cast<CXXConstructExpr>(E)) {
        if (CE->getNumArgs() >= 1 &&
            !CE->getArg(0)->getType()->isRecordType())
          return dimX(I, CE->getArg(0), X, Depth + 1);
        if (CE->getNumArgs() == 1)
          return dimX(I, CE->getArg(0), X, Depth + 1);
        return false;
      }
      if (const auto *DRE = dyn_cast<DeclRefExpr>(E))
        if (const auto *VD = dyn_cast<VarDecl>(DRE->getDecl()))
          if (VD->getType()->isRecordType() && VD->getInit())
            return dimX(I, VD->getInit(), X, Depth + 1);
      Expr::EvalResult R;
      if (!E->isValueDependent() && E->EvaluateAsInt(R, I.Ctx)) {
        X = R.Val.getInt().getExtValue();
        return true;
      }
      return false;
    }
    bool VisitCUDAKernelCallExpr(CUDAKernelCallExpr *KC) {
      if (!I.Src.isUserLoc(KC->getBeginLoc()))
        return true;
      const FunctionDecl *K = canonFn(KC->getDirectCallee());
      if (!K) {
        // template kernels: by name
        llvm::StringRef N = calleeName(KC);
        auto It = I.ByName.find(N.str());
        if (It != I.ByName.end() && !It->second.empty())
          K = It->second.front();
      }
      if (!K || !I.Fns.count(K))
        return true;
      const CallExpr *Cfg = KC->getConfig();
      if (!Cfg || Cfg->getNumArgs() < 2)
        return true;
      int64_t X;
      if (!dimX(I, Cfg->getArg(1), X) || X % 64 == 0)
        return true;
      FnInfo &F = I.Fns[K];
      if (!F.Relevant)
        return true;
      std::string Msg =
          llvm::formatv("kernel {0} is launched with blocks of {1} threads in "
                        "x: {2}",
                        K->getName(), X,
                        X < 64 ? "half of a 64-lane wave stays empty, and "
                                 "ballots see zeros in lanes 32-63"
                               : "the last wave of each block is partly empty")
              .str();
      I.hazard(W64Class::Block32, Cfg->getArg(1)->getBeginLoc(), Msg);
      I.blocker(F.Entity, Cfg->getArg(1)->getBeginLoc(),
                llvm::formatv("it is launched with {0}-thread blocks (not whole "
                              "64-lane waves)",
                              X)
                    .str(),
                /*Launch=*/true);
      return true;
    }
  };
  V Vis(*this);
  Vis.TraverseDecl(Ctx.getTranslationUnitDecl());
  for (const FunctionDecl *FD : FnOrder) {
    FnInfo &F = Fns[FD];
    if (!F.Relevant)
      continue;
    if (const auto *LB = FD->getAttr<CUDALaunchBoundsAttr>()) {
      Expr::EvalResult R;
      const Expr *M = LB->getMaxThreads();
      if (M && !M->isValueDependent() && M->EvaluateAsInt(R, Ctx)) {
        int64_t N = R.Val.getInt().getExtValue();
        if (N < 64) {
          hazard(W64Class::Block32, M->getBeginLoc(),
                 llvm::formatv("__launch_bounds__({0}): blocks of at most {0} "
                               "threads fill half a 64-lane wave",
                               N)
                     .str());
          blocker(F.Entity, M->getBeginLoc(),
                  llvm::formatv("__launch_bounds__({0}) allows less than one "
                                "64-lane wave per block",
                                N)
                      .str(),
                  /*Launch=*/true);
        }
      }
    }
  }
}

void Wave64Analysis::Impl::warpSizeUses() {
  // Every warpSize reference: its entity (for the rename), and constant-
  // expression uses (class 11).
  class V : public RecursiveASTVisitor<V> {
  public:
    Impl &I;
    V(Impl &I) : I(I) {}
    bool shouldVisitTemplateInstantiations() const { return false; }
    bool VisitDeclRefExpr(DeclRefExpr *DRE) {
      if (DRE->getDecl()->getName() != "warpSize")
        return true;
      SourceLocation Spell = I.SM.getSpellingLoc(DRE->getLocation());
      if (!I.Src.isUserLoc(Spell))
        return true;
      // Enclosing function and constant context.
      const FunctionDecl *Fn = nullptr;
      bool Constant = false;
      DynTypedNode N = DynTypedNode::create(*DRE);
      for (int Guard = 0; Guard < 64; ++Guard) {
        auto Ps = I.Ctx.getParents(N);
        if (Ps.empty())
          break;
        N = Ps[0];
        if (N.get<ConstantExpr>() || N.get<StaticAssertDecl>() ||
            N.get<TemplateArgumentLoc>() || N.get<CaseStmt>())
          Constant = true;
        if (const auto *TL = N.get<TypeLoc>())
          if (TL->getAs<ArrayTypeLoc>())
            Constant = true;
        if (const auto *VD = N.get<VarDecl>()) {
          if (VD->isConstexpr())
            Constant = true;
          if (!isa<ParmVarDecl>(VD) && !VD->hasLocalStorage() && !Fn)
            break;
        }
        if (const auto *FD = N.get<FunctionDecl>()) {
          Fn = FD;
          break;
        }
      }
      int Ent = -1;
      if (Fn) {
        auto It = I.Fns.find(Fn);
        if (It != I.Fns.end())
          Ent = It->second.Entity;
      }
      std::string File = I.Src.fileOf(Spell);
      unsigned Off = I.SM.getFileOffset(Spell);
      int E = Ent >= 0 ? I.entityFor(Spell, Ent) : -1;
      if (E < 0) {
        std::string F2, Name;
        unsigned O2;
        if (I.defineAt(Spell, F2, O2, &Name))
          E = I.macroEntity(F2, O2, Name);
      }
      if (E >= 0) {
        I.WarpSizeEnt[{File, Off}] = E;
        I.Ents[E].HasSites = true;
      }
      if (Constant)
        I.hazard(W64Class::WarpSizeConst, DRE->getBeginLoc(),
                 "warpSize in a constant expression: it is no constant "
                 "expression from ROCm 7.0 (and 64, not 32, before)");
      return true;
    }
  };
  V Vis(*this);
  Vis.TraverseDecl(Ctx.getTranslationUnitDecl());
}

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
      auto Ps = Ctx.getParents(N);
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
          SourceLocation L = SM.getSpellingLoc(Init->IgnoreParenImpCasts()->getBeginLoc());
          auto It = TokenEnt.find({Src.fileOf(L), SM.getFileOffset(L)});
          if (It != TokenEnt.end())
            unite(It->second, Ent);
        }
  }
}

Wave64Analysis::Wave64Analysis(const UserSource &Src)
    : P(std::make_unique<Impl>(Src, *this)) {}
Wave64Analysis::~Wave64Analysis() = default;

void Wave64Analysis::run(Wave64Strategy Requested) {
  Impl &I = *P;
  I.Requested = Requested;
  I.collect();
  I.computeRelevance();
  I.walkAll();
  I.maskTypes();
  I.launchChecks();
  I.warpSizeUses();
  I.decide();
  // Group facts.
  std::map<int, bool> GroupKernel, GroupSites;
  std::map<int, std::vector<W64Blocker>> GroupBlockers;
  for (size_t E = 0; E < I.Ents.size(); ++E) {
    int R = I.find((int)E);
    GroupKernel[R] |= I.Ents[E].IsKernel;
    GroupSites[R] |= I.Ents[E].HasSites;
    for (const W64Blocker &B : I.Ents[E].Blockers)
      GroupBlockers[R].push_back(B);
  }
  for (const FunctionDecl *FD : I.FnOrder) {
    FnInfo &F = I.Fns[FD];
    if (!FD->hasAttr<CUDAGlobalAttr>())
      continue;
    W64Kernel K;
    K.FD = FD;
    K.Name = FD->getNameAsString();
    int R = I.find(F.Entity);
    K.HasWarpCode = F.Relevant && GroupSites[R];
    auto &Bs = GroupBlockers[R];
    if (!Bs.empty()) {
      // Its own blockers first (in the functions it calls), earliest first;
      // else the kernel it shares warp code with.
      std::set<int> OwnEnts;
      for (const FunctionDecl *G : I.callClosure(FD))
        OwnEnts.insert(I.Fns[G].Entity);
      // Launch shapes first: they decide before any line of the kernel.
      const W64Blocker *Best = nullptr;
      for (const W64Blocker &B : Bs)
        if (OwnEnts.count(B.Ent) &&
            (!Best || (B.Launch && !Best->Launch) ||
             (B.Launch == Best->Launch &&
              I.SM.isBeforeInTranslationUnit(B.Loc, Best->Loc))))
          Best = &B;
      if (Best) {
        K.Reason = Best->Msg;
        K.ReasonLoc = Best->Loc;
      } else {
        Best = &Bs.front();
        for (const W64Blocker &B : Bs)
          if (I.SM.isBeforeInTranslationUnit(B.Loc, Best->Loc))
            Best = &B;
        std::string Other = Best->Ent >= 0 ? I.Ents[Best->Ent].Name : "";
        for (const FunctionDecl *G : I.FnOrder) {
          if (!G->hasAttr<CUDAGlobalAttr>() || G == FD ||
              I.find(I.Fns[G].Entity) != R)
            continue;
          for (const FunctionDecl *H : I.callClosure(G))
            if (I.Fns[H].Entity == Best->Ent) {
              Other = "kernel " + G->getNameAsString();
              break;
            }
        }
        K.Reason = "it shares warp code with " + Other + ", where " + Best->Msg;
        K.ReasonLoc = Best->Loc;
      }
    }
    if (Requested == Wave64Strategy::Auto)
      K.Strategy = Bs.empty() ? Wave64Strategy::Native : Wave64Strategy::Logical32;
    else {
      K.Strategy = Requested;
      K.Forced = true;
    }
    Kernels.push_back(K);
  }
}

Wave64Strategy Wave64Analysis::strategyOfEntity(int E) const {
  if (E < 0 || E >= (int)P->Ents.size())
    return Wave64Strategy::Logical32;
  if (P->Requested != Wave64Strategy::Auto)
    return P->Requested;
  int R = P->find(E);
  bool Kernel = false, Blocked = false;
  for (size_t X = 0; X < P->Ents.size(); ++X)
    if (P->find((int)X) == R) {
      Kernel |= P->Ents[X].IsKernel;
      Blocked |= !P->Ents[X].Blockers.empty();
    }
  return Kernel && !Blocked ? Wave64Strategy::Native : Wave64Strategy::Logical32;
}

Wave64Strategy Wave64Analysis::strategyOf(const W64Site &S) const {
  return strategyOfEntity(S.Entity);
}

Wave64Strategy Wave64Analysis::strategyAtOffset(llvm::StringRef File,
                                                unsigned Offset) const {
  auto It = P->WarpSizeEnt.find({File.str(), Offset});
  if (It != P->WarpSizeEnt.end())
    return strategyOfEntity(It->second);
  // A macro body or a function body by position.
  for (const auto &[K, E] : P->MacroEnts)
    if (K.first == File && K.second <= Offset) {
      llvm::StringRef Buf = P->Src.contents(File);
      llvm::StringRef Line = Buf.drop_front(K.second);
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
  for (const auto &[FD, F] : P->Fns)
    if (F.File == File && F.Begin <= Offset && Offset < F.End)
      return strategyOfEntity(F.Entity);
  return P->Requested == Wave64Strategy::Native ? Wave64Strategy::Native
                                                : Wave64Strategy::Logical32;
}

std::vector<W64Blocker> Wave64Analysis::blockersOf(int E) const {
  std::vector<W64Blocker> R;
  if (E < 0)
    return R;
  int G = P->find(E);
  for (size_t X = 0; X < P->Ents.size(); ++X)
    if (P->find((int)X) == G)
      for (const W64Blocker &B : P->Ents[X].Blockers)
        R.push_back(B);
  return R;
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
