//===- Mfma.cpp - tensor cores -> AMD MFMA ---------------------------------===//
//
// Rules of the HIP target for tensor-core code (docs/mfma.md):
//   PK3001  nvcuda::wmma m16n16k16 (half/bf16 in, float accumulate) -> the
//           generated pk_mfma helpers on v_mfma_f32_16x16x16 / 32x32x8
//   PK3002  inline PTX mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 ->
//           a generated helper on v_mfma_f32_16x16x16f16
//   PK3003  a warp-dependent early return before fragment operations -> the
//           wave runs on; the finished logical warp's loads/stores are masked
//   PK3004  fragment operations under control flow that may split a wave
//   PK3005  a logical warp's 2x2 groups of 16x16 fragments (arrays a[R],
//           b[C], acc[R][C] multiplied in one loop nest) -> 32x32 tiles on
//           v_mfma_f32_32x32x8 (--mfma-shape=auto and 32x32x8)
//   PK3010  fragment element accessed by position
//   PK3011  inline PTX that is not ported
//   PK3012  bf16 matrix cores: supported targets
//   PK3013  block size that is not a whole number of 64-lane waves
//   PK3014  a kernel with fragment operations got native 64-lane warps
//   PK3015  WMMA configuration that is not ported
//   PK3016  fragments that are not held as 32x32 tiles: what they use
//   PK3017  shared-memory row padding re-planned for the LDS banks
//           (MfmaPadding.cpp)
//
//===----------------------------------------------------------------------===//
#include "MfmaHelpers.h"
#include "MfmaPadding.h"
#include "pk/ASTUtil.h"
#include "pk/TargetContext.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/Attr.h"
#include "clang/AST/DeclCXX.h"
#include "clang/AST/DeclTemplate.h"
#include "clang/AST/Expr.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/ParentMapContext.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/AST/Stmt.h"
#include "clang/AST/StmtCXX.h"
#include "clang/Basic/SourceManager.h"
#include "clang/Frontend/ASTUnit.h"
#include "clang/Lex/Lexer.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/SetVector.h"
#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FormatVariadic.h"
#include <optional>
#include <set>

using namespace pk;
using namespace clang;


namespace {

constexpr const char *PtxMmaName =
    "mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32";
constexpr const char *LiveVar = "__pk_mfma_live";

// ---- nvcuda::wmma entities ---------------------------------------------------

bool isNamed(const NamespaceDecl *N, llvm::StringRef Name) {
  return N && N->getIdentifier() && N->getName() == Name;
}

/// nvcuda::wmma itself.
bool isWmmaNS(const DeclContext *DC) {
  const auto *N = dyn_cast_or_null<NamespaceDecl>(DC);
  if (!isNamed(N, "wmma"))
    return false;
  const auto *P = dyn_cast<NamespaceDecl>(N->getDeclContext()->getRedeclContext());
  return isNamed(P, "nvcuda") &&
         P->getDeclContext()->getRedeclContext()->isTranslationUnit();
}

/// A declaration inside nvcuda::wmma (at any depth).
bool inWmma(const Decl *D) {
  if (!D)
    return false;
  for (const DeclContext *DC = D->getDeclContext(); DC; DC = DC->getParent())
    if (isWmmaNS(DC))
      return true;
  return false;
}

bool isNvcudaNS(const NamespaceDecl *N) {
  return isNamed(N, "nvcuda") &&
         N->getDeclContext()->getRedeclContext()->isTranslationUnit();
}

enum class Use { A, B, Acc, Other };
enum class Elem { F16, BF16, F32, Other };

struct FragType {
  Use U = Use::Other;
  int M = 0, N = 0, K = 0;
  Elem E = Elem::Other;
  std::string ElemName;
  /// A and B: row_major (true) or col_major (false); empty when not given.
  std::optional<bool> RowMajor;
  bool Dependent = false;

  bool supported() const {
    if (Dependent)
      return true;
    if (M != 16 || N != 16 || K != 16)
      return false;
    if (U == Use::Acc)
      return E == Elem::F32;
    return (U == Use::A || U == Use::B) && (E == Elem::F16 || E == Elem::BF16);
  }
  std::string describe() const {
    const char *UN = U == Use::A ? "matrix_a" : U == Use::B ? "matrix_b"
                   : U == Use::Acc ? "accumulator" : "?";
    return llvm::formatv("fragment<{0}, {1}, {2}, {3}, {4}>", UN, M, N, K,
                         ElemName)
        .str();
  }
};

Elem elemOf(QualType T, std::string &Name) {
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

/// The fragment type behind \p T (through references, arrays and typedefs).
std::optional<FragType> fragType(QualType T) {
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

/// Callee name and whether it is an nvcuda::wmma function (also for
/// unresolved calls in templates).
bool wmmaCallee(const CallExpr *CE, llvm::StringRef &Name) {
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

bool isFragOpName(llvm::StringRef N) {
  return N == "fill_fragment" || N == "load_matrix_sync" ||
         N == "store_matrix_sync" || N == "mma_sync";
}

/// The instructions of an inline-PTX string (first token of each statement).
std::vector<std::string> ptxInstructions(llvm::StringRef Asm) {
  std::vector<std::string> Out;
  std::string Norm = Asm.str();
  for (char &C : Norm)
    if (C == '\n')
      C = ';';
  llvm::SmallVector<llvm::StringRef, 8> Parts;
  llvm::StringRef(Norm).split(Parts, ';');
  for (llvm::StringRef P : Parts) {
    P = P.trim();
    while (!P.empty() && (P.front() == '{' || P.front() == '}'))
      P = P.drop_front().ltrim();
    if (P.empty() || P.starts_with("//") || P.starts_with("."))
      continue;
    llvm::StringRef Tok = P.take_until([](char C) { return isspace(C); });
    if (Tok.starts_with("@")) { // predicate guard
      P = P.drop_front(Tok.size()).ltrim();
      Tok = P.take_until([](char C) { return isspace(C); });
    }
    if (Tok.ends_with(":") || Tok.empty())
      continue;
    Out.push_back(Tok.str());
  }
  return Out;
}

/// Source text for a message: whitespace collapsed, at most 60 characters.
std::string brief(llvm::StringRef Text) {
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

// ---- warp-dependence ---------------------------------------------------------

/// Variables of a function whose values may differ between the two logical
/// warps of a wave: computed from threadIdx (or __lane_id) directly or
/// through other such variables.
class Taint {
public:
  explicit Taint(const Stmt *Body) {
    if (!Body)
      return;
    for (bool Changed = true; Changed;) {
      Changed = false;
      scan(Body, Changed);
    }
  }
  bool tainted(const Stmt *S) const {
    if (!S)
      return false;
    if (const auto *DRE = dyn_cast<DeclRefExpr>(S)) {
      if (const auto *VD = dyn_cast<VarDecl>(DRE->getDecl()))
        if (Vars.count(VD->getCanonicalDecl()) ||
            (VD->getIdentifier() && VD->getName() == "threadIdx"))
          return true;
    }
    if (const auto *CE = dyn_cast<CallExpr>(S))
      if (const FunctionDecl *FD = CE->getDirectCallee())
        if (FD->getIdentifier() && FD->getName() == "__lane_id")
          return true;
    if (const auto *OVE = dyn_cast<OpaqueValueExpr>(S))
      return tainted(OVE->getSourceExpr());
    for (const Stmt *C : S->children())
      if (tainted(C))
        return true;
    return false;
  }

private:
  llvm::DenseSet<const VarDecl *> Vars;
  void add(const VarDecl *VD, bool &Changed) {
    if (Vars.insert(VD->getCanonicalDecl()).second)
      Changed = true;
  }
  void scan(const Stmt *S, bool &Changed) {
    if (!S)
      return;
    if (const auto *DS = dyn_cast<DeclStmt>(S))
      for (const Decl *D : DS->decls())
        if (const auto *VD = dyn_cast<VarDecl>(D))
          if (VD->hasInit() && tainted(VD->getInit()))
            add(VD, Changed);
    if (const auto *BO = dyn_cast<BinaryOperator>(S))
      if (BO->isAssignmentOp())
        if (const auto *DRE =
                dyn_cast<DeclRefExpr>(BO->getLHS()->IgnoreParenImpCasts()))
          if (const auto *VD = dyn_cast<VarDecl>(DRE->getDecl()))
            if (tainted(BO->getRHS()))
              add(VD, Changed);
    for (const Stmt *C : S->children())
      scan(C, Changed);
  }
};

// ---- can the rest of a function run for a finished logical warp? -------------

/// Checks that statements have no effect outside the thread except through
/// fragment operations (whose loads and stores get masked) and barriers:
/// no stores to memory, no reads of memory (a finished warp's indices may be
/// out of bounds), no calls of user functions, no inline asm.
class MaskCheck : public RecursiveASTVisitor<MaskCheck> {
public:
  explicit MaskCheck(TargetContext &TC) : TC(TC) {}
  const Stmt *Bad = nullptr;
  std::string Why;

  bool fail(const Stmt *S, llvm::StringRef W) {
    if (!Bad) {
      Bad = S;
      Why = W.str();
    }
    return false;
  }

  bool VisitCallExpr(CallExpr *CE) {
    llvm::StringRef Name;
    if (wmmaCallee(CE, Name))
      return true;
    const FunctionDecl *FD = CE->getDirectCallee();
    if (!FD)
      return fail(CE, "an indirect or unresolved call");
    llvm::StringRef N = FD->getIdentifier() ? FD->getName() : "";
    if (N == "__syncthreads" || N == "__syncwarp")
      return true;
    if (const auto *OC = dyn_cast<CXXOperatorCallExpr>(CE))
      if (OC->isAssignmentOp() && OC->getNumArgs() > 0 &&
          !isLocal(OC->getArg(0)))
        return fail(CE, "a store to memory");
    bool System = TC.SM().isInSystemHeader(FD->getLocation());
    if (!System)
      return fail(CE, "a call of '" + FD->getNameAsString() + "'");
    if (N.starts_with("atomic") || N.starts_with("mem") || N == "printf")
      return fail(CE, "a call of '" + N.str() + "'");
    for (const ParmVarDecl *P : FD->parameters()) {
      QualType T = P->getType();
      if (T->isPointerType() ||
          (T->isReferenceType() && !T->getPointeeType().isConstQualified()))
        return fail(CE, "a call of '" + FD->getNameAsString() +
                            "' that may write memory");
    }
    return true;
  }
  bool VisitBinaryOperator(BinaryOperator *BO) {
    if (BO->isAssignmentOp() && !isLocal(BO->getLHS()))
      return fail(BO, "a store to memory");
    return true;
  }
  bool VisitUnaryOperator(UnaryOperator *UO) {
    if (UO->isIncrementDecrementOp() && !isLocal(UO->getSubExpr()))
      return fail(UO, "a store to memory");
    return true;
  }
  bool VisitImplicitCastExpr(ImplicitCastExpr *ICE) {
    if (ICE->getCastKind() == CK_LValueToRValue && !isLocal(ICE->getSubExpr()))
      return fail(ICE, "a read of memory");
    return true;
  }
  bool VisitGCCAsmStmt(GCCAsmStmt *S) { return fail(S, "inline assembly"); }
  bool VisitCXXNewExpr(CXXNewExpr *E) { return fail(E, "'new'"); }
  bool VisitCXXDeleteExpr(CXXDeleteExpr *E) { return fail(E, "'delete'"); }

  /// An lvalue that names thread-private storage (a local variable or
  /// parameter, a member or array element of one, a constant).
  static bool isLocal(const Expr *E) {
    E = E->IgnoreParens();
    if (const auto *ICE = dyn_cast<ImplicitCastExpr>(E))
      if (ICE->getCastKind() == CK_DerivedToBase ||
          ICE->getCastKind() == CK_UncheckedDerivedToBase ||
          ICE->getCastKind() == CK_NoOp)
        return isLocal(ICE->getSubExpr());
    if (isa<MSPropertyRefExpr, PseudoObjectExpr>(E))
      return true;
    if (const auto *DRE = dyn_cast<DeclRefExpr>(E)) {
      const ValueDecl *D = DRE->getDecl();
      if (isa<EnumConstantDecl, FunctionDecl>(D))
        return true;
      if (const auto *VD = dyn_cast<VarDecl>(D)) {
        if (VD->hasAttr<CUDASharedAttr>())
          return false;
        return VD->hasLocalStorage() || VD->isConstexpr() ||
               VD->getType().isConstQualified();
      }
      return false;
    }
    if (const auto *ME = dyn_cast<MemberExpr>(E)) {
      if (isa<EnumConstantDecl, VarDecl>(ME->getMemberDecl()))
        return true; // enumerator or static member
      return !ME->isArrow() && isLocal(ME->getBase());
    }
    if (const auto *ASE = dyn_cast<ArraySubscriptExpr>(E)) {
      const Expr *B = ASE->getBase()->IgnoreParenImpCasts();
      return B->getType()->isArrayType() && isLocal(B);
    }
    if (const auto *MT = dyn_cast<MaterializeTemporaryExpr>(E))
      return isLocal(MT->getSubExpr());
    return isa<CompoundLiteralExpr, StringLiteral>(E);
  }

private:
  TargetContext &TC;
};

// ---- the rule pass -------------------------------------------------------------

struct FragCall {
  const CallExpr *CE;
  std::string Name;
  const FunctionDecl *Fn;
};

class MfmaPass : public RecursiveASTVisitor<MfmaPass> {
public:
  explicit MfmaPass(TargetContext &TC) : TC(TC) {}

  // Collected.
  std::vector<NestedNameSpecifierLoc> Quals;
  std::vector<const UsingDirectiveDecl *> Usings;
  std::vector<const NamespaceAliasDecl *> Aliases;
  std::vector<FragCall> Calls;
  /// Calls of functions defined in user files, with their callers.
  std::vector<std::pair<const CallExpr *, const FunctionDecl *>> UserCalls;
  /// WMMA uses the port does not handle (PK3015).
  struct Unported {
    SourceLocation Loc;
    std::string What;
  };
  std::vector<Unported> Unsupported;
  std::vector<const MemberExpr *> ElemRefs; // frag.x
  std::vector<const CXXDependentScopeMemberExpr *> DependentElemRefs;
  std::vector<const GCCAsmStmt *> Asms;
  std::vector<const FunctionDecl *> Kernels;
  std::vector<const CUDAKernelCallExpr *> Launches;
  /// Files that declare fragments, with the element types declared there.
  std::map<std::string, std::set<Elem>> FileElems;
  std::set<Elem> AllElems;
  SourceLocation FirstBF16;
  bool AnyWmma = false;
  /// Declarations of (arrays of) supported fragments, in source order.
  std::vector<const DeclaratorDecl *> FragDecls;
  /// Local arrays of fragments, and every reference to an array of fragments.
  llvm::SetVector<const VarDecl *> FragArrays;
  std::vector<const DeclRefExpr *> ArrayRefs;

  bool shouldVisitTemplateInstantiations() const { return false; }

  bool TraverseNestedNameSpecifierLoc(NestedNameSpecifierLoc Q) {
    if (!Q)
      return true;
    const NestedNameSpecifier *NNS = Q.getNestedNameSpecifier();
    if (NNS->getKind() == NestedNameSpecifier::Namespace &&
        isWmmaNS(NNS->getAsNamespace())) {
      AnyWmma = true;
      if (TC.isUserLoc(Q.getBeginLoc()))
        Quals.push_back(Q);
      return true; // the prefix (nvcuda::) goes with it
    }
    return RecursiveASTVisitor::TraverseNestedNameSpecifierLoc(Q);
  }

  bool VisitUsingDirectiveDecl(UsingDirectiveDecl *D) {
    const NamespaceDecl *N = D->getNominatedNamespace();
    if ((isNvcudaNS(N) || isWmmaNS(N)) && TC.isUserLoc(D->getLocation())) {
      AnyWmma = true;
      Usings.push_back(D);
    }
    return true;
  }
  bool VisitNamespaceAliasDecl(NamespaceAliasDecl *D) {
    if (isWmmaNS(D->getNamespace()) && TC.isUserLoc(D->getLocation())) {
      AnyWmma = true;
      Aliases.push_back(D);
    }
    return true;
  }

  bool VisitDeclaratorDecl(DeclaratorDecl *D) {
    noteType(D->getType(), D->getLocation());
    if (std::optional<FragType> F = fragType(D->getType()))
      if (!F->Dependent && F->supported() && TC.isUserLoc(D->getLocation())) {
        FragDecls.push_back(D);
        const auto *VD = dyn_cast<VarDecl>(D);
        if (VD && VD->hasLocalStorage() && !isa<ParmVarDecl>(VD) &&
            isa<ConstantArrayType>(VD->getType().getCanonicalType()))
          FragArrays.insert(VD);
      }
    return true;
  }
  bool VisitDeclRefExpr(DeclRefExpr *E) {
    if (const auto *VD = dyn_cast<VarDecl>(E->getDecl()))
      if (isa<ConstantArrayType>(VD->getType().getCanonicalType()) &&
          fragType(VD->getType()))
        ArrayRefs.push_back(E);
    return true;
  }
  bool VisitTypedefNameDecl(TypedefNameDecl *D) {
    noteType(D->getUnderlyingType(), D->getLocation());
    return true;
  }

  bool VisitCallExpr(CallExpr *CE) {
    if (!TC.isUserLoc(CE->getBeginLoc()))
      return true;
    llvm::StringRef Name;
    if (!wmmaCallee(CE, Name)) {
      if (const FunctionDecl *FD = CE->getDirectCallee())
        if (FD->hasBody() && TC.isUserLoc(FD->getLocation()))
          UserCalls.push_back({CE, enclosingFunction(CE)});
      return true;
    }
    AnyWmma = true;
    if (!isFragOpName(Name)) {
      Unsupported.push_back(
          {CE->getBeginLoc(), "wmma::" + Name.str() + " is not ported"});
      return true;
    }
    Calls.push_back({CE, Name.str(), enclosingFunction(CE)});
    if (Name == "mma_sync" && CE->getNumArgs() >= 5 &&
        !isa<CXXDefaultArgExpr>(CE->getArg(4))) {
      bool Result = true;
      if (CE->getArg(4)->isValueDependent() ||
          !CE->getArg(4)->EvaluateAsBooleanCondition(Result, TC.Ctx()) ||
          Result)
        TC.finding(CE->getArg(4)->getBeginLoc(), RuleId::PK3015, Severity::Warning,
                   "mma_sync saturation (satf) is not applied by the MFMA "
                   "port: results are not clamped to finite values");
    }
    return true;
  }

  bool VisitMemberExpr(MemberExpr *ME) {
    const ValueDecl *D = ME->getMemberDecl();
    if (isa<FieldDecl>(D) && D->getIdentifier() && D->getName() == "x" &&
        inWmma(D) && TC.isUserLoc(ME->getBeginLoc()))
      ElemRefs.push_back(ME);
    return true;
  }
  bool VisitCXXDependentScopeMemberExpr(CXXDependentScopeMemberExpr *ME) {
    if (ME->getMember().isIdentifier() &&
        ME->getMember().getAsIdentifierInfo()->getName() == "x" &&
        !ME->isImplicitAccess() && fragType(ME->getBaseType()) &&
        TC.isUserLoc(ME->getBeginLoc()))
      DependentElemRefs.push_back(ME);
    return true;
  }

  bool VisitGCCAsmStmt(GCCAsmStmt *S) {
    if (TC.isUserLoc(S->getAsmLoc()))
      Asms.push_back(S);
    return true;
  }

  bool VisitFunctionDecl(FunctionDecl *FD) {
    if (FD->hasAttr<CUDAGlobalAttr>() && FD->doesThisDeclarationHaveABody() &&
        TC.isUserLoc(FD->getLocation()))
      Kernels.push_back(FD);
    return true;
  }
  bool VisitCUDAKernelCallExpr(CUDAKernelCallExpr *CE) {
    if (TC.isUserLoc(CE->getBeginLoc()))
      Launches.push_back(CE);
    return true;
  }

  const FunctionDecl *enclosingFunction(const Stmt *S) {
    DynTypedNode N = DynTypedNode::create(*S);
    for (int Guard = 0; Guard < 256; ++Guard) {
      auto Ps = TC.Ctx().getParents(N);
      if (Ps.empty())
        return nullptr;
      N = Ps[0];
      if (const auto *FD = N.get<FunctionDecl>())
        return FD;
    }
    return nullptr;
  }

private:
  TargetContext &TC;

  void noteType(QualType T, SourceLocation Loc) {
    std::optional<FragType> F = fragType(T);
    if (!F)
      return;
    AnyWmma = true;
    if (!TC.isUserLoc(Loc))
      return;
    if (!F->supported()) {
      Unsupported.push_back({Loc, F->describe() + " is not ported"});
      return;
    }
    if (F->Dependent)
      return;
    if (F->U == Use::A || F->U == Use::B) {
      FileElems[TC.fileOf(Loc)].insert(F->E);
      AllElems.insert(F->E);
      if (F->E == Elem::BF16 && FirstBF16.isInvalid())
        FirstBF16 = Loc;
    } else {
      FileElems[TC.fileOf(Loc)];
    }
  }
};

/// Fragment element types of template instantiations (dependent fragment
/// types in the pattern).
class InstantiationTypes : public RecursiveASTVisitor<InstantiationTypes> {
public:
  explicit InstantiationTypes(TargetContext &TC) : TC(TC) {}
  bool shouldVisitTemplateInstantiations() const { return true; }
  std::set<Elem> Elems;
  std::vector<std::pair<SourceLocation, std::string>> Bad;
  bool VisitDeclaratorDecl(DeclaratorDecl *D) {
    if (!TC.isUserLoc(D->getLocation()))
      return true;
    if (std::optional<FragType> F = fragType(D->getType())) {
      if (F->Dependent)
        return true;
      if (!F->supported())
        Bad.push_back({D->getLocation(), F->describe()});
      else if (F->U != Use::Acc)
        Elems.insert(F->E);
    }
    return true;
  }

private:
  TargetContext &TC;
};

class MfmaRules {
public:
  explicit MfmaRules(TargetContext &TC) : TC(TC), P(TC) {}

  llvm::Error run() {
    P.TraverseDecl(TC.Ctx().getTranslationUnitDecl());
    Shape = TC.Opts.Mfma == MfmaShape::Auto ? MfmaShape::M16N16K16
                                            : TC.Opts.Mfma;
    bool Ported = false;
    if (P.AnyWmma)
      Ported = portWmma();
    bool AnyPtx = portAsm();
    if (Ported || AnyPtx) {
      checkDivergence();
      checkWaves();
    }
    return llvm::Error::success();
  }

private:
  TargetContext &TC;
  MfmaPass P;
  MfmaShape Shape = MfmaShape::M16N16K16;
  /// Statements that need the whole wave (fragment operations, PTX mma).
  std::vector<const Stmt *> WaveOps;
  std::set<std::string> PtxHelperFiles;

  const LangOptions &LO() const { return TC.Ctx().getLangOpts(); }
  SourceManager &SM() const { return TC.SM(); }

  std::string shapeName() const {
    return Shape == MfmaShape::M32N32K8 ? "v_mfma_f32_32x32x8"
                                        : "v_mfma_f32_16x16x16";
  }

  // ---- warp tiles (PK3005) ------------------------------------------------

  /// A loop nest `for (i < R) for (j < C) mma_sync(acc[i][j], a[i], b[j],
  /// acc[i][j]);` over a logical warp's fragment arrays.
  struct TileNest {
    const CallExpr *Call = nullptr;
    const ForStmt *Outer = nullptr;
    const VarDecl *Acc = nullptr, *A = nullptr, *B = nullptr;
    std::string File;
    unsigned Begin = 0, End = 0; // replaced bytes (with leading #pragma lines)
    bool Braced = false;         // the text ends with '}' (else ';' follows)
    bool Pragmas = false;        // Begin is the start of a #pragma line
    std::string Indent;          // of the outer loop
  };
  std::vector<TileNest> Nests;
  /// Arrays held as 32x32 tiles, and why other arrays are not.
  llvm::SetVector<const VarDecl *> Fused;
  std::map<const VarDecl *, std::string> NotFused;

  /// `V[i]...` with loop-variable indices: V and the index variables.
  static const VarDecl *subscripts(const Expr *E,
                                   std::vector<const VarDecl *> &Idx) {
    E = E->IgnoreParenImpCasts();
    while (const auto *ASE = dyn_cast<ArraySubscriptExpr>(E)) {
      const auto *I = dyn_cast<DeclRefExpr>(ASE->getIdx()->IgnoreParenImpCasts());
      const auto *IV = I ? dyn_cast<VarDecl>(I->getDecl()) : nullptr;
      if (!IV)
        return nullptr;
      Idx.insert(Idx.begin(), IV);
      E = ASE->getBase()->IgnoreParenImpCasts();
    }
    const auto *D = dyn_cast<DeclRefExpr>(E);
    return D ? dyn_cast<VarDecl>(D->getDecl()) : nullptr;
  }

  /// \p F is `for (int v = 0; v < N; ++v)` (or v++, v += 1) with constant N.
  bool countedLoop(const ForStmt *F, const VarDecl *&V, int64_t &N) {
    const auto *DS = dyn_cast_or_null<DeclStmt>(F->getInit());
    if (!DS || !DS->isSingleDecl())
      return false;
    V = dyn_cast<VarDecl>(DS->getSingleDecl());
    Expr::EvalResult R;
    const auto *Cond = dyn_cast_or_null<BinaryOperator>(
        F->getCond() ? F->getCond()->IgnoreParenImpCasts() : nullptr);
    if (!V || !fromZeroByOne(F, V) || !Cond || Cond->getOpcode() != BO_LT ||
        !refersTo(Cond->getLHS(), V) || Cond->getRHS()->isValueDependent() ||
        !Cond->getRHS()->EvaluateAsInt(R, TC.Ctx()))
      return false;
    N = R.Val.getInt().getExtValue();
    return true;
  }

  /// The loop variable \p V of \p F starts at 0 and steps by 1 (++v, v++,
  /// v += 1).
  bool fromZeroByOne(const ForStmt *F, const VarDecl *V) {
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

  /// The loop whose body is \p S (through a one-statement block and a loop
  /// pragma).
  const ForStmt *loopAround(const Stmt *S, const Stmt *&Attr) {
    Attr = nullptr;
    const Stmt *P = parentStmt(S);
    if (const auto *CS = dyn_cast_or_null<CompoundStmt>(P)) {
      if (CS->size() != 1)
        return nullptr;
      S = CS;
      P = parentStmt(CS);
    }
    const auto *F = dyn_cast_or_null<ForStmt>(P);
    if (!F || F->getBody() != S)
      return nullptr;
    if (const auto *A = dyn_cast_or_null<AttributedStmt>(parentStmt(F)))
      Attr = A;
    return F;
  }

  /// Recognises the nest around a mma_sync call; \p Why says why not.
  bool matchNest(const FragCall &C, TileNest &N, std::string &Why) {
    const CallExpr *CE = C.CE;
    if (CE->getNumArgs() < 4) {
      Why = "mma_sync with fewer than four arguments";
      return false;
    }
    std::vector<const VarDecl *> ID, IA, IB, IC;
    const VarDecl *D = subscripts(CE->getArg(0), ID);
    const VarDecl *A = subscripts(CE->getArg(1), IA);
    const VarDecl *B = subscripts(CE->getArg(2), IB);
    const VarDecl *Cc = subscripts(CE->getArg(3), IC);
    if (!D || !A || !B || D != Cc || ID.size() != 2 || IA.size() != 1 ||
        IB.size() != 1 || ID != IC || IA[0] != ID[0] || IB[0] != ID[1] ||
        ID[0] == ID[1]) {
      Why = "it is not mma_sync(acc[i][j], a[i], b[j], acc[i][j])";
      return false;
    }
    if (!P.FragArrays.count(D) || !P.FragArrays.count(A) || !P.FragArrays.count(B)) {
      Why = "the fragments are not local arrays";
      return false;
    }
    std::vector<uint64_t> DD = constantArrayDims(D->getType()),
                          DA = constantArrayDims(A->getType()),
                          DB = constantArrayDims(B->getType());
    if (DD.size() != 2 || DA.size() != 1 || DB.size() != 1 || DD[0] != DA[0] ||
        DD[1] != DB[0] || DD[0] % 2 || DD[1] % 2) {
      Why = "the arrays are not acc[R][C], a[R], b[C] with R and C even";
      return false;
    }
    const Stmt *AttrIn = nullptr, *AttrOut = nullptr;
    const ForStmt *Inner = loopAround(CE, AttrIn);
    const ForStmt *Outer = Inner ? loopAround(AttrIn ? AttrIn : Inner, AttrOut) : nullptr;
    const VarDecl *VI = nullptr, *VO = nullptr;
    int64_t NI = 0, NO = 0;
    if (!Outer || !countedLoop(Inner, VI, NI) || !countedLoop(Outer, VO, NO)) {
      Why = "it is not the only statement of two counted for loops over the arrays";
      return false;
    }
    // Either loop order; the bounds are the array sizes.
    bool Ok = (VO == ID[0] && VI == ID[1] && NO == DD[0] && NI == DD[1]) ||
              (VO == ID[1] && VI == ID[0] && NO == DD[1] && NI == DD[0]);
    if (!Ok) {
      Why = "the loops do not run over all fragments of the arrays";
      return false;
    }
    SourceLocation B0 = Outer->getBeginLoc(), E0 = Outer->getEndLoc();
    if (B0.isMacroID() || E0.isMacroID()) {
      Why = "the loops are written in a macro";
      return false;
    }
    N.Call = CE;
    N.Outer = Outer;
    N.Acc = D;
    N.A = A;
    N.B = B;
    N.File = TC.fileOf(B0);
    llvm::StringRef Buf = TC.contents(N.File);
    N.Begin = SM().getFileOffset(B0);
    N.End = SM().getFileOffset(
        Lexer::getLocForEndOfToken(E0, 0, SM(), LO()));
    // Take the #pragma lines right before the outer loop along; the call
    // keeps the loop's indentation.
    size_t ForLine = Buf.take_front(N.Begin).rfind('\n');
    ForLine = ForLine == llvm::StringRef::npos ? 0 : ForLine + 1;
    if (Buf.slice(ForLine, N.Begin).trim().empty())
      N.Indent = Buf.slice(ForLine, N.Begin).str();
    while (AttrOut) {
      size_t LS = Buf.take_front(N.Begin).rfind('\n');
      if (LS == llvm::StringRef::npos)
        break;
      size_t PS = Buf.take_front(LS).rfind('\n');
      PS = PS == llvm::StringRef::npos ? 0 : PS + 1;
      llvm::StringRef Line = Buf.slice(PS, LS);
      if (!Line.ltrim().starts_with("#pragma"))
        break;
      N.Begin = PS;
      N.Pragmas = true;
    }
    llvm::StringRef Text = Buf.slice(N.Begin, N.End);
    if (Text.contains("//") || Text.contains("/*")) {
      Why = "the loops contain comments";
      return false;
    }
    N.Braced = Text.ends_with("}");
    return true;
  }

  /// How \p Ref (a reference to a fragment array) is used: OK when it is a
  /// fully indexed fragment passed to fill/load/store, or an operand of a
  /// recognised nest.
  bool usedAsFragment(const DeclRefExpr *Ref, unsigned Rank,
                      const std::set<const CallExpr *> &NestCalls,
                      std::string &Why) {
    const Stmt *E = Ref;
    for (unsigned K = 0; K < Rank; ++K) {
      const Stmt *Par = parentStmt(E);
      while (Par && isa<ImplicitCastExpr, ParenExpr>(Par))
        Par = parentStmt(Par);
      const auto *ASE = dyn_cast_or_null<ArraySubscriptExpr>(Par);
      if (!ASE || ASE->getBase()->IgnoreParenImpCasts() != E) {
        Why = "'" + brief(TC.text(Ref->getSourceRange())) +
              "' is used other than as a whole fragment";
        return false;
      }
      E = ASE;
    }
    const Stmt *Par = parentStmt(E);
    while (Par && isa<ImplicitCastExpr, ParenExpr, MaterializeTemporaryExpr>(Par))
      Par = parentStmt(Par);
    const auto *CE = dyn_cast_or_null<CallExpr>(Par);
    const FragCall *FC = nullptr;
    for (const FragCall &C : P.Calls)
      if (C.CE == CE)
        FC = &C;
    auto IsArg = [&](unsigned I) {
      return CE && CE->getNumArgs() > I && CE->getArg(I)->IgnoreParenImpCasts() == E;
    };
    if (FC && FC->Name == "mma_sync" && NestCalls.count(CE))
      return true;
    if (FC && (FC->Name == "fill_fragment" || FC->Name == "load_matrix_sync") &&
        IsArg(0))
      return true;
    if (FC && FC->Name == "store_matrix_sync" && IsArg(1))
      return true;
    const Expr *Use = dyn_cast<Expr>(Par ? Par : E);
    Why = "'" + brief(TC.text(Use ? Use->getSourceRange() : Ref->getSourceRange())) +
          "' uses a fragment other than in fill_fragment, load_matrix_sync, "
          "store_matrix_sync or the mma_sync loop nest";
    return false;
  }

  /// Chooses the arrays that become 32x32 tiles (shape auto and 32x32x8).
  void planWarpTiles() {
    if (TC.Opts.Mfma == MfmaShape::M16N16K16)
      return;
    std::vector<TileNest> Cand;
    std::set<const VarDecl *> Bad;
    for (const FragCall &C : P.Calls) {
      if (C.Name != "mma_sync")
        continue;
      TileNest N;
      std::string Why;
      if (matchNest(C, N, Why)) {
        Cand.push_back(N);
        continue;
      }
      // Arrays that appear in an unrecognised mma_sync stay fragments.
      std::vector<const VarDecl *> Idx;
      for (unsigned I = 0; I < C.CE->getNumArgs() && I < 4; ++I)
        if (const VarDecl *V = subscripts(C.CE->getArg(I), Idx))
          if (P.FragArrays.count(V)) {
            Bad.insert(V);
            NotFused.emplace(
                V, llvm::formatv("mma_sync at line {0}: {1}",
                                 SM().getExpansionLineNumber(C.CE->getBeginLoc()),
                                 Why)
                       .str());
          }
    }
    std::set<const CallExpr *> NestCalls;
    for (const TileNest &N : Cand)
      NestCalls.insert(N.Call);
    for (const DeclRefExpr *R : P.ArrayRefs) {
      const auto *V = cast<VarDecl>(R->getDecl());
      if (!P.FragArrays.count(V) || Bad.count(V))
        continue;
      std::optional<FragType> F = fragType(V->getType());
      std::string Why;
      if (!usedAsFragment(R, F && F->U == Use::Acc ? 2 : 1, NestCalls, Why)) {
        Bad.insert(V);
        NotFused.emplace(V, Why);
      }
    }
    for (const VarDecl *V : P.FragArrays) {
      const auto *DS = dyn_cast_or_null<DeclStmt>(declStmtOf(V));
      const auto *Init = V->hasInit() ? dyn_cast<CXXConstructExpr>(
                                            V->getInit()->IgnoreImplicit())
                                      : nullptr;
      bool Written = V->hasInit() && (!Init || Init->getNumArgs() ||
                                      Init->getParenOrBraceRange().isValid());
      if (!DS || !DS->isSingleDecl() || Written ||
          V->getBeginLoc().isMacroID() || V->getLocation().isMacroID()) {
        Bad.insert(V);
        NotFused.emplace(V, "its declaration is not a plain single declaration");
      }
    }
    // A nest is fused only with all three of its arrays; an array only with
    // all of its nests.
    for (bool Changed = true; Changed;) {
      Changed = false;
      for (const TileNest &N : Cand)
        if (Bad.count(N.Acc) || Bad.count(N.A) || Bad.count(N.B))
          for (const VarDecl *V : {N.Acc, N.A, N.B})
            if (Bad.insert(V).second) {
              NotFused.emplace(V, "an array it is multiplied with cannot be "
                                  "held as 32x32 tiles");
              Changed = true;
            }
    }
    for (const TileNest &N : Cand) {
      if (Bad.count(N.Acc))
        continue;
      Nests.push_back(N);
      for (const VarDecl *V : {N.Acc, N.A, N.B})
        Fused.insert(V);
    }
  }

  bool inRewrittenNest(SourceLocation L) {
    L = SM().getSpellingLoc(L);
    std::string F = TC.fileOf(L);
    unsigned O = SM().getFileOffset(L);
    for (const TileNest &N : Nests)
      if (N.File == F && O >= N.Begin && O < N.End)
        return true;
    return false;
  }

  const Stmt *declStmtOf(const VarDecl *V) {
    auto Ps = TC.Ctx().getParents(*V);
    return Ps.empty() ? nullptr : Ps[0].get<Stmt>();
  }

  /// The PK3005 edits: declarations and loop nests.
  void rewriteWarpTiles(std::set<std::string> &TileFiles) {
    const char *Why =
        "the fragments of this array form 32x32 tiles of one logical warp: "
        "each v_mfma_f32_32x32x8 computes a whole 32x32 tile (four of the "
        "CUDA fragments), no product discarded";
    for (const VarDecl *V : Fused) {
      TypeLoc TL = V->getTypeSourceInfo()->getTypeLoc();
      std::vector<std::string> Dims;
      SourceLocation LastBracket;
      while (auto AL = TL.getAs<ArrayTypeLoc>()) {
        Dims.push_back(AL.getSizeExpr() ? TC.text(AL.getSizeExpr()) : "?");
        LastBracket = AL.getRBracketLoc();
        TL = AL.getElementLoc();
      }
      SourceLocation TB = TL.getBeginLoc(), TE = TL.getEndLoc();
      if (TB.isMacroID() || TE.isMacroID() || LastBracket.isMacroID())
        continue; // checked before; kept for safety
      std::string Tail = ", " + llvm::join(Dims, ", ") + "> " +
                         V->getName().str();
      TC.insert(TB, "pk_mfma::fragment_array<", RuleId::PK3005, Why);
      TC.replace(CharSourceRange::getCharRange(
                     Lexer::getLocForEndOfToken(TE, 0, SM(), LO()),
                     Lexer::getLocForEndOfToken(LastBracket, 0, SM(), LO())),
                 Tail, RuleId::PK3005, Why);
      TileFiles.insert(TC.fileOf(V->getLocation()));
    }
    for (const TileNest &N : Nests) {
      std::string Call = llvm::formatv("{4}pk_mfma::mma_sync({0}, {1}, {2}, {0}){3}",
                                       N.Acc->getName(), N.A->getName(),
                                       N.B->getName(), N.Braced ? ";" : "",
                                       N.Pragmas ? N.Indent : std::string())
                             .str();
      TC.edit(N.File, N.Begin, N.End - N.Begin, Call, RuleId::PK3005,
              "one call multiplies every 32x32 tile of the logical warp "
              "(v_mfma_f32_32x32x8, two per 16-wide k-step and tile) in place "
              "of the loops over its 16x16 fragments");
    }
  }

  /// PK3016: what happens to fragments that are not 32x32 tiles; one note
  /// per function, at its first such declaration.
  void reportUnfused() {
    bool Forced = TC.Opts.Mfma == MfmaShape::M32N32K8;
    std::vector<const DeclContext *> Order;
    std::map<const DeclContext *, std::vector<const DeclaratorDecl *>> ByFn;
    for (const DeclaratorDecl *D : P.FragDecls) {
      const auto *V = dyn_cast<VarDecl>(D);
      if (V && Fused.count(V))
        continue;
      bool Acc2D = V && NotFused.count(V) &&
                   fragType(V->getType())->U == Use::Acc &&
                   constantArrayDims(V->getType()).size() == 2;
      if (!Forced && !Acc2D)
        continue; // auto: single fragments are simply 16x16x16
      const DeclContext *DC = D->getDeclContext();
      if (!ByFn.count(DC))
        Order.push_back(DC);
      ByFn[DC].push_back(D);
    }
    for (const DeclContext *DC : Order) {
      const auto &Ds = ByFn[DC];
      std::vector<std::string> Names, Reasons;
      for (const DeclaratorDecl *D : Ds) {
        Names.push_back("'" + D->getName().str() + "'");
        const auto *V = dyn_cast<VarDecl>(D);
        auto NF = V ? NotFused.find(V) : NotFused.end();
        if (NF != NotFused.end() && !llvm::is_contained(Reasons, NF->second))
          Reasons.push_back(NF->second);
      }
      std::string Why = Reasons.empty() ? std::string()
                                        : " (" + llvm::join(Reasons, "; ") + ")";
      std::string What = llvm::join(Names, ", ");
      bool One = Names.size() == 1;
      if (Forced)
        TC.finding(Ds.front()->getLocation(), RuleId::PK3016, Severity::Note,
                   llvm::formatv("{0} {1} not part of a logical warp's 32x32 "
                                 "tile{2}: with --mfma-shape=32x32x8 one "
                                 "v_mfma_f32_32x32x8 computes the 16x16 tiles "
                                 "of both logical warps of a wave as its "
                                 "diagonal blocks and discards the other half "
                                 "of its products; --mfma-shape=auto uses "
                                 "v_mfma_f32_16x16x16 for such fragments",
                                 What, One ? "is" : "are", Why)
                       .str());
      else
        TC.finding(Ds.front()->getLocation(), RuleId::PK3016, Severity::Note,
                   llvm::formatv("{0} {1} not held as 32x32 tiles{2}; {3} "
                                 "fragments use v_mfma_f32_16x16x16",
                                 What, One ? "is" : "are", Why,
                                 One ? "its" : "their")
                       .str());
    }
  }

  // ---- LDS padding (PK3017) -------------------------------------------------

  /// mem_row_major (true) or mem_col_major (false) as a constant argument.
  static std::optional<bool> memRowMajor(const Expr *E) {
    const auto *DR = dyn_cast<DeclRefExpr>(E->IgnoreParenImpCasts());
    const auto *EC = DR ? dyn_cast<EnumConstantDecl>(DR->getDecl()) : nullptr;
    if (EC && EC->getName() == "mem_row_major")
      return true;
    if (EC && EC->getName() == "mem_col_major")
      return false;
    return std::nullopt;
  }

  /// The fragment loads and stores, with the lanes the helpers give them.
  void planPadding() {
    std::vector<mfma::StagingOp> Ops;
    for (const FragCall &C : P.Calls) {
      const bool Load = C.Name == "load_matrix_sync";
      if ((!Load && C.Name != "store_matrix_sync") || C.CE->getNumArgs() < 3)
        continue;
      const Expr *Frag = C.CE->getArg(Load ? 0 : 1);
      auto FT = fragType(Frag->getType());
      if (!FT || FT->Dependent || !FT->supported())
        continue;
      mfma::StagingOp Op;
      Op.Call = C.CE;
      Op.Ptr = C.CE->getArg(Load ? 1 : 0);
      Op.Ld = C.CE->getArg(2);
      const VarDecl *Arr = subscriptBase(Frag);
      Op.M = Arr && Fused.count(Arr)          ? lds::Mapping::Tile32
             : Shape == MfmaShape::M32N32K8 ? lds::Mapping::Diagonal32
                                            : lds::Mapping::Pair16;
      if (FT->U == Use::Acc) {
        std::optional<bool> Row = C.CE->getNumArgs() > 3
                                      ? memRowMajor(C.CE->getArg(3))
                                      : std::nullopt;
        if (!Row || *Row)
          Op.Traffic.push_back(lds::Traffic::AccRowMajor);
        if (!Row || !*Row)
          Op.Traffic.push_back(Load ? lds::Traffic::AccColMajorLoad
                                    : lds::Traffic::AccColMajorStore);
      } else if (FT->RowMajor) {
        Op.Traffic.push_back((FT->U == Use::A) == *FT->RowMajor
                                 ? lds::Traffic::OperandContiguous
                                 : lds::Traffic::OperandStrided);
      }
      Ops.push_back(std::move(Op));
    }
    mfma::planLdsPadding(TC, Ops);
  }

  // ---- WMMA --------------------------------------------------------------

  bool portWmma() {
    InstantiationTypes IT(TC);
    IT.TraverseDecl(TC.Ctx().getTranslationUnitDecl());
    const char *Supported = " (supported: m16n16k16 with half or "
                            "__nv_bfloat16 inputs and float accumulators); "
                            "the WMMA code of this file is left unchanged";
    if (!P.Unsupported.empty() || !IT.Bad.empty()) {
      for (const auto &U : P.Unsupported)
        TC.finding(U.Loc, RuleId::PK3015, Severity::Warning, U.What + Supported);
      for (const auto &[L, What] : IT.Bad)
        TC.finding(L, RuleId::PK3015, Severity::Warning,
                   What + " is not ported" + Supported);
      return false;
    }
    // Nothing but a using directive or an alias: leave the file alone.
    if (P.Quals.empty() && P.Calls.empty() && P.FileElems.empty())
      return false;
    std::set<Elem> Elems = P.AllElems;
    Elems.insert(IT.Elems.begin(), IT.Elems.end());
    if (Elems.empty())
      Elems.insert(Elem::F16);

    std::string Why =
        llvm::formatv("nvcuda::wmma -> pk_mfma, generated into this file: "
                      "each 64-lane wave holds the 16x16 tiles of its two "
                      "32-lane logical warps and multiplies them with {0}",
                      shapeName())
            .str();
    planWarpTiles();
    std::set<std::string> Files, TileFiles;
    rewriteWarpTiles(TileFiles);
    for (NestedNameSpecifierLoc Q : P.Quals) {
      SourceRange R = Q.getSourceRange();
      if (inRewrittenNest(R.getBegin()))
        continue;
      if (TC.replace(CharSourceRange::getTokenRange(R), "pk_mfma::", RuleId::PK3001,
                     Why))
        Files.insert(TC.fileOf(SM().getSpellingLoc(R.getBegin())));
    }
    for (const UsingDirectiveDecl *U : P.Usings)
      rewriteUsing(U, Why, Files);
    for (const NamespaceAliasDecl *A : P.Aliases) {
      SourceRange R(A->getQualifierLoc() ? A->getQualifierLoc().getBeginLoc()
                                          : A->getTargetNameLoc(),
                    A->getTargetNameLoc());
      if (TC.replace(CharSourceRange::getTokenRange(R), "pk_mfma", RuleId::PK3001,
                     Why))
        Files.insert(TC.fileOf(A->getLocation()));
    }
    for (const FragCall &C : P.Calls)
      WaveOps.push_back(C.CE);
    for (const auto &[F, E] : P.FileElems)
      Files.insert(F);

    // Helpers for every file that uses the API.
    for (const std::string &F : Files) {
      if (!TC.isUserFile(F))
        continue;
      auto It = P.FileElems.find(F);
      std::set<Elem> FE = It != P.FileElems.end() && !It->second.empty()
                              ? It->second
                              : Elems;
      auto &H = TC.Helpers[F];
      H[mfma::KeyWmmaCore] = includesHipRuntime(F)
                                 ? withoutRuntimeInclude(mfma::wmmaCoreHelpers(Shape))
                                 : mfma::wmmaCoreHelpers(Shape);
      if (FE.count(Elem::F16)) {
        H[mfma::KeyWmmaF16] = mfma::wmmaF16Helpers();
        TC.Needs[F].insert(NeedMfmaF16);
      }
      if (FE.count(Elem::BF16)) {
        H[mfma::KeyWmmaBF16] = mfma::wmmaBF16Helpers();
        TC.Needs[F].insert(NeedMfmaBF16);
      }
      H[mfma::KeyWmmaOps] = mfma::wmmaOpsHelpers(Shape);
      if (TileFiles.count(F))
        H[mfma::KeyWarpTiles] = mfma::warpTileHelpers();
    }
    reportUnfused();
    if (TC.Opts.Padding != LdsPadding::Keep)
      planPadding();
    removeMmaIncludes();
    if (P.FirstBF16.isValid())
      TC.finding(P.FirstBF16, RuleId::PK3012, Severity::Note,
                 llvm::formatv("bf16 fragments use {0}bf16_1k: the output "
                               "runs on gfx90a (MI200), gfx940/941/942 "
                               "(MI300) and newer CDNA GPUs, not on gfx908 "
                               "(MI100), which has no bf16_1k matrix "
                               "instructions",
                               Shape == MfmaShape::M32N32K8 || Fused.empty()
                                   ? (Shape == MfmaShape::M32N32K8
                                          ? "__builtin_amdgcn_mfma_f32_32x32x8"
                                          : "__builtin_amdgcn_mfma_f32_16x16x16")
                                   : "__builtin_amdgcn_mfma_f32_16x16x16bf16_1k "
                                     "and __builtin_amdgcn_mfma_f32_32x32x8")
                     .str());
    checkElementAccess();
    return true;
  }

  /// True when \p File includes hip/hip_runtime.h once ported (directly or
  /// as the translation of a CUDA header); the helpers need its __shfl.
  bool includesHipRuntime(const std::string &File) {
    bool Found = false;
    forEachDirective(TC.contents(File), [&](const Directive &D) {
      if (D.Header == "hip/hip_runtime.h")
        Found = true;
      else if (!D.Header.empty())
        if (const RenameEntry *E = TC.DB.lookupHeader(D.Header, true))
          if (E->Unsupported.empty() && E->Hip == "hip/hip_runtime.h")
            Found = true;
    });
    return Found;
  }

  static std::string withoutRuntimeInclude(std::string Text) {
    const std::string Inc = "#include <hip/hip_runtime.h>\n";
    size_t At = Text.find(Inc);
    if (At != std::string::npos)
      Text.erase(At, Inc.size());
    return Text;
  }

  void rewriteUsing(const UsingDirectiveDecl *U, llvm::StringRef Why,
                    std::set<std::string> &Files) {
    SourceLocation NameLoc = U->getIdentLocation();
    if (NameLoc.isMacroID())
      return;
    std::string F = TC.fileOf(NameLoc);
    if (isWmmaNS(U->getNominatedNamespace())) {
      // using namespace [nvcuda::]wmma;  ->  using namespace pk_mfma;
      SourceLocation B = U->getQualifierLoc()
                             ? U->getQualifierLoc().getBeginLoc()
                             : NameLoc;
      if (TC.replace(CharSourceRange::getTokenRange(B, NameLoc), "pk_mfma",
                     RuleId::PK3001, Why))
        Files.insert(F);
      return;
    }
    // using namespace nvcuda;  -> removed (the line, when it is alone on it).
    SourceLocation B = U->getBeginLoc();
    SourceLocation Semi = Lexer::findLocationAfterToken(
        U->getEndLoc(), tok::semi, SM(), LO(), false);
    if (B.isMacroID() || Semi.isInvalid())
      return;
    unsigned BO = SM().getFileOffset(B), EO = SM().getFileOffset(Semi);
    llvm::StringRef Buf = TC.contents(F);
    size_t LS = Buf.take_front(BO).rfind('\n');
    LS = LS == llvm::StringRef::npos ? 0 : LS + 1;
    size_t LE = Buf.find('\n', EO);
    if (Buf.slice(LS, BO).trim().empty() &&
        (LE == llvm::StringRef::npos || Buf.slice(EO, LE).trim().empty())) {
      BO = LS;
      EO = LE == llvm::StringRef::npos ? Buf.size() : LE + 1;
    }
    TC.edit(F, BO, EO - BO, "", RuleId::PK3001,
            "namespace nvcuda only holds wmma, which pk_mfma replaces");
    Files.insert(F);
  }

  /// Deletes #include <mma.h> in every user file of the TU and marks the
  /// include handled, so it is not reported as unported (PK1010).
  void removeMmaIncludes() {
    for (const std::string &File : TC.PF.UserFiles)
      forEachDirective(TC.contents(File), [&](const Directive &D) {
        if (D.Header != "mma.h")
          return;
        TC.edit(File, D.Begin, D.End - D.Begin, "", RuleId::PK3001,
                "<mma.h> declares nvcuda::wmma; the pk_mfma helpers "
                "generated into the ported files replace it");
        for (UnportedInclude &U : TC.Facts.UnportedIncludes)
          if (U.File == File && U.Begin == D.Begin)
            U.Handled = true;
      });
  }

  /// frag.x[i]: fine inside `for (i = 0; i < f.num_elements; ++i)` over a
  /// fragment of the same type; anything else depends on the layout.
  void checkElementAccess() {
    for (const MemberExpr *ME : P.ElemRefs) {
      const Stmt *Parent = parentStmt(ME);
      // Skip implicit casts (array-to-pointer decay) between x and [].
      while (Parent && isa<ImplicitCastExpr>(Parent))
        Parent = parentStmt(Parent);
      const auto *ASE = dyn_cast_or_null<ArraySubscriptExpr>(Parent);
      std::string Frag = TC.text(ME->getBase());
      if (!ASE || ASE->getBase()->IgnoreParenImpCasts() != ME) {
        TC.finding(ME->getMemberLoc(), RuleId::PK3010, Severity::Warning,
                   llvm::formatv("'{0}.x' is used other than as x[i] in a "
                                 "loop over {0}.num_elements; which elements "
                                 "a lane holds differs between NVIDIA and "
                                 "the MFMA layout (docs/mfma.md)",
                                 Frag)
                       .str());
        continue;
      }
      std::string Reason;
      const ForStmt *Loop = nullptr;
      if (!elementWise(ASE, ME, Reason, Loop))
        TC.finding(ASE->getBeginLoc(), RuleId::PK3010, Severity::Warning,
                   llvm::formatv("'{0}' reads or writes a fragment element by "
                                 "position ({1}); the element-to-lane mapping "
                                 "of the MFMA port differs from NVIDIA's, so "
                                 "this element is a different matrix entry "
                                 "(only loops over num_elements are "
                                 "layout-independent)",
                                 TC.text(ASE), Reason)
                       .str());
      else
        ElementLoops.insert(Loop);
    }
    for (const CXXDependentScopeMemberExpr *ME : P.DependentElemRefs)
      TC.finding(ME->getMemberLoc(), RuleId::PK3010, Severity::Warning,
                 "fragment element access in a template: only loops over "
                 "num_elements are layout-independent; check that this one "
                 "is such a loop");
    for (const ForStmt *FS : ElementLoops)
      WaveOps.push_back(FS);
  }
  llvm::SmallPtrSet<const ForStmt *, 8> ElementLoops;

  const Stmt *parentStmt(const Stmt *S) {
    auto Ps = TC.Ctx().getParents(*S);
    return Ps.empty() ? nullptr : Ps[0].get<Stmt>();
  }

  /// True when \p ASE (\p ME [i]) is inside an element-wise loop, returned
  /// in \p Loop; otherwise \p Reason says why not.
  bool elementWise(const ArraySubscriptExpr *ASE, const MemberExpr *ME,
                   std::string &Reason, const ForStmt *&Loop) {
    const Expr *Idx = ASE->getIdx()->IgnoreParenImpCasts();
    Expr::EvalResult R;
    if (!Idx->isValueDependent() && Idx->EvaluateAsInt(R, TC.Ctx())) {
      Reason = "a constant index";
      return false;
    }
    const auto *DRE = dyn_cast<DeclRefExpr>(Idx);
    const auto *IV = DRE ? dyn_cast<VarDecl>(DRE->getDecl()) : nullptr;
    if (!IV) {
      Reason = "the index is not a loop variable";
      return false;
    }
    // The for statement that declares IV.
    const Stmt *S = ASE;
    const ForStmt *FS = nullptr;
    while ((S = parentStmt(S))) {
      if (const auto *F = dyn_cast<ForStmt>(S))
        if (const auto *DS = dyn_cast_or_null<DeclStmt>(F->getInit()))
          if (DS->isSingleDecl() && DS->getSingleDecl() == IV) {
            FS = F;
            break;
          }
    }
    if (!FS) {
      Reason = "the index is not the variable of an enclosing for loop";
      return false;
    }
    // Starts at 0, steps by 1, bounded by num_elements of a fragment of the
    // same type.
    bool Step = fromZeroByOne(FS, IV);
    const auto *Cond =
        dyn_cast_or_null<BinaryOperator>(FS->getCond() ? FS->getCond()->IgnoreParenImpCasts() : nullptr);
    bool Bound = false;
    if (Cond && (Cond->getOpcode() == BO_LT || Cond->getOpcode() == BO_NE) &&
        refersTo(Cond->getLHS(), IV)) {
      const Expr *RHS = Cond->getRHS()->IgnoreParenImpCasts();
      if (const auto *BM = dyn_cast<MemberExpr>(RHS))
        if (BM->getMemberDecl()->getIdentifier() &&
            BM->getMemberDecl()->getName() == "num_elements") {
          QualType BT = BM->getBase()->IgnoreParenImpCasts()->getType();
          if (BM->isArrow())
            BT = BT->getPointeeType();
          QualType ET = ME->getBase()->IgnoreParenImpCasts()->getType();
          if (ME->isArrow())
            ET = ET->getPointeeType();
          Bound = TC.Ctx().hasSameUnqualifiedType(BT.getNonReferenceType(),
                                                  ET.getNonReferenceType());
        }
    }
    if (!Step || !Bound) {
      Reason = "the loop is not `for (i = 0; i < frag.num_elements; ++i)` "
               "over a fragment of this type";
      return false;
    }
    // The index must not select anything else (bias[i], i * 2, ...): only
    // x[i] of fragments of this type is layout-independent.
    std::string Other;
    if (const Stmt *Use = otherUseOf(FS->getBody(), IV,
                                     ME->getBase()->IgnoreParenImpCasts()->getType())) {
      Reason = "the loop variable is also used in '" +
               brief(TC.text(Use->getSourceRange())) + "'";
      return false;
    }
    Loop = FS;
    return true;
  }

  /// A use of \p IV in \p S other than as the index of x[] of a fragment of
  /// type \p FragT.
  const Stmt *otherUseOf(const Stmt *S, const VarDecl *IV, QualType FragT) {
    if (!S)
      return nullptr;
    if (const auto *ASE = dyn_cast<ArraySubscriptExpr>(S)) {
      if (const auto *ME = dyn_cast<MemberExpr>(ASE->getBase()->IgnoreParenImpCasts()))
        if (ME->getMemberDecl()->getIdentifier() &&
            ME->getMemberDecl()->getName() == "x" && inWmma(ME->getMemberDecl()) &&
            refersTo(ASE->getIdx(), IV) &&
            TC.Ctx().hasSameUnqualifiedType(
                ME->getBase()->IgnoreParenImpCasts()->getType().getNonReferenceType(),
                FragT.getNonReferenceType()))
          return otherUseOf(ME->getBase(), IV, FragT);
    }
    if (const auto *DRE = dyn_cast<DeclRefExpr>(S))
      if (DRE->getDecl() == IV) {
        // The expression the variable is used in (bias[i], 2 * i, ...).
        const Stmt *U = parentStmt(DRE);
        while (U && isa<ImplicitCastExpr, ParenExpr>(U))
          U = parentStmt(U);
        return U ? U : DRE;
      }
    for (const Stmt *C : S->children())
      if (const Stmt *U = otherUseOf(C, IV, FragT))
        return U;
    return nullptr;
  }

  static bool refersTo(const Expr *E, const VarDecl *V) {
    const auto *D = dyn_cast<DeclRefExpr>(E->IgnoreParenImpCasts());
    return D && D->getDecl() == V;
  }

  // ---- divergence ----------------------------------------------------------

  /// The condition of a control statement \p Ctl that decides whether \p
  /// Child runs (nullptr when Child is the condition itself or Ctl does not
  /// branch).
  static const Expr *guardOf(const Stmt *Ctl, const Stmt *Child) {
    if (const auto *I = dyn_cast<IfStmt>(Ctl))
      return Child == I->getCond() ? nullptr : I->getCond();
    if (const auto *F = dyn_cast<ForStmt>(Ctl))
      return Child == F->getBody() || Child == F->getInc() ? F->getCond()
                                                           : nullptr;
    if (const auto *W = dyn_cast<WhileStmt>(Ctl))
      return Child == W->getBody() ? W->getCond() : nullptr;
    if (const auto *D = dyn_cast<DoStmt>(Ctl))
      return Child == D->getBody() ? D->getCond() : nullptr;
    if (const auto *S = dyn_cast<SwitchStmt>(Ctl))
      return Child == S->getBody() ? S->getCond() : nullptr;
    if (const auto *C = dyn_cast<AbstractConditionalOperator>(Ctl))
      return Child == C->getCond() ? nullptr : C->getCond();
    if (const auto *B = dyn_cast<BinaryOperator>(Ctl))
      return B->isLogicalOp() && Child == B->getRHS() ? B->getLHS() : nullptr;
    return nullptr;
  }

  void checkDivergence() {
    std::map<const FunctionDecl *, std::vector<const Stmt *>> ByFn;
    for (const Stmt *S : WaveOps)
      if (const FunctionDecl *FD = P.enclosingFunction(S))
        ByFn[FD].push_back(S);
    // A call of a function that uses fragments is a wave-wide operation of
    // its caller too (transitively).
    std::set<const FunctionDecl *> WaveFns;
    for (const auto &[FD, Ops] : ByFn)
      WaveFns.insert(FD->getCanonicalDecl());
    for (bool Changed = true; Changed;) {
      Changed = false;
      for (const auto &[CE, Caller] : P.UserCalls) {
        const FunctionDecl *Callee = CE->getDirectCallee();
        if (!Callee || !Caller || !WaveFns.count(Callee->getCanonicalDecl()))
          continue;
        auto &Ops = ByFn[Caller];
        if (llvm::is_contained(Ops, CE))
          continue;
        Ops.push_back(CE);
        WaveFns.insert(Caller->getCanonicalDecl());
        WaveOps.push_back(CE);
        Changed = true;
      }
    }
    for (auto &[FD, Ops] : ByFn)
      checkFunction(FD, Ops);
  }

  void checkFunction(const FunctionDecl *FD, std::vector<const Stmt *> &Ops) {
    const auto *Body = dyn_cast_or_null<CompoundStmt>(FD->getBody());
    if (!Body)
      return;
    Taint T(Body);
    unsigned LastOp = 0;
    for (const Stmt *S : Ops)
      LastOp = std::max(LastOp, SM().getFileOffset(SM().getExpansionLoc(S->getBeginLoc())));

    // The guard `if (warp-dependent) return;` at the top level of the body.
    const IfStmt *Guard = nullptr;
    for (const Stmt *S : Body->body()) {
      const auto *I = dyn_cast<IfStmt>(S);
      if (!I || !isBareReturn(I) || !T.tainted(I->getCond()))
        continue;
      if (SM().getFileOffset(SM().getExpansionLoc(I->getEndLoc())) > LastOp)
        continue;
      Guard = I;
      break;
    }
    bool Masked = Guard && maskGuard(FD, Body, Guard, Ops);

    // Any other exit under a warp-dependent condition before a fragment
    // operation, and fragment operations under such conditions.
    std::vector<const Stmt *> Exits;
    collectExits(Body, Exits);
    for (const Stmt *E : Exits) {
      if (Masked && E == Guard->getThen())
        continue;
      if (Masked && isa<CompoundStmt>(Guard->getThen()) &&
          E == *cast<CompoundStmt>(Guard->getThen())->body_begin())
        continue;
      if (SM().getFileOffset(SM().getExpansionLoc(E->getBeginLoc())) > LastOp)
        continue;
      const Expr *C = divergentGuard(E, T);
      if (!C)
        continue;
      if (Guard && !Masked && (E == Guard->getThen() ||
                               (isa<CompoundStmt>(Guard->getThen()) &&
                                E == *cast<CompoundStmt>(Guard->getThen())->body_begin())))
        continue; // reported by maskGuard
      TC.finding(E->getBeginLoc(), RuleId::PK3004, Severity::Warning,
                 llvm::formatv("this exit depends on the warp ('{0}') and "
                               "comes before fragment operations: on a "
                               "64-lane wave the two logical warps must reach "
                               "every fragment operation together",
                               TC.text(C))
                     .str());
    }
    for (const Stmt *S : Ops) {
      const Expr *C = divergentGuard(S, T);
      if (!C)
        continue;
      bool Loop = isa<ForStmt>(S);
      TC.finding(S->getBeginLoc(), RuleId::PK3004, Severity::Warning,
                 llvm::formatv("{0} runs under '{1}', which depends on the "
                               "warp; the MFMA port needs both logical warps "
                               "of a wave (warps 2w and 2w+1) to take the "
                               "same branch{2}",
                               Loop ? "this element-wise loop over x[]"
                                    : "this fragment operation",
                               TC.text(C),
                               Loop ? ", because each lane holds elements of "
                                      "both warps' tiles"
                                    : "")
                     .str());
    }
  }

  static bool isBareReturn(const IfStmt *I) {
    if (I->getElse() || I->hasInitStorage() || I->hasVarStorage() ||
        I->isConstexpr())
      return false;
    const Stmt *Then = I->getThen();
    if (const auto *CS = dyn_cast<CompoundStmt>(Then)) {
      if (CS->size() != 1)
        return false;
      Then = *CS->body_begin();
    }
    const auto *R = dyn_cast<ReturnStmt>(Then);
    return R && !R->getRetValue();
  }

  void collectExits(const Stmt *S, std::vector<const Stmt *> &Out) {
    if (!S)
      return;
    if (isa<ReturnStmt, BreakStmt, ContinueStmt, GotoStmt>(S))
      Out.push_back(S);
    if (isa<LambdaExpr>(S))
      return;
    for (const Stmt *C : S->children())
      collectExits(C, Out);
  }

  /// The innermost warp-dependent condition that decides whether \p S runs.
  const Expr *divergentGuard(const Stmt *S, const Taint &T) {
    const Stmt *Child = S;
    DynTypedNode N = DynTypedNode::create(*S);
    for (int Guard = 0; Guard < 256; ++Guard) {
      auto Ps = TC.Ctx().getParents(N);
      if (Ps.empty())
        return nullptr;
      N = Ps[0];
      const Stmt *Ctl = N.get<Stmt>();
      if (!Ctl)
        return nullptr; // reached a declaration (the function)
      if (const Expr *C = guardOf(Ctl, Child))
        if (T.tainted(C))
          return C;
      Child = Ctl;
    }
    return nullptr;
  }

  /// PK3003: `if (C) return;` -> `const bool live = !(C); if (!__any(live))
  /// return;` and the loads/stores after it take `live`.
  bool maskGuard(const FunctionDecl *FD, const CompoundStmt *Body,
                 const IfStmt *Guard, const std::vector<const Stmt *> &Ops) {
    auto Report = [&](llvm::StringRef Why) {
      TC.finding(Guard->getBeginLoc(), RuleId::PK3004, Severity::Warning,
                 llvm::formatv("this early return depends on the warp ('{0}') "
                               "and comes before fragment operations; it could "
                               "not be made wave-uniform ({1}): on a 64-lane "
                               "wave the two logical warps must reach every "
                               "fragment operation together",
                               TC.text(Guard->getCond()), Why)
                     .str());
      return false;
    };
    if (Guard->getBeginLoc().isMacroID() || Guard->getEndLoc().isMacroID() ||
        Guard->getRParenLoc().isMacroID())
      return Report("it is written in a macro");
    // Everything after the guard must be safe to run for a finished warp,
    // or be masked for it (PK3003).
    MaskPlan Plan;
    Plan.Ops.insert(Ops.begin(), Ops.end());
    bool After = false;
    for (const Stmt *S : Body->body()) {
      if (S == Guard) {
        After = true;
        continue;
      }
      if (After && !planMask(S, Plan))
        return Report(Plan.Why);
    }
    for (const FragCall &C : P.Calls)
      if (C.Fn == FD && isAfter(C.CE, Guard) &&
          (C.Name == "load_matrix_sync" || C.Name == "store_matrix_sync") &&
          C.CE->getRParenLoc().isMacroID())
        return Report("a fragment load or store after it is written in a macro");

    std::string File = TC.fileOf(Guard->getBeginLoc());
    llvm::StringRef Buf = TC.contents(File);
    unsigned IfOff = SM().getFileOffset(Guard->getBeginLoc());
    size_t LS = Buf.take_front(IfOff).rfind('\n');
    LS = LS == llvm::StringRef::npos ? 0 : LS + 1;
    std::string Indent =
        Buf.slice(LS, IfOff).take_while([](char C) { return C == ' ' || C == '\t'; }).str();
    const char *Why =
        "a logical warp that returns early would leave half of the wave's "
        "lanes out of the wave-wide MFMA operations: the wave keeps running "
        "while either warp has work, and the finished warp's fragment loads "
        "and stores are masked";
    // `if (` -> `const bool __pk_mfma_live = !(`
    TC.replace(CharSourceRange::getCharRange(
                   Guard->getBeginLoc(),
                   Guard->getLParenLoc().getLocWithOffset(1)),
               llvm::formatv("const bool {0} = !(", LiveVar).str(), RuleId::PK3003,
               Why);
    // `) return` / `) { return; }` -> `);\n if (!__any(live)) return`
    const Stmt *Then = Guard->getThen();
    bool Compound = isa<CompoundStmt>(Then);
    TC.replace(CharSourceRange::getTokenRange(Guard->getRParenLoc(),
                                              Then->getEndLoc()),
               llvm::formatv(");\n{0}if (!__any({1}))\n{0}  return{2}", Indent,
                             LiveVar, Compound ? ";" : "")
                   .str(),
               RuleId::PK3003, Why);
    for (const FragCall &C : P.Calls)
      if (C.Fn == FD && isAfter(C.CE, Guard) &&
          (C.Name == "load_matrix_sync" || C.Name == "store_matrix_sync"))
        TC.insert(C.CE->getRParenLoc(), llvm::formatv(", {0}", LiveVar).str(),
                  RuleId::PK3003,
                  "masked when this lane's logical warp has returned early");
    const char *MaskWhy = "memory traffic after the early return runs only "
                          "for the lanes of a logical warp that has not "
                          "returned";
    for (const Stmt *S : Plan.Wrap) {
      bool Braces = isa<IfStmt>(S);
      TC.insert(S->getBeginLoc(),
                llvm::formatv("if ({0}) {1}", LiveVar, Braces ? "{ " : "").str(),
                RuleId::PK3003, MaskWhy);
      if (Braces)
        TC.insert(Lexer::getLocForEndOfToken(stmtEnd(S), 0, SM(), LO()), " }",
                  RuleId::PK3003, MaskWhy);
    }
    for (const VarDecl *V : Plan.Inits) {
      const Expr *I = V->getInit();
      TC.insert(I->getBeginLoc(), llvm::formatv("{0} ? (", LiveVar).str(),
                RuleId::PK3003, MaskWhy);
      TC.insert(Lexer::getLocForEndOfToken(I->getEndLoc(), 0, SM(), LO()),
                ") : 0", RuleId::PK3003, MaskWhy);
    }
    return true;
  }

  /// How the statements after a masked early return are made safe for a
  /// finished logical warp.
  struct MaskPlan {
    std::set<const Stmt *> Ops;        // wave-wide operations of the function
    std::vector<const Stmt *> Wrap;    // -> if (live) S
    std::vector<const VarDecl *> Inits; // T v = E; -> T v = live ? (E) : 0;
    std::string Why;                   // when it cannot be done
  };

  /// Plans \p S: safe as it is, masked whole (no wave-wide operation
  /// inside), a scalar declaration with a masked initializer, or a block or
  /// loop whose parts are planned one by one.
  bool planMask(const Stmt *S, MaskPlan &Plan) {
    auto Unsafe = [&](const Stmt *X) -> const Stmt * {
      MaskCheck MC(TC);
      MC.TraverseStmt(const_cast<Stmt *>(X));
      if (MC.Bad && Plan.Why.empty())
        Plan.Why = llvm::formatv("'{0}' after it is {1}",
                                 brief(TC.text(MC.Bad->getSourceRange())), MC.Why)
                       .str();
      return MC.Bad;
    };
    if (!S)
      return true;
    MaskCheck Probe(TC);
    Probe.TraverseStmt(const_cast<Stmt *>(S));
    if (!Probe.Bad)
      return true;
    bool Wave = containsAny(S, Plan.Ops);
    if (S->getBeginLoc().isMacroID() || S->getEndLoc().isMacroID()) {
      Unsafe(S);
      Plan.Why += " (written in a macro)";
      return false;
    }
    if (const auto *DS = dyn_cast<DeclStmt>(S)) {
      for (const Decl *D : DS->decls()) {
        const auto *V = dyn_cast<VarDecl>(D);
        if (!V || !V->getInit())
          continue;
        MaskCheck MC(TC);
        MC.TraverseStmt(const_cast<Expr *>(V->getInit()));
        if (!MC.Bad)
          continue;
        QualType T = V->getType();
        if (Wave || V->getInitStyle() != VarDecl::CInit || T->isReferenceType() ||
            !(T->isArithmeticType() || T->isPointerType()) || T->isEnumeralType() ||
            V->getInit()->getBeginLoc().isMacroID() ||
            V->getInit()->getEndLoc().isMacroID()) {
          Unsafe(V->getInit());
          return false;
        }
        Plan.Inits.push_back(V);
      }
      return true;
    }
    if (!Wave) {
      if (containsBarrier(S)) {
        Unsafe(S);
        Plan.Why += " next to a barrier";
        return false;
      }
      Plan.Wrap.push_back(S);
      return true;
    }
    // Wave-wide operations inside: their control must be safe, their other
    // statements are planned one by one.
    if (const auto *CS = dyn_cast<CompoundStmt>(S)) {
      for (const Stmt *C : CS->body())
        if (!planMask(C, Plan))
          return false;
      return true;
    }
    if (const auto *F = dyn_cast<ForStmt>(S)) {
      if (Unsafe(F->getInit()) || Unsafe(F->getCond()) || Unsafe(F->getInc()))
        return false;
      return planMask(F->getBody(), Plan);
    }
    if (const auto *W = dyn_cast<WhileStmt>(S)) {
      if (Unsafe(W->getCond()))
        return false;
      return planMask(W->getBody(), Plan);
    }
    if (const auto *I = dyn_cast<IfStmt>(S)) {
      if (I->getInit() || I->getConditionVariable() || Unsafe(I->getCond()))
        return false;
      return planMask(I->getThen(), Plan) && planMask(I->getElse(), Plan);
    }
    Unsafe(S);
    return false;
  }

  static bool containsAny(const Stmt *S, const std::set<const Stmt *> &Set) {
    if (!S)
      return false;
    if (Set.count(S))
      return true;
    for (const Stmt *C : S->children())
      if (containsAny(C, Set))
        return true;
    return false;
  }

  static bool containsBarrier(const Stmt *S) {
    if (!S)
      return false;
    if (const auto *CE = dyn_cast<CallExpr>(S)) {
      llvm::StringRef N = calleeName(CE);
      if (N.starts_with("__syncthreads") || N == "__syncwarp" ||
          N == "__threadfence_block")
        return true;
    }
    for (const Stmt *C : S->children())
      if (containsBarrier(C))
        return true;
    return false;
  }

  /// The last token of \p S, its ';' included.
  SourceLocation stmtEnd(const Stmt *S) {
    SourceLocation E = S->getEndLoc();
    Token T;
    if (!Lexer::getRawToken(SM().getSpellingLoc(E), T, SM(), LO()) &&
        T.is(tok::r_brace))
      return E;
    SourceLocation Semi = Lexer::findLocationAfterToken(E, tok::semi, SM(), LO(), false);
    return Semi.isValid() ? Semi.getLocWithOffset(-1) : E;
  }

  bool isAfter(const Stmt *S, const Stmt *Ref) {
    return SM().isBeforeInTranslationUnit(Ref->getEndLoc(), S->getBeginLoc());
  }

  // ---- inline PTX ------------------------------------------------------------

  /// True when another rule already rewrote (part of) \p S.
  bool rewrittenElsewhere(const Stmt *S) {
    SourceLocation B = SM().getSpellingLoc(S->getBeginLoc());
    SourceLocation E = SM().getSpellingLoc(S->getEndLoc());
    FileEdits *FE = TC.Edits.find(TC.fileOf(B));
    if (!FE || SM().getFileID(B) != SM().getFileID(E))
      return false;
    unsigned Lo = SM().getFileOffset(B), Hi = SM().getFileOffset(E);
    for (const Edit &X : FE->edits())
      if (X.Offset + X.Length > Lo && X.Offset <= Hi && X.Why != "diagnostic")
        return true;
    return false;
  }

  bool portAsm() {
    bool Any = false;
    for (const GCCAsmStmt *S : P.Asms) {
      if (rewrittenElsewhere(S))
        continue; // e.g. %laneid reads (the wave-64 rules)
      llvm::StringRef Str = S->getAsmString()->getString();
      std::vector<std::string> Ins = ptxInstructions(Str);
      if (Ins.size() == 1 && Ins[0] == PtxMmaName) {
        std::string Why;
        if (portMma(S, Str, Why)) {
          Any = true;
          WaveOps.push_back(S);
          continue;
        }
        if (!TC.editedBy(S->getAsmLoc(), RuleId::PK2006))
          TC.finding(S->getAsmLoc(), RuleId::PK3011, Severity::Warning,
                   llvm::formatv("inline PTX '{0}' is left in place: {1}",
                                 PtxMmaName, Why)
                       .str());
        continue;
      }
      std::string Names;
      for (size_t I = 0; I < Ins.size() && I < 4; ++I)
        Names += (I ? "', '" : "") + Ins[I];
      if (Ins.size() > 4)
        Names += "', ...";
      // Lane-register reads (%laneid, ...) that PK2006 rewrote are gone.
      if (TC.editedBy(S->getAsmLoc(), RuleId::PK2006))
        continue;
      TC.finding(S->getAsmLoc(), RuleId::PK3011, Severity::Warning,
                 llvm::formatv("inline PTX '{0}' is left in place: AMD GPUs do "
                               "not run PTX, and only '{1}' is ported",
                               Ins.empty() ? Str.trim().str() : Names,
                               PtxMmaName)
                     .str());
    }
    if (Any)
      for (const std::string &F : PtxHelperFiles) {
        TC.Helpers[F][mfma::KeyPtxMma] =
            includesHipRuntime(F) ? withoutRuntimeInclude(mfma::ptxMmaHelpers())
                                  : mfma::ptxMmaHelpers();
        TC.Needs[F].insert(NeedMfmaF16);
      }
    return Any;
  }

  bool portMma(const GCCAsmStmt *S, llvm::StringRef Str, std::string &Why) {
    // {%d0..%d3}, {%a0..%a3}, {%b0, %b1}, {%c0..%c3}
    llvm::StringRef Rest = Str.substr(Str.find(PtxMmaName) + llvm::StringRef(PtxMmaName).size());
    std::vector<std::vector<unsigned>> Groups;
    while (true) {
      size_t O = Rest.find('{');
      if (O == llvm::StringRef::npos)
        break;
      size_t C = Rest.find('}', O);
      if (C == llvm::StringRef::npos)
        break;
      llvm::SmallVector<llvm::StringRef, 4> Items;
      Rest.slice(O + 1, C).split(Items, ',');
      std::vector<unsigned> G;
      for (llvm::StringRef It : Items) {
        It = It.trim();
        unsigned N;
        if (!It.consume_front("%") || It.getAsInteger(10, N)) {
          Why = "an operand is not a %N reference";
          return false;
        }
        G.push_back(N);
      }
      Groups.push_back(G);
      Rest = Rest.drop_front(C + 1);
    }
    if (Groups.size() != 4 || Groups[0].size() != 4 || Groups[1].size() != 4 ||
        Groups[2].size() != 2 || Groups[3].size() != 4) {
      Why = "the operands are not {d0..d3}, {a0..a3}, {b0, b1}, {c0..c3}";
      return false;
    }
    unsigned NO = S->getNumOutputs(), NI = S->getNumInputs();
    std::vector<std::string> Args;
    auto Operand = [&](unsigned N, bool Out, std::string &Text) -> bool {
      const Expr *E = nullptr;
      std::string Cons;
      if (N < NO) {
        E = S->getOutputExpr(N);
        Cons = S->getOutputConstraint(N).str();
        if (!Out && Cons.find('+') == std::string::npos) {
          Why = llvm::formatv("%{0} is read but is a write-only output", N).str();
          return false;
        }
      } else if (!Out && N - NO < NI) {
        E = S->getInputExpr(N - NO);
      }
      if (!E) {
        Why = llvm::formatv("%{0} is not {1} operand", N,
                            Out ? "an output" : "an")
                  .str();
        return false;
      }
      if (E->HasSideEffects(TC.Ctx())) {
        Why = "an operand has side effects";
        return false;
      }
      if (Out && !E->getType()->isSpecificBuiltinType(BuiltinType::Float)) {
        Why = "an accumulator output is not a float";
        return false;
      }
      Text = TC.text(E);
      return true;
    };
    for (unsigned G = 0; G < 4; ++G)
      for (unsigned N : Groups[G]) {
        std::string T;
        if (!Operand(N, G == 0, T))
          return false;
        Args.push_back(T);
      }
    std::string Call = std::string(mfma::PtxMmaFn) + "(" + llvm::join(Args, ", ") + ")";
    if (!TC.replace(CharSourceRange::getTokenRange(S->getAsmLoc(),
                                                   S->getRParenLoc()),
                    Call, RuleId::PK3002,
                    "PTX mma.sync m16n8k16 (per 32-lane warp) -> "
                    "v_mfma_f32_16x16x16f16 per logical warp, operands moved "
                    "between the PTX and MFMA lane layouts with wave-wide "
                    "shuffles")) {
      Why = "the statement cannot be edited (macro)";
      return false;
    }
    PtxHelperFiles.insert(TC.fileOf(SM().getSpellingLoc(S->getAsmLoc())));
    return true;
  }

  // ---- block sizes -----------------------------------------------------------

  static bool blockThreads(const Expr *E, ASTContext &Ctx, uint64_t &N) {
    E = E->IgnoreImplicit();
    if (const auto *T = dyn_cast<CXXFunctionalCastExpr>(E))
      E = T->getSubExpr()->IgnoreImplicit();
    if (const auto *CE = dyn_cast<CXXConstructExpr>(E)) {
      if (CE->getNumArgs() == 1 &&
          CE->getConstructor()->isCopyOrMoveConstructor())
        return blockThreads(CE->getArg(0), Ctx, N);
      N = 1;
      for (const Expr *A : CE->arguments()) {
        if (isa<CXXDefaultArgExpr>(A))
          continue;
        Expr::EvalResult R;
        if (A->isValueDependent() || !A->EvaluateAsInt(R, Ctx))
          return false;
        N *= R.Val.getInt().getZExtValue();
      }
      return true;
    }
    Expr::EvalResult R;
    if (E->isValueDependent() || !E->EvaluateAsInt(R, Ctx))
      return false;
    N = R.Val.getInt().getZExtValue();
    return true;
  }

  void checkWaves() {
    llvm::SmallPtrSet<const FunctionDecl *, 8> WaveKernels;
    for (const Stmt *S : WaveOps)
      if (const FunctionDecl *FD = P.enclosingFunction(S))
        if (FD->hasAttr<CUDAGlobalAttr>())
          WaveKernels.insert(FD->getCanonicalDecl());
    auto Msg = [](uint64_t N) {
      return llvm::formatv("blocks of {0} threads are {1} 32-lane warps: "
                           "the matrix-core port runs two logical warps per "
                           "64-lane wave and needs an even number of warps "
                           "(a multiple of 64 threads)",
                           N, (N + 31) / 32)
          .str();
    };
    for (const FunctionDecl *K : P.Kernels) {
      if (!WaveKernels.count(K->getCanonicalDecl()))
        continue;
      // The wave-64 strategy of the kernel (PK2000) must be logical warps.
      auto St = TC.Facts.KernelStrategy.find(K->getCanonicalDecl());
      if (St != TC.Facts.KernelStrategy.end() &&
          St->second == Wave64Strategy::Native)
        TC.finding(K->getLocation(), RuleId::PK3014, Severity::Warning,
                     "this kernel's warp code was ported to native 64-lane "
                     "warps, but its matrix-core code keeps one set of tiles "
                     "per 32-lane logical warp (two per wave): port it with "
                     "--wave64=logical32");
      if (const auto *LB = K->getAttr<CUDALaunchBoundsAttr>()) {
        Expr::EvalResult R;
        const Expr *M = LB->getMaxThreads();
        if (M && !M->isValueDependent() && M->EvaluateAsInt(R, TC.Ctx())) {
          uint64_t N = R.Val.getInt().getZExtValue();
          if (N % 64)
            TC.finding(SM().getExpansionLoc(LB->getLocation()), RuleId::PK3013,
                       Severity::Warning, Msg(N));
        }
      }
    }
    for (const CUDAKernelCallExpr *L : P.Launches) {
      const FunctionDecl *K = L->getDirectCallee();
      if (!K || !WaveKernels.count(K->getCanonicalDecl()))
        continue;
      const CallExpr *Cfg = L->getConfig();
      uint64_t N;
      if (Cfg && Cfg->getNumArgs() >= 2 &&
          blockThreads(Cfg->getArg(1), TC.Ctx(), N) && N % 64)
        TC.finding(Cfg->getArg(1)->getBeginLoc(), RuleId::PK3013, Severity::Warning,
                   Msg(N));
    }
  }
};

} // namespace

llvm::Error pk::runMfmaRules(TargetContext &TC) {
  MfmaRules R(TC);
  return R.run();
}
