//===- Wave64WarpSize.cpp - warpSize on 64-lane waves ---------------------===//
// Rules: PK2004, PK2011
//
// warpSize in device code is 64 on CDNA and no constant expression from
// ROCm 7: it becomes the constant of the strategy of the code it is written
// in (PK2004: 32 for logical warps, 64 for native warps).  The lexer pass
// covers macro bodies as written.  The device property (prop.warpSize) is 64
// on CDNA GPUs: where every kernel of the translation unit keeps 32-lane
// logical warps, host code that sizes work by it gets the logical width
// (PK2004: `prop.warpSize` -> `pk_warpSize`); otherwise it gets a finding
// (PK2011).
//
//===----------------------------------------------------------------------===//
#include "Wave64Rewrite.h"

#include "pk/DynamicVisitor.h"
#include "clang/Basic/SourceManager.h"
#include "clang/Lex/Lexer.h"
#include <map>

using namespace pk;
using namespace pk::hip;
using namespace clang;

const char *const Wave64Rewriter::NativeHelpers = R"pk(
#ifndef PK_NATIVE_WAVE64_HELPERS
#define PK_NATIVE_WAVE64_HELPERS
// port-kernel: native 64-lane warps (CDNA wavefronts) [PK2004, PK2021]
static constexpr int pk_waveSize = 64;
#endif // PK_NATIVE_WAVE64_HELPERS
)pk";

namespace {
/// `x.warpSize` / `p->warpSize` of cudaDeviceProp or hipDeviceProp_t in the
/// user's files, by the file offset of the member name.
class DevicePropWarpSize : public DynamicASTVisitor {
public:
  DevicePropWarpSize(TargetContext &TC) : TC(TC) {}
  std::map<std::pair<std::string, unsigned>, const MemberExpr *> Found;
  void run() {
    for (Decl *D : TC.userTopLevelDecls())
      TraverseDecl(D);
  }
  bool VisitMemberExpr(MemberExpr *ME) override {
    const auto *FD = dyn_cast<FieldDecl>(ME->getMemberDecl());
    if (!FD || FD->getName() != "warpSize")
      return true;
    llvm::StringRef R = FD->getParent()->getName();
    if (!R.starts_with("cudaDeviceProp") && !R.starts_with("hipDeviceProp"))
      return true;
    const SourceManager &SM = TC.Ctx().getSourceManager();
    SourceLocation L = ME->getMemberLoc();
    if (L.isMacroID())
      return true;
    Found[{TC.fileOf(L), SM.getFileOffset(L)}] = ME;
    return true;
  }

private:
  TargetContext &TC;
};
} // namespace

void Wave64Rewriter::warpSizePass() {
  const LangOptions &L = LO();
  bool AnyNative = A.anyNative(), AnyLogical = A.anyLogical();
  std::optional<DevicePropWarpSize> Props;
  for (const std::string &File : TC.PF.UserFiles) {
    llvm::StringRef Buf = TC.contents(File);
    Lexer Lx(SourceLocation::getFromRawEncoding(1), L, Buf.begin(), Buf.begin(),
             Buf.end());
    Token Tok;
    bool AfterMember = false;
    while (!Lx.LexFromRawLexer(Tok)) {
      bool Member = AfterMember;
      AfterMember = Tok.isOneOf(tok::period, tok::arrow);
      if (!Tok.is(tok::raw_identifier) || Tok.getRawIdentifier() != "warpSize")
        continue;
      unsigned Off = Tok.getLocation().getRawEncoding() - 1;
      if (Member && AnyLogical && !AnyNative) {
        // Every kernel keeps 32-lane logical warps: the host sizes their
        // work with the width they use.
        if (!Props) {
          Props.emplace(TC);
          Props->run();
        }
        auto It = Props->Found.find({File, Off});
        if (It != Props->Found.end() &&
            TC.replace(It->second->getSourceRange(), "pk_warpSize",
                       RuleId::PK2004,
                       "the device property warpSize is 64 on CDNA GPUs; "
                       "every kernel of this port keeps 32-lane logical "
                       "warps, whose width the host sizes their work by")) {
          TC.Helpers[File][HelperKey{RuleId::PK2002, "logical32"}] =
              Logical32Helpers;
          continue;
        }
      }
      if (Member) {
        std::string Msg =
            AnyNative && !AnyLogical
                ? "the device property warpSize is 64 on CDNA GPUs, the "
                  "width of the native warps of this port"
            : AnyNative ? "the device property warpSize is 64 on CDNA GPUs; "
                          "some kernels of this port keep 32-lane logical "
                          "warps: host code that sizes their work by it must "
                          "use 32"
                        : "the device property warpSize is 64 on CDNA GPUs, "
                          "while the kernels of this port keep 32-lane logical "
                          "warps; host code that sizes work by it must use 32";
        TC.finding(File, Off, RuleId::PK2011, Severity::Warning, Msg);
        continue;
      }
      bool Logical = A.strategyAtOffset(File, Off) != Wave64Strategy::Native;
      if (Logical) {
        TC.edit(File, Off, 8, "pk_warpSize", RuleId::PK2004,
                "warpSize is 64 on CDNA and not a constant expression from "
                "ROCm 7; the logical warp width is the constant 32");
        TC.Helpers[File][HelperKey{RuleId::PK2002, "logical32"}] =
            Logical32Helpers;
      } else {
        TC.edit(File, Off, 8, "pk_waveSize", RuleId::PK2004,
                "warpSize is not a constant expression from ROCm 7; the "
                "native warp width is the constant 64");
        TC.Helpers[File][HelperKey{RuleId::PK2020, "native"}] = NativeHelpers;
      }
    }
  }
}
