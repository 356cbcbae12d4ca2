//===- MfmaPlan.cpp - the fragments, loads, stores and mma calls of a TU --===//
// Rules: none (shared infrastructure)
//
// One traversal of the TU collects what the tensor-core rules work on
// (MfmaPlan.h); a second one, over template instantiations, finds the
// fragment types that template patterns leave dependent.
//
//===----------------------------------------------------------------------===//
#include "MfmaPlan.h"
#include "pk/ASTUtil.h"

#include "pk/DynamicVisitor.h"
#include "clang/AST/ASTContext.h"
#include "clang/AST/Attr.h"
#include "clang/AST/DeclTemplate.h"
#include "clang/AST/ParentMapContext.h"
#include "clang/AST/StmtCXX.h"
#include "llvm/Support/FormatVariadic.h"

using namespace pk;
using namespace pk::mfma;
using namespace clang;

// ---- nvcuda::wmma entities --------------------------------------------------

static bool isNamed(const NamespaceDecl *N, llvm::StringRef Name) {
  return N && N->getIdentifier() && N->getName() == Name;
}

bool mfma::isWmmaNS(const DeclContext *DC) {
  const auto *N = dyn_cast_or_null<NamespaceDecl>(DC);
  if (!isNamed(N, "wmma"))
    return false;
  const auto *P =
      dyn_cast<NamespaceDecl>(N->getDeclContext()->getRedeclContext());
  return isNamed(P, "nvcuda") &&
         P->getDeclContext()->getRedeclContext()->isTranslationUnit();
}

bool mfma::inWmma(const Decl *D) {
  if (!D)
    return false;
  for (const DeclContext *DC = D->getDeclContext(); DC; DC = DC->getParent())
    if (isWmmaNS(DC))
      return true;
  return false;
}

bool mfma::isNvcudaNS(const NamespaceDecl *N) {
  return isNamed(N, "nvcuda") &&
         N->getDeclContext()->getRedeclContext()->isTranslationUnit();
}

bool FragType::supported() const {
  if (Dependent)
    return true;
  if (M != 16 || N != 16 || K != 16)
    return false;
  if (U == Use::Acc)
    return E == Elem::F32;
  return (U == Use::A || U == Use::B) && (E == Elem::F16 || E == Elem::BF16);
}

std::string FragType::describe() const {
  const char *UN = U == Use::A     ? "matrix_a"
                   : U == Use::B   ? "matrix_b"
                   : U == Use::Acc ? "accumulator"
                                   : "?";
  return llvm::formatv("fragment<{0}, {1}, {2}, {3}, {4}>", UN, M, N, K,
                       ElemName)
      .str();
}

static Elem elemOf(QualType T, std::string &Name) {
  T = T.getCanonicalType().getUnqualifiedType();
  Name = T.getAsString();
  if (T->isSpecificBuiltinType(BuiltinType::Float))
    return Elem::F32;
  if (const auto *RD = T->getAsRecordDecl()) {
    if (RD->getName() == "__half")
      return Name = "half", Elem::F16;
    if (RD->getName() == "__nv_bfloat16")
      return Name = "__nv_bfloat16", Elem::BF16;
  }
  return Elem::Other;
}

std::optional<FragType> mfma::fragType(QualType T) {
  if (T.isNull())
    return std::nullopt;
  T = T.getNonReferenceType();
  while (const ArrayType *AT = T->getAsArrayTypeUnsafe())
    T = AT->getElementType();
  T = T.getCanonicalType();
  if (const auto *TST = T->getAs<TemplateSpecializationType>()) {
    TemplateDecl *TD = TST->getTemplateName().getAsTemplateDecl();
    if (TD && TD->getName() == "fragment" && inWmma(TD)) {
      FragType F;
      F.Dependent = true;
      return F;
    }
  }
  const auto *RD = T->getAsCXXRecordDecl();
  const auto *CT = dyn_cast_or_null<ClassTemplateSpecializationDecl>(RD);
  if (!CT || CT->getName() != "fragment" || !inWmma(CT))
    return std::nullopt;
  FragType F;
  const TemplateArgumentList &Args = CT->getTemplateArgs();
  if (Args.size() < 5)
    return F;
  if (Args[0].getKind() == TemplateArgument::Type)
    if (const auto *U = Args[0].getAsType()->getAsRecordDecl()) {
      if (U->getName() == "matrix_a")
        F.U = Use::A;
      else if (U->getName() == "matrix_b")
        F.U = Use::B;
      else if (U->getName() == "accumulator")
        F.U = Use::Acc;
    }
  int *Dims[3] = {&F.M, &F.N, &F.K};
  for (unsigned I = 0; I < 3; ++I)
    if (Args[I + 1].getKind() == TemplateArgument::Integral)
      *Dims[I] = (int)Args[I + 1].getAsIntegral().getExtValue();
  if (Args[4].getKind() == TemplateArgument::Type)
    F.E = elemOf(Args[4].getAsType(), F.ElemName);
  if (Args.size() > 5 && Args[5].getKind() == TemplateArgument::Type)
    if (const auto *L = Args[5].getAsType()->getAsRecordDecl()) {
      if (L->getName() == "row_major")
        F.RowMajor = true;
      else if (L->getName() == "col_major")
        F.RowMajor = false;
    }
  return F;
}

bool mfma::wmmaCallee(const CallExpr *CE, llvm::StringRef &Name) {
  if (const FunctionDecl *FD = CE->getDirectCallee()) {
    if (!FD->getIdentifier() || !inWmma(FD))
      return false;
    Name = FD->getName();
    return true;
  }
  const Expr *C = CE->getCallee()->IgnoreParenImpCasts();
  if (const auto *U = dyn_cast<UnresolvedLookupExpr>(C)) {
    for (const NamedDecl *D : U->decls())
      if (inWmma(D->getUnderlyingDecl()) && U->getName().isIdentifier()) {
        Name = U->getName().getAsIdentifierInfo()->getName();
        return true;
      }
  }
  return false;
}

static bool isFragOpName(llvm::StringRef N) {
  return N == "fill_fragment" || N == "load_matrix_sync" ||
         N == "store_matrix_sync" || N == "mma_sync";
}

// ---- the scan ---------------------------------------------------------------

namespace {

class FragmentScan : public DynamicASTVisitor {
public:
  FragmentScan(TargetContext &TC, FragmentPlan &P) : TC(TC), P(P) {}

  bool TraverseNestedNameSpecifierLoc(NestedNameSpecifierLoc Q) override {
    if (!Q)
      return true;
    const NestedNameSpecifier *NNS = Q.getNestedNameSpecifier();
    if (NNS->getKind() == NestedNameSpecifier::Namespace &&
        isWmmaNS(NNS->getAsNamespace())) {
      P.AnyWmma = true;
      if (TC.isUserLoc(Q.getBeginLoc()))
        P.Quals.push_back(Q);
      return true; // the prefix (nvcuda::) goes with it
    }
    return DynamicASTVisitor::TraverseNestedNameSpecifierLoc(Q);
  }

  bool VisitUsingDirectiveDecl(UsingDirectiveDecl *D) override {
    const NamespaceDecl *N = D->getNominatedNamespace();
    if ((isNvcudaNS(N) || isWmmaNS(N)) && TC.isUserLoc(D->getLocation())) {
      P.AnyWmma = true;
      P.Usings.push_back(D);
    }
    return true;
  }
  bool VisitNamespaceAliasDecl(NamespaceAliasDecl *D) override {
    if (isWmmaNS(D->getNamespace()) && TC.isUserLoc(D->getLocation())) {
      P.AnyWmma = true;
      P.Aliases.push_back(D);
    }
    return true;
  }

  bool VisitDeclaratorDecl(DeclaratorDecl *D) override {
    noteType(D->getType(), D->getLocation());
    if (std::optional<FragType> F = fragType(D->getType()))
      if (!F->Dependent && F->supported() && TC.isUserLoc(D->getLocation())) {
        P.FragDecls.push_back(D);
        const auto *VD = dyn_cast<VarDecl>(D);
        if (VD && VD->hasLocalStorage() && !isa<ParmVarDecl>(VD) &&
            isa<ConstantArrayType>(VD->getType().getCanonicalType()))
          P.FragArrays.insert(VD);
      }
    return true;
  }
  bool VisitDeclRefExpr(DeclRefExpr *E) override {
    if (const auto *VD = dyn_cast<VarDecl>(E->getDecl()))
      if (isa<ConstantArrayType>(VD->getType().getCanonicalType()) &&
          fragType(VD->getType()))
        P.ArrayRefs.push_back(E);
    return true;
  }
  bool VisitTypedefNameDecl(TypedefNameDecl *D) override {
    noteType(D->getUnderlyingType(), D->getLocation());
    return true;
  }

  bool VisitCallExpr(CallExpr *CE) override {
    if (!TC.isUserLoc(CE->getBeginLoc()))
      return true;
    llvm::StringRef Name;
    if (!wmmaCallee(CE, Name)) {
      if (const FunctionDecl *FD = CE->getDirectCallee())
        if (FD->hasBody() && TC.isUserLoc(FD->getLocation()))
          P.UserCalls.push_back(CE);
      return true;
    }
    P.AnyWmma = true;
    if (!isFragOpName(Name)) {
      P.Unsupported.push_back(
          {CE->getBeginLoc(), "wmma::" + Name.str() + " is not ported"});
      return true;
    }
    P.Calls.push_back({CE, Name.str(), enclosingFunction(TC, CE)});
    if (Name == "mma_sync" && CE->getNumArgs() >= 5 &&
        !isa<CXXDefaultArgExpr>(CE->getArg(4))) {
      bool Result = true;
      if (CE->getArg(4)->isValueDependent() ||
          !CE->getArg(4)->EvaluateAsBooleanCondition(Result, TC.Ctx()) ||
          Result)
        P.Satf.push_back(CE->getArg(4));
    }
    return true;
  }

  bool VisitMemberExpr(MemberExpr *ME) override {
    const ValueDecl *D = ME->getMemberDecl();
    if (isa<FieldDecl>(D) && D->getIdentifier() && D->getName() == "x" &&
        inWmma(D) && TC.isUserLoc(ME->getBeginLoc()))
      P.ElemRefs.push_back(ME);
    return true;
  }
  bool
  VisitCXXDependentScopeMemberExpr(CXXDependentScopeMemberExpr *ME) override {
    if (ME->getMember().isIdentifier() &&
        ME->getMember().getAsIdentifierInfo()->getName() == "x" &&
        !ME->isImplicitAccess() && fragType(ME->getBaseType()) &&
        TC.isUserLoc(ME->getBeginLoc()))
      P.DependentElemRefs.push_back(ME);
    return true;
  }

  bool VisitGCCAsmStmt(GCCAsmStmt *S) override {
    // Inline assembly of host-only functions is the host's (x86 rdtsc, ...),
    // not PTX: only device code's is the MFMA rules' (PK3002, PK3011).
    if (TC.isUserLoc(S->getAsmLoc()) && !inHostOnlyFunction(S))
      P.Asms.push_back(S);
    return true;
  }

  bool inHostOnlyFunction(const Stmt *S) {
    DynTypedNodeList Ps = TC.parents(*S);
    while (!Ps.empty()) {
      if (const auto *FD = Ps[0].get<FunctionDecl>())
        return !FD->hasAttr<CUDADeviceAttr>() &&
               !FD->hasAttr<CUDAGlobalAttr>();
      Ps = TC.parents(Ps[0]);
    }
    return false;
  }

  bool VisitFunctionDecl(FunctionDecl *FD) override {
    if (FD->hasAttr<CUDAGlobalAttr>() && FD->doesThisDeclarationHaveABody() &&
        TC.isUserLoc(FD->getLocation()))
      P.Kernels.push_back(FD);
    return true;
  }
  bool VisitCUDAKernelCallExpr(CUDAKernelCallExpr *CE) override {
    if (TC.isUserLoc(CE->getBeginLoc()))
      P.Launches.push_back(CE);
    return true;
  }

private:
  TargetContext &TC;
  FragmentPlan &P;

  void noteType(QualType T, SourceLocation Loc) {
    std::optional<FragType> F = fragType(T);
    if (!F)
      return;
    P.AnyWmma = true;
    if (!TC.isUserLoc(Loc))
      return;
    if (!F->supported()) {
      P.Unsupported.push_back({Loc, F->describe() + " is not ported"});
      return;
    }
    if (F->Dependent)
      return;
    if (F->U == Use::A || F->U == Use::B) {
      P.FileElems[TC.fileOf(Loc)].insert(F->E);
      P.AllElems.insert(F->E);
      if (F->E == Elem::BF16 && P.FirstBF16.isInvalid())
        P.FirstBF16 = Loc;
    } else {
      P.FileElems[TC.fileOf(Loc)];
    }
  }
};

class InstantiationScan : public DynamicASTVisitor {
public:
  InstantiationScan(TargetContext &TC, InstantiatedFragments &R)
      : TC(TC), R(R) {
    ShouldVisitTemplateInstantiations = true;
  }
  bool VisitDeclaratorDecl(DeclaratorDecl *D) override {
    if (!TC.isUserLoc(D->getLocation()))
      return true;
    if (std::optional<FragType> F = fragType(D->getType())) {
      if (F->Dependent)
        return true;
      if (!F->supported())
        R.Bad.push_back({D->getLocation(), F->describe()});
      else if (F->U != Use::Acc)
        R.Elems.insert(F->E);
    }
    return true;
  }

private:
  TargetContext &TC;
  InstantiatedFragments &R;
};

} // namespace

FragmentPlan mfma::scanFragments(TargetContext &TC) {
  FragmentPlan P;
  FragmentScan Scan(TC, P);
  clang::TranslationUnitDecl *TU = TC.Ctx().getTranslationUnitDecl();
  bool HasWmma = false;
  for (clang::NamedDecl *N : TU->lookup(&TC.Ctx().Idents.get("nvcuda")))
    if (const auto *NS = dyn_cast<NamespaceDecl>(N))
      HasWmma |= !NS->lookup(&TC.Ctx().Idents.get("wmma")).empty();
  if (HasWmma) {
    // The fragment types the header itself declares count (noteType).
    WholeTranslationUnit Whole(TC.Ctx());
    Scan.TraverseDecl(TU);
    return P;
  }
  // Without nvcuda::wmma (<mma.h>) no type or call is a fragment's, and
  // everything else
  // the plan records (inline assembly, kernels, launches, calls of user
  // functions) lies in the user's code: only the user's top-level
  // declarations are walked, not the toolkit's headers (most of the
  // translation unit; docs/performance.md).
  for (clang::Decl *D : TC.userTopLevelDecls())
    Scan.TraverseDecl(D);
  return P;
}

InstantiatedFragments mfma::scanInstantiations(TargetContext &TC) {
  InstantiatedFragments R;
  InstantiationScan(TC, R).TraverseDecl(TC.Ctx().getTranslationUnitDecl());
  return R;
}

// ---- small AST queries ------------------------------------------------------

const Stmt *mfma::parentStmt(TargetContext &TC, const Stmt *S) {
  auto Ps = TC.parents(*S);
  return Ps.empty() ? nullptr : Ps[0].get<Stmt>();
}

const FunctionDecl *mfma::enclosingFunction(TargetContext &TC, const Stmt *S) {
  DynTypedNode N = DynTypedNode::create(*S);
  for (int Guard = 0; Guard < 256; ++Guard) {
    auto Ps = TC.parents(N);
    if (Ps.empty())
      return nullptr;
    N = Ps[0];
    if (const auto *FD = N.get<FunctionDecl>())
      return FD;
  }
  return nullptr;
}

bool mfma::refersTo(const Expr *E, const VarDecl *V) {
  const auto *D = dyn_cast<DeclRefExpr>(E->IgnoreParenImpCasts());
  return D && D->getDecl() == V;
}

bool mfma::fromZeroByOne(TargetContext &TC, const ForStmt *F,
                         const VarDecl *V) {
  Expr::EvalResult R;
  if (!V->getInit() || V->getInit()->isValueDependent() ||
      !V->getInit()->EvaluateAsInt(R, TC.Ctx()) || R.Val.getInt() != 0)
    return false;
  const Expr *Inc = F->getInc() ? F->getInc()->IgnoreParenImpCasts() : nullptr;
  if (const auto *U = dyn_cast_or_null<UnaryOperator>(Inc))
    return U->isIncrementOp() && refersTo(U->getSubExpr(), V);
  if (const auto *B = dyn_cast_or_null<CompoundAssignOperator>(Inc)) {
    Expr::EvalResult One;
    return B->getOpcode() == BO_AddAssign && refersTo(B->getLHS(), V) &&
           !B->getRHS()->isValueDependent() &&
           B->getRHS()->EvaluateAsInt(One, TC.Ctx()) && One.Val.getInt() == 1;
  }
  return false;
}

std::string mfma::brief(llvm::StringRef Text) {
  std::string Out;
  bool Space = false;
  for (char C : Text) {
    if (isspace((unsigned char)C)) {
      Space = !Out.empty();
      continue;
    }
    if (Space)
      Out += ' ';
    Space = false;
    Out += C;
  }
  if (Out.size() > 60)
    Out = Out.substr(0, 57) + "...";
  return Out;
}
