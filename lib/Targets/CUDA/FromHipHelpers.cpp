//===- FromHipHelpers.cpp - port-kernel's HIP helpers back to CUDA --------===//
// Rules: PK6030, PK6031
//
// PK6030: the helper blocks port-kernel's HIP target inserts (32-lane logical
// warp votes, the __syncwarp helper, the warp-width constants, the lane
// helpers, the MFMA fragment helpers) are removed, and their calls go back to
// the CUDA forms they were written from: __pk_ballot32(p) ->
// __ballot_sync(mask, p), __pk_syncwarp() -> __syncwarp(), pk_warpSize ->
// warpSize, ...  The mask is the full warp where every lane of the warp
// reaches the call (no enclosing branch or early exit), __activemask()
// otherwise: the helper voted over the lanes that reach it.
//
// PK6031: HIP lane queries without a CUDA builtin (__lane_id(),
// __lanemask_lt/le/gt/eq()) become helpers that compute them for 32-lane
// warps from the linear thread index (CUDA forms warps of 32 consecutive
// threads of the block).
//
//===----------------------------------------------------------------------===//
#include "FromHip.h"
#include "RawTokens.h"

#include "pk/DynamicVisitor.h"
#include "clang/AST/ASTContext.h"
#include "clang/AST/ParentMapContext.h"
#include "clang/Basic/SourceManager.h"
#include "clang/Lex/Lexer.h"
#include "llvm/ADT/StringSwitch.h"
#include "llvm/Support/FormatVariadic.h"

#include <functional>
#include <map>
#include <set>

using namespace pk;
using namespace clang;
using pk::cuda::args;
using pk::cuda::lex;
using pk::cuda::Tok;

namespace {

const char *const LaneHelpers = R"pk(
#ifndef PK_CUDA_LANE_HELPERS
#define PK_CUDA_LANE_HELPERS
// port-kernel: HIP lane queries on 32-lane warps [PK6031]
__device__ static inline unsigned __pk_lane_id() {
  return (threadIdx.x + blockDim.x * (threadIdx.y + blockDim.y * threadIdx.z)) & 31u;
}
__device__ static inline unsigned __pk_lanemask_lt() { return (1u << __pk_lane_id()) - 1u; }
__device__ static inline unsigned __pk_lanemask_le() { return (2u << __pk_lane_id()) - 1u; }
__device__ static inline unsigned __pk_lanemask_eq() { return 1u << __pk_lane_id(); }
__device__ static inline unsigned __pk_lanemask_gt() { return ~__pk_lanemask_le(); }
__device__ static inline unsigned __pk_lanemask_ge() { return ~__pk_lanemask_lt(); }
#endif // PK_CUDA_LANE_HELPERS
)pk";

bool revertedGuard(llvm::StringRef G) {
  return G == "PK_LOGICAL_WARP32_HELPERS" || G == "PK_SYNCWARP_HELPER" ||
         G == "PK_NATIVE_WAVE64_HELPERS" || G == "PK_LOGICAL_LANE32_HELPERS" ||
         G == "PK_MFMA_WMMA" || G == "PK_MFMA_WMMA_OPS" ||
         G == "PK_MFMA_WMMA_F16" || G == "PK_MFMA_WMMA_BF16" ||
         G == "PK_MFMA_WARP_TILES";
}

/// Calls of the helpers and HIP intrinsics whose mask depends on whether the
/// whole warp reaches them: (file, offset of the callee) -> converged.
class HipConvergence : public DynamicASTVisitor {
public:
  HipConvergence(TargetContext &TC) : TC(TC) {}
  std::map<std::pair<std::string, unsigned>, bool> AtCall;

  bool VisitCallExpr(CallExpr *CE) override {
    const FunctionDecl *FD = CE->getDirectCallee();
    if (!FD || !FD->getIdentifier())
      return true;
    llvm::StringRef N = FD->getName();
    if (!N.starts_with("__pk_") && !N.starts_with("__shfl") &&
        !N.starts_with("__ballot") && N != "__any" && N != "__all")
      return true;
    SourceLocation L = CE->getBeginLoc();
    if (!L.isFileID() || !TC.isUserLoc(L))
      return true;
    AtCall[{TC.fileOf(L), TC.SM().getFileOffset(L)}] = converged(CE);
    return true;
  }

private:
  TargetContext &TC;

  static bool mentionsThreadIdx(const Stmt *S) {
    if (!S)
      return false;
    if (const auto *DR = dyn_cast<DeclRefExpr>(S))
      if (DR->getDecl()->getIdentifier() &&
          DR->getDecl()->getName() == "threadIdx")
        return true;
    if (const auto *ME = dyn_cast<MemberExpr>(S))
      if (const auto *OV = dyn_cast<OpaqueValueExpr>(ME->getBase()))
        (void)OV;
    for (const Stmt *C : S->children())
      if (mentionsThreadIdx(C))
        return true;
    return false;
  }

  /// A loop condition every lane evaluates alike: it names only constants,
  /// template parameters, kernel parameters and variables the loop itself
  /// declares from such values.
  bool uniform(const Stmt *S, const ForStmt *Loop) {
    if (!S)
      return true;
    if (mentionsThreadIdx(S))
      return false;
    if (const auto *DR = dyn_cast<DeclRefExpr>(S)) {
      const ValueDecl *D = DR->getDecl();
      if (isa<EnumConstantDecl, NonTypeTemplateParmDecl, FunctionDecl>(D))
        return true;
      if (const auto *VD = dyn_cast<VarDecl>(D)) {
        if (VD->getType().isConstQualified() && VD->hasInit() &&
            !mentionsThreadIdx(VD->getInit()))
          return true;
        if (VD->isConstexpr())
          return true;
        if (const auto *PV = dyn_cast<ParmVarDecl>(VD)) {
          const auto *F = dyn_cast<FunctionDecl>(PV->getDeclContext());
          return F && F->hasAttr<CUDAGlobalAttr>();
        }
        if (VD->getName() == "warpSize")
          return true;
        if (Loop && Loop->getInit()) {
          if (const auto *DS = dyn_cast<DeclStmt>(Loop->getInit()))
            for (const Decl *X : DS->decls())
              if (X == VD)
                return !VD->hasInit() || uniform(VD->getInit(), nullptr);
        }
        return false;
      }
      return false;
    }
    for (const Stmt *C : S->children())
      if (!uniform(C, Loop))
        return false;
    return true;
  }

  bool converged(const CallExpr *CE) {
    ASTContext &Ctx = TC.Ctx();
    DynTypedNode Cur = DynTypedNode::create(*CE);
    const FunctionDecl *Fn = nullptr;
    while (true) {
      auto Ps = TC.parents(Cur);
      if (Ps.empty())
        break;
      DynTypedNode P = Ps[0];
      const Stmt *Child = Cur.get<Stmt>();
      if (const auto *FD = P.get<FunctionDecl>()) {
        Fn = FD;
        break;
      }
      if (const auto *IS = P.get<IfStmt>()) {
        if (Child != IS->getCond() && !uniform(IS->getCond(), nullptr))
          return false;
      } else if (const auto *CO = P.get<ConditionalOperator>()) {
        if (Child != CO->getCond())
          return false;
      } else if (const auto *BO = P.get<BinaryOperator>()) {
        if (BO->isLogicalOp() && Child == BO->getRHS())
          return false;
      } else if (P.get<WhileStmt>() || P.get<DoStmt>() || P.get<SwitchStmt>()) {
        return false;
      } else if (const auto *FS = P.get<ForStmt>()) {
        if (Child == FS->getBody() &&
            (!uniform(FS->getCond(), FS) || !uniform(FS->getInc(), FS)))
          return false;
      }
      Cur = P;
    }
    if (!Fn || !Fn->getBody())
      return false;
    // An early exit before the call leaves part of the warp behind.
    unsigned CallOff =
        TC.SM().getFileOffset(TC.SM().getFileLoc(CE->getBeginLoc()));
    bool Early = false;
    std::function<void(const Stmt *, bool)> Walk = [&](const Stmt *S,
                                                       bool InBranch) {
      if (!S || Early)
        return;
      if (isa<ReturnStmt>(S) && InBranch) {
        SourceLocation L = TC.SM().getFileLoc(S->getBeginLoc());
        if (TC.SM().getFileOffset(L) < CallOff)
          Early = true;
        return;
      }
      bool B = InBranch || isa<IfStmt, SwitchStmt, WhileStmt, DoStmt, ForStmt,
                               ConditionalOperator>(S);
      for (const Stmt *C : S->children())
        Walk(C, B);
    };
    Walk(Fn->getBody(), false);
    return !Early;
  }
};

/// Removes the lines of block \p B that no earlier pass edited (an include
/// line inside a helper block keeps its translated form).
void removeBlock(TargetContext &TC, const std::string &File,
                 const cuda::HelperBlock &B) {
  llvm::StringRef Buf = TC.contents(File);
  const FileEdits *FE = TC.Edits.find(File);
  // The blank line the HIP target put before the block goes with it.
  unsigned Begin = B.Begin;
  if (Begin > 0) {
    size_t PrevStart = Buf.take_front(Begin - 1).rfind('\n');
    PrevStart = PrevStart == llvm::StringRef::npos ? 0 : PrevStart + 1;
    if (PrevStart > 0 && Buf.slice(PrevStart, Begin).trim().empty() &&
        (!FE || FE->startingIn(PrevStart, Begin).empty()))
      Begin = PrevStart;
  }
  unsigned RunBegin = Begin;
  auto Flush = [&](unsigned End) {
    if (End > RunBegin)
      TC.edit(File, RunBegin, End - RunBegin, "", RuleId::PK6030,
              llvm::formatv("port-kernel's HIP helper block {0} is not needed "
                            "in CUDA: its calls go back to the CUDA forms",
                            B.Guard)
                  .str());
  };
  unsigned Pos = Begin;
  while (Pos < B.End) {
    size_t NL = Buf.find('\n', Pos);
    unsigned LineEnd = NL == llvm::StringRef::npos ? Buf.size() : NL + 1;
    if (LineEnd > B.End)
      LineEnd = B.End;
    bool Edited = FE && !FE->startingIn(Pos, LineEnd).empty();
    if (Edited) {
      Flush(Pos);
      RunBegin = LineEnd;
    }
    Pos = LineEnd;
  }
  Flush(B.End);
}

} // namespace

std::vector<cuda::HelperBlock> cuda::helperBlocks(llvm::StringRef Buf) {
  std::vector<HelperBlock> Out;
  std::vector<std::pair<unsigned, llvm::StringRef>> Lines;
  for (unsigned Pos = 0; Pos < Buf.size();) {
    size_t NL = Buf.find('\n', Pos);
    unsigned End = NL == llvm::StringRef::npos ? Buf.size() : NL + 1;
    Lines.push_back({Pos, Buf.slice(Pos, End).trim()});
    Pos = End;
  }
  for (size_t I = 0; I + 1 < Lines.size(); ++I) {
    llvm::StringRef L = Lines[I].second;
    if (!L.consume_front("#ifndef "))
      continue;
    llvm::StringRef G = L.trim();
    if (!G.starts_with("PK_") || Lines[I + 1].second != ("#define " + G).str())
      continue;
    std::string EndLine = ("#endif // " + G).str();
    for (size_t J = I + 2; J < Lines.size(); ++J) {
      if (Lines[J].second != EndLine)
        continue;
      HelperBlock B;
      B.Guard = G.str();
      B.Begin = Lines[I].first;
      B.End = J + 1 < Lines.size() ? Lines[J + 1].first : Buf.size();
      B.Reverted = revertedGuard(G);
      Out.push_back(B);
      I = J;
      break;
    }
  }
  return Out;
}

bool cuda::inRevertedBlock(const std::vector<HelperBlock> &Blocks,
                           unsigned Off) {
  for (const HelperBlock &B : Blocks)
    if (B.Reverted && Off >= B.Begin && Off < B.End)
      return true;
  return false;
}

bool cuda::coveredByEdit(const TargetContext &TC, llvm::StringRef File,
                         unsigned Off) {
  const FileEdits *FE = TC.Edits.find(File);
  if (!FE)
    return false;
  for (const Edit &E : FE->edits())
    if (E.Length && Off >= E.Offset && Off < E.Offset + E.Length)
      return true;
  return false;
}

void cuda::fromHipHelpers(TargetContext &TC) {
  if (TC.PF.Language != Lang::HIP)
    return;
  HipConvergence CV(TC);
  for (Decl *D : TC.userTopLevelDecls()) // user calls only
    CV.TraverseDecl(D);
  for (const std::string &File : TC.PF.UserFiles) {
    llvm::StringRef Buf = TC.contents(File);
    std::vector<HelperBlock> Blocks = helperBlocks(Buf);
    for (const HelperBlock &B : Blocks) {
      if (B.Reverted)
        removeBlock(TC, File, B);
      else if (B.Guard != "PK_MATH_CONSTANTS_H") // plain #defines: CUDA too
        TC.finding(File, B.Begin, RuleId::PK6030, Severity::Warning,
                   llvm::formatv("port-kernel's HIP helper block {0} is not "
                                 "turned back into CUDA: its HIP code stays",
                                 B.Guard)
                       .str());
    }
    auto T = lex(Buf, TC.Ctx().getLangOpts());
    bool NeedLane = false;
    for (size_t I = 0; I < T.size(); ++I) {
      if (T[I].Kind != tok::raw_identifier || inRevertedBlock(Blocks, T[I].Off))
        continue;
      if (I > 0 &&
          (T[I - 1].Kind == tok::period || T[I - 1].Kind == tok::arrow ||
           T[I - 1].Kind == tok::coloncolon))
        continue;
      llvm::StringRef N = T[I].Text;
      bool Call = I + 1 < T.size() && T[I + 1].Kind == tok::l_paren;
      if (N == "pk_warpSize" || N == "pk_waveSize") {
        TC.edit(File, T[I].Off, T[I].Len, "warpSize", RuleId::PK6030,
                N == "pk_warpSize"
                    ? "pk_warpSize is the 32-lane logical warp of the HIP "
                      "port: warpSize in CUDA"
                    : "pk_waveSize is the native 64-lane wave of the HIP "
                      "port: the warp is warpSize (32) lanes in CUDA");
        continue;
      }
      if (N == "hip_bfloat16" && !coveredByEdit(TC, File, T[I].Off)) {
        TC.edit(File, T[I].Off, T[I].Len, "__nv_bfloat16", RuleId::PK6030,
                "hip_bfloat16 is ROCm 5's bfloat16 (port-kernel's HIP output "
                "with --rocm-version=5): __nv_bfloat16 in CUDA, with the same "
                "float conversions");
        continue;
      }
      if (!Call)
        continue;
      auto It = CV.AtCall.find({File, T[I].Off});
      bool Conv = It != CV.AtCall.end() && It->second;
      std::string Mask = Conv ? "0xffffffffu" : "__activemask()";
      std::string New;
      bool WithMask = false;
      RuleId Rule = RuleId::PK6030;
      std::string Why;
      if (N == "__pk_ballot32" || N == "__pk_any32" || N == "__pk_all32") {
        llvm::StringRef Vote = N == "__pk_ballot32" ? "__ballot_sync"
                               : N == "__pk_any32"  ? "__any_sync"
                                                    : "__all_sync";
        New = (Vote + "(" + Mask + ", ").str();
        WithMask = true;
        Why = llvm::formatv("{0}(p) is the 32-lane vote of the HIP port: "
                            "{1}({2}, p){3}",
                            N, Vote, Mask,
                            Conv ? " (the whole warp reaches it)"
                                 : " (not every lane of the warp may "
                                   "reach it)")
                  .str();
      } else if (N == "__pk_activemask32") {
        New = "__activemask(";
        Why = "__pk_activemask32() is __activemask() of the 32-lane warp";
      } else if (N == "__pk_syncwarp") {
        New = "__syncwarp(";
        Why = "__pk_syncwarp() is the HIP form of __syncwarp()";
      } else if (N == "__pk_lane32" || N == "__lane_id") {
        New = "__pk_lane_id(";
        Rule = N == "__lane_id" ? RuleId::PK6031 : RuleId::PK6030;
        Why = "the lane's position in its 32-lane warp (CUDA has no "
              "__lane_id(); warps are 32 consecutive threads of the block)";
        NeedLane = true;
      } else if (N == "__pk_lanemask32") {
        // __pk_lanemask32(m): the logical warp's half of a wave mask; a
        // 32-lane warp's mask is all of it.
        New = "(unsigned)(";
        Why = "__pk_lanemask32(m) selects a 32-lane warp's half of a wave "
              "mask: the mask of a 32-lane warp is 32 bits";
      } else if (N.starts_with("__lanemask_")) {
        llvm::StringRef K = N.drop_front(11);
        if (K != "lt" && K != "le" && K != "gt" && K != "ge" && K != "eq")
          continue;
        New = ("__pk_lanemask_" + K + "(").str();
        Rule = RuleId::PK6031;
        Why = llvm::formatv("{0}() is the 32-bit lane mask of a 32-lane "
                            "warp (CUDA has no such builtin)",
                            N)
                  .str();
        NeedLane = true;
      } else {
        continue;
      }
      // The callee and its '(' (with the mask, the first argument).
      bool Empty =
          WithMask && I + 2 < T.size() && T[I + 2].Kind == tok::r_paren;
      if (Empty)
        continue;
      TC.edit(File, T[I].Off, T[I + 1].Off + 1 - T[I].Off, New, Rule, Why);
    }
    if (NeedLane)
      TC.Helpers[File][HelperKey{RuleId::PK6031, "lane"}] = LaneHelpers;
  }
}
