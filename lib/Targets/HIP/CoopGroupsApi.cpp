//===- CoopGroupsApi.cpp - cooperative-groups API HIP lacks or changes ----===//
// Rules: PK1013
//
// Cooperative groups that HIP's headers (ROCm 5.2 and 6.3) do not declare,
// or declare with other semantics on a 64-lane wave, are flagged at each
// use; nothing is rewritten.  Tiles (thread_block_tile<N>,
// tiled_partition<N>) and cg::reduce are the wave-64 rules' business
// (PK2005): their meta_group_rank/meta_group_size come with __pk_tile<N>.
//
//===----------------------------------------------------------------------===//
#include "HipPasses.h"

#include "pk/DynamicVisitor.h"
#include "clang/AST/ASTContext.h"
#include "clang/AST/DeclCXX.h"
#include "clang/AST/ExprCXX.h"
#include "clang/Basic/SourceManager.h"
#include "clang/Lex/Lexer.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/Support/FormatVariadic.h"

using namespace pk;
using namespace clang;

namespace {

/// Names whose every use is flagged, and why.
const llvm::StringMap<const char *> &flaggedNames() {
  static const llvm::StringMap<const char *> M = {
      {"labeled_partition",
       "HIP has no labeled_partition (ROCm 5.2 and 6.3); group the lanes by "
       "their label explicitly"},
      {"binary_partition",
       "HIP has no binary_partition in ROCm 5.2, and ROCm 6.3 declares it "
       "only with HIP_ENABLE_WARP_SYNC_BUILTINS defined; group the lanes by "
       "their predicate explicitly (a ballot over the group's lanes)"},
      {"block_tile_memory",
       "HIP has no block_tile_memory: its thread_block_tile holds at most one "
       "wave (64 threads); tiles larger than that need another decomposition"},
      {"coalesced_threads",
       "on a 64-lane wave HIP's coalesced_threads() holds the active lanes of "
       "the whole wave (up to 64, 64-bit lane masks), not of a 32-lane warp; "
       "code that assumes at most 32 lanes or a 32-bit mask differs"},
      {"coalesced_group",
       "on a 64-lane wave a HIP coalesced_group holds up to 64 lanes with "
       "64-bit lane masks; code that assumes at most 32 lanes differs"},
  };
  return M;
}

/// g.meta_group_rank() / g.meta_group_size() on a group that is not a
/// thread_block_tile: ROCm 5.2 declares neither.
class MetaGroupCalls : public DynamicASTVisitor {
public:
  explicit MetaGroupCalls(TargetContext &TC) : TC(TC) {}
  bool VisitCXXMemberCallExpr(CXXMemberCallExpr *MC) override {
    const CXXMethodDecl *MD = MC->getMethodDecl();
    if (!MD || !MD->getIdentifier() ||
        (MD->getName() != "meta_group_rank" &&
         MD->getName() != "meta_group_size"))
      return true;
    if (!TC.isUserLoc(TC.SM().getFileLoc(MC->getBeginLoc())))
      return true;
    const CXXRecordDecl *RD = MC->getRecordDecl();
    for (const CXXRecordDecl *R = RD; R;) {
      if (R->getName().contains("thread_block_tile"))
        return true; // a tile: __pk_tile<N> has both
      R = R->getNumBases() ? R->bases_begin()->getType()->getAsCXXRecordDecl()
                           : nullptr;
    }
    TC.finding(MC->getExprLoc(), RuleId::PK1013, Severity::Warning,
               llvm::formatv("{0}() of '{1}': ROCm 5.2's cooperative groups "
                             "declare it only for thread_block_tile (ROCm 6 "
                             "for every tiled group)",
                             MD->getName(), RD ? RD->getName() : "?")
                   .str());
    return true;
  }

private:
  TargetContext &TC;
};

} // namespace

void pk::hip::flagCoopGroupsApi(TargetContext &TC) {
  if (TC.PF.Language == Lang::HIP)
    return;
  const LangOptions &LO = TC.Ctx().getLangOpts();
  for (const std::string &File : TC.PF.UserFiles) {
    llvm::StringRef Buf = TC.contents(File);
    if (!Buf.contains("cooperative_groups") && !Buf.contains("cg::"))
      continue;
    Lexer L(SourceLocation::getFromRawEncoding(1), LO, Buf.begin(), Buf.begin(),
            Buf.end());
    Token Tok;
    bool Directive = false;
    while (!L.LexFromRawLexer(Tok)) {
      if (Tok.isAtStartOfLine())
        Directive = Tok.is(tok::hash);
      if (Directive || Tok.isNot(tok::raw_identifier))
        continue;
      auto It = flaggedNames().find(Tok.getRawIdentifier());
      if (It == flaggedNames().end())
        continue;
      TC.finding(File, Tok.getLocation().getRawEncoding() - 1, RuleId::PK1013,
                 Severity::Warning,
                 llvm::formatv("cg::{0}: {1}", It->first(), It->second).str());
    }
  }
  MetaGroupCalls V(TC);
  V.TraverseAST(TC.Ctx());
}
