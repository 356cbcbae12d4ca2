//===- FromHipWarpWidth.cpp - wave-64 HIP code on 32-lane warps -----------===//
// Rules: PK6032, PK6033, PK6034, PK6045
//
// PK6032: a HIP shuffle width of the whole wave (64, warpSize, WARP_SIZE)
// becomes CUDA's default width, the whole 32-lane warp (CUDA leaves widths
// above warpSize undefined); widths up to 32 stay.
//
// PK6033: code written for 64-lane waves (HIP code, or port-kernel's own
// native-wave HIP output) is narrowed to 32-lane warps: lane and wave
// arithmetic on the thread index (`tid & 63`, `tid % 64`, `tid / 64`,
// `tid >> 6`, waves per block `blockDim.x / 64`), the last lane (`lane ==
// 63`), per-wave shared arrays of 64 slots indexed by lane or wave, shuffle
// loops that start at offset 32 or run to 64, the unrolled offset-32 step of
// a reduction (on a 32-lane warp it would add each lane's value to itself),
// and `#define WARP_SIZE 64`.  The algorithm keeps its shape with warps of
// 32: every lane and wave number, count and shuffle stays consistent.
//
// PK6034: what only works on 64-lane waves and is not narrowed: the upper
// half of a ballot (`>> 32`), AMD builtins without a CUDA equivalent.
//
// PK6045: the check after the narrowing: every warp collective of the HIP
// input whose constant operands only have their meaning on a 64-lane wave
// and that PK6032/PK6033 did not narrow (a lane offset or source lane of 32
// or more, directly or as the first or last value of the loop variable it
// is, under a width above 32; a width above 32 that could not be removed;
// a lane mask with bits above lane 31 other than the whole wave; a ballot
// masked with or compared to lanes or counts above 31; a wave size of 64
// held in a variable) is reported at the construct.
//
//===----------------------------------------------------------------------===//
#include "FromHip.h"

#include "pk/DynamicVisitor.h"
#include "clang/AST/ASTContext.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/TypeLoc.h"
#include "clang/Basic/SourceManager.h"
#include "clang/Lex/Lexer.h"
#include "llvm/Support/FormatVariadic.h"

#include <functional>
#include <map>
#include <optional>
#include <set>

using namespace pk;
using namespace clang;

namespace {

bool isShuffle(llvm::StringRef N) {
  return N == "__shfl" || N == "__shfl_up" || N == "__shfl_down" ||
         N == "__shfl_xor";
}

const FunctionDecl *callee(const CallExpr *CE) {
  const FunctionDecl *FD = CE->getDirectCallee();
  return FD && FD->getIdentifier() ? FD : nullptr;
}

std::optional<uint64_t> literal(const Expr *E) {
  E = E->IgnoreParenImpCasts();
  if (const auto *IL = dyn_cast<IntegerLiteral>(E))
    return IL->getValue().getZExtValue();
  return std::nullopt;
}

class WidthVisitor : public DynamicASTVisitor {
public:
  explicit WidthVisitor(TargetContext &TC) : TC(TC) {}
  /// (file, offset) of the literals already narrowed.
  std::set<std::pair<std::string, unsigned>> Done;
  /// Shuffles already reported by PK6034.
  std::set<const CallExpr *> Reported;

  bool TraverseFunctionDecl(FunctionDecl *FD) override {
    if (!FD->doesThisDeclarationHaveABody() || !TC.isUserLoc(FD->getLocation()))
      return DynamicASTVisitor::TraverseFunctionDecl(FD);
    // An MFMA GEMM mapped to WMMA keeps its 64-lane wave numbers (PK6044).
    if (cuda::mfmaGemmKernel(TC, FD))
      return true;
    Tid.clear();
    LaneVars.clear();
    WaveVars.clear();
    Wave64 = false;
    // First walk: the thread-index variables and whether the function is
    // written for 64-lane waves.
    collect(FD->getBody());
    Fn = FD;
    bool R = DynamicASTVisitor::TraverseFunctionDecl(FD);
    Fn = nullptr;
    return R;
  }

  bool VisitCallExpr(CallExpr *CE) override {
    const FunctionDecl *F = callee(CE);
    if (!F || !Fn)
      return true;
    llvm::StringRef N = F->getName();
    if (isShuffle(N))
      width(CE);
    if (N.starts_with("__builtin_amdgcn_") &&
        !N.starts_with("__builtin_amdgcn_mfma_") &&
        TC.isUserLoc(CE->getBeginLoc()) && !inReverted(CE->getBeginLoc()))
      TC.finding(CE->getBeginLoc(), RuleId::PK6034, Severity::Error,
                 llvm::formatv("{0} is an AMD GPU builtin with no CUDA "
                               "equivalent: not translated",
                               N)
                     .str());
    return true;
  }

  bool VisitBinaryOperator(BinaryOperator *BO) override {
    if (!Fn)
      return true;
    BinaryOperatorKind Op = BO->getOpcode();
    const Expr *L = BO->getLHS(), *R = BO->getRHS();
    std::optional<uint64_t> RV = literal(R);
    if (inReverted(BO->getOperatorLoc()))
      return true;
    if (Op == BO_Shr && RV && *RV == 32 && fromBallot(L)) {
      BallotHalves.insert(BO);
      TC.finding(BO->getOperatorLoc(), RuleId::PK6034, Severity::Warning,
                 "the upper 32 bits of a ballot are the lanes 32-63 of a "
                 "64-lane wave: a CUDA warp has no such lanes (they are 0)");
      return true;
    }
    if (!Wave64)
      return true;
    if (Op == BO_And && waveLit(R, 63) && tidish(L))
      narrow(R, "31",
             "a lane's position in its 64-lane wave (& 63) is its "
             "position in its 32-lane warp (& 31) in CUDA");
    else if (Op == BO_And && waveLit(L, 63) && tidish(R))
      narrow(L, "31",
             "a lane's position in its 64-lane wave (& 63) is its "
             "position in its 32-lane warp (& 31) in CUDA");
    else if ((Op == BO_Rem || Op == BO_Div) && waveLit(R, 64) &&
             (tidish(L) || blockSize(L)))
      narrow(R, "32",
             Op == BO_Rem ? "lane or block-size arithmetic with the 64-lane "
                            "wave (% 64) uses the 32-lane warp in CUDA"
                          : "wave numbers and waves per block (/ 64) are warp "
                            "numbers and warps per block (/ 32) in CUDA");
    else if (Op == BO_Shr && waveLit(R, 6) && tidish(L))
      narrow(R, "5",
             "the wave number (>> 6) is the warp number (>> 5) in "
             "CUDA");
    else if (BO->isComparisonOp() && waveLit(R, 63) && laneVar(L))
      narrow(R, "31",
             "the last lane of a 64-lane wave (63) is the last lane "
             "of a 32-lane warp (31)");
    return true;
  }

  bool VisitForStmt(ForStmt *FS) override {
    if (!Fn || !Wave64)
      return true;
    // The loop variable and how it steps.
    const VarDecl *V = nullptr;
    const Expr *Init = nullptr;
    if (const auto *DS = dyn_cast_or_null<DeclStmt>(FS->getInit()))
      if (DS->isSingleDecl())
        if (const auto *VD = dyn_cast<VarDecl>(DS->getSingleDecl())) {
          V = VD;
          Init = VD->getInit();
        }
    if (!V || !Init || !FS->getInc() || !FS->getCond())
      return true;
    bool Down = false, Up = false;
    if (const auto *CA = dyn_cast<CompoundAssignOperator>(FS->getInc())) {
      std::optional<uint64_t> S = literal(CA->getRHS());
      Down = (CA->getOpcode() == BO_ShrAssign && S == 1u) ||
             (CA->getOpcode() == BO_DivAssign && S == 2u);
      Up = (CA->getOpcode() == BO_ShlAssign && S == 1u) ||
           (CA->getOpcode() == BO_MulAssign && S == 2u);
    }
    if (!Down && !Up)
      return true;
    if (!shufflesBy(FS->getBody(), V))
      return true;
    if (Down && waveLit(Init, 32))
      narrow(Init, "16",
             "a shuffle reduction over a 64-lane wave starts at "
             "offset 32; over a 32-lane warp at 16");
    if (Up)
      if (const auto *C = dyn_cast<BinaryOperator>(FS->getCond()))
        if (C->getOpcode() == BO_LT && waveLit(C->getRHS(), 64))
          narrow(C->getRHS(), "32",
                 "a shuffle scan over a 64-lane wave "
                 "runs to offset 32; over a 32-lane "
                 "warp to 16");
    return true;
  }

  bool VisitVarDecl(VarDecl *VD) override {
    if (!Fn || !Wave64 || !VD->hasAttr<CUDASharedAttr>() ||
        !SlotArrays.count(VD))
      return true;
    TypeSourceInfo *TSI = VD->getTypeSourceInfo();
    if (!TSI)
      return true;
    if (auto AT = TSI->getTypeLoc().getAs<ConstantArrayTypeLoc>())
      if (const Expr *Size = AT.getSizeExpr())
        if (waveLit(Size, 64))
          narrow(Size, "32",
                 "a shared array with one slot per lane or per "
                 "wave of a block has one per lane or per warp "
                 "in CUDA (at most 32 of either)");
    return true;
  }

  bool VisitCompoundStmt(CompoundStmt *CS) override {
    if (!Fn || !Wave64)
      return true;
    for (const Stmt *S : CS->body()) {
      // v += __shfl_down(v, 32, 64); and v = op(v, __shfl_xor(v, 32)).
      const CallExpr *Sh = nullptr;
      std::function<void(const Stmt *)> F = [&](const Stmt *X) {
        if (!X || Sh)
          return;
        if (const auto *CE = dyn_cast<CallExpr>(X))
          if (const FunctionDecl *FD = callee(CE))
            if (isShuffle(FD->getName()) && CE->getNumArgs() >= 2 &&
                waveLit(CE->getArg(1), 32) && FD->getName() != "__shfl") {
              Sh = CE;
              return;
            }
        for (const Stmt *K : X->children())
          F(K);
      };
      const auto *E = dyn_cast<Expr>(S);
      if (!E)
        continue;
      const auto *BO = dyn_cast<BinaryOperator>(E->IgnoreParenImpCasts());
      if (!BO || !BO->isAssignmentOp())
        continue;
      F(BO->getRHS());
      if (!Sh)
        continue;
      SourceLocation B = S->getBeginLoc(), End = S->getEndLoc();
      if (!B.isFileID() || !End.isFileID() || !TC.isUserLoc(B) || inReverted(B))
        continue;
      // The whole line (the statement, its ';' and its newline).
      std::string File = TC.fileOf(B);
      llvm::StringRef Buf = TC.contents(File);
      unsigned O = TC.SM().getFileOffset(B);
      unsigned EO = TC.SM().getFileOffset(End);
      size_t Semi = Buf.find(';', EO);
      if (Semi == llvm::StringRef::npos)
        continue;
      size_t LS = Buf.take_front(O).rfind('\n');
      LS = LS == llvm::StringRef::npos ? 0 : LS + 1;
      size_t LE = Buf.find('\n', Semi);
      LE = LE == llvm::StringRef::npos ? Buf.size() : LE + 1;
      bool WholeLines = Buf.slice(LS, O).trim().empty() &&
                        Buf.slice(Semi + 1, LE).trim().empty();
      if (WholeLines)
        TC.edit(File, LS, LE - LS, "", RuleId::PK6033,
                "the offset-32 step of a reduction combines the two halves "
                "of a 64-lane wave; a 32-lane warp has no upper half (the "
                "step would combine each lane with itself)");
      else {
        TC.finding(B, RuleId::PK6034, Severity::Warning,
                   "a shuffle by 32 lanes combines the halves of a 64-lane "
                   "wave; on a 32-lane warp each lane reads itself");
        Reported.insert(Sh);
      }
    }
    return true;
  }

private:
  TargetContext &TC;
  const FunctionDecl *Fn = nullptr;
  std::set<const VarDecl *> Tid, LaneVars, WaveVars;
  std::set<const VarDecl *> SlotArrays;
  bool Wave64 = false;

  std::map<std::string, std::vector<cuda::HelperBlock>> Blocks;
  bool inReverted(SourceLocation L) {
    L = TC.SM().getSpellingLoc(L);
    std::string F = TC.fileOf(L);
    if (F.empty())
      return false;
    auto It = Blocks.find(F);
    if (It == Blocks.end())
      It = Blocks.emplace(F, cuda::helperBlocks(TC.contents(F))).first;
    return cuda::inRevertedBlock(It->second, TC.SM().getFileOffset(L));
  }

  static bool mentions(const Stmt *S,
                       llvm::function_ref<bool(const Stmt *)> P) {
    if (!S)
      return false;
    if (P(S))
      return true;
    for (const Stmt *C : S->children())
      if (mentions(C, P))
        return true;
    return false;
  }
  static bool isBuiltinIdx(const Stmt *S, llvm::StringRef Name) {
    if (const auto *DR = dyn_cast<DeclRefExpr>(S))
      return DR->getDecl()->getIdentifier() && DR->getDecl()->getName() == Name;
    return false;
  }
  bool tidish(const Expr *E) {
    return mentions(E, [&](const Stmt *S) {
      if (isBuiltinIdx(S, "threadIdx"))
        return true;
      if (const auto *DR = dyn_cast<DeclRefExpr>(S))
        if (const auto *VD = dyn_cast<VarDecl>(DR->getDecl()))
          return Tid.count(VD) > 0;
      if (const auto *CE = dyn_cast<CallExpr>(S))
        if (const FunctionDecl *F = callee(CE))
          return F->getName() == "__lane_id";
      return false;
    });
  }
  /// The integer literal \p V written as a wave constant: in the code, or in
  /// a macro named for the warp, wave or lane (WARP_SIZE, WAVES_PER_BLOCK,
  /// LANE); a 64 from BLOCK_M is a tile size, not a wave.
  bool waveLit(const Expr *E, uint64_t V) {
    std::optional<uint64_t> X = literal(E);
    if (!X || *X != V)
      return false;
    SourceLocation L = E->IgnoreParenImpCasts()->getBeginLoc();
    if (!L.isMacroID())
      return true;
    std::string M =
        Lexer::getImmediateMacroName(L, TC.SM(), TC.Ctx().getLangOpts())
            .upper();
    llvm::StringRef MR(M);
    return MR.contains("WARP") || MR.contains("WAVE") || MR.contains("LANE");
  }
  bool blockSize(const Expr *E) {
    E = E->IgnoreParenImpCasts();
    if (mentions(E, [](const Stmt *S) { return isBuiltinIdx(S, "blockDim"); }))
      return true;
    // A named block size: THREADS, BLOCK_SIZE, kBlockThreads, ...
    auto Named = [](llvm::StringRef N) {
      std::string U = N.upper();
      return llvm::StringRef(U).contains("THREAD") ||
             llvm::StringRef(U).contains("BLOCK");
    };
    if (const auto *DR = dyn_cast<DeclRefExpr>(E))
      return (isa<NonTypeTemplateParmDecl>(DR->getDecl()) ||
              (isa<VarDecl>(DR->getDecl()) &&
               cast<VarDecl>(DR->getDecl())->isConstexpr())) &&
             DR->getDecl()->getIdentifier() && Named(DR->getDecl()->getName());
    if (E->getBeginLoc().isMacroID() && literal(E))
      return *literal(E) % 64 == 0 &&
             Named(Lexer::getImmediateMacroName(E->getBeginLoc(), TC.SM(),
                                                TC.Ctx().getLangOpts()));
    return false;
  }
  bool laneVar(const Expr *E) {
    if (const auto *DR = dyn_cast<DeclRefExpr>(E->IgnoreParenImpCasts()))
      if (const auto *VD = dyn_cast<VarDecl>(DR->getDecl()))
        return LaneVars.count(VD) > 0;
    return false;
  }
  bool fromBallot(const Expr *E) {
    return mentions(E, [&](const Stmt *S) {
      if (const auto *CE = dyn_cast<CallExpr>(S))
        if (const FunctionDecl *F = callee(CE))
          return F->getName() == "__ballot";
      if (const auto *DR = dyn_cast<DeclRefExpr>(S))
        if (const auto *VD = dyn_cast<VarDecl>(DR->getDecl()))
          return VD->hasInit() && VD != nullptr && Ballots.count(VD) > 0;
      return false;
    });
  }
  std::set<const VarDecl *> Ballots;

public:
  /// Ballot shifts by 32 already reported by PK6034.
  std::set<const BinaryOperator *> BallotHalves;

private:
  bool shufflesBy(const Stmt *Body, const VarDecl *V) {
    return mentions(Body, [&](const Stmt *S) {
      const auto *CE = dyn_cast<CallExpr>(S);
      const FunctionDecl *F = CE ? callee(CE) : nullptr;
      if (!F || !isShuffle(F->getName()) || CE->getNumArgs() < 2)
        return false;
      const auto *DR =
          dyn_cast<DeclRefExpr>(CE->getArg(1)->IgnoreParenImpCasts());
      return DR && DR->getDecl() == V;
    });
  }

  /// The variables of the thread index, the lane variables (thread index &
  /// 63 or % 64), the ballots, the shared arrays indexed by lane or wave;
  /// whether the function is wave-64 code.
  void collect(const Stmt *Body) {
    std::function<void(const Stmt *)> W = [&](const Stmt *S) {
      if (!S)
        return;
      if (const auto *DS = dyn_cast<DeclStmt>(S))
        for (const Decl *D : DS->decls())
          if (const auto *VD = dyn_cast<VarDecl>(D))
            if (const Expr *I = VD->getInit()) {
              if (tidish(I))
                Tid.insert(VD);
              const auto *BO =
                  dyn_cast<BinaryOperator>(I->IgnoreParenImpCasts());
              if (BO && tidish(BO->getLHS()) &&
                  ((BO->getOpcode() == BO_And && waveLit(BO->getRHS(), 63)) ||
                   (BO->getOpcode() == BO_Rem && waveLit(BO->getRHS(), 64))))
                LaneVars.insert(VD);
              if (BO && tidish(BO->getLHS()) &&
                  ((BO->getOpcode() == BO_Shr && waveLit(BO->getRHS(), 6)) ||
                   (BO->getOpcode() == BO_Div && waveLit(BO->getRHS(), 64))))
                WaveVars.insert(VD);
              if (mentions(I, [](const Stmt *X) {
                    const auto *CE = dyn_cast<CallExpr>(X);
                    const FunctionDecl *F = CE ? callee(CE) : nullptr;
                    return F && F->getName() == "__ballot";
                  }))
                Ballots.insert(VD);
            }
      if (const auto *BO = dyn_cast<BinaryOperator>(S)) {
        const Expr *R = BO->getRHS();
        BinaryOperatorKind Op = BO->getOpcode();
        if (tidish(BO->getLHS()) && ((Op == BO_And && waveLit(R, 63)) ||
                                     (Op == BO_Rem && waveLit(R, 64)) ||
                                     (Op == BO_Div && waveLit(R, 64)) ||
                                     (Op == BO_Shr && waveLit(R, 6))))
          Wave64 = true;
      }
      if (const auto *CE = dyn_cast<CallExpr>(S))
        if (const FunctionDecl *F = callee(CE))
          if (isShuffle(F->getName()) && CE->getNumArgs() >= 3 &&
              !isa<CXXDefaultArgExpr>(CE->getArg(2)) &&
              waveLit(CE->getArg(2), 64))
            Wave64 = true;
      if (const auto *AS = dyn_cast<ArraySubscriptExpr>(S))
        if (const auto *DR =
                dyn_cast<DeclRefExpr>(AS->getBase()->IgnoreParenImpCasts()))
          if (const auto *VD = dyn_cast<VarDecl>(DR->getDecl()))
            if (mentions(AS->getIdx(), [&](const Stmt *X) {
                  const auto *R = dyn_cast<DeclRefExpr>(X);
                  const auto *V = R ? dyn_cast<VarDecl>(R->getDecl()) : nullptr;
                  return V && (LaneVars.count(V) || WaveVars.count(V));
                }))
              SlotArrays.insert(VD);
      for (const Stmt *C : S->children())
        W(C);
    };
    W(Body);
  }

  void narrow(const Expr *E, llvm::StringRef New, llvm::StringRef Why) {
    E = E->IgnoreParenImpCasts();
    SourceLocation L = TC.SM().getSpellingLoc(E->getBeginLoc());
    if (!TC.isUserLoc(L) || inReverted(L))
      return;
    std::string F = TC.fileOf(L);
    unsigned O = TC.SM().getFileOffset(L);
    if (!Done.insert({F, O}).second || cuda::coveredByEdit(TC, F, O))
      return;
    unsigned Len =
        Lexer::MeasureTokenLength(L, TC.SM(), TC.Ctx().getLangOpts());
    TC.edit(F, O, Len, New, RuleId::PK6033, Why);
  }

  void width(const CallExpr *CE) {
    if (CE->getNumArgs() < 3 || isa<CXXDefaultArgExpr>(CE->getArg(2)))
      return;
    const Expr *W = CE->getArg(2);
    Expr::EvalResult R;
    bool Known = !W->isValueDependent() && W->EvaluateAsInt(R, TC.Ctx());
    if (!Known || R.Val.getInt().getZExtValue() <= 32)
      return;
    SourceLocation A1 = CE->getArg(1)->getEndLoc(), A2 = W->getEndLoc();
    if (!A1.isFileID() || !A2.isFileID() || !TC.isUserLoc(A1) || inReverted(A1))
      return;
    const SourceManager &SM = TC.SM();
    const LangOptions &LO = TC.Ctx().getLangOpts();
    SourceLocation From = Lexer::getLocForEndOfToken(A1, 0, SM, LO);
    SourceLocation To = Lexer::getLocForEndOfToken(A2, 0, SM, LO);
    std::string F = TC.fileOf(From);
    unsigned O = SM.getFileOffset(From);
    if (cuda::coveredByEdit(TC, F, O))
      return; // the statement is removed (the offset-32 step)
    TC.edit(F, O, SM.getFileOffset(To) - O, "", RuleId::PK6032,
            llvm::formatv("a shuffle width of {0} lanes is the whole wave on "
                          "HIP; in CUDA the whole 32-lane warp is the default "
                          "width (widths above warpSize are undefined)",
                          R.Val.getInt().getZExtValue())
                .str());
  }
};

/// `#define WARP_SIZE 64` (or WAVE_SIZE, ...): the warp width of the code.
void warpSizeMacros(TargetContext &TC, const std::string &File,
                    std::set<std::pair<std::string, unsigned>> &Done) {
  llvm::StringRef Buf = TC.contents(File);
  forEachDirective(Buf, [&](const Directive &D) {
    if (D.Keyword != "define")
      return;
    llvm::StringRef Rest = D.Rest;
    size_t Sp = Rest.find_first_of(" \t");
    if (Sp == llvm::StringRef::npos)
      return;
    llvm::StringRef Name = Rest.take_front(Sp);
    llvm::StringRef Body = Rest.drop_front(Sp).trim();
    std::string Up = Name.upper();
    bool Width = (llvm::StringRef(Up).contains("WARP") ||
                  llvm::StringRef(Up).contains("WAVE")) &&
                 (llvm::StringRef(Up).ends_with("SIZE") ||
                  llvm::StringRef(Up).ends_with("WIDTH") ||
                  llvm::StringRef(Up).ends_with("LANES"));
    if (!Width || Body != "64")
      return;
    unsigned Off =
        Rest.drop_front(Sp).data() - Buf.data() +
        (Rest.drop_front(Sp).size() - Rest.drop_front(Sp).ltrim().size());
    Done.insert({File, Off});
    TC.edit(File, Off, 2, "32", RuleId::PK6033,
            llvm::formatv("{0} is the width of a 64-lane wave; a CUDA warp "
                          "has 32 lanes",
                          Name)
                .str());
  });
}

/// PK6045: what still needs a 64-lane wave after the narrowing.
class Wave64OnlyVisitor : public DynamicASTVisitor {
public:
  Wave64OnlyVisitor(TargetContext &TC, const WidthVisitor &W) : TC(TC), W(W) {}

  bool TraverseFunctionDecl(FunctionDecl *FD) override {
    if (!FD->doesThisDeclarationHaveABody() || !TC.isUserLoc(FD->getLocation()))
      return DynamicASTVisitor::TraverseFunctionDecl(FD);
    // An MFMA GEMM mapped to WMMA keeps its 64-lane wave numbers (PK6044).
    if (cuda::mfmaGemmKernel(TC, FD))
      return true;
    Ballots.clear();
    Loops.clear();
    In = true;
    bool R = DynamicASTVisitor::TraverseFunctionDecl(FD);
    In = false;
    return R;
  }

  bool TraverseForStmt(ForStmt *FS) override {
    Loops.push_back(FS);
    bool R = DynamicASTVisitor::TraverseForStmt(FS);
    Loops.pop_back();
    return R;
  }

  bool VisitVarDecl(VarDecl *VD) override {
    if (!In)
      return true;
    if (const Expr *I = VD->getInit())
      if (mentionsBallot(I))
        Ballots.insert(VD);
    // constexpr int kWaveSize = 64; (a #define is narrowed by PK6033)
    if (VD->getInit() && VD->getType().isConstQualified() &&
        VD->getType()->isIntegerType() && waveSizeName(VD->getName()))
      if (std::optional<uint64_t> V = value(VD->getInit()); V && *V == 64)
        report(VD->getInit(),
               llvm::formatv("'{0}' holds the 64 lanes of a wave: lane and "
                             "wave arithmetic with it is not narrowed to "
                             "32-lane warps",
                             VD->getName())
                   .str());
    return true;
  }

  /// enum { kWarpSize = 64 }; (outside functions too)
  bool VisitEnumConstantDecl(EnumConstantDecl *ED) override {
    if (!ED->getInitExpr() || !TC.isUserLoc(ED->getLocation()))
      return true;
    if (waveSizeName(ED->getName()) && ED->getInitVal() == 64)
      report(ED->getInitExpr(),
             llvm::formatv("'{0}' holds the 64 lanes of a wave: lane and "
                           "wave arithmetic with it is not narrowed to "
                           "32-lane warps",
                           ED->getName())
                 .str());
    return true;
  }

  bool VisitCallExpr(CallExpr *CE) override {
    const FunctionDecl *F = In ? callee(CE) : nullptr;
    if (!F)
      return true;
    llvm::StringRef N = F->getName();
    bool Sync = N.consume_back("_sync");
    unsigned Base = Sync ? 1 : 0;
    if (Sync &&
        (isShuffle(N) || N == "__ballot" || N == "__any" || N == "__all") &&
        CE->getNumArgs() > 0)
      if (std::optional<uint64_t> M = value(CE->getArg(0));
          M && (*M >> 32) && *M != ~0ull)
        report(CE->getArg(0),
               llvm::formatv("the lane mask {0:x} names lanes 32-63 of a "
                             "64-lane wave: a CUDA warp has lanes 0-31 only "
                             "(the mask is truncated to 32 bits)",
                             *M)
                   .str());
    if (!isShuffle(N) || CE->getNumArgs() < Base + 2 || W.Reported.count(CE))
      return true;
    // The width: the whole wave (64) unless a constant says otherwise.
    uint64_t Width = 64;
    if (CE->getNumArgs() > Base + 2 &&
        !isa<CXXDefaultArgExpr>(CE->getArg(Base + 2))) {
      const Expr *WE = CE->getArg(Base + 2);
      std::optional<uint64_t> WV = value(WE);
      if (!WV)
        return true; // warpSize, or a width known at run time
      Width = *WV;
      if (Width > 32 && !edited(WE))
        report(WE, llvm::formatv("a shuffle width of {0} lanes needs a "
                                 "64-lane wave and is not narrowed here: "
                                 "CUDA leaves widths above 32 undefined",
                                 Width)
                       .str());
    }
    if (Width <= 32)
      return true;
    const Expr *A = CE->getArg(Base + 1);
    llvm::StringRef What = N == "__shfl" ? "source lane" : "lane offset";
    if (std::optional<uint64_t> V = value(A)) {
      if (*V >= 32 && !edited(A))
        report(A, llvm::formatv("a shuffle {0} of {1} reaches into lanes "
                                "32-63 of a 64-lane wave: on a 32-lane warp "
                                "it wraps to lane {2} (or reads the lane "
                                "itself)",
                                What, *V, *V % 32)
                      .str());
      return true;
    }
    // A loop variable: its first value, or the bound it runs to.
    const auto *DR = dyn_cast<DeclRefExpr>(A->IgnoreParenImpCasts());
    const auto *LV = DR ? dyn_cast<VarDecl>(DR->getDecl()) : nullptr;
    if (!LV)
      return true;
    for (const ForStmt *FS : Loops) {
      const auto *DS = dyn_cast_or_null<DeclStmt>(FS->getInit());
      if (!DS || !DS->isSingleDecl() || DS->getSingleDecl() != LV)
        continue;
      if (const Expr *I = LV->getInit())
        if (std::optional<uint64_t> V = value(I); V && *V >= 32 && !edited(I))
          report(I, llvm::formatv("the {0} loop starts at {1}: lanes 32-63 "
                                  "of a 64-lane wave, which a 32-lane warp "
                                  "does not have",
                                  What, *V)
                        .str());
      if (const auto *C = dyn_cast_or_null<BinaryOperator>(FS->getCond()))
        if ((C->getOpcode() == BO_LT || C->getOpcode() == BO_LE) &&
            refersTo(C->getLHS(), LV))
          if (std::optional<uint64_t> V = value(C->getRHS());
              V && (C->getOpcode() == BO_LT ? *V > 32 : *V >= 32) &&
              !edited(C->getRHS()))
            report(C->getRHS(),
                   llvm::formatv("the {0} loop runs to {1}: lanes 32-63 of a "
                                 "64-lane wave, which a 32-lane warp does not "
                                 "have",
                                 What, *V)
                       .str());
      break;
    }
    return true;
  }

  bool VisitBinaryOperator(BinaryOperator *BO) override {
    if (!In || W.BallotHalves.count(BO))
      return true;
    BinaryOperatorKind Op = BO->getOpcode();
    const Expr *L = BO->getLHS(), *R = BO->getRHS();
    std::optional<uint64_t> RV = value(R), LV = value(L);
    const Expr *Ballot = nullptr;
    std::optional<uint64_t> C;
    if (RV && mentionsBallot(L)) {
      Ballot = L;
      C = RV;
    } else if (LV && mentionsBallot(R) && Op != BO_Shr) {
      Ballot = R;
      C = LV;
    }
    if (!Ballot)
      return true;
    const Expr *Const = Ballot == L ? R : L;
    if (Op == BO_Shr && *C >= 32)
      report(Const, llvm::formatv("a ballot shifted by {0} reads lanes "
                                  "32-63 of a 64-lane wave: a CUDA warp has "
                                  "no such lanes (they are 0)",
                                  *C)
                        .str());
    else if ((Op == BO_And || Op == BO_Or || Op == BO_Xor) && (*C >> 32))
      report(Const, llvm::formatv("a ballot combined with {0:x} uses lanes "
                                  "32-63 of a 64-lane wave: a CUDA warp has "
                                  "no such lanes (they are 0)",
                                  *C)
                        .str());
    else if (BO->isComparisonOp() && *C > 32)
      report(Const, llvm::formatv("a ballot or its count compared with {0} "
                                  "assumes a 64-lane wave: a CUDA warp has "
                                  "32 lanes",
                                  *C)
                        .str());
    return true;
  }

private:
  TargetContext &TC;
  const WidthVisitor &W;
  bool In = false;
  std::set<const VarDecl *> Ballots;
  std::vector<const ForStmt *> Loops;
  std::map<std::string, std::vector<cuda::HelperBlock>> Blocks;
  std::set<std::pair<std::string, unsigned>> Seen;

  /// The value of a constant operand; none for one written with warpSize,
  /// which is the warp's own width on either side (warpSize / 2 is 16 in
  /// CUDA).
  std::optional<uint64_t> value(const Expr *E) {
    Expr::EvalResult R;
    if (E->isValueDependent() || mentionsWarpSize(E) ||
        !E->EvaluateAsInt(R, TC.Ctx()))
      return std::nullopt;
    return R.Val.getInt().getZExtValue();
  }
  /// WARP_SIZE, kWaveSize, WAVE_WIDTH, kWarpLanes, ...
  static bool waveSizeName(llvm::StringRef N) {
    std::string Up = N.upper();
    llvm::StringRef U(Up);
    return (U.contains("WARP") || U.contains("WAVE")) &&
           (U.ends_with("SIZE") || U.ends_with("WIDTH") ||
            U.ends_with("LANES"));
  }
  static bool mentionsWarpSize(const Stmt *S) {
    if (!S)
      return false;
    if (const auto *DR = dyn_cast<DeclRefExpr>(S))
      if (DR->getDecl()->getIdentifier() &&
          DR->getDecl()->getName() == "warpSize")
        return true;
    for (const Stmt *C : S->children())
      if (mentionsWarpSize(C))
        return true;
    return false;
  }
  static bool refersTo(const Expr *E, const VarDecl *V) {
    const auto *DR = dyn_cast<DeclRefExpr>(E->IgnoreParenImpCasts());
    return DR && DR->getDecl() == V;
  }
  bool mentionsBallot(const Stmt *S) {
    if (!S)
      return false;
    if (const auto *CE = dyn_cast<CallExpr>(S))
      if (const FunctionDecl *F = callee(CE))
        if (F->getName() == "__ballot" || F->getName() == "__ballot_sync" ||
            F->getName() == "__activemask")
          return true;
    if (const auto *DR = dyn_cast<DeclRefExpr>(S))
      if (const auto *VD = dyn_cast<VarDecl>(DR->getDecl()))
        return Ballots.count(VD) > 0;
    for (const Stmt *C : S->children())
      if (mentionsBallot(C))
        return true;
    return false;
  }
  /// The place a construct is written (a macro argument where it is
  /// written, else where the macro is used).
  SourceLocation where(const Expr *E) {
    SourceLocation L = E->IgnoreParenImpCasts()->getBeginLoc();
    return TC.SM().getFileLoc(L);
  }
  /// True when PK6032/PK6033 (or any other edit) changed the operand, or
  /// removed the statement it is in.
  bool edited(const Expr *E) {
    SourceLocation L =
        TC.SM().getSpellingLoc(E->IgnoreParenImpCasts()->getBeginLoc());
    std::string F = TC.fileOf(L);
    return !F.empty() && cuda::coveredByEdit(TC, F, TC.SM().getFileOffset(L));
  }
  bool inReverted(SourceLocation L) {
    L = TC.SM().getSpellingLoc(L);
    std::string F = TC.fileOf(L);
    if (F.empty())
      return false;
    auto It = Blocks.find(F);
    if (It == Blocks.end())
      It = Blocks.emplace(F, cuda::helperBlocks(TC.contents(F))).first;
    return cuda::inRevertedBlock(It->second, TC.SM().getFileOffset(L));
  }
  void report(const Expr *E, const std::string &Msg) {
    SourceLocation L = where(E);
    if (!TC.isUserLoc(L) || inReverted(E->getBeginLoc()))
      return;
    std::string F = TC.fileOf(L);
    if (!Seen.insert({F, TC.SM().getFileOffset(L)}).second)
      return;
    TC.finding(L, RuleId::PK6045, Severity::Warning, Msg);
  }
};

} // namespace

void cuda::fromHipWarpWidth(TargetContext &TC) {
  if (TC.PF.Language != Lang::HIP)
    return;
  WidthVisitor V(TC);
  for (const std::string &File : TC.PF.UserFiles)
    warpSizeMacros(TC, File, V.Done);
  V.TraverseDecl(TC.Ctx().getTranslationUnitDecl());
  Wave64OnlyVisitor C(TC, V);
  C.TraverseDecl(TC.Ctx().getTranslationUnitDecl());
}
