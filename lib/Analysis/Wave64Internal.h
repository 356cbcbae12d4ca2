//===- Wave64Internal.h - internals shared by the wave-64 analysis --------===//
// Rules: none (shared infrastructure)
//
// The pieces of the wave-64 analysis (lib/Analysis/Wave64*.cpp) share:
//  - Val: what a value depends on (D_*) and what it is (K_*);
//  - the state of one analysis (Wave64Analysis::Impl): functions and their
//    call edges, entities (functions and macros unified by union-find),
//    variables and return values with the Vals assigned to them, and the
//    record-phase bookkeeping;
//  - Walker: the walk of one function body that evaluates every expression
//    and, in the record phase, classifies every use.  Its members are
//    defined next to the hazard class or rule family they serve.
//
//===----------------------------------------------------------------------===//
#ifndef PK_ANALYSIS_WAVE64INTERNAL_H
#define PK_ANALYSIS_WAVE64INTERNAL_H

#include "pk/Wave64Analysis.h"

#include "clang/AST/Expr.h"
#include "clang/AST/OperationKinds.h"
#include "clang/AST/TypeLoc.h"
#include "clang/Basic/LangOptions.h"
#include "pk/Interned.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringMap.h"
#include <cstdint>
#include <map>
#include <set>
#include <string>
#include <utility>
#include <vector>

namespace clang {
class ArraySubscriptExpr;
class ASTContext;
class BinaryOperator;
class CallExpr;
class CompoundStmt;
class CXXOperatorCallExpr;
class DeclStmt;
class DeclaratorDecl;
class ForStmt;
class GCCAsmStmt;
class IntegerLiteral;
class NonTypeTemplateParmDecl;
class SubstNonTypeTemplateParmExpr;
class SourceManager;
class UnaryOperator;
class VarDecl;
} // namespace clang

namespace pk {
namespace w64 {

// ---- values ----------------------------------------------------------------

/// What a value depends on.
enum : unsigned {
  D_TID = 1u << 0,    ///< threadIdx
  D_LANE = 1u << 1,   ///< a lane id
  D_WARP = 1u << 2,   ///< a warp id
  D_NWARPS = 1u << 3, ///< warps per block
  D_W = 1u << 4,      ///< the warp width
  D_MASK = 1u << 5,   ///< a lane mask (ballot, activemask, lane bits)
  D_RANK = 1u << 6,   ///< a rank among the lanes of a warp
  D_COUNT = 1u << 7,  ///< a count of lanes
  D_WAGG = 1u << 8,   ///< combined across the lanes of one warp (a
                      ///< full-warp shuffle reduction or scan)
  D_SHARED = 1u << 9, ///< read from shared memory (may hold every warp's data)
  D_VOTE = 1u << 10,  ///< an __any/__all vote: one answer for a warp's lanes
};
/// Dependences whose value changes with the warp width.
inline constexpr unsigned D_UNSAFE =
    D_LANE | D_WARP | D_NWARPS | D_W | D_MASK | D_RANK | D_COUNT;
/// Dependences that make a comparison depend on the warp numbering.
inline constexpr unsigned D_CMP =
    D_LANE | D_WARP | D_NWARPS | D_MASK | D_RANK | D_COUNT;

/// What a value is (exact idioms).
enum : unsigned {
  K_TID = 1u << 0,     ///< threadIdx.x (or a copy)
  K_LANE = 1u << 1,    ///< a lane id
  K_WARP = 1u << 2,    ///< a warp id
  K_NWARPS = 1u << 3,  ///< warps per block
  K_W = 1u << 4,       ///< the warp width (WARP_SIZE, warpSize, tile.size())
  K_HALFW = 1u << 5,   ///< half of it
  K_W1 = 1u << 6,      ///< the warp width minus one
  K_MASK = 1u << 7,    ///< a lane mask
  K_LANEBIT = 1u << 8, ///< 1 << lane
  K_BELOW = 1u << 9,   ///< the lanes below this one
  K_RANK = 1u << 10,   ///< popc(mask & below)
  K_COUNT = 1u << 11,  ///< popc(mask)
  K_RED = 1u << 12,    ///< offset of a full-warp reduction loop (16 .. 1)
  K_SCAN = 1u << 13,   ///< offset of a full-warp scan loop (1 .. 16)
  K_SUBRED = 1u << 14, ///< offset of a sub-warp reduction loop (<= 8 .. 1)
  K_FULL = 1u << 15,   ///< 0xffffffff
  K_ZERO = 1u << 16,
  K_ONE = 1u << 17,
  K_LIT32 = 1u << 18,
  K_LIT31 = 1u << 19,
  K_LIT16 = 1u << 20,
  K_LIT5 = 1u << 21,
  K_BDIM = 1u << 22,   ///< blockDim
  K_CONST = 1u << 23,  ///< a compile-time or launch-time constant
  K_FFS = 1u << 24,    ///< __ffs(mask)
  K_CLZ = 1u << 25,    ///< __clz(mask)
  K_WARPM1 = 1u << 26, ///< warp id minus a constant
  K_WIDX = 1u << 27,   ///< loop index over the warps of a block
  K_RUP = 1u << 28,    ///< X + 31 (rounding up to whole warps)
  K_GTID = 1u << 29,   ///< a linear or global thread index (x fastest)
};

struct Val {
  unsigned Dep = 0, Kind = 0;
  /// The constant behind K_LIT*/K_W/K_HALFW/K_W1.
  const clang::Expr *Tok = nullptr;
  const clang::Expr *Tok2 = nullptr; ///< K_RUP: the 31
  int64_t C = 0;                     ///< value when K_CONST and known
  bool HasC = false;
};

inline bool is32(const Val &V) { return V.Kind & (K_LIT32 | K_W); }
inline bool is31(const Val &V) { return V.Kind & (K_LIT31 | K_W1); }
/// A thread index that is not (yet) a lane or warp number.
inline bool tidish(const Val &V) {
  return (V.Kind & (K_TID | K_GTID)) && !(V.Dep & (D_LANE | D_WARP | D_MASK));
}

/// The memory a pointer or array lives in.
enum class Space { Unknown, Global, Shared, Local };

/// A variable, parameter or return value: the Vals assigned to it
/// (flow-insensitive), keyed by the assigning expression or declaration.
struct VarInfo {
  /// Keyed by the assigning expression or declaration, in the order first
  /// assigned. Most variables have one or two sources: a small vector
  /// searched in place, not a tree node per source (a large file has a
  /// quarter of a million).
  llvm::SmallVector<std::pair<const void *, Val>, 1> Sources;
  Val Merged;
  unsigned LoopKind = 0;
  // The small fields last, together: no padding after each (a large file
  // has over a hundred thousand variables).
  /// Bit 1 << Space: the spaces of pointer sources.
  uint8_t Spaces = 0;
  bool Dirty = true;
};

/// A function or a macro whose edits must agree with the code around it;
/// entities are unified into groups that get one strategy.
struct EntityT {
  std::string Name;
  const clang::FunctionDecl *FD = nullptr;
  bool IsKernel = false, IsMacro = false;
  int Parent = -1;
  std::vector<W64Blocker> Blockers;
  bool HasSites = false;
  std::string File; ///< macros: file of the #define
  unsigned DefOffset = 0;
};

/// A user function with a body.
struct FnInfo {
  const clang::FunctionDecl *FD = nullptr;
  int Entity = -1;
  bool Direct = false;   ///< contains warp code itself
  bool Relevant = false; ///< warp code in it or around it
  std::set<const clang::FunctionDecl *> Callees;
  IStr File; ///< interned: one copy of a path for all its functions
  unsigned Begin = 0, End = 0;
};

// ---- names of warp constructs (Wave64Names.cpp) ----------------------------

bool isShuffleName(llvm::StringRef N);
bool isVoteName(llvm::StringRef N);
bool isWmmaCall(const clang::CallExpr *CE);
/// Warp intrinsics neither strategy can express (__match_*, __reduce_*).
bool isUnsupportedWarpName(llvm::StringRef N);
/// A cooperative-groups thread_block_tile<N> type (through references,
/// pointers and qualifiers); N = 0 when unknown.
bool tileType(clang::QualType T, unsigned &N);
/// The object of a member call is a tile.
bool tileOf(const clang::Expr *Obj, unsigned &N);
/// The pattern and definition of a function (template instantiations map
/// to their pattern).
const clang::FunctionDecl *canonFn(const clang::FunctionDecl *FD);
/// A name that suggests a warp width (contains "warp", or "lane" without
/// "mask").
bool warpName(llvm::StringRef N);

class Walker;

} // namespace w64

// ---- the state of one analysis ----------------------------------------------

struct Wave64Analysis::Impl {
  const UserSource &Src;
  Wave64Analysis &A;
  clang::SourceManager &SM;
  const clang::LangOptions &LO;
  clang::ASTContext &Ctx;

  std::vector<w64::EntityT> Ents;
  std::map<const clang::FunctionDecl *, w64::FnInfo> Fns;
  std::vector<const clang::FunctionDecl *> FnOrder;
  /// Macro entities by (file, offset of the #define).
  std::map<std::pair<std::string, unsigned>, int> MacroEnts;
  std::map<const clang::VarDecl *, w64::VarInfo> Vars;
  std::map<const clang::FunctionDecl *, w64::VarInfo> Rets;
  /// User functions by name (a template's calls name their callees).
  llvm::StringMap<llvm::SmallVector<const clang::FunctionDecl *, 1>> ByName;
  bool Changed = false;
  bool Record = false;
  Wave64Strategy Requested = Wave64Strategy::Auto;

  // Record-phase bookkeeping.
  std::set<const clang::Expr *> Claimed; ///< W uses consumed by an idiom
  /// W uses and their function entity.
  std::vector<std::pair<const clang::Expr *, int>> WUses;
  /// A token by its file (interned path: the same text is the same
  /// pointer) and offset: one 16-byte key, not a copy of the path per token.
  using TokKey = std::pair<const char *, unsigned>;
  static TokKey tokKey(llvm::StringRef File, unsigned Off) {
    return {IStr(File).data(), Off};
  }
  /// Tokens with a site already (edited once, whoever reaches them).
  llvm::DenseSet<TokKey> TokenAt;
  /// Entity of the site at each edited token: every user of the token is
  /// unified with it (a named constant read by several kernels).
  llvm::DenseMap<TokKey, int> TokenEnt;
  std::set<const clang::Stmt *> SiteStmts;
  std::set<std::pair<unsigned, unsigned>> HazardAt; ///< (loc, class)
  /// Shuffles of recognised unrolled chains.
  std::set<const clang::Stmt *> ChainOK;
  std::map<std::pair<std::string, unsigned>, int> WarpSizeEnt;
  std::set<const clang::VarDecl *> SharedHazard;
  /// Shared arrays (and the dimension) indexed by a warp id: per-warp slots.
  std::set<std::pair<const clang::VarDecl *, unsigned>> PerWarp;

  Impl(const UserSource &Src, Wave64Analysis &A);
  /// Frees what only the walk and the decisions read (variables, return
  /// values, functions, the record phase's bookkeeping): the queries after
  /// run() read the groups, the entity maps and the function ranges. A
  /// large file's variables alone are about 2.5 bytes per input byte, held
  /// through every pass of the target otherwise.
  void releaseWalkState();

  // ---- entities and macros (Wave64Entities.cpp) ----
  /// Source text of a range as written at its use (macro expansions show
  /// the macro as written, not its body).
  std::string exprText(clang::SourceRange R);
  int newEntity(std::string Name);
  int find(int E);

  // ---- after run(): each group's facts, for the queries ---------------------
  /// Built once the entities are final (summarize(), before the strategies
  /// are chosen); chooseStrategies() and the queries read
  /// these instead of scanning every entity per query (quadratic in a large
  /// file: docs/reliability.md, "Bounded resources").
  bool Summarized = false;
  std::vector<int> RootOf;
  std::vector<char> GroupKernel;
  std::vector<std::vector<W64Blocker>> GroupBlockers;
  struct FnRange {
    unsigned Begin, End;
    const clang::FunctionDecl *FD;
    int Entity;
  };
  /// Per file: function bodies by their start, and the largest end so far.
  std::map<std::string, std::vector<FnRange>> FnRanges;
  std::map<std::string, std::vector<unsigned>> FnMaxEnd;
  void summarize();
  void unite(int A1, int B1);
  /// The #define containing the spelling location \p L, if any:
  /// (file, offset of the '#').
  bool defineAt(clang::SourceLocation L, std::string &File, unsigned &Off,
                std::string *Name = nullptr);
  int macroEntity(const std::string &File, unsigned Off,
                  const std::string &Name);
  /// Entity owning an edit at spelling location \p Spell found while
  /// walking function entity \p FnEnt.
  int entityFor(clang::SourceLocation Spell, int FnEnt);
  /// True when the literal is the whole body of an object-like macro named
  /// like a warp width.
  bool inWarpMacro(const clang::IntegerLiteral *IL,
                   std::string *MName = nullptr);
  std::string tokText(clang::SourceLocation Spell);
  /// \p FD and every function it calls, transitively.
  std::set<const clang::FunctionDecl *>
  callClosure(const clang::FunctionDecl *FD);

  // ---- variables (Wave64ValueFlow.cpp) ----
  w64::Val merged(w64::VarInfo &VI);
  void addSource(w64::VarInfo &VI, const void *Key, const w64::Val &V);
  void addSpace(w64::VarInfo &VI, w64::Space S);

  // ---- what the record phase produces (Wave64Record.cpp) ----
  void hazard(W64Class C, clang::SourceLocation Loc, std::string Msg);
  void blocker(int Ent, clang::SourceLocation Loc, std::string Msg,
               bool Launch = false);
  /// \p S, walked from function entity \p Ent, is nested deeper than
  /// Wave64Analysis::MaxDepth: blocks the entity and reports it (PK9003).
  void tooDeep(int Ent, const clang::Stmt *S);
  /// Reported lines (file, line) and their entry in A.Unanalysed.
  std::map<std::pair<unsigned, unsigned>, size_t> TooDeepAt;
  W64Site &site(W64Site::KindT K, const clang::Stmt *S, int Ent);
  /// A one-token edit of the native strategy at the spelling of \p Tok.
  void tokenSite(const clang::Expr *Tok, int FnEnt, std::string Native,
                 RuleId Rule, llvm::StringRef Why, std::string Logical = "");
  /// The text of an integer literal token with its value replaced by \p V
  /// (same base and suffix).
  std::string relit(const clang::Expr *Tok, uint64_t V);
  /// Consumes a warp-width constant (32, WARP_SIZE, warpSize, a named
  /// constant) used by an accepted idiom; native widens it to \p Native
  /// (64 for the width, 63 for width - 1, 32 for the half width).
  void claim(const w64::Val &V, int FnEnt, uint64_t Native,
             llvm::StringRef What);

  // ---- the phases ----
  void collect();          ///< Wave64Prescan.cpp
  void computeRelevance(); ///< Wave64Prescan.cpp
  void walkAll();          ///< Wave64Walk.cpp
  void maskTypes();        ///< Wave64MaskIdioms.cpp
  void maskTypeSite(const clang::DeclaratorDecl *D, clang::TypeLoc TL,
                    int FnEnt, llvm::StringRef What);
  void launchChecks();     ///< Wave64Block32.cpp
  void warpSizeUses();     ///< Wave64WarpSizeConst.cpp
  void decide();           ///< Wave64Decide.cpp
  void chooseStrategies(); ///< Wave64Decide.cpp
  /// The kernel reason of a group's blockers (Wave64Decide.cpp).
  void explainBlockers(W64Kernel &K, const std::vector<W64Blocker> &Bs,
                       int Group);
};

namespace w64 {

// ---- the walk of one function -----------------------------------------------

/// Evaluates every expression of a function body to a Val, feeds variables,
/// parameters and return values, and in the record phase classifies every
/// use (sites, hazards, blockers, claimed constants).
class Walker {
public:
  Walker(Wave64Analysis::Impl &I, const clang::FunctionDecl *FD);

  void run();
  Val eval(const clang::Expr *E);
  void stmt(const clang::Stmt *S);

private:
  Wave64Analysis::Impl &I;
  const clang::FunctionDecl *FD;
  FnInfo &F;
  int Ent;
  bool Rec, Rel;
  std::vector<const clang::ForStmt *> Loops;
  /// Enclosing lane-selecting conditions.
  std::vector<const clang::Expr *> LaneConds;
  /// Enclosing conditions that let only some threads of the block through
  /// (if conditions, and early exits earlier in an enclosing block).
  /// Each with whether it holds negated (the condition of an early exit).
  std::vector<std::pair<const clang::Expr *, bool>> Guards;
  int ConstDepth = 0;
  /// Nesting of eval/stmt/laneWise calls: bounded by
  /// Wave64Analysis::MaxDepth so that no input overflows the stack.
  unsigned Depth = 0;
  struct DepthScope {
    unsigned &D;
    explicit DepthScope(unsigned &D) : D(D) { ++D; }
    ~DepthScope() { --D; }
  };
  bool tooDeep() const { return Depth >= Wave64Analysis::MaxDepth; }
  /// The value of code too deep to analyse: thread-dependent, nothing known.
  Val unknownDeep(const clang::Stmt *S);
  Val evalExpr(const clang::Expr *E);
  void stmtInner(const clang::Stmt *S);

  // ---- the walk (Wave64Walk.cpp) ----
  clang::SourceManager &SM() { return I.SM; }
  std::string text(const clang::Expr *E) {
    return I.exprText(E->getSourceRange());
  }
  std::string text(const clang::Stmt *S) {
    return I.exprText(S->getSourceRange());
  }
  void block(clang::SourceLocation L, std::string Msg);
  void hazard(W64Class C, clang::SourceLocation L, std::string Msg);
  void claim(const Val &V, uint64_t Native, llvm::StringRef What);
  /// A condition that picks lanes by their position in a 32-lane warp.
  bool laneWise(const clang::Expr *C);
  void compound(const clang::CompoundStmt *CS);
  void ifStmt(const clang::IfStmt *IS);
  void declStmt(const clang::DeclStmt *DS);
  void staticAssert(const clang::Expr *E);
  void varDecl(const clang::VarDecl *VD);
  /// PK2005: a declaration of a thread_block_tile<N>.
  void tileDecl(const clang::DeclaratorDecl *D);

  // ---- value flow (Wave64ValueFlow.cpp) ----
  Val konst(int64_t C);
  /// Evaluates without recording (for idiom checks of subexpressions).
  Val peek(const clang::Expr *E);
  Val literal(const clang::IntegerLiteral *IL);
  Val declRef(const clang::DeclRefExpr *DRE);
  /// A non-type template parameter read at \p L: its values over the
  /// template's instantiations decide; a warp-like value (32, 31,
  /// 0xffffffff) in any of them blocks native warps, since one edit of the
  /// written body would serve every instantiation.
  Val templateParm(const clang::NonTypeTemplateParmDecl *P,
                   clang::SourceLocation L);
  /// The argument substituted for a template parameter in instantiated
  /// code: its value, never its token; warp-like values block native warps.
  Val substitutedParm(const clang::SubstNonTypeTemplateParmExpr *SE);
  Val constantRef(const clang::DeclRefExpr *DRE, const clang::VarDecl *VD);
  Val conditional(const clang::ConditionalOperator *CO);
  Val unop(const clang::UnaryOperator *UO);
  void assignTo(const clang::Expr *LHS, const void *Key, const Val &V,
                const clang::Expr *RHS);

  // ---- arithmetic idioms (Wave64ArithIdioms.cpp) ----
  Val binop(const clang::BinaryOperator *BO);
  Val assignment(const clang::BinaryOperator *BO);
  void laneId(const clang::BinaryOperator *BO, Val &V, const Val &Lit,
              uint64_t Native, const char *Msg);
  void warpId(const clang::BinaryOperator *BO, Val &V, const Val &Lit,
              uint64_t Native);
  /// `n / 32` or `n >> 5` with n a thread count: a count of 32-lane warps
  /// (\p Native: the divisor or shift for 64-lane waves).
  void warpCount(const clang::BinaryOperator *BO, const Val &L, const Val &R,
                 Val &V, uint64_t Native);
  void andOp(const clang::BinaryOperator *BO, const Val &L, const Val &R,
             Val &V);
  void divOp(const clang::BinaryOperator *BO, const Val &L, const Val &R,
             Val &V);
  void shrOp(const clang::BinaryOperator *BO, const Val &L, const Val &R,
             Val &V);
  void subOp(const clang::BinaryOperator *BO, const Val &L, const Val &R,
             Val &V);
  void addOp(const Val &L, const Val &R, Val &V);
  /// Thread or block arithmetic with 32, 31 or 5 that is no idiom.
  void mixedWarpWidth(const clang::BinaryOperator *BO, const Val &L,
                      const Val &R, const Val &V);
  bool compare(const clang::BinaryOperator *BO, const Val &L, const Val &R);
  /// A comparison where no side depends on the warp numbering.
  void warpBoundCompare(const clang::BinaryOperator *BO, const Val &L,
                        const Val &R);

  // ---- lane masks (Wave64MaskIdioms.cpp) ----
  void checkMaskArg(const clang::CallExpr *CE, llvm::StringRef Name,
                    const Val &M);
  /// __popc/__ffs/__clz/__brev of a lane mask.
  Val maskBitCall(const clang::CallExpr *CE, llvm::StringRef Name,
                  const std::vector<Val> &Args);
  void maskAnd(const clang::BinaryOperator *BO, const Val &L, const Val &R,
               Val &V);
  void maskOrXor(const clang::BinaryOperator *BO, const Val &L, const Val &R,
                 Val &V);
  void maskShr(const clang::BinaryOperator *BO, const Val &L, const Val &R);
  void laneBitShl(const clang::BinaryOperator *BO, const Val &L, const Val &R,
                  Val &V);
  /// The mask forms of `a - b`; false when it is none of them.
  bool maskSub(const clang::BinaryOperator *BO, const Val &L, const Val &R,
               Val &V);
  /// A lane mask compared with \p R; true when the test is safe.
  bool maskCompare(const clang::BinaryOperator *BO, const Val &R);

  // ---- calls (Wave64CallFlow.cpp) ----
  Val call(const clang::CallExpr *CE);
  Val operatorCall(const clang::CXXOperatorCallExpr *OC,
                   const std::vector<Val> &Args);
  /// A warp-level site (vote, __syncwarp, cg::reduce, ...) of kind \p K.
  void collectiveSite(W64Site::KindT K, const clang::CallExpr *CE,
                      llvm::StringRef Name);
  Val vote(const clang::CallExpr *CE, llvm::StringRef Name,
           const std::vector<Val> &Args);
  Val unsupportedCall(const clang::CallExpr *CE, llvm::StringRef Name,
                      const std::vector<Val> &Args);
  void tiledPartition(const clang::CallExpr *CE);
  /// Arguments flow into the parameters of user functions; the result is
  /// their return values.  False when \p CE calls no user function.
  bool userCall(const clang::CallExpr *CE, llvm::StringRef Name,
                const std::vector<Val> &Args, Val &R);
  Val memberCall(const clang::CallExpr *CE, const clang::Expr *Obj,
                 llvm::StringRef Name, unsigned N,
                 const std::vector<Val> &Args);

  // ---- shuffles (Wave64ShuffleChecks.cpp) ----
  /// Checks a shuffle; its value carries D_WAGG when it is a step of a
  /// full-warp reduction or scan.
  Val shuffle(const clang::CallExpr *CE, llvm::StringRef Name,
              const std::vector<Val> &Args);
  /// The explicit width of a shuffle: true when it is a sub-warp segment.
  bool shuffleWidth(const clang::CallExpr *CE, llvm::StringRef Name,
                    const Val &W, unsigned Arg);
  /// The lane operand of a shuffle (\p Op: shfl, shfl_up, shfl_down,
  /// shfl_xor) and the default width.
  void shuffleOperand(const clang::CallExpr *CE, llvm::StringRef Name,
                      llvm::StringRef Op, unsigned Arg, const Val &O,
                      bool HasWidth, bool SubWarp);
  /// tile.shfl*(v, x) on a tile of \p N threads.
  void tileShuffle(const clang::CallExpr *CE, llvm::StringRef Name, unsigned N,
                   const std::vector<Val> &Args);

  // ---- loops (Wave64LoopBounds.cpp) ----
  void forStmt(const clang::ForStmt *FS);
  /// What the loop variable \p V of \p FS runs over: K_RED, K_SUBRED,
  /// K_SCAN, K_WIDX, or 0.
  unsigned loopKind(const clang::ForStmt *FS, const clang::VarDecl *V,
                    const clang::Expr *InitE);
  /// Whether the step of \p FS halves or doubles \p V.
  void loopStep(const clang::ForStmt *FS, const clang::VarDecl *V, bool &Halve,
                bool &Double);
  /// v += __shfl_down_sync(m, v, 16); ... (8, 4, 2, 1) in a block.
  void unrolledChains(const clang::CompoundStmt *CS);

  // ---- memory (Wave64SharedArrays.cpp) ----
  Space spaceOfVar(const clang::VarDecl *VD);
  const clang::VarDecl *rootVar(const clang::Expr *E);
  Space spaceOf(const clang::Expr *E);
  bool isPerWarpIndex(const Val &V);
  /// The declared element count of dimension \p Dim (0 = outermost) of a
  /// shared array, and the expression that spells it.
  bool arrayDim(const clang::VarDecl *VD, unsigned Dim, uint64_t &N,
                const clang::Expr *&SizeE);
  /// Depth of a subscript chain: a[i] -> 0, a[i][j] (outer) -> 1.
  unsigned subscriptDim(const clang::ArraySubscriptExpr *ASE);
  /// Checks one memory access: base \p B, index \p Idx (may be null),
  /// stored value \p Stored (null for loads).
  void access(const clang::Expr *Whole, const clang::Expr *B, const Val &BaseV,
              const clang::Expr *IdxE, const Val &Idx, const Val *Stored);
  void globalAccess(const clang::Expr *Whole, const Val &BaseV,
                    const clang::Expr *IdxE, const Val &Idx, const Val *Stored);
  /// A value combined across one warp's lanes written to global memory (a
  /// store or an atomic) only by threads of the first warp: under 64-lane
  /// warps it combines 64 lanes instead of 32.
  void warpAggregateStore(const clang::Expr *Site, const Val &Stored);
  /// \p C lets only threads of the first warp(s) through (tid == 0,
  /// tid < 32, warp == 0), not one lane of every warp.
  bool firstWarpOnly(const clang::Expr *C, bool Negated);
  /// Whether guard \p C (negated when \p Negated) holds for at most one
  /// lane of each warp (lane == 0, lane == leader, !lane), or only for the
  /// first warp.
  bool oneLanePerWarp(const clang::Expr *C, bool Negated);
  /// A store to global memory of a vote's answer (__any, __all), or under
  /// a guard that is one, by every lane of the warp: each thread's result is
  /// its warp's, which 64-lane warps decide over 64 lanes.  (A full-warp
  /// reduction stored by every lane is left alone: in a warp-per-row kernel
  /// the widened warp reduces the widened row.)
  void perThreadWarpResult(const clang::Expr *Site, const Val &Stored);
  /// The condition of 'if (C) return;' (null for other statements).
  static const clang::Expr *exitGuard(const clang::Stmt *S);
  /// A read of a per-warp shared slot (indexed by a warp id) inside \p E.
  bool readsPerWarpSlot(const clang::Expr *E);
  void sharedAccess(const clang::Expr *Whole, const clang::Expr *B,
                    const clang::Expr *IdxE, const Val &Idx, const Val *Stored);
  /// `s[tid + W]`: the first warp folds the second warp's values in; true
  /// when the access is that idiom.
  bool foldsNextWarp(const clang::Expr *Whole, const clang::VarDecl *VD,
                     const clang::ArraySubscriptExpr *ASE,
                     const clang::Expr *IdxE);
  /// A shared array indexed by a lane or warp id: one slot per 32-lane warp
  /// or lane (class 5).
  void perWarpSlots(const clang::Expr *Whole, const clang::VarDecl *VD,
                    const clang::ArraySubscriptExpr *ASE, const Val &Idx);
  Val subscript(const clang::ArraySubscriptExpr *ASE, const Val *Stored);

  // ---- tensor cores (Wave64TensorFrag.cpp) ----
  /// PK2110: frag.x[i] of a tensor-core fragment.
  void fragmentElement(const clang::ArraySubscriptExpr *ASE, const Val &X);

  // ---- inline PTX (Wave64PtxRegs.cpp) ----
  void asmStmt(const clang::GCCAsmStmt *AS);
  void laneRegister(const clang::GCCAsmStmt *AS, const char *R);
  void warpInstruction(const clang::GCCAsmStmt *AS);

  // ---- warp-synchronous code (Wave64WarpSync.cpp) ----
  void volatileStep(const clang::BinaryOperator *BO);
  /// A subscript of \p VD under \p X at an index other than \p Own.
  bool readsOtherSlot(const clang::Stmt *X, const clang::VarDecl *VD,
                      const std::string &Own);
};

} // namespace w64
} // namespace pk
#endif
