//===- HostMath.cpp - CUDA math that HIP declares for the device only -----===//
// Rules: PK1015
//
// CUDA declares rsqrtf, rcbrtf, sinpif, normcdff, erfinvf, norm3df and the
// rest of their kind __host__ __device__; HIP (clang's __clang_hip_math.h,
// ROCm 5.2 and 6.3) declares them for the device only, so a host call does
// not compile.  In host functions the reciprocal roots become the
// expressions CUDA's host versions compute (rsqrtf(x) -> (1.0f /
// sqrtf(x))); every
// other host use, and every use in a __host__ __device__ function (whose
// host side would need it), is flagged at the call.
//
//===----------------------------------------------------------------------===//
#include "HipPasses.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/Attr.h"
#include "clang/AST/Expr.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/Basic/SourceManager.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/Support/FormatVariadic.h"

using namespace pk;
using namespace clang;

namespace {

/// CUDA __host__ __device__ math that HIP declares for the device only
/// (each checked with clang 19 against ROCm 5.2's headers, host side).
const llvm::StringSet<> &deviceOnlyMath() {
  static const llvm::StringSet<> S = {
      "rsqrtf",        "rsqrt",        "rcbrtf",         "rcbrt",
      "sinpif",        "sinpi",        "cospif",         "cospi",
      "sincospif",     "sincospi",     "normcdff",       "normcdf",
      "normcdfinvf",   "normcdfinv",   "erfinvf",        "erfinv",
      "erfcinvf",      "erfcinv",      "erfcxf",         "erfcx",
      "norm3df",       "norm3d",       "rnorm3df",       "rnorm3d",
      "norm4df",       "norm4d",       "rnorm4df",       "rnorm4d",
      "rhypotf",       "rhypot",       "normf",          "norm",
      "rnormf",        "rnorm",        "cyl_bessel_i0f", "cyl_bessel_i1f",
      "cyl_bessel_i0", "cyl_bessel_i1"};
  return S;
}

class HostMathCalls : public RecursiveASTVisitor<HostMathCalls> {
public:
  explicit HostMathCalls(TargetContext &TC) : TC(TC) {}
  bool shouldVisitTemplateInstantiations() const { return false; }

  bool TraverseFunctionDecl(FunctionDecl *FD) {
    const FunctionDecl *Old = Fn;
    Fn = FD;
    bool R = RecursiveASTVisitor::TraverseFunctionDecl(FD);
    Fn = Old;
    return R;
  }

  bool TraverseCXXMethodDecl(CXXMethodDecl *MD) {
    const FunctionDecl *Old = Fn;
    Fn = MD;
    bool R = RecursiveASTVisitor::TraverseCXXMethodDecl(MD);
    Fn = Old;
    return R;
  }

  bool VisitCallExpr(CallExpr *CE) {
    if (!Fn || Fn->hasAttr<CUDAGlobalAttr>())
      return true;
    bool Device = Fn->hasAttr<CUDADeviceAttr>();
    bool Host = Fn->hasAttr<CUDAHostAttr>() || !Device;
    if (!Host)
      return true;
    const FunctionDecl *Callee = CE->getDirectCallee();
    if (!Callee || !Callee->getIdentifier() ||
        !deviceOnlyMath().count(Callee->getName()))
      return true;
    // Only the CUDA library function, not a user function of that name.
    if (TC.isUserLoc(Callee->getLocation()))
      return true;
    SourceLocation Loc = CE->getBeginLoc();
    if (!TC.isUserLoc(TC.SM().getFileLoc(Loc)))
      return true;
    llvm::StringRef Name = Callee->getName();
    if (!Device && rewrite(CE, Name))
      return true;
    TC.finding(Loc, RuleId::PK1015, Severity::Warning,
               llvm::formatv("{0}() is __host__ __device__ in CUDA but "
                             "device-only in HIP; {1} does not compile for "
                             "the host",
                             Name,
                             Device ? "the host side of this __host__ "
                                      "__device__ function"
                                    : "this host call")
                   .str());
    return true;
  }

private:
  TargetContext &TC;
  const FunctionDecl *Fn = nullptr;

  bool rewrite(const CallExpr *CE, llvm::StringRef Name) {
    std::string Text;
    auto Arg = [&](unsigned I) { return TC.text(CE->getArg(I)); };
    if ((Name == "rsqrtf" || Name == "rcbrtf") && CE->getNumArgs() == 1)
      Text = llvm::formatv("(1.0f / {0}({1}))",
                           Name == "rsqrtf" ? "sqrtf" : "cbrtf", Arg(0))
                 .str();
    else if ((Name == "rsqrt" || Name == "rcbrt") && CE->getNumArgs() == 1)
      Text = llvm::formatv("(1.0 / {0}({1}))",
                           Name == "rsqrt" ? "sqrt" : "cbrt", Arg(0))
                 .str();
    if (Text.empty())
      return false;
    return TC.replace(CE->getSourceRange(), Text, RuleId::PK1015,
                      llvm::formatv("{0}() is device-only in HIP: in host "
                                    "code it becomes the expression CUDA's "
                                    "host version computes",
                                    Name)
                          .str());
  }
};

} // namespace

void pk::hip::rewriteHostMath(TargetContext &TC) {
  if (TC.PF.Language == Lang::HIP)
    return;
  HostMathCalls V(TC);
  V.TraverseAST(TC.Ctx());
}
