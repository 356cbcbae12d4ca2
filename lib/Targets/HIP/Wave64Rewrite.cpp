//===- Wave64Rewrite.cpp - warp-32 code on 64-lane waves -------------------===//
// Rules: PK2000-PK2013, PK2020-PK2023, PK2101-PK2111
//
// Applies the rewrites of the two wave-64 strategies to the sites found by
// the analysis (lib/Analysis/Wave64Analysis.cpp), each with the strategy of
// the kernel group it belongs to, and reports the strategy of every kernel:
//
//   logical32  32-lane logical warps inside the 64-lane wave
//     PK2001  *_sync shuffles -> HIP shuffles with width 32
//     PK2002  ballot/any/all/activemask -> the caller's 32-lane half
//   native     64-lane warps where the data layout allows
//     PK2020  *_sync shuffles -> HIP shuffles over the whole wave
//     PK2021  warp-width constants: lane/warp ids, loop bounds, array sizes
//     PK2022  lane masks: 64-bit types, __popcll/__ffsll/__clzll, 1ull << lane
//     PK2023  ballot/any/all/activemask -> whole-wave votes
//   both
//     PK2003  __syncwarp -> wave barrier
//     PK2004  warpSize -> the strategy's constant
//     PK2005  cooperative-groups tiles -> the tile helper
//     PK2006  inline PTX lane registers -> HIP lane queries
//     PK2007  volatile warp-synchronous steps -> split by wave barriers
//   findings
//     PK2000  which strategy each kernel got, and why
//     PK2010  a mask that is not the full warp
//     PK2011  the device property warpSize
//     PK2012  native forced where the analysis cannot prove it safe
//     PK2013  a warp construct neither strategy expresses
//
//===----------------------------------------------------------------------===//
#include "pk/TargetContext.h"
#include "pk/Wave64Analysis.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/DeclTemplate.h"
#include "clang/AST/Expr.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/Stmt.h"
#include "clang/Basic/SourceManager.h"
#include "clang/Frontend/ASTUnit.h"
#include "clang/Lex/Lexer.h"
#include "llvm/Support/FormatVariadic.h"
#include <functional>
#include <set>

using namespace pk;
using namespace clang;


namespace {

const char *Logical32Helpers = R"pk(
#ifndef PK_LOGICAL_WARP32_HELPERS
#define PK_LOGICAL_WARP32_HELPERS
// port-kernel: 32-lane logical warps inside 64-lane waves [PK2002, PK2004]
static constexpr int pk_warpSize = 32;
__device__ static inline unsigned __pk_ballot32(int pred) {
  return (unsigned)(__ballot(pred) >> (__lane_id() & 32u));
}
__device__ static inline unsigned __pk_activemask32() { return __pk_ballot32(1); }
__device__ static inline bool __pk_any32(int pred) { return __pk_ballot32(pred) != 0u; }
__device__ static inline bool __pk_all32(int pred) {
  return __pk_ballot32(pred) == __pk_ballot32(1);
}
#endif // PK_LOGICAL_WARP32_HELPERS
)pk";

const char *LaneHelpers = R"pk(
#ifndef PK_LOGICAL_LANE32_HELPERS
#define PK_LOGICAL_LANE32_HELPERS
// port-kernel: lane id and lane masks of a 32-lane logical warp [PK2006]
__device__ static inline unsigned __pk_lane32() { return __lane_id() & 31u; }
__device__ static inline unsigned __pk_lanemask32(unsigned long long m) {
  return (unsigned)(m >> (__lane_id() & 32u));
}
#endif // PK_LOGICAL_LANE32_HELPERS
)pk";

const char *SyncwarpHelper = R"pk(
#ifndef PK_SYNCWARP_HELPER
#define PK_SYNCWARP_HELPER
// port-kernel: a wave executes in lockstep; order its shared-memory accesses [PK2003]
__device__ static inline void __pk_syncwarp() {
  __threadfence_block();
  __builtin_amdgcn_wave_barrier();
  __threadfence_block();
}
#endif // PK_SYNCWARP_HELPER
)pk";

const char *NativeHelpers = R"pk(
#ifndef PK_NATIVE_WAVE64_HELPERS
#define PK_NATIVE_WAVE64_HELPERS
// port-kernel: native 64-lane warps (CDNA wavefronts) [PK2004, PK2021]
static constexpr int pk_waveSize = 64;
#endif // PK_NATIVE_WAVE64_HELPERS
)pk";

const char *TileHelpers = R"pk(
#ifndef PK_TILE_HELPERS
#define PK_TILE_HELPERS
// port-kernel: cooperative-groups tiles of N lanes inside a 64-lane wave [PK2005]
template <unsigned N> struct __pk_tile_mask { typedef unsigned type; };
template <> struct __pk_tile_mask<64> { typedef unsigned long long type; };
template <unsigned N> struct __pk_tile {
  static_assert(N <= 64 && (N & (N - 1)) == 0, "tile size: a power of two up to 64");
  typedef typename __pk_tile_mask<N>::type mask_type;
  __device__ unsigned thread_rank() const { return __lane_id() & (N - 1); }
  __device__ unsigned size() const { return N; }
  __device__ unsigned num_threads() const { return N; }
  __device__ unsigned meta_group_rank() const {
    return (threadIdx.x + blockDim.x * (threadIdx.y + blockDim.y * threadIdx.z)) / N;
  }
  __device__ unsigned meta_group_size() const {
    return (blockDim.x * blockDim.y * blockDim.z + N - 1) / N;
  }
  __device__ void sync() const { __pk_syncwarp(); }
  template <class T> __device__ T shfl(T v, int src) const { return __shfl(v, src & (int)(N - 1), N); }
  template <class T> __device__ T shfl_up(T v, unsigned d) const { return __shfl_up(v, d, N); }
  template <class T> __device__ T shfl_down(T v, unsigned d) const { return __shfl_down(v, d, N); }
  template <class T> __device__ T shfl_xor(T v, int m) const { return __shfl_xor(v, m, N); }
  __device__ mask_type ballot(int pred) const {
    unsigned long long b = __ballot(pred) >> (__lane_id() & (64u - N));
    return (mask_type)(N == 64 ? b : b & ((1ull << (N & 63u)) - 1ull));
  }
  __device__ bool any(int pred) const { return ballot(pred) != 0; }
  __device__ bool all(int pred) const { return ballot(pred) == ballot(1); }
};
template <class T> struct __pk_plus { __device__ T operator()(T a, T b) const { return a + b; } };
template <class T> struct __pk_less { __device__ T operator()(T a, T b) const { return b < a ? b : a; } };
template <class T> struct __pk_greater { __device__ T operator()(T a, T b) const { return a < b ? b : a; } };
template <class T> struct __pk_bit_and { __device__ T operator()(T a, T b) const { return a & b; } };
template <class T> struct __pk_bit_or { __device__ T operator()(T a, T b) const { return a | b; } };
template <class T> struct __pk_bit_xor { __device__ T operator()(T a, T b) const { return a ^ b; } };
template <unsigned N, class T, class Op>
__device__ static inline T __pk_reduce(const __pk_tile<N> &t, T v, Op op) {
  for (unsigned o = N / 2; o > 0; o >>= 1)
    v = op(v, t.shfl_xor(v, (int)o));
  return v;
}
#endif // PK_TILE_HELPERS
)pk";

bool isLogical(Wave64Strategy S) { return S != Wave64Strategy::Native; }

class Rewriter {
public:
  Rewriter(TargetContext &TC, const Wave64Analysis &A) : TC(TC), A(A) {}

  void run() {
    for (const W64Site &S : A.sites())
      site(S);
    warpSizePass();
    kernelNotes();
    if (ReducesLowered)
      dropReduceInclude();
  }

private:
  TargetContext &TC;
  const Wave64Analysis &A;
  bool ReducesLowered = false;

  SourceManager &SM() { return TC.SM(); }
  const LangOptions &LO() { return TC.Ctx().getLangOpts(); }

  std::string fileAt(SourceLocation L) {
    return TC.fileOf(SM().getSpellingLoc(L));
  }
  void need(SourceLocation L, const HelperKey &Key, const char *Text) {
    std::string F = fileAt(L);
    if (TC.isUserFile(F))
      TC.Helpers[F][Key] = Text;
  }
  void needLogical(SourceLocation L) {
    need(L, HelperKey{RuleId::PK2002, "logical32"}, Logical32Helpers);
  }
  void needSync(SourceLocation L) {
    need(L, HelperKey{RuleId::PK2003, "syncwarp"}, SyncwarpHelper);
  }

  SourceRange calleeRange(const CallExpr *CE) {
    const Expr *C = CE->getCallee()->IgnoreParenImpCasts();
    return SourceRange(C->getBeginLoc(), C->getEndLoc());
  }

  static unsigned explicitArgs(const CallExpr *CE) {
    unsigned N = 0;
    for (const Expr *A : CE->arguments())
      N += !isa<CXXDefaultArgExpr>(A);
    return N;
  }

  bool removeLeadingArg(const CallExpr *CE, RuleRef Rule,
                        llvm::StringRef Why) {
    if (CE->getNumArgs() < 2)
      return false;
    SourceLocation B = CE->getArg(0)->getBeginLoc();
    SourceLocation E = CE->getArg(1)->getBeginLoc();
    return TC.replace(CharSourceRange::getCharRange(B, E), "", Rule, Why);
  }

  /// PK2010: the mask is not the full 32-lane warp.
  void checkMask(const CallExpr *CE, llvm::StringRef Name) {
    const Expr *M = CE->getArg(0);
    Expr::EvalResult R;
    if (!M->isValueDependent() && M->EvaluateAsInt(R, TC.Ctx())) {
      llvm::APSInt V = R.Val.getInt();
      if ((V.getZExtValue() & 0xffffffffull) == 0xffffffffull)
        return;
      TC.finding(M->getBeginLoc(), RuleId::PK2010, Severity::Warning,
                 llvm::formatv("{0}: mask {1} is not the full warp; the HIP "
                               "form has no mask, so this is correct only if "
                               "exactly these lanes reach the call",
                               Name, TC.text(M))
                     .str());
      return;
    }
    TC.finding(M->getBeginLoc(), RuleId::PK2010, Severity::Warning,
               llvm::formatv("{0}: mask '{1}' is not a constant; the HIP form "
                             "has no mask, so this is correct only if the "
                             "mask names exactly the lanes that reach the call",
                             Name, TC.text(M))
                   .str());
  }

  SourceLocation endOfToken(const Expr *E) {
    SourceLocation End = Lexer::getLocForEndOfToken(
        SM().getSpellingLoc(E->getEndLoc()), 0, SM(), LO());
    if (E->getEndLoc().isFileID())
      End = Lexer::getLocForEndOfToken(E->getEndLoc(), 0, SM(), LO());
    return End;
  }

  // ---- shuffles ----
  void shuffle(const W64Site &S, bool Logical) {
    const auto *CE = cast<CallExpr>(S.S);
    llvm::StringRef Name = S.Name;
    bool Sync = Name.ends_with("_sync");
    unsigned B = Sync ? 1 : 0;
    unsigned NArgs = explicitArgs(CE);
    if (NArgs < B + 2)
      return;
    if (Sync)
      checkMask(CE, Name);
    std::string New = Sync ? Name.drop_back(5).str() : Name.str();
    RuleId Rule = Logical ? RuleId::PK2001 : RuleId::PK2020;
    std::string Why =
        Logical ? llvm::formatv("{0}(mask, v, x[, w]) -> {1}(v, x, w): HIP "
                                "shuffles have no mask and default to the "
                                "64-lane wave; an explicit width keeps 32-lane "
                                "segments",
                                Name, New)
                      .str()
                : llvm::formatv("{0}(mask, v, x[, w]) -> {1}(v, x, 64): the "
                                "kernel uses native 64-lane warps; HIP "
                                "shuffles have no mask",
                                Name, New)
                      .str();
    if (Sync) {
      if (!TC.replace(calleeRange(CE), New, Rule, Why))
        return;
      removeLeadingArg(CE, Rule, Why);
    }
    if (Logical && (Name == "__shfl_sync" || Name == "__shfl")) {
      // CUDA takes the source lane modulo the width; ROCm before 5.7 does
      // not wrap it into the segment.
      unsigned Width = 32;
      bool WidthKnown = true;
      if (NArgs >= B + 3) {
        Expr::EvalResult R;
        const Expr *W = CE->getArg(B + 2);
        if (!W->isValueDependent() && W->EvaluateAsInt(R, TC.Ctx()))
          Width = R.Val.getInt().getZExtValue();
        else
          WidthKnown = false;
      }
      const Expr *Src = CE->getArg(B + 1);
      Expr::EvalResult R;
      bool ConstInRange =
          WidthKnown && !Src->isValueDependent() &&
          Src->EvaluateAsInt(R, TC.Ctx()) && R.Val.getInt().isNonNegative() &&
          R.Val.getInt().getZExtValue() < Width;
      if (!ConstInRange) {
        std::string Wrap = WidthKnown
                               ? llvm::formatv(" & {0}", Width - 1).str()
                               : " % (" + TC.text(CE->getArg(B + 2)) + ")";
        TC.insert(Src->getBeginLoc(), "(", Rule,
                  "source lane wrapped into the segment as CUDA does");
        TC.insert(endOfToken(Src), ")" + Wrap, Rule,
                  "source lane wrapped into the segment as CUDA does");
      }
    }
    if (NArgs == B + 2)
      TC.insert(CE->getRParenLoc(), Logical ? ", 32" : ", 64", Rule,
                Logical ? "explicit 32-lane width: HIP's default width is "
                          "the 64-lane wave"
                        : "explicit 64-lane width: the whole wave is the "
                          "native warp");
  }

  // ---- votes ----
  void vote(const W64Site &S, bool Logical) {
    const auto *CE = cast<CallExpr>(S.S);
    llvm::StringRef Name = S.Name;
    bool Sync = Name.ends_with("_sync");
    if (Sync && CE->getNumArgs() != 2)
      return;
    if (Sync)
      checkMask(CE, Name);
    std::string New;
    if (Logical) {
      New = Name.starts_with("__ballot")  ? "__pk_ballot32"
            : Name.starts_with("__any")   ? "__pk_any32"
            : Name.starts_with("__all")   ? "__pk_all32"
                                          : "__pk_activemask32";
    } else {
      New = Name.starts_with("__ballot") || Name == "__activemask" ? "__ballot"
            : Name.starts_with("__any")                           ? "__any"
                                                                  : "__all";
      if (!Sync && Name != "__activemask")
        return; // the HIP form already covers the wave
    }
    RuleId Rule = Logical ? RuleId::PK2002 : RuleId::PK2023;
    std::string Why =
        Logical
            ? (Name == "__activemask"
                   ? std::string("__activemask() -> the caller's 32-lane half "
                                 "of the wave")
                   : llvm::formatv("{0}(mask, p) -> {1}(p): HIP votes cover "
                                   "the 64-lane wave; the helper returns the "
                                   "caller's 32-lane half, as a 32-bit mask",
                                   Name, New)
                         .str())
            : (Name == "__activemask"
                   ? std::string("__activemask() -> __ballot(1): the 64-bit "
                                 "mask of the active lanes of the wave")
                   : llvm::formatv("{0}(mask, p) -> {1}(p): a vote over the "
                                   "native 64-lane warp{2}",
                                   Name, New,
                                   New == "__ballot" ? " (64-bit result)" : "")
                         .str());
    if (!TC.replace(calleeRange(CE), New, Rule, Why))
      return;
    if (Logical)
      needLogical(CE->getBeginLoc());
    if (Sync)
      removeLeadingArg(CE, Rule, Why);
    else if (Name == "__activemask" && !Logical)
      TC.insert(CE->getRParenLoc(), "1", Rule, Why);
  }

  void syncwarp(const W64Site &S) {
    const auto *CE = cast<CallExpr>(S.S);
    std::string Why = "__syncwarp -> wave barrier with block-scope fences "
                      "(HIP has no __syncwarp; a wave executes in lockstep)";
    if (!TC.replace(calleeRange(CE), "__pk_syncwarp", RuleId::PK2003, Why))
      return;
    needSync(CE->getBeginLoc());
    if (CE->getNumArgs() == 1) {
      const Expr *M = CE->getArg(0);
      if (!isa<CXXDefaultArgExpr>(M))
        TC.replace(M->getSourceRange(), "", RuleId::PK2003, Why);
    }
  }

  void token(const W64Site &S, bool Logical) {
    const std::string &Text = Logical ? S.Logical : S.Native;
    if (Text.empty())
      return;
    std::string F = TC.fileOf(S.Loc);
    if (!TC.isUserFile(F))
      return;
    TC.edit(F, SM().getFileOffset(S.Loc), S.Len, Text, S.Rule, S.Why);
  }

  void maskType(const W64Site &S) {
    std::string F = TC.fileOf(S.Loc);
    if (!TC.isUserFile(F))
      return;
    TC.edit(F, SM().getFileOffset(S.Loc), S.Len, "unsigned long long",
            RuleId::PK2022,
            llvm::formatv("'{0}' holds a lane mask of a 64-lane wave: 64 bits",
                          S.Name)
                .str());
  }

  void ptx(const W64Site &S, bool Logical) {
    const auto *AS = cast<GCCAsmStmt>(S.S);
    if (AS->getNumOutputs() != 1)
      return;
    std::string Out = TC.text(AS->getOutputExpr(0));
    llvm::StringRef R = S.Name;
    std::string Q;
    if (Logical) {
      if (R == "laneid")
        Q = "__pk_lane32()";
      else {
        llvm::StringRef Kind = R.drop_front(9); // lt, le, ...
        Q = Kind == "lt"   ? "__pk_lanemask32(__lanemask_lt())"
            : Kind == "gt" ? "__pk_lanemask32(__lanemask_gt())"
            : Kind == "eq" ? "__pk_lanemask32(__lanemask_eq())"
            : Kind == "le" ? "__pk_lanemask32(__lanemask_lt() | __lanemask_eq())"
                           : "__pk_lanemask32(__lanemask_gt() | __lanemask_eq())";
      }
    } else {
      if (R == "laneid")
        Q = "__lane_id()";
      else {
        llvm::StringRef Kind = R.drop_front(9);
        Q = Kind == "lt"   ? "__lanemask_lt()"
            : Kind == "gt" ? "__lanemask_gt()"
            : Kind == "eq" ? "__lanemask_eq()"
            : Kind == "le" ? "(__lanemask_lt() | __lanemask_eq())"
                           : "(__lanemask_gt() | __lanemask_eq())";
      }
    }
    std::string Why =
        llvm::formatv("inline PTX %{0} -> {1}: {2}", R, Q,
                      Logical ? "the lane's position in its 32-lane logical warp"
                              : "the lane's position in the 64-lane wave")
            .str();
    if (TC.replace(AS->getSourceRange(), Out + " = " + Q, RuleId::PK2006, Why) &&
        Logical)
      need(AS->getBeginLoc(), HelperKey{RuleId::PK2006, "lane32"}, LaneHelpers);
  }

  void tile(const W64Site &S, bool Logical) {
    unsigned N = 0;
    llvm::StringRef(S.Name).getAsInteger(10, N);
    unsigned M = (!Logical && N == 32) ? 64 : N;
    std::string Why =
        N == 32 ? llvm::formatv("a tile of 32 threads -> __pk_tile<{0}>: {1}", M,
                                Logical ? "a 32-lane logical warp of the wave"
                                        : "the native 64-lane warp")
                      .str()
                : llvm::formatv("a tile of {0} threads -> __pk_tile<{0}> "
                                "(HIP before ROCm 6 has no tile votes)",
                                N)
                      .str();
    std::string Text;
    if (S.S)
      Text = llvm::formatv("__pk_tile<{0}>()", M).str();
    else
      Text = llvm::formatv("__pk_tile<{0}>", M).str();
    std::string F = TC.fileOf(S.Loc);
    if (!TC.isUserFile(F))
      return;
    unsigned B = SM().getFileOffset(S.Loc);
    unsigned E = SM().getFileOffset(
        Lexer::getLocForEndOfToken(S.End, 0, SM(), LO()));
    if (E <= B)
      return;
    TC.edit(F, B, E - B, Text, RuleId::PK2005, Why);
    TC.Helpers[F][HelperKey{RuleId::PK2005, "tile"}] = TileHelpers;
    TC.Helpers[F][HelperKey{RuleId::PK2003, "syncwarp"}] = SyncwarpHelper;
  }

  void reduce(const W64Site &S) {
    const auto *CE = cast<CallExpr>(S.S);
    if (CE->getNumArgs() != 3)
      return;
    std::string Op = TC.text(CE->getArg(2));
    llvm::StringRef O(Op);
    size_t Lt = O.find('<');
    llvm::StringRef Head = O.take_front(Lt);
    size_t Colon = Head.rfind("::");
    llvm::StringRef Fn = Colon == llvm::StringRef::npos ? Head : Head.drop_front(Colon + 2);
    Fn = Fn.trim();
    if (Lt == llvm::StringRef::npos ||
        !(Fn == "plus" || Fn == "less" || Fn == "greater" || Fn == "bit_and" ||
          Fn == "bit_or" || Fn == "bit_xor")) {
      TC.finding(CE->getBeginLoc(), RuleId::PK2013, Severity::Warning,
                 "cg::reduce with this operator has no HIP lowering; left as "
                 "is");
      return;
    }
    std::string Why = "cg::reduce -> __pk_reduce: a butterfly over the tile "
                      "(HIP before ROCm 6 has no cg::reduce)";
    if (!TC.replace(calleeRange(CE), "__pk_reduce", RuleId::PK2005, Why))
      return;
    TC.replace(CE->getArg(2)->getSourceRange(),
               ("__pk_" + Fn + O.drop_front(Lt)).str(), RuleId::PK2005, Why);
    std::string F = fileAt(CE->getBeginLoc());
    if (TC.isUserFile(F)) {
      TC.Helpers[F][HelperKey{RuleId::PK2005, "tile"}] = TileHelpers;
      TC.Helpers[F][HelperKey{RuleId::PK2003, "syncwarp"}] = SyncwarpHelper;
    }
    ReducesLowered = true;
  }

  void dropReduceInclude() {
    // <cooperative_groups/reduce.h> is no longer needed.
    for (UnportedInclude &U : TC.Facts.UnportedIncludes)
      if (!U.Handled && U.Header == "cooperative_groups/reduce.h") {
        TC.edit(U.File, U.Begin, U.End - U.Begin, "", RuleId::PK2005,
                "cg::reduce is lowered to __pk_reduce; the header is not "
                "needed");
        U.Handled = true;
      }
  }

  void volatileStep(const W64Site &S) {
    const auto *BO = cast<BinaryOperator>(S.S);
    SourceLocation B = BO->getBeginLoc(), E = BO->getEndLoc();
    if (!B.isFileID() || !E.isFileID())
      return;
    std::string L = TC.text(BO->getLHS());
    std::string R = TC.text(BO->getRHS());
    std::string Value;
    if (BO->getOpcode() == BO_Assign)
      Value = R;
    else {
      std::string Op = BinaryOperator::getOpcodeStr(
                           BinaryOperator::getOpForCompoundAssignment(
                               BO->getOpcode()))
                           .str();
      Value = L + " " + Op + " " + R;
    }
    // Through the semicolon, when there is one.
    SourceLocation After = Lexer::findLocationAfterToken(
        E, tok::semi, SM(), LO(), /*SkipTrailingWhitespaceAndNewLine=*/false);
    std::string Text = "{ auto __pk_v = " + Value +
                       "; __pk_syncwarp(); " + L + " = __pk_v; __pk_syncwarp(); }";
    CharSourceRange Rg;
    if (After.isValid())
      Rg = CharSourceRange::getCharRange(B, After);
    else {
      Rg = CharSourceRange::getTokenRange(B, E);
      Text.pop_back();
      Text.pop_back();
      Text += " }";
    }
    if (TC.replace(Rg, Text, RuleId::PK2007,
                   llvm::formatv("'{0}' reads another lane's slot and writes "
                                 "its own: all lanes read, then all write, "
                                 "with a wave barrier between (warp-"
                                 "synchronous code needs explicit "
                                 "synchronisation)",
                                 TC.text(BO))
                       .str()))
      needSync(BO->getBeginLoc());
  }

  void unrolled(const W64Site &S) {
    // v += __shfl_down_sync(FULL, v, 16); -> the same step with offset 32
    // first, in its HIP form.
    const Stmt *St = S.S;
    const CallExpr *CE = nullptr;
    std::function<void(const Stmt *)> F = [&](const Stmt *X) {
      if (!X || CE)
        return;
      if (const auto *C = dyn_cast<CallExpr>(X)) {
        const FunctionDecl *FD = C->getDirectCallee();
        if (FD && FD->getIdentifier() && FD->getName() == S.Name) {
          CE = C;
          return;
        }
      }
      for (const Stmt *K : X->children())
        F(K);
    };
    F(St);
    if (!CE || !St->getBeginLoc().isFileID() || !CE->getBeginLoc().isFileID())
      return;
    bool Sync = llvm::StringRef(S.Name).ends_with("_sync");
    unsigned Bi = Sync ? 1 : 0;
    unsigned SB = SM().getFileOffset(St->getBeginLoc());
    std::string Text = TC.text(St->getSourceRange());
    bool Bad = false;
    auto Rel = [&](SourceLocation L) -> unsigned {
      L = SM().getFileLoc(L);
      unsigned O = SM().getFileOffset(L);
      if (O < SB || O - SB > Text.size()) {
        Bad = true;
        return 0;
      }
      return O - SB;
    };
    auto EndOf = [&](const Expr *X) {
      return Lexer::getLocForEndOfToken(SM().getFileLoc(X->getEndLoc()), 0,
                                        SM(), LO());
    };
    struct Sub { unsigned Off, Len; std::string New; };
    std::vector<Sub> Subs;
    const Expr *Callee = CE->getCallee()->IgnoreParenImpCasts();
    unsigned CO = Rel(Callee->getBeginLoc());
    unsigned CL = Lexer::MeasureTokenLength(SM().getFileLoc(Callee->getBeginLoc()),
                                            SM(), LO());
    Subs.push_back({CO, CL, Sync ? llvm::StringRef(S.Name).drop_back(5).str() : S.Name});
    if (Sync)
      Subs.push_back({Rel(CE->getArg(0)->getBeginLoc()),
                      Rel(CE->getArg(1)->getBeginLoc()) -
                          Rel(CE->getArg(0)->getBeginLoc()),
                      ""});
    const Expr *OE = CE->getArg(Bi + 1);
    unsigned OO = Rel(OE->getBeginLoc());
    unsigned OL = Rel(EndOf(OE)) - OO;
    Subs.push_back({OO, OL, "32"});
    if (explicitArgs(CE) == Bi + 2)
      Subs.push_back({Rel(CE->getRParenLoc()), 0, ", 64"});
    else {
      const Expr *WE = CE->getArg(Bi + 2);
      unsigned WO = Rel(WE->getBeginLoc());
      unsigned WL = Rel(EndOf(WE)) - WO;
      Subs.push_back({WO, WL, "64"});
    }
    if (Bad)
      return;
    std::sort(Subs.begin(), Subs.end(),
              [](const Sub &A2, const Sub &B2) { return A2.Off > B2.Off; });
    for (const Sub &X : Subs)
      if (X.Off + X.Len <= Text.size())
        Text.replace(X.Off, X.Len, X.New);
    // Indentation of the statement's line.
    std::string File = TC.fileOf(St->getBeginLoc());
    llvm::StringRef Buf = TC.contents(File);
    size_t LS = Buf.take_front(SB).rfind('\n');
    LS = LS == llvm::StringRef::npos ? 0 : LS + 1;
    llvm::StringRef Indent = Buf.slice(LS, SB);
    if (!Indent.trim().empty())
      Indent = "";
    TC.insert(St->getBeginLoc(), Text + ";\n" + Indent.str(), RuleId::PK2020,
              "native 64-lane warps: the unrolled reduction gains the "
              "offset-32 step");
  }

  void unsupported(const W64Site &S) {
    if (!S.S)
      return;
    TC.finding(S.S->getBeginLoc(), RuleId::PK2013, Severity::Warning,
               llvm::formatv("{0}: no HIP form on ROCm 5.x through 6.1 and no "
                             "rewrite for 64-lane waves; left as is",
                             S.Name)
                   .str());
  }

  void site(const W64Site &S) {
    bool Logical = isLogical(A.strategyOf(S));
    switch (S.Kind) {
    case W64Site::Shuffle:
      return shuffle(S, Logical);
    case W64Site::Vote:
      return vote(S, Logical);
    case W64Site::SyncWarp:
      return syncwarp(S);
    case W64Site::Token:
      return token(S, Logical);
    case W64Site::MaskType:
      if (!Logical)
        maskType(S);
      return;
    case W64Site::PtxAsm:
      return ptx(S, Logical);
    case W64Site::CgTile:
      return tile(S, Logical);
    case W64Site::CgReduce:
      return reduce(S);
    case W64Site::VolatileStep:
      return volatileStep(S);
    case W64Site::UnrolledShfl:
      if (!Logical)
        unrolled(S);
      return;
    case W64Site::Unsupported:
      return unsupported(S);
    }
  }

  // ---- warpSize ----
  void warpSizePass() {
    const LangOptions &L = LO();
    bool AnyNative = A.anyNative(), AnyLogical = A.anyLogical();
    for (const std::string &File : TC.PF.UserFiles) {
      llvm::StringRef Buf = TC.contents(File);
      Lexer Lx(SourceLocation::getFromRawEncoding(1), L, Buf.begin(),
               Buf.begin(), Buf.end());
      Token Tok;
      bool AfterMember = false;
      while (!Lx.LexFromRawLexer(Tok)) {
        bool Member = AfterMember;
        AfterMember = Tok.isOneOf(tok::period, tok::arrow);
        if (!Tok.is(tok::raw_identifier) || Tok.getRawIdentifier() != "warpSize")
          continue;
        unsigned Off = Tok.getLocation().getRawEncoding() - 1;
        if (Member) {
          std::string Msg =
              AnyNative && !AnyLogical
                  ? "the device property warpSize is 64 on CDNA GPUs, the "
                    "width of the native warps of this port"
                  : AnyNative
                        ? "the device property warpSize is 64 on CDNA GPUs; "
                          "some kernels of this port keep 32-lane logical "
                          "warps: host code that sizes their work by it must "
                          "use 32"
                        : "the device property warpSize is 64 on CDNA GPUs, "
                          "while the kernels of this port keep 32-lane logical "
                          "warps; host code that sizes work by it must use 32";
          TC.finding(File, Off, RuleId::PK2011, Severity::Warning, Msg);
          continue;
        }
        bool Logical = isLogical(A.strategyAtOffset(File, Off));
        if (Logical) {
          TC.edit(File, Off, 8, "pk_warpSize", RuleId::PK2004,
                  "warpSize is 64 on CDNA and not a constant expression from "
                  "ROCm 7; the logical warp width is the constant 32");
          TC.Helpers[File][HelperKey{RuleId::PK2002, "logical32"}] = Logical32Helpers;
        } else {
          TC.edit(File, Off, 8, "pk_waveSize", RuleId::PK2004,
                  "warpSize is not a constant expression from ROCm 7; the "
                  "native warp width is the constant 64");
          TC.Helpers[File][HelperKey{RuleId::PK2020, "native"}] = NativeHelpers;
        }
      }
    }
  }

  // ---- notes ----
  static SourceLocation noteLoc(const FunctionDecl *FD) {
    if (const FunctionTemplateDecl *T = FD->getDescribedFunctionTemplate())
      return T->getBeginLoc();
    return FD->getBeginLoc();
  }

  void kernelNotes() {
    for (const W64Kernel &K : A.kernels()) {
      if (!K.HasWarpCode)
        continue;
      TC.Facts.KernelStrategy[K.FD->getCanonicalDecl()] = K.Strategy;
      std::string Msg;
      if (K.Strategy == Wave64Strategy::Native) {
        Msg = K.Forced ? llvm::formatv("kernel {0}: native 64-lane warps "
                                       "(--wave64=native)",
                                       K.Name)
                             .str()
                       : llvm::formatv("kernel {0}: native 64-lane warps (its "
                                       "warp code does not depend on the data "
                                       "layout of 32-lane warps)",
                                       K.Name)
                             .str();
      } else {
        Msg = K.Forced || K.Reason.empty()
                  ? llvm::formatv("kernel {0}: logical 32-lane warps inside "
                                  "64-lane waves (--wave64=logical32)",
                                  K.Name)
                        .str()
                  : llvm::formatv("kernel {0}: logical 32-lane warps inside "
                                  "64-lane waves because {1} (line {2})",
                                  K.Name, K.Reason,
                                  SM().getPresumedLineNumber(
                                      SM().getFileLoc(K.ReasonLoc)))
                        .str();
      }
      TC.finding(noteLoc(K.FD), RuleId::PK2000, Severity::Note, Msg);
    }
    // Forced native over blockers: say where it may be wrong.
    std::set<std::pair<unsigned, std::string>> Seen;
    if (TC.Opts.Wave64 == Wave64Strategy::Native)
      for (const W64Site &S : A.sites()) {
        for (const W64Blocker &B : A.blockersOf(S.Entity))
          if (Seen.insert({B.Loc.getRawEncoding(), B.Msg}).second)
            TC.finding(B.Loc, RuleId::PK2012, Severity::Warning,
                       "--wave64=native: " + B.Msg +
                           "; the widened code may compute something else");
      }
  }
};

} // namespace

void pk::runWave64Rewrites(TargetContext &TC) {
  UserSource Src(TC.PF);
  Wave64Analysis A(Src);
  A.run(TC.Opts.Wave64);
  Rewriter R(TC, A);
  R.run();
}

void pk::runWave64Check(TargetContext &TC) {
  UserSource Src(TC.PF);
  Wave64Analysis A(Src);
  A.run(TC.Opts.Wave64);
  for (const W64Hazard &H : A.hazards())
    TC.finding(H.Loc, w64CheckID(H.Class), Severity::Warning, H.Msg);
  for (const W64Kernel &K : A.kernels()) {
    if (!K.HasWarpCode)
      continue;
    std::string Msg;
    if (K.Strategy == Wave64Strategy::Native)
      Msg = llvm::formatv("kernel {0}: the HIP port {1} native 64-lane warps",
                          K.Name, K.Forced ? "uses (--wave64=native)" : "can use")
                .str();
    else if (K.Forced || K.Reason.empty())
      Msg = llvm::formatv("kernel {0}: the HIP port keeps logical 32-lane "
                          "warps (--wave64=logical32)",
                          K.Name)
                .str();
    else
      Msg = llvm::formatv("kernel {0}: the HIP port keeps logical 32-lane "
                          "warps because {1} (line {2})",
                          K.Name, K.Reason,
                          TC.SM().getPresumedLineNumber(
                              TC.SM().getFileLoc(K.ReasonLoc)))
                .str();
    const FunctionDecl *FD = K.FD;
    SourceLocation L = FD->getBeginLoc();
    if (const FunctionTemplateDecl *T = FD->getDescribedFunctionTemplate())
      L = T->getBeginLoc();
    TC.finding(L, RuleId::PK2000, Severity::Note, Msg);
  }
}
