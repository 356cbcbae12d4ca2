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
// The operators of __half are the same case: CUDA defines them for the host
// (through float), HIP for the device only.  In host and __host__
// __device__ code, comparisons become comparisons of __half2float values
// and arithmetic (a + b, -a, a += b) is done in float and rounded back with
// __float2half, as CUDA's host versions compute; __half2 operators,
// increments and compound assignments to an lvalue with side effects are
// flagged.
//
//===----------------------------------------------------------------------===//
#include "HipPasses.h"

#include "pk/DynamicVisitor.h"
#include "clang/AST/ASTContext.h"
#include "clang/AST/Attr.h"
#include "clang/AST/Expr.h"
#include "clang/Basic/OperatorKinds.h"
#include "clang/Basic/SourceManager.h"
#include "clang/Lex/Lexer.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/Support/FormatVariadic.h"
#include <map>

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

class HostMathCalls : public DynamicASTVisitor {
public:
  explicit HostMathCalls(TargetContext &TC) : TC(TC) {}

  bool TraverseFunctionDecl(FunctionDecl *FD) override {
    const FunctionDecl *Old = Fn;
    Fn = FD;
    bool R = DynamicASTVisitor::TraverseFunctionDecl(FD);
    Fn = Old;
    return R;
  }

  bool TraverseCXXMethodDecl(CXXMethodDecl *MD) override {
    const FunctionDecl *Old = Fn;
    Fn = MD;
    bool R = DynamicASTVisitor::TraverseCXXMethodDecl(MD);
    Fn = Old;
    return R;
  }

  bool VisitCallExpr(CallExpr *CE) override {
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

  /// __half operators in host code: nvcc's cuda_fp16.hpp defines them for
  /// the host too (through float), HIP's headers for the device only.  The
  /// host side gets CUDA's host computation: comparisons of the two values
  /// as floats, arithmetic in float rounded back to __half (float holds the
  /// exact product and, for +, -, /, is wide enough that rounding twice
  /// gives the correctly rounded __half: the device's result too, so
  /// __host__ __device__ functions are rewritten as well).
  bool VisitCXXOperatorCallExpr(CXXOperatorCallExpr *OC) override {
    if (!Fn || Fn->hasAttr<CUDAGlobalAttr>())
      return true;
    bool Device = Fn->hasAttr<CUDADeviceAttr>();
    if (Device && !Fn->hasAttr<CUDAHostAttr>())
      return true;
    const auto *Callee = dyn_cast_or_null<FunctionDecl>(OC->getCalleeDecl());
    if (!Callee || TC.isUserLoc(Callee->getLocation()) || OC->getNumArgs() == 0)
      return true;
    llvm::StringRef T = halfType(OC->getArg(0)->getType());
    if (T.empty() && OC->getNumArgs() == 2)
      T = halfType(OC->getArg(1)->getType());
    if (T.empty())
      return true;
    SourceLocation Loc = TC.SM().getFileLoc(OC->getOperatorLoc());
    if (!TC.isUserLoc(Loc))
      return true;
    OverloadedOperatorKind K = OC->getOperator();
    const char *Spelling = getOperatorSpelling(K);
    auto Flag = [&](llvm::StringRef Why) {
      TC.finding(Loc, RuleId::PK1015, Severity::Warning,
                 llvm::formatv("operator{0} on {1} in {2} code: CUDA defines "
                               "it for the host, HIP for the device only; "
                               "{3}: write it with __half2float and "
                               "__float2half",
                               Spelling, T,
                               Device ? "__host__ __device__" : "host", Why)
                     .str());
      return true;
    };
    if (T != "__half")
      return Flag("not translated for the paired type");
    bool Cmp = K == OO_EqualEqual || K == OO_ExclaimEqual || K == OO_Less ||
               K == OO_LessEqual || K == OO_Greater || K == OO_GreaterEqual;
    bool Arith = K == OO_Plus || K == OO_Minus || K == OO_Star || K == OO_Slash;
    bool Compound = K == OO_PlusEqual || K == OO_MinusEqual ||
                    K == OO_StarEqual || K == OO_SlashEqual;
    if (!Cmp && !Arith && !Compound) {
      if (K == OO_PlusPlus || K == OO_MinusMinus)
        return Flag("increments are not translated");
      return true; // assignment, conversions: HIP has them on the host
    }
    // The edits of nested operators are joined per place (flush): every
    // place must be in the file as written.
    for (SourceLocation L :
         {OC->getBeginLoc(), OC->getEndLoc(), OC->getArg(0)->getBeginLoc(),
          OC->getArg(OC->getNumArgs() - 1)->getEndLoc()})
      if (L.isMacroID())
        return Flag("it is written in a macro");
    std::string Why =
        llvm::formatv("operator{0} on __half is device-only in HIP: the host "
                      "computes it as CUDA's host version does, through "
                      "float",
                      Spelling)
            .str();
    if (Arith && OC->getNumArgs() == 1) { // -a, +a
      add(OC->getBeginLoc(), "__float2half(", Why);
      wrap(OC->getArg(0), Why);
      add(endOf(OC), ")", Why);
      return true;
    }
    if (OC->getNumArgs() != 2)
      return true;
    if (Compound) {
      // a op= b -> a = __float2half(__half2float(a) op __half2float(b)):
      // a is written twice, so only a plain lvalue without side effects.
      const Expr *L = OC->getArg(0)->IgnoreParenImpCasts();
      if (L->HasSideEffects(TC.Ctx()) ||
          !(isa<DeclRefExpr>(L) || isa<MemberExpr>(L) ||
            isa<ArraySubscriptExpr>(L)))
        return Flag("its left operand would be evaluated twice");
      std::string Op(llvm::StringRef(Spelling).drop_back());
      if (TC.replace(CharSourceRange::getCharRange(
                         OC->getOperatorLoc(), OC->getArg(1)->getBeginLoc()),
                     "= __float2half(__half2float(" + TC.text(L) + ") " + Op +
                         " __half2float(",
                     RuleId::PK1015, Why))
        add(endOf(OC->getArg(1)), "))", Why);
      return true;
    }
    if (Arith)
      add(OC->getBeginLoc(), "__float2half(", Why);
    wrap(OC->getArg(0), Why);
    wrap(OC->getArg(1), Why);
    if (Arith)
      add(endOf(OC), ")", Why);
    return true;
  }

private:
  TargetContext &TC;
  const FunctionDecl *Fn = nullptr;

  /// "__half" or "__half2" when \p QT is one of them (through references
  /// and cv), "" otherwise.
  static llvm::StringRef halfType(QualType QT) {
    if (QT.isNull())
      return "";
    const auto *RD =
        QT.getNonReferenceType().getCanonicalType()->getAsRecordDecl();
    if (!RD || !RD->getIdentifier())
      return "";
    llvm::StringRef N = RD->getName();
    return N == "__half" || N == "__half2" ? N : "";
  }

  SourceLocation endOf(const Expr *E) {
    return Lexer::getLocForEndOfToken(E->getEndLoc(), 0, TC.SM(),
                                      TC.Ctx().getLangOpts());
  }

  void wrap(const Expr *E, llvm::StringRef Why) {
    if (halfType(E->getType()) != "__half")
      return; // already float (or converted implicitly)
    add(E->getBeginLoc(), "__half2float(", Why);
    add(endOf(E), ")", Why);
  }

  /// The insertions of the __half rewrites, joined per place: nested
  /// operators open and close at the same places (`a + b + c`), and two
  /// equal insertions at one offset would merge into one.
  std::map<unsigned, std::pair<SourceLocation, std::string>> Pending;

  void add(SourceLocation L, llvm::StringRef Text, llvm::StringRef /*Why*/) {
    auto &P = Pending[L.getRawEncoding()];
    P.first = L;
    P.second += Text;
  }

public:
  /// Records the joined insertions (after the traversal).
  void flush() {
    for (auto &[Raw, P] : Pending)
      TC.insert(P.first, P.second, RuleId::PK1015,
                "operators of __half are device-only in HIP: the host "
                "computes them as CUDA's host versions do, through float");
    Pending.clear();
  }

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
  V.flush();
}
