//===- Bfloat16.cpp - bfloat16 conversions for ROCm 5 ---------------------===//
// Rules: PK1016, PK1019
//
// Under --rocm-version=6 (the default), the paired float -> bfloat16
// conversions ROCm 6.3 lacks (__floats2bfloat162_rn, __float2bfloat162_rn)
// are completed with the argument that spells them through the ones it has
// (PK1016, Rocm6PairedBf16 below).
//
// CUDA's __nv_bfloat16 converts implicitly from float, double and the
// integer types (constructors and operator=), and so does ROCm 6's
// __hip_bfloat16.  ROCm 5's hip_bfloat16 has only an explicit float
// constructor and no operator=(float): under --rocm-version=5 every place
// where CUDA converts implicitly gets the conversion written out,
// hip_bfloat16(...) around the converted expression.  The type and header
// renames of both versions are in TargetCommon.cpp (versionedSpelling).
//
// PK1019: under --rocm-version=5, every use of CUDA's bfloat16 API that the
// output would still spell for ROCm 6 or CUDA: a function of the bfloat16
// header, or any global non-operator function called on bfloat16 values (the
// intrinsics __hadd, __hmax, hexp, ..., conversions such as
// __float2bfloat16_rz, bfloat16 shuffles and loads), and the types ROCm 5
// lacks (__nv_bfloat162, the _raw types).  ROCm 5.2's <hip/hip_bfloat16.h>
// has the hip_bfloat16 struct and its operators only, so such a use does not
// compile, or converts through float to another overload.  An error at the
// use, unless PK1016 rewrote it (a conversion ROCm 5 spells with
// hip_bfloat16 or float) or the rename table reports it (PK1010).
//
//===----------------------------------------------------------------------===//
#include "HipPasses.h"

#include "pk/DynamicVisitor.h"
#include "clang/AST/ASTContext.h"
#include "clang/AST/ExprCXX.h"
#include "clang/Basic/SourceManager.h"
#include "clang/Lex/Lexer.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/Path.h"
#include <set>

using namespace pk;
using namespace clang;

namespace {

bool isBf16(QualType T) {
  if (T.isNull())
    return false;
  const auto *RD =
      T.getNonReferenceType().getCanonicalType()->getAsCXXRecordDecl();
  return RD && RD->getIdentifier() && RD->getName() == "__nv_bfloat16";
}

bool isArithmetic(QualType T) {
  return !T.isNull() && T.getNonReferenceType()->isArithmeticType();
}

class ImplicitBf16 : public DynamicASTVisitor {
public:
  explicit ImplicitBf16(TargetContext &TC) : TC(TC) {
    ShouldVisitTemplateInstantiations = true;
  }
  // A conversion that depends on a template parameter exists only in the
  // instantiations; it is written out where the template is written (an
  // instantiation that does not convert gets a copy: hip_bfloat16(b)):
  // the traversal visits template instantiations.

  bool VisitImplicitCastExpr(ImplicitCastExpr *IC) override {
    if (IC->getCastKind() != CK_ConstructorConversion &&
        IC->getCastKind() != CK_UserDefinedConversion)
      return true;
    if (!isBf16(IC->getType()))
      return true;
    const Expr *Sub = IC->getSubExpr()->IgnoreImplicit();
    if (const auto *CE = dyn_cast<CXXConstructExpr>(Sub))
      if (CE->getNumArgs() == 1)
        Sub = CE->getArg(0);
    if (!isArithmetic(Sub->IgnoreImpCasts()->getType()) &&
        !isArithmetic(Sub->getType()))
      return true;
    wrap(Sub->IgnoreImpCasts());
    return true;
  }

  bool VisitCXXOperatorCallExpr(CXXOperatorCallExpr *OC) override {
    if (OC->getOperator() != OO_Equal || OC->getNumArgs() != 2)
      return true;
    const auto *MD = dyn_cast_or_null<CXXMethodDecl>(OC->getDirectCallee());
    if (!MD || MD->getNumParams() != 1 || !isBf16(OC->getArg(0)->getType()))
      return true;
    if (!isArithmetic(MD->getParamDecl(0)->getType()))
      return true;
    wrap(OC->getArg(1)->IgnoreImpCasts());
    return true;
  }

private:
  TargetContext &TC;
  std::set<std::pair<unsigned, unsigned>> Done;

  void wrap(const Expr *E) {
    SourceLocation B = E->getBeginLoc(), End = E->getEndLoc();
    // Once per place: the instantiations of a template share its text.
    if (!Done.insert({B.getRawEncoding(), End.getRawEncoding()}).second)
      return;
    if (!TC.isUserLoc(TC.SM().getFileLoc(B)))
      return;
    const char *Why = "ROCm 5's hip_bfloat16 converts from arithmetic types "
                      "only explicitly (CUDA's __nv_bfloat16 implicitly)";
    SourceLocation After =
        Lexer::getLocForEndOfToken(End, 0, TC.SM(), TC.Ctx().getLangOpts());
    if (After.isInvalid())
      return;
    if (TC.insert(B, "hip_bfloat16(", RuleId::PK1016, Why))
      TC.insert(After, ")", RuleId::PK1016, Why);
  }
};

/// A CUDA bfloat16 type: __nv_bfloat16, __nv_bfloat162 and their _raw forms.
bool isBf16Family(QualType T) {
  if (T.isNull())
    return false;
  T = T.getNonReferenceType();
  while (T->isPointerType())
    T = T->getPointeeType();
  const auto *RD = T.getCanonicalType()->getAsCXXRecordDecl();
  return RD && RD->getIdentifier() &&
         RD->getName().starts_with("__nv_bfloat16");
}

/// PK1019: the bfloat16 API that ROCm 5 does not have.
class Rocm5Bf16Api : public DynamicASTVisitor {
public:
  explicit Rocm5Bf16Api(TargetContext &TC) : TC(TC) {}

  bool VisitDeclRefExpr(DeclRefExpr *DRE) override {
    const auto *FD = dyn_cast<FunctionDecl>(DRE->getDecl());
    // The intrinsics are global functions; namespaced APIs that take
    // bfloat16 values (nvcuda::wmma) have rules of their own.
    if (!FD || !FD->getIdentifier() || FD->isOverloadedOperator() ||
        TC.isUserLoc(FD->getLocation()) ||
        !FD->getDeclContext()->getRedeclContext()->isTranslationUnit())
      return true;
    // A template instantiated with bfloat16 (cudaMalloc<__nv_bfloat16>) is
    // not bfloat16 API: its declared signature decides.
    const FunctionDecl *Declared = FD;
    if (const FunctionDecl *Pattern = FD->getTemplateInstantiationPattern())
      Declared = Pattern;
    bool Api = fromBf16Header(FD) || isBf16Family(Declared->getReturnType());
    for (const ParmVarDecl *P : Declared->parameters())
      Api = Api || isBf16Family(P->getType());
    if (Api)
      flag(DRE->getLocation(), FD->getName(), "function");
    return true;
  }

  bool VisitTypeLoc(TypeLoc TL) override {
    QualType T = TL.getType();
    if (TL.getTypeLocClass() != TypeLoc::Typedef &&
        TL.getTypeLocClass() != TypeLoc::Record)
      return true;
    const auto *RD = T.getCanonicalType()->getAsCXXRecordDecl();
    if (!RD || !RD->getIdentifier() ||
        !RD->getName().starts_with("__nv_bfloat16") ||
        RD->getName() == "__nv_bfloat16")
      return true;
    llvm::StringRef Spelled = RD->getName();
    if (auto TD = TL.getAs<TypedefTypeLoc>())
      Spelled = TD.getTypedefNameDecl()->getName();
    flag(TL.getBeginLoc(), Spelled, "type");
    return true;
  }

private:
  TargetContext &TC;
  std::set<unsigned> Done;

  bool fromBf16Header(const FunctionDecl *FD) {
    SourceLocation L = TC.SM().getSpellingLoc(FD->getLocation());
    llvm::StringRef F = TC.SM().getFilename(L);
    return llvm::sys::path::filename(F).starts_with("cuda_bf16");
  }

  void flag(SourceLocation L, llvm::StringRef Name, llvm::StringRef What) {
    L = TC.SM().getFileLoc(L);
    if (!TC.isUserLoc(L) || !Done.insert(L.getRawEncoding()).second)
      return;
    if (TC.editedBy(L, RuleId::PK1016))
      return; // a conversion ROCm 5 spells with hip_bfloat16 or float
    if (const RenameEntry *E = TC.DB.lookup(Name, true))
      if (!E->Unsupported.empty())
        return; // the table's PK1010 warning names it
    TC.finding(L, RuleId::PK1019, Severity::Error,
               llvm::formatv("ROCm 5 has no counterpart of the bfloat16 {0} "
                             "'{1}' (<hip/hip_bfloat16.h> of ROCm 5 has the "
                             "hip_bfloat16 struct and its operators only): "
                             "the output does not compile with ROCm 5; port "
                             "with --rocm-version=6 or write it with "
                             "hip_bfloat16 and float",
                             What, Name)
                   .str());
  }
};

/// PK1016 for ROCm 6: the paired conversions ROCm 6.3 does not declare are
/// spelled through those it has (the callee is renamed by the rename pass,
/// TargetCommon.cpp): __floats2bfloat162_rn(a, b) ->
/// __float22bfloat162_rn(make_float2(a, b)), __float2bfloat162_rn(x) ->
/// __bfloat162bfloat162(__float2bfloat16(x)).  Each argument is still
/// evaluated once.
class Rocm6PairedBf16 : public DynamicASTVisitor {
public:
  explicit Rocm6PairedBf16(TargetContext &TC) : TC(TC) {}

  bool VisitCallExpr(CallExpr *CE) override {
    const Expr *Callee = CE->getCallee()->IgnoreImplicit();
    llvm::StringRef Name;
    bool Own = false; // a function of the user's of that name
    if (const auto *DRE = dyn_cast<DeclRefExpr>(Callee)) {
      if (DRE->getDecl()->getIdentifier())
        Name = DRE->getDecl()->getName();
      Own = TC.isUserLoc(DRE->getDecl()->getLocation());
    } else if (const auto *UL = dyn_cast<UnresolvedLookupExpr>(Callee)) {
      if (UL->getName().isIdentifier())
        Name = UL->getName().getAsIdentifierInfo()->getName();
      for (const NamedDecl *D : UL->decls())
        Own = Own || TC.isUserLoc(D->getLocation());
    }
    const char *Open = nullptr;
    if (Name == "__floats2bfloat162_rn" && CE->getNumArgs() == 2)
      Open = "make_float2(";
    else if (Name == "__float2bfloat162_rn" && CE->getNumArgs() == 1)
      Open = "__float2bfloat16(";
    if (!Open || Own)
      return true;
    SourceLocation B = CE->getArg(0)->getBeginLoc();
    SourceLocation R = CE->getRParenLoc();
    if (!TC.isUserLoc(TC.SM().getFileLoc(B)))
      return true;
    std::string Why =
        llvm::formatv("ROCm 6.3 has no {0}: the conversion is spelled {1}",
                      Name,
                      Name == "__floats2bfloat162_rn"
                          ? "__float22bfloat162_rn(make_float2(a, b))"
                          : "__bfloat162bfloat162(__float2bfloat16(x))")
            .str();
    if (TC.insert(B, Open, RuleId::PK1016, Why))
      TC.insert(R, ")", RuleId::PK1016, Why);
    return true;
  }

private:
  TargetContext &TC;
};

} // namespace

void pk::hip::rocm5Bfloat16(TargetContext &TC) {
  if (TC.PF.Language == Lang::HIP)
    return;
  if (TC.Opts.RocmMajor >= 6) {
    Rocm6PairedBf16 P(TC);
    P.TraverseAST(TC.Ctx());
    return;
  }
  ImplicitBf16 V(TC);
  V.TraverseAST(TC.Ctx());
  Rocm5Bf16Api A(TC);
  A.TraverseAST(TC.Ctx());
}
