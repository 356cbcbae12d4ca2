//===- EmuPrep.cpp - prepare a CUDA/HIP source for the SIMT emulator
//-------===//
// Rules: PK9901
//
// An internal target: the emulator compiles kernels as host C++, so launches
// become pkemu::launch calls and __shared__ variables become per-block
// storage (the PKEMU_* macros of lib/Emu/shim/pkemu/prelude.h).
//
//===----------------------------------------------------------------------===//
#include "pk/ASTUtil.h"
#include "pk/TargetContext.h"
#include <optional>
#include <set>

#include "pk/DynamicVisitor.h"
#include "clang/AST/ASTContext.h"
#include "clang/AST/Attr.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/QualTypeNames.h"
#include "clang/AST/StmtCXX.h"
#include "clang/Basic/SourceManager.h"
#include "clang/Frontend/ASTUnit.h"
#include "clang/Lex/Lexer.h"
#include "llvm/Support/FormatVariadic.h"

#include <map>

using namespace pk;
using namespace clang;

namespace {

class EmuRewriter : public DynamicASTVisitor {
public:
  explicit EmuRewriter(TargetContext &TC) : TC(TC) {}

  bool VisitCUDAKernelCallExpr(CUDAKernelCallExpr *KC) override {
    if (!TC.isUserLoc(KC->getBeginLoc()))
      return true;
    const CallExpr *Cfg = KC->getConfig();
    std::string S = launchHead(KC);
    for (unsigned I = 0; I < 4; ++I) {
      const Expr *A = I < Cfg->getNumArgs() ? Cfg->getArg(I) : nullptr;
      if (!A || isa<CXXDefaultArgExpr>(A))
        S += ", 0";
      else
        S += ", " + TC.text(A->IgnoreImplicit());
    }
    for (const Expr *A : KC->arguments()) {
      // A defaulted parameter (`int *partial = NULL` launched without it):
      // the launch passes every argument, so the default is written out as
      // the declaration spells it.
      if (const auto *DA = dyn_cast<CXXDefaultArgExpr>(A)) {
        const Expr *D = DA->getExpr();
        if (isa<GNUNullExpr>(D->IgnoreParenImpCasts()))
          S += ", pkemu::null_arg{}";
        else
          S += ", (" + TC.text(D) + ")";
        continue;
      }
      // NULL for a pointer parameter: a launch forwards its arguments as
      // values, where NULL would arrive as a long.
      if (isa<GNUNullExpr>(A->IgnoreParenImpCasts()))
        S += ", pkemu::null_arg{}";
      else
        S += ", " + TC.text(A);
    }
    S += ")";
    TC.replace(KC->getSourceRange(), S, RuleId::PK9901,
               "launch on the emulator");
    return true;
  }

  // `pkemu::launch(KERNEL`: pkemu::launch takes the kernel as a function
  // pointer, whose type gives the parameter types. An overload set, or a
  // function template whose arguments the launch deduces from its arguments
  // (`fill<<<1, 32>>>(d, 7)` for `template <class T> void fill(T *, T)`),
  // is no single function until the call resolves it. The function the
  // launch resolved to is named by a cast to its type; where that type
  // cannot be spelled (a launch in a template, whose resolution depends on
  // its instantiation, or a parameter type without a name), a generic lambda
  // makes the same call and pkemu::launch_call launches it with the
  // arguments' types.  It captures by copy: the callee's template arguments
  // may name a local (`k<c.value>` in a generic lambda over `auto c`).
  std::string launchHead(const CUDAKernelCallExpr *KC) {
    const Expr *Callee = KC->getCallee()->IgnoreImplicit();
    std::string Text = TC.text(Callee);
    if (const auto *ULE =
            dyn_cast<UnresolvedLookupExpr>(Callee->IgnoreParens())) {
      // One function that is no template names itself.
      if (ULE->getNumDecls() == 1 && !ULE->hasExplicitTemplateArgs() &&
          isa<FunctionDecl>((*ULE->decls_begin())->getUnderlyingDecl()))
        return "pkemu::launch(" + Text;
      return "pkemu::launch_call([=](auto... pkemu_a) { " + Text +
             "(pkemu_a...); }";
    }
    const auto *DRE = dyn_cast<DeclRefExpr>(Callee->IgnoreParens());
    const FunctionDecl *FD = KC->getDirectCallee();
    if (!DRE || !FD || DRE->getDecl() != FD || !needsResolution(DRE, FD))
      return "pkemu::launch(" + Text;
    const auto *FPT = FD->getType()->getAs<FunctionProtoType>();
    PrintingPolicy PP(TC.Ctx().getLangOpts());
    PP.SuppressUnwrittenScope = true;
    std::string Params;
    bool Spellable = FPT && !FPT->isVariadic();
    for (unsigned I = 0; Spellable && FPT && I < FPT->getNumParams(); ++I) {
      std::string P = TypeName::getFullyQualifiedName(FPT->getParamType(I),
                                                      TC.Ctx(), PP, true);
      StringRef PS = P;
      if (PS.contains("(anonymous") || PS.contains("(unnamed") ||
          PS.contains("(lambda") || FPT->getParamType(I)->isDependentType())
        Spellable = false;
      Params += (I ? ", " : "") + P;
    }
    if (!Spellable)
      return "pkemu::launch_call([=](auto... pkemu_a) { " + Text +
             "(pkemu_a...); }";
    return "pkemu::launch(static_cast<void (*)(" + Params + ")>(" + Text + ")";
  }

  // Whether the callee of a launch names more than the function it resolved
  // to: a function template specialization whose template arguments are not
  // all written, or a name with other functions of that name in its scope.
  static bool needsResolution(const DeclRefExpr *DRE, const FunctionDecl *FD) {
    if (FD->getPrimaryTemplate()) {
      const TemplateArgumentList *Args = FD->getTemplateSpecializationArgs();
      if (!Args || !DRE->hasExplicitTemplateArgs() ||
          DRE->getNumTemplateArgs() != Args->size())
        return true;
      for (const TemplateArgument &A : Args->asArray())
        if (A.getKind() == TemplateArgument::Pack)
          return true;
    }
    if (isa<UsingShadowDecl>(DRE->getFoundDecl()))
      return true;
    const Decl *Self = FD->getCanonicalDecl();
    if (const FunctionTemplateDecl *FT = FD->getPrimaryTemplate())
      Self = FT->getCanonicalDecl();
    const DeclContext *DC = FD->getDeclContext()->getRedeclContext();
    for (const NamedDecl *ND : DC->lookup(FD->getDeclName())) {
      const NamedDecl *U = ND->getUnderlyingDecl();
      if ((isa<FunctionDecl>(U) || isa<FunctionTemplateDecl>(U)) &&
          U->getCanonicalDecl() != Self)
        return true;
    }
    return false;
  }

  // cudaLaunchKernel((void *)k, ...), cudaLaunchCooperativeKernel and the HIP
  // forms (whose HIP spelling takes `const void *`): the emulator unpacks the
  // argument array with the kernel's parameter types, so the kernel is passed
  // itself, not its address cast to void *.
  bool VisitCallExpr(CallExpr *CE) override {
    if (!TC.isUserLoc(CE->getBeginLoc()) || CE->getNumArgs() == 0)
      return true;
    llvm::StringRef Name = calleeName(CE);
    if (Name != "cudaLaunchKernel" && Name != "cudaLaunchCooperativeKernel" &&
        Name != "hipLaunchKernel" && Name != "hipLaunchCooperativeKernel")
      return true;
    const Expr *Arg = CE->getArg(0)->IgnoreParenImpCasts();
    const auto *Cast = dyn_cast<ExplicitCastExpr>(Arg);
    if (!Cast || Arg->getBeginLoc().isMacroID() || Arg->getEndLoc().isMacroID())
      return true;
    const Expr *Inner = Cast->getSubExpr()->IgnoreParenImpCasts();
    if (const auto *UO = dyn_cast<UnaryOperator>(Inner))
      if (UO->getOpcode() == UO_AddrOf)
        Inner = UO->getSubExpr()->IgnoreParenImpCasts();
    const auto *DRE = dyn_cast<DeclRefExpr>(Inner);
    const auto *FD = DRE ? dyn_cast<FunctionDecl>(DRE->getDecl()) : nullptr;
    if (!FD || !FD->hasAttr<CUDAGlobalAttr>())
      return true;
    TC.replace(Arg->getSourceRange(), TC.text(DRE), RuleId::PK9901,
               "the emulator unpacks the launch arguments with the kernel's "
               "parameter types");
    return true;
  }

  // The program's host-only functions (main, its host references, input
  // generators, checkers) are plain host code: PKEMU_HOST_FN
  // (pkemu/prelude.h) compiles them without the memory hooks, which only
  // check device code's accesses.  Kernels, __device__ and __host__
  // __device__ functions, constexpr functions (callable from device code),
  // lambdas and friends keep them.
  bool VisitFunctionDecl(FunctionDecl *FD) override {
    noteDeviceAsm(FD);
    noteDeviceBody(FD);
    if (!FD->doesThisDeclarationHaveABody() || FD->isImplicit() ||
        FD->isDefaulted() || FD->isDeleted() || FD->isConstexpr() ||
        FD->hasAttr<CUDADeviceAttr>() || FD->hasAttr<CUDAGlobalAttr>() ||
        FD->getFriendObjectKind() != Decl::FOK_None ||
        FD->isTemplateInstantiation())
      return true;
    if (const auto *MD = dyn_cast<CXXMethodDecl>(FD))
      if (MD->getParent()->isLambda())
        return true;
    if (FD->getDeclContext()->isFunctionOrMethod())
      return true; // a local class's member
    SourceLocation L = FD->getInnerLocStart();
    if (L.isInvalid() || !L.isFileID() || !TC.isUserLoc(L))
      return true;
    TC.insert(L, "PKEMU_HOST_FN ", RuleId::PK9901,
              "host-only code runs without the emulator's memory hooks");
    return true;
  }

  bool VisitDeclStmt(DeclStmt *DS) override {
    if (!TC.isUserLoc(DS->getBeginLoc()))
      return true;
    std::string Out;
    bool Any = false;
    for (Decl *D : DS->decls()) {
      auto *VD = dyn_cast<VarDecl>(D);
      if (!VD || !VD->hasAttr<CUDASharedAttr>())
        continue;
      Any = true;
      Out += sharedText(VD, /*Local=*/true);
    }
    if (!Any)
      return true;
    // Keep the statement on its line: no trailing newline.
    if (!Out.empty() && Out.back() == ' ')
      Out.pop_back();
    TC.replace(SourceRange(DS->getBeginLoc(), DS->getEndLoc()), Out,
               RuleId::PK9901, "per-block shared memory on the emulator");
    return true;
  }

  bool VisitVarDecl(VarDecl *VD) override {
    if (isDeviceVariable(VD))
      deviceVariable(VD);
    if (!VD->hasAttr<CUDASharedAttr>() || VD->isLocalVarDeclOrParm() ||
        !TC.isUserLoc(VD->getLocation()))
      return true;
    // Namespace scope: find the start of the declaration on its line and
    // the terminating ';'.
    SourceManager &SM = TC.SM();
    SourceLocation Loc = SM.getFileLoc(VD->getLocation());
    std::string File = TC.fileOf(Loc);
    llvm::StringRef Buf = TC.contents(File);
    unsigned Off = SM.getFileOffset(Loc);
    size_t LS = Buf.take_front(Off).rfind('\n');
    unsigned Begin = LS == llvm::StringRef::npos ? 0 : LS + 1;
    while (Begin < Off && (Buf[Begin] == ' ' || Buf[Begin] == '\t'))
      ++Begin;
    size_t Semi = Buf.find(';', Off);
    if (Semi == llvm::StringRef::npos)
      return true;
    std::string Name = VD->getName().str();
    std::string Text;
    if (const auto *IA = TC.Ctx().getAsIncompleteArrayType(VD->getType())) {
      Text = llvm::formatv("\n#define {0} (pkemu::dynamic_shared<{1}>())\n",
                           Name, typeText(IA->getElementType()))
                 .str();
    } else {
      Text = llvm::formatv("PKEMU_GLOBAL_SHARED({0}, {1})\n#define {0} "
                           "(pkemu_shared_{0}())\n",
                           Name, typeText(VD->getType()))
                 .str();
    }
    // 'a, b' in one declaration: one replacement for the declaration.
    SharedDecl &D = Decls[{File, Begin}];
    D.Semi = Semi;
    D.Text += Text;
    return true;
  }

  /// Namespace-scope __device__ and __constant__ variables live in checked
  /// device buffers on the emulator: a definition keeps its initialiser under
  /// the name pkemu_dv_NAME, and PKEMU_DEVICE_VAR (on the same line, after
  /// the ';') binds NAME to a buffer initialised from it; an extern
  /// declaration declares the reference. Constants, templates, unnamed types
  /// and macro-made declarations keep their storage (unchecked).
  bool isDeviceVariable(const VarDecl *VD) {
    if (!(VD->hasAttr<CUDADeviceAttr>() || VD->hasAttr<CUDAConstantAttr>()) ||
        VD->hasAttr<CUDASharedAttr>() || VD->hasAttr<HIPManagedAttr>() ||
        !VD->getDeclContext()->isFileContext() || VD->isLocalVarDeclOrParm() ||
        VD->isTemplated() || isa<VarTemplateSpecializationDecl>(VD) ||
        VD->isConstexpr() || VD->getLocation().isMacroID() ||
        !TC.isUserLoc(VD->getLocation()))
      return false;
    QualType T = VD->getType();
    if (T.isNull() || T->isDependentType() || T->isReferenceType() ||
        T->isIncompleteType() || T.isConstQualified() ||
        TC.Ctx().getBaseElementType(T).isConstQualified())
      return false;
    if (const TagDecl *TD = TC.Ctx().getBaseElementType(T)->getAsTagDecl())
      if (!TD->getIdentifier())
        return false;
    return true;
  }

  void deviceVariable(VarDecl *VD) {
    SourceManager &SM = TC.SM();
    SourceLocation Loc = VD->getLocation();
    std::string File = TC.fileOf(Loc);
    llvm::StringRef Buf = TC.contents(File);
    unsigned Off = SM.getFileOffset(Loc);
    std::string Name = VD->getName().str();
    std::string Type = typeText(VD->getType());
    if (Buf.substr(Off, Name.size()) != Name)
      return;
    size_t Semi = Buf.find(';', Off);
    if (Semi == llvm::StringRef::npos)
      return;
    if (!VD->isThisDeclarationADefinition()) {
      // extern __device__ T NAME; -> extern T &NAME; (one declarator only)
      if (VD->getStorageClass() != SC_Extern)
        return;
      SourceLocation B = SM.getFileLoc(VD->getOuterLocStart());
      unsigned BOff = SM.getFileOffset(B);
      // One declarator, no initialiser: `extern __device__ T NAME[N];`.
      if (BOff > Off || Buf.slice(BOff, Semi).contains(',') ||
          Buf.slice(Off, Semi).contains('='))
        return;
      TC.edit(File, BOff, Semi - BOff,
              llvm::formatv("extern PKEMU_DEVICE_VAR_REF({0}) {1}", Type, Name)
                  .str(),
              RuleId::PK9901,
              "device variables live in checked device buffers on the "
              "emulator");
      return;
    }
    TC.edit(File, Off, Name.size(), "pkemu_dv_" + Name, RuleId::PK9901,
            "device variables live in checked device buffers on the emulator");
    std::string &After = DeviceVarsAfter[{File, Semi}];
    After += llvm::formatv(" {0}PKEMU_DEVICE_VAR({1}, {2});",
                           VD->getStorageClass() == SC_Static ? "static " : "",
                           Name, Type)
                 .str();
  }

  void bindDeviceVariables() {
    for (auto &[Key, Text] : DeviceVarsAfter)
      TC.edit(Key.first, Key.second + 1, 0, Text, RuleId::PK9901,
              "device variables live in checked device buffers on the "
              "emulator");
  }

  /// Replaces each namespace-scope __shared__ declaration by its variables'
  /// accessors and a #line that keeps the following lines' numbers.
  void replaceDeclarations() {
    for (auto &[Key, D] : Decls) {
      const auto &[File, Begin] = Key;
      llvm::StringRef Buf = TC.contents(File);
      unsigned Line = 1 + Buf.take_front(D.Semi).count('\n');
      // The rest of the declaration's line after ';' (if any) keeps its line
      // number on a line of its own; otherwise the next line follows.
      size_t EOL = Buf.find('\n', D.Semi);
      bool Rest = EOL != llvm::StringRef::npos &&
                  !Buf.slice(D.Semi + 1, EOL).trim().empty();
      std::string Text =
          D.Text + llvm::formatv("#line {0}", Rest ? Line : Line + 1).str();
      if (Rest)
        Text += "\n";
      TC.edit(File, Begin, D.Semi + 1 - Begin, Text, RuleId::PK9901,
              "per-block shared memory on the emulator");
    }
  }

  /// The first inline assembly statement of device-only code, as
  /// "file:line:col: what and why"; empty when there is none.
  std::string DeviceAsm;

  /// The bodies of device-only functions (kernels, __device__ without
  /// __host__), per file: [begin, end) offsets.
  std::map<std::string, std::vector<std::pair<unsigned, unsigned>>>
      DeviceBodies;
  /// The bodies of every function of the user's files.
  std::map<std::string, std::vector<std::pair<unsigned, unsigned>>> AllBodies;

private:
  TargetContext &TC;

  void noteDeviceBody(const FunctionDecl *FD) {
    if (!FD->doesThisDeclarationHaveABody() || FD->isTemplateInstantiation())
      return;
    const Stmt *Body = FD->getBody();
    if (!Body)
      return;
    SourceRange R = Body->getSourceRange();
    if (!R.getBegin().isFileID() || !R.getEnd().isFileID() ||
        !TC.isUserLoc(R.getBegin()))
      return;
    const SourceManager &SM = TC.SM();
    std::string File = TC.fileOf(R.getBegin());
    std::pair<unsigned, unsigned> Range{SM.getFileOffset(R.getBegin()),
                                        SM.getFileOffset(R.getEnd()) + 1};
    AllBodies[File].push_back(Range);
    if (!FD->hasAttr<CUDAHostAttr>() &&
        (FD->hasAttr<CUDADeviceAttr>() || FD->hasAttr<CUDAGlobalAttr>()))
      DeviceBodies[File].push_back(Range);
  }

  // Inline assembly in a kernel or a __device__ function is GPU assembly
  // (PTX, GCN): the emulator compiles device code for the CPU, where it
  // cannot assemble (clang fails, or crashes on "f" constraints).  Host and
  // __host__ __device__ code keep theirs (host assembly such as rdtsc).
  void noteDeviceAsm(const FunctionDecl *FD) {
    if (!DeviceAsm.empty() || !FD->doesThisDeclarationHaveABody() ||
        FD->hasAttr<CUDAHostAttr>() ||
        !(FD->hasAttr<CUDADeviceAttr>() || FD->hasAttr<CUDAGlobalAttr>()))
      return;
    const AsmStmt *A = firstAsm(FD->getBody());
    if (!A || !TC.isUserLoc(A->getAsmLoc()))
      return;
    const SourceManager &SM = TC.SM();
    PresumedLoc P = SM.getPresumedLoc(SM.getExpansionLoc(A->getAsmLoc()));
    std::string Text;
    if (const auto *G = dyn_cast<GCCAsmStmt>(A))
      Text = G->getAsmString()->getString().trim().split(' ').first.str();
    if (Text.size() > 60)
      Text = Text.substr(0, 57) + "...";
    DeviceAsm = llvm::formatv(
        "{0}:{1}:{2}: inline assembly in device code{3} (in '{4}'): the "
        "emulator runs device code as C++ on the CPU and cannot execute GPU "
        "assembly; validate a port that replaces it",
        P.isValid() ? P.getFilename() : "<unknown>",
        P.isValid() ? P.getLine() : 0, P.isValid() ? P.getColumn() : 0,
        Text.empty() ? std::string() : " ('" + Text + " ...')",
        FD->getNameAsString());
  }
  static const AsmStmt *firstAsm(const Stmt *S) {
    if (!S)
      return nullptr;
    if (const auto *A = dyn_cast<AsmStmt>(S))
      return A;
    for (const Stmt *C : S->children())
      if (const AsmStmt *A = firstAsm(C))
        return A;
    return nullptr;
  }

  struct SharedDecl {
    size_t Semi = 0;
    std::string Text;
  };
  std::map<std::pair<std::string, unsigned>, SharedDecl> Decls;
  std::map<std::pair<std::string, size_t>, std::string> DeviceVarsAfter;

  std::string typeText(QualType T) {
    PrintingPolicy P(TC.Ctx().getLangOpts());
    P.SuppressTagKeyword = false;
    P.FullyQualifiedName = true;
    P.PrintCanonicalTypes = false;
    std::string S = T.getAsString(P);
    return S;
  }

  std::string sharedText(VarDecl *VD, bool Local) {
    std::string Name = VD->getName().str();
    if (const auto *IA = TC.Ctx().getAsIncompleteArrayType(VD->getType()))
      return llvm::formatv("PKEMU_DYNAMIC_SHARED({0}, {1}); ", Name,
                           typeText(IA->getElementType()))
          .str();
    (void)Local;
    return llvm::formatv("PKEMU_SHARED({0}, {1}); ", Name,
                         typeText(VD->getType()))
        .str();
  }
};

} // namespace

namespace {
// nvcc compiles a device-only function's body in its device pass only, where
// __CUDA_ARCH__ is defined (the device pass of clang's HIP defines
// __HIP_DEVICE_COMPILE__); the emulator compiles every function once, as the
// host pass would. Inside such a body the host pass's branch never runs on
// the device, so the directives there that test the two names take the
// device pass's: `#ifdef X` -> `#if 1`, `#ifndef X` -> `#if 0`, `defined(X)`
// -> `1`, `__CUDA_ARCH__` -> 700 (the sm_70 branch, as PK1035 takes in
// HIP outputs), `__HIP_DEVICE_COMPILE__` -> 1. Directives outside such
// bodies keep the host pass's meaning.
void deviceBranches(TargetContext &TC, const std::string &File,
                    const std::vector<std::pair<unsigned, unsigned>> &Bodies) {
  llvm::StringRef Buf = TC.contents(File);
  if (!Buf.contains("__CUDA_ARCH__") && !Buf.contains("__HIP_DEVICE_COMPILE__"))
    return;
  auto Inside = [&](unsigned Off) {
    for (const auto &[B, E] : Bodies)
      if (Off >= B && Off < E)
        return true;
    return false;
  };
  auto Value = [](llvm::StringRef Name) -> const char * {
    if (Name == "__CUDA_ARCH__")
      return "700";
    if (Name == "__HIP_DEVICE_COMPILE__")
      return "1";
    return nullptr;
  };
  const char *Why = "inside a device-only function the device pass's branch "
                    "runs (nvcc defines __CUDA_ARCH__ there; the emulator "
                    "compiles once, as the host pass)";
  bool Cond = false;
  for (RawTokenCursor C(TC, Buf); !C.done(); C.advance()) {
    const RawToken &T = C[0];
    if (T.StartOfLine) {
      Cond = false;
      if (T.Kind == tok::hash && !C[1].StartOfLine && Inside(T.Offset)) {
        llvm::StringRef Kw = C[1].Text;
        const bool Pos = Kw == "ifdef" || Kw == "elifdef";
        const bool Neg = Kw == "ifndef" || Kw == "elifndef";
        if ((Pos || Neg) && !C[2].StartOfLine && Value(C[2].Text)) {
          unsigned B = C[1].Offset, E = C[2].Offset + C[2].Length;
          TC.edit(File, B, E - B,
                  std::string(Kw.starts_with("elif") ? "elif " : "if ") +
                      (Pos ? "1" : "0"),
                  RuleId::PK9901, Why);
          C.advance(2);
          continue;
        }
        Cond = Kw == "if" || Kw == "elif";
      }
      continue;
    }
    if (!Cond || T.Kind != tok::raw_identifier)
      continue;
    if (T.Text == "defined") {
      int J = C[1].Kind == tok::l_paren ? 2 : 1;
      if (!C[J].StartOfLine && Value(C[J].Text) &&
          (J == 1 || C[J + 1].Kind == tok::r_paren)) {
        const RawToken &Last = C[J == 1 ? 1 : 3];
        TC.edit(File, T.Offset, Last.Offset + Last.Length - T.Offset, "1",
                RuleId::PK9901, Why);
        C.advance(J == 1 ? 1 : 3);
      }
      continue;
    }
    if (const char *V = Value(T.Text))
      TC.edit(File, T.Offset, T.Length, V, RuleId::PK9901, Why);
  }
}
} // namespace

namespace {
// The value of a directive's condition (its tokens, `#ifdef X` given as
// `defined X`) in nvcc's device pass (Device) or host pass, where it names
// no macro but __CUDA_ARCH__ and __HIP_DEVICE_COMPILE__; none otherwise.
class ArchCondition {
public:
  ArchCondition(llvm::StringRef Buf, std::vector<RawToken> Toks, bool Device)
      : Buf(Buf), T(std::move(Toks)), Device(Device) {}
  std::optional<long long> value() {
    std::optional<long long> V = orExpr();
    if (!V || I != T.size())
      return std::nullopt;
    return V;
  }

private:
  llvm::StringRef Buf;
  std::vector<RawToken> T;
  bool Device;
  size_t I = 0;
  bool at(tok::TokenKind K) { return I < T.size() && T[I].Kind == K; }
  std::optional<long long> name(llvm::StringRef N) {
    if (N == "__CUDA_ARCH__")
      return Device ? 700 : 0;
    if (N == "__HIP_DEVICE_COMPILE__")
      return Device ? 1 : 0;
    return std::nullopt;
  }
  std::optional<long long> primary() {
    if (I >= T.size())
      return std::nullopt;
    const RawToken &K = T[I];
    if (K.Kind == tok::exclaim || K.Kind == tok::minus) {
      ++I;
      auto V = primary();
      if (!V)
        return V;
      return K.Kind == tok::exclaim ? (long long)!*V : -*V;
    }
    if (K.Kind == tok::l_paren) {
      ++I;
      auto V = orExpr();
      if (!V || !at(tok::r_paren))
        return std::nullopt;
      ++I;
      return V;
    }
    if (K.Kind == tok::numeric_constant) {
      ++I;
      llvm::StringRef Digits = Buf.substr(K.Offset, K.Length).rtrim("uUlL");
      long long V;
      if (Digits.getAsInteger(0, V))
        return std::nullopt;
      return V;
    }
    if (K.Kind != tok::raw_identifier)
      return std::nullopt;
    ++I;
    if (K.Text == "defined") {
      bool Paren = at(tok::l_paren);
      if (Paren)
        ++I;
      if (!at(tok::raw_identifier) || !name(T[I].Text))
        return std::nullopt;
      ++I;
      if (Paren) {
        if (!at(tok::r_paren))
          return std::nullopt;
        ++I;
      }
      return Device ? 1 : 0;
    }
    return name(K.Text);
  }
  std::optional<long long> mulExpr() {
    auto L = primary();
    while (L && (at(tok::star) || at(tok::slash) || at(tok::percent))) {
      tok::TokenKind Op = T[I++].Kind;
      auto R = primary();
      if (!R || (Op != tok::star && *R == 0))
        return std::nullopt;
      L = Op == tok::star ? *L * *R : Op == tok::slash ? *L / *R : *L % *R;
    }
    return L;
  }
  std::optional<long long> addExpr() {
    auto L = mulExpr();
    while (L && (at(tok::plus) || at(tok::minus))) {
      tok::TokenKind Op = T[I++].Kind;
      auto R = mulExpr();
      if (!R)
        return R;
      L = Op == tok::plus ? *L + *R : *L - *R;
    }
    return L;
  }
  std::optional<long long> cmpExpr() {
    auto L = addExpr();
    while (L && (at(tok::less) || at(tok::greater) || at(tok::lessequal) ||
                 at(tok::greaterequal) || at(tok::equalequal) ||
                 at(tok::exclaimequal))) {
      tok::TokenKind Op = T[I++].Kind;
      auto R = addExpr();
      if (!R)
        return R;
      switch (Op) {
      case tok::less:
        L = *L < *R;
        break;
      case tok::greater:
        L = *L > *R;
        break;
      case tok::lessequal:
        L = *L <= *R;
        break;
      case tok::greaterequal:
        L = *L >= *R;
        break;
      case tok::equalequal:
        L = *L == *R;
        break;
      default:
        L = *L != *R;
        break;
      }
    }
    return L;
  }
  std::optional<long long> andExpr() {
    auto L = cmpExpr();
    while (L && at(tok::ampamp)) {
      ++I;
      auto R = cmpExpr();
      if (!R)
        return R;
      L = *L && *R;
    }
    return L;
  }
  std::optional<long long> orExpr() {
    auto L = andExpr();
    while (L && at(tok::pipepipe)) {
      ++I;
      auto R = andExpr();
      if (!R)
        return R;
      L = *L || *R;
    }
    return L;
  }
};

// At namespace scope nvcc's two passes see different code: a __device__
// function defined under `#if __CUDA_ARCH__ >= 700` exists only in the
// device pass, where the kernels that call it are compiled. The emulator's
// one pass takes the device pass's branch of such a conditional when that
// cannot take anything from the host: the condition names no macro but
// __CUDA_ARCH__ and __HIP_DEVICE_COMPILE__ and differs between the passes,
// the group has no #elif, the host pass's branch is empty, and the device
// pass's branch declares device code (__device__ or __global__) and no
// host code (__host__, main), and nothing this preparation would have to
// rewrite (__shared__, launches: the parse skipped the branch). Any other
// conditional keeps the host pass's branch.
void namespaceScopeDeviceBranches(
    TargetContext &TC, const std::string &File,
    const std::vector<std::pair<unsigned, unsigned>> &Bodies) {
  llvm::StringRef Buf = TC.contents(File);
  if (!Buf.contains("__CUDA_ARCH__") && !Buf.contains("__HIP_DEVICE_COMPILE__"))
    return;
  auto InBody = [&](unsigned Off) {
    for (const auto &[B, E] : Bodies)
      if (Off >= B && Off < E)
        return true;
    return false;
  };
  // Every directive: its keyword, where its line starts and ends, and its
  // tokens after the keyword; and the tokens of the lines between.
  struct Directive {
    llvm::StringRef Kw;
    unsigned Hash, KwOffset, End;
    std::vector<RawToken> Cond;
  };
  std::vector<Directive> Dirs;
  std::vector<RawToken> Code; // tokens outside directives
  for (RawTokenCursor C(TC, Buf); !C.done();) {
    if (C[0].StartOfLine && C[0].Kind == tok::hash) {
      Directive D{C[1].StartOfLine ? llvm::StringRef() : C[1].Text,
                  C[0].Offset,
                  C[1].Offset,
                  C[0].Offset + 1,
                  {}};
      C.advance(C[1].StartOfLine ? 1 : 2);
      while (!C.done() && !C[0].StartOfLine) {
        D.Cond.push_back(C[0]);
        D.End = C[0].Offset + C[0].Length;
        C.advance();
      }
      Dirs.push_back(std::move(D));
      continue;
    }
    Code.push_back(C[0]);
    C.advance();
  }
  auto TokensBetween = [&](unsigned B, unsigned E) {
    std::vector<const RawToken *> Out;
    for (const RawToken &T : Code)
      if (T.Offset >= B && T.Offset < E)
        Out.push_back(&T);
    return Out;
  };
  for (size_t K = 0; K < Dirs.size(); ++K) {
    const Directive &Open = Dirs[K];
    const bool IsIf = Open.Kw == "if", IsIfdef = Open.Kw == "ifdef",
               IsIfndef = Open.Kw == "ifndef";
    if (!(IsIf || IsIfdef || IsIfndef) || InBody(Open.Hash))
      continue;
    // The group's #else and #endif at the same depth; no #elif.
    size_t Else = 0, End = 0;
    bool Elif = false;
    for (size_t J = K + 1, Depth = 0; J < Dirs.size() && !End; ++J) {
      llvm::StringRef Kw = Dirs[J].Kw;
      if (Kw == "if" || Kw == "ifdef" || Kw == "ifndef")
        ++Depth;
      else if (Kw == "endif" && Depth)
        --Depth;
      else if (Depth == 0 && Kw == "endif")
        End = J;
      else if (Depth == 0 && Kw == "else")
        Else = J;
      else if (Depth == 0 && Kw.starts_with("elif"))
        Elif = true;
    }
    if (!End || Elif)
      continue;
    std::vector<RawToken> Cond = Open.Cond;
    if (IsIfdef || IsIfndef) {
      RawToken Def = Cond.empty() ? RawToken() : Cond[0];
      Def.Text = "defined";
      Cond.insert(Cond.begin(), Def);
      if (IsIfndef) {
        RawToken Not = Def;
        Not.Kind = tok::exclaim;
        Not.Text = "";
        Cond.insert(Cond.begin(), Not);
      }
    }
    auto Dev = ArchCondition(Buf, Cond, true).value();
    auto Host = ArchCondition(Buf, Cond, false).value();
    if (!Dev || !Host || (*Dev != 0) == (*Host != 0))
      continue;
    const unsigned ThenB = Open.End, ThenE = Dirs[Else ? Else : End].Hash;
    const unsigned ElseB = Else ? Dirs[Else].End : ThenE,
                   ElseE = Dirs[End].Hash;
    const bool DevThen = *Dev != 0;
    auto DevToks =
        DevThen ? TokensBetween(ThenB, ThenE) : TokensBetween(ElseB, ElseE);
    auto HostToks =
        DevThen ? TokensBetween(ElseB, ElseE) : TokensBetween(ThenB, ThenE);
    // Directives nested in the host pass's branch count as its content.
    bool HostDirectives = false;
    for (size_t J = K + 1; J < End; ++J)
      if (J != Else && Dirs[J].Hash >= (DevThen ? ElseB : ThenB) &&
          Dirs[J].Hash < (DevThen ? ElseE : ThenE))
        HostDirectives = true;
    if (!HostToks.empty() || HostDirectives)
      continue;
    bool DeviceCode = false, HostCode = false;
    for (const RawToken *T : DevToks) {
      if (T->Text == "__device__" || T->Text == "__global__")
        DeviceCode = true;
      if (T->Text == "__host__" || T->Text == "main")
        HostCode = true;
      // What this preparation rewrites (__shared__ declarations, launches)
      // it cannot rewrite in a branch the parse skipped: that branch stays
      // out, and a kernel that calls into it fails to build.
      if (T->Text == "__shared__" || T->Kind == tok::lesslessless)
        HostCode = true;
    }
    if (!DeviceCode || HostCode)
      continue;
    TC.edit(File, Open.KwOffset, Open.End - Open.KwOffset,
            DevThen ? "if 1" : "if 0", RuleId::PK9901,
            "a conditional at namespace scope whose device-pass branch "
            "declares only device code and whose host-pass branch is empty: "
            "the device pass's branch (nvcc compiles the kernels that use it "
            "there)");
  }
}
} // namespace

llvm::Error pk::runEmuPrep(TargetContext &TC) {
  EmuRewriter V(TC);
  V.TraverseDecl(TC.Ctx().getTranslationUnitDecl());
  V.replaceDeclarations();
  V.bindDeviceVariables();
  for (const auto &[File, Bodies] : V.DeviceBodies)
    deviceBranches(TC, File, Bodies);
  std::set<std::string> Seen;
  for (const std::string &File : TC.PF.UserFiles)
    if (Seen.insert(File).second)
      namespaceScopeDeviceBranches(TC, File, V.AllBodies[File]);
  if (!V.DeviceAsm.empty())
    return llvm::createStringError(llvm::inconvertibleErrorCode(), V.DeviceAsm);
  // Reports name the user's file and lines.
  for (const std::string &File : TC.PF.UserFiles)
    TC.edit(File, 0, 0, llvm::formatv("#line 1 \"{0}\"\n", File).str(),
            RuleId::PK9901, "emulator reports name the original file");
  return TC.takeError();
}
