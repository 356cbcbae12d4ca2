//===- LiftDriver.cpp - CUDA/HIP kernels to NKI tile programs -------------===//
// Rules: PK5001, PK5002, PK5003, PK5004, PK5005, PK5007
//
// liftKernels: every __global__ function (and kernel template) of the
// user's files is read by the registered lifters in order (registry())
// until one lifts it: its PK5001 note and its place in the file's output;
// otherwise the refusal the policy picks (refusalPolicy()) is the finding
// and a header line of the file's output.  Each lifter runs under a naming
// scope (Named) that keeps the kernel's Python names clear of the names
// the generated code binds.
//
//===----------------------------------------------------------------------===//
#include "Lift.h"
#include "LiftInternal.h"
#include "LiftMap.h"
#include "LiftMatmul.h"
#include "LiftRows.h"
#include "LiftScan.h"
#include "Lifter.h"

#include "pk/DynamicVisitor.h"
#include "clang/Basic/SourceManager.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/Path.h"
#include <cassert>
#include <set>

using namespace pk;
using namespace pk::nki;
using namespace clang;

namespace pk {
namespace nki {
namespace lift {

/// Whether \p FD, or a function it calls (transitively), computes with a
/// floating type wider than 32 bits: NKI has no float64, and every lifter
/// computes in float32.
bool usesFloat64(const FunctionDecl *FD) {
  struct Finder : DynamicASTVisitor {
    const ASTContext *Ctx = nullptr;
    std::set<const FunctionDecl *> Seen;
    std::vector<const FunctionDecl *> Work;
    bool Found = false;
    bool VisitExpr(Expr *E) override {
      QualType Q = E->getType();
      if (!Q.isNull() && !Q->isDependentType() && Q->isRealFloatingType() &&
          Ctx->getTypeSize(Q) > 32)
        Found = true;
      return !Found;
    }
    bool VisitCallExpr(CallExpr *C) override {
      if (const FunctionDecl *F = C->getDirectCallee())
        if (const FunctionDecl *D = F->getDefinition())
          if (D->hasBody() && Seen.insert(D).second)
            Work.push_back(D);
      return true;
    }
  } V;
  V.Ctx = &FD->getASTContext();
  V.Seen.insert(FD);
  V.Work.push_back(FD);
  while (!V.Work.empty() && !V.Found) {
    const FunctionDecl *F = V.Work.back();
    V.Work.pop_back();
    // Only the user's code: the toolkit's headers define double overloads
    // the kernel does not call.
    if (F->getASTContext().getSourceManager().isInSystemHeader(
            F->getLocation()))
      continue;
    V.TraverseStmt(F->getBody());
  }
  return V.Found;
}

/// The lifters whose reader is one function (LiftMatmul.h, LiftScan.h,
/// LiftMap.h, LiftRows.h): lifted when it returns true, refused when it
/// sets its reason, not theirs otherwise.
class FunctionLifter final : public Lifter {
public:
  using ReadFn = bool (*)(TargetContext &, const FunctionDecl *, Kernel &,
                          std::optional<Refusal> &);
  /// \p Templates: the reader also reads the pattern of a kernel template.
  FunctionLifter(ReadFn Read, bool Templates)
      : Read(Read), Templates(Templates) {}

  LiftAnswer lift(TargetContext &TC, const FunctionDecl *FD,
                  const TemplateParameterList *TPL) const override {
    if (TPL && !Templates)
      return LiftAnswer::notMine();
    LiftAnswer A;
    Kernel K;
    K.Name = FD->getNameAsString();
    if (Read(TC, FD, K, A.Why))
      return LiftAnswer::lifted(std::move(K));
    return A;
  }

private:
  ReadFn Read;
  bool Templates;
};

const FunctionLifter Gemm(liftMatmul, /*Templates=*/true);
const FunctionLifter BlockScan(liftScan, /*Templates=*/true);
const FunctionLifter Map(liftMap, /*Templates=*/false);
const FunctionLifter Rows(liftRows, /*Templates=*/true);

/// The registry: the lifters in the order they are tried.  GEMMs and block
/// scans first (whole-kernel shapes); the kernel model's reading as a map
/// (an element-wise map, a row or column reduction, a contraction); the
/// prescan; the spelling matchers, of which the staged transposes and the
/// warp and block row programs read kernels whose threads communicate and
/// the element-wise lifter the others; last the kernel model's reading as
/// a row program, however its threads cooperate (or as per-block partial
/// sums: it reads kernel templates through their instantiations).
///
/// Each group is tried under one naming scope (Named): the spelling
/// matchers read the kernel one after another until one answers, and a
/// round of renaming reads it again from the first, so the names a matcher
/// that answered "not mine" gave the parameters stay those of the attempt.
std::vector<std::vector<const Lifter *>> registry() {
  return {{&Gemm},
          {&BlockScan},
          {&Map},
          {&prescanLifter()},
          {&transposeLifter(), &warpRowLifter(), &elementwiseLifter()},
          {&Rows}};
}

/// A refusal and the lifter that gave it.
struct Given {
  const Lifter *By;
  Refusal R;
};

/// What the driver does after a refusal: the reason reported if no lifter
/// tried after it lifts the kernel (none yet: the kernel still has a
/// lifter to answer), and which lifters are still tried.
struct Verdict {
  enum Then { All, Only, Stop } Next = All;
  std::optional<Refusal> Reported;
  /// Only: the lifters still tried (in the registry's order).
  std::vector<const Lifter *> OnlyLifters = {};
};

bool isSpelling(const Lifter *L) {
  return L == &transposeLifter() || L == &warpRowLifter() ||
         L == &elementwiseLifter();
}

/// The refusal policy, after each refusal \p Rs.back() (all of them in the
/// order given).  The precedences:
///  1. A GEMM or a block scan recognised by its shape lifter: the reason
///     its proof failed is reported, unless the map, tried alone after it,
///     lifts the kernel (a contraction however its tiles and locals are
///     written), or, after a GEMM, the row model does (a contraction with a
///     row epilogue: scores and their softmax); what they say otherwise is
///     not reported, but for the row model's Definite finding on tensor-core
///     fragments (PK5005: code whose meaning depends on the fragment
///     layout), which is more precise than the shape lifter's.
///  2. The map's Definite refusal (the model understood the kernel and
///     found it without a tile program) is reported; any other of its
///     refusals is kept for 4.
///  3. A prescan finding is reported, unless it is atomics (PK5002) or
///     threads that communicate (PK5004), which lifters after it read: it
///     is then the reason until one of those refuses; or tensor-core
///     fragments (PK5005), which the row model reads (the reason unless it
///     lifts the kernel or finds a PK5005 of its own, as in 1).
///  4. A spelling matcher's refusal is the reason, or, when the prescan
///     found nothing, the map's refusal that is Preferred (more precise than
///     the matchers' reasons); only the row model is still tried.
///  5. The row model's Definite refusal replaces that reason (or the
///     prescan's) unless it is a data-dependent access (PK5003) or a
///     fragment (PK5005), which stand.
Verdict refusalPolicy(const std::vector<Given> &Rs) {
  const Given &Last = Rs.back();
  auto From = [&](const Lifter *L) -> const Refusal * {
    for (const Given &G : Rs)
      if (G.By == L)
        return &G.R;
    return nullptr;
  };
  const Lifter *Prescan = &prescanLifter();
  auto FragFinding = [&](const Refusal &Old) {
    return Last.By == &Rows && Last.R.Definite &&
                   Last.R.Rule == RuleId::PK5005
               ? Last.R
               : Old;
  };
  if (const Refusal *R = From(&Gemm)) {
    if (Last.By == &Gemm)
      return Verdict{Verdict::Only, *R, {&Map, &Rows}};
    if (Last.By == &Map)
      return Verdict{Verdict::Only, *R, {&Rows}};
    return Verdict{Verdict::Stop, FragFinding(*R)};
  }
  if (const Refusal *R = From(&BlockScan))
    return Last.By == &BlockScan ? Verdict{Verdict::Only, *R, {&Map}}
                                 : Verdict{Verdict::Stop, *R};
  if (Last.By == &Map)
    return Last.R.Definite ? Verdict{Verdict::Stop, Last.R} : Verdict{};
  const Refusal *Found = From(Prescan);
  if (Last.By == Prescan) {
    if (Found->Rule == RuleId::PK5005)
      return Verdict{Verdict::Only, *Found, {&Rows}};
    return Verdict{Found->Rule == RuleId::PK5002 ||
                           Found->Rule == RuleId::PK5004
                       ? Verdict::All
                       : Verdict::Stop,
                   *Found};
  }
  if (Found && Found->Rule == RuleId::PK5005)
    return Verdict{Verdict::Stop, FragFinding(*Found)};
  // The reason of 4: a spelling matcher's (or the map's), else the
  // prescan's.
  auto Standing = [&]() -> Refusal {
    for (const Given &G : Rs)
      if (isSpelling(G.By)) {
        const Refusal *M = From(&Map);
        return !Found && M && M->Preferred ? *M : G.R;
      }
    return *Found;
  };
  if (isSpelling(Last.By))
    return Verdict{Verdict::Only, Standing(), {&Rows}};
  assert(Last.By == &Rows && "the row model is the last lifter");
  Refusal Old = Standing();
  if (Last.R.Definite && Old.Rule != RuleId::PK5003 &&
      Old.Rule != RuleId::PK5005)
    return Verdict{Verdict::Stop, Last.R};
  return Verdict{Verdict::Stop, Old};
}

} // namespace lift
} // namespace nki
} // namespace pk

std::map<std::string, LiftedFile> nki::liftKernels(TargetContext &TC) {
  std::map<std::string, LiftedFile> Out;
  for (const std::string &F : TC.PF.UserFiles)
    Out[F];
  std::vector<const FunctionDecl *> Kernels;
  std::vector<const FunctionTemplateDecl *> Templates;
  std::function<void(const Decl *)> Visit;
  std::function<void(const DeclContext *)> Walk = [&](const DeclContext *DC) {
    for (const Decl *D : DC->decls())
      Visit(D);
  };
  Visit = [&](const Decl *D) {
    if (auto *NS = dyn_cast<NamespaceDecl>(D))
      Walk(NS);
    else if (auto *LS = dyn_cast<LinkageSpecDecl>(D))
      Walk(LS);
    else if (auto *FT = dyn_cast<FunctionTemplateDecl>(D)) {
      if (FT->getTemplatedDecl()->hasAttr<CUDAGlobalAttr>() &&
          FT->getTemplatedDecl()->doesThisDeclarationHaveABody() &&
          TC.isUserLoc(FT->getLocation()))
        Templates.push_back(FT);
    } else if (auto *FD = dyn_cast<FunctionDecl>(D)) {
      if (FD->hasAttr<CUDAGlobalAttr>() && FD->doesThisDeclarationHaveABody() &&
          TC.isUserLoc(FD->getLocation()))
        Kernels.push_back(FD);
    }
  };
  // The user's declarations only: kernels in the toolkit's headers are not
  // the user's to lift.
  for (const Decl *D : TC.userTopLevelDecls())
    Visit(D);

  // The finding goes where the construct is; the header line of the
  // kernel's own .py names the file and line.
  auto Report = [&](const std::string &Name, SourceLocation KernelLoc,
                    const Refusal &Fl) {
    std::string Msg =
        llvm::formatv("kernel '{0}' is not lifted to NKI: {1}", Name, Fl.Msg)
            .str();
    TC.finding(Fl.Loc, Fl.Rule, Severity::Warning, Msg);
    std::string File = TC.fileOf(KernelLoc);
    if (File.empty() || !Out.count(File))
      return;
    // Where the construct is in the user's file: a token made by ## in a
    // macro is spelled in no file, its expansion is in one.
    SourceLocation L = TC.SM().getFileLoc(Fl.Loc);
    Out[File].Header.push_back(
        llvm::formatv("port-kernel: warning: {0}:{1}: {2} [{3}]",
                      llvm::sys::path::filename(TC.fileOf(L)),
                      TC.SM().getSpellingLineNumber(L), Msg, ruleName(Fl.Rule))
            .str());
  };

  // The Python names of a file's kernels: a kernel is a module-level
  // function, so it must not shadow a module, builtin or the calling
  // convention the generated code reads, nor another kernel of the file.
  std::map<std::string, llvm::StringSet<>> DefNames;
  auto DefName = [&](const std::string &File, const std::string &Name) {
    llvm::StringSet<> &Taken = DefNames[File];
    std::string R = Name;
    while (lift::isPythonReserved(R) || Taken.count(R))
      R += "_";
    Taken.insert(R);
    return R;
  };

  // A lifted kernel: its PK5001 note and its place in its file's output.
  // User names that the output had to change are listed in the note.
  auto Lifted = [&](const std::string &Name, const FunctionDecl *FD, Kernel K,
                    const std::vector<std::string> &Renamed) {
    std::string File = TC.fileOf(FD->getLocation());
    std::string Def = DefName(File, Name);
    std::vector<std::string> Changes;
    if (Def != Name) {
      K.PyName = Def;
      Changes.push_back(
          llvm::formatv("the kernel is the Python function '{0}'", Def));
    }
    Changes.insert(Changes.end(), Renamed.begin(), Renamed.end());
    std::string Msg =
        llvm::formatv("kernel '{0}' lifted to an NKI tile program: "
                      "{1}; {2} tile operations in its loop bodies; {3}",
                      Name, K.Family, staticOpCount(K.Body), capacityNote(K))
            .str();
    if (lift::usesFloat64(FD))
      Msg += "; its double arithmetic is computed in float32 (NKI has no "
             "float64: results differ in rounding)";
    if (!Changes.empty())
      Msg += " (names changed in the output, which Python, its imports or "
             "the generated code use: " +
             llvm::join(Changes, "; ") + ")";
    TC.finding(FD->getLocation(), RuleId::PK5001, Severity::Note, Msg);
    attributeOrigins(TC, FD, K);
    Out[File].Kernels.push_back(std::move(K));
  };

  // Lifts \p FD with \p Try under a naming scope: user identifiers never
  // take a name the generated code binds (tiles, loop variables, bounds,
  // launch dimensions) or one Python or the output's imports define.  The
  // names the generated code binds are known once it is generated, so a
  // clash lifts the kernel again with those names avoided.
  auto Named = [&](const FunctionDecl *FD, const TemplateParameterList *TPL,
                   llvm::function_ref<LiftAnswer()> Try,
                   std::vector<std::string> &Renamed) -> LiftAnswer {
    lift::PyNameScope Scope;
    for (const ParmVarDecl *P : FD->parameters())
      Scope.User.insert(P->getName());
    if (TPL)
      for (const NamedDecl *D : *TPL)
        Scope.User.insert(D->getName());
    for (unsigned Round = 0;; ++Round) {
      Scope.Taken.clear();
      Scope.Final.clear();
      lift::CurrentNames = &Scope;
      LiftAnswer A = Try();
      lift::CurrentNames = nullptr;
      if (!A.K)
        return A;
      // What the generated code binds: every assignment, loop variable,
      // allocation and launch dimension, less one HBM allocation per
      // output parameter, which is the parameter's own tensor.
      llvm::StringMap<unsigned> Bound;
      std::function<void(const std::vector<nki::Stmt> &)> Collect =
          [&](const std::vector<nki::Stmt> &Body) {
            for (const nki::Stmt &S : Body) {
              if (S.K == nki::Stmt::Assign)
                ++Bound[S.Var];
              else if (S.K == nki::Stmt::LoopStmt) {
                ++Bound[S.L->Var];
                Collect(S.L->Body);
              } else if (S.K == nki::Stmt::OpStmt && S.O.Kind == OpKind::Alloc)
                ++Bound[S.O.Alloc.Name];
            }
          };
      Collect(A.K->Body);
      for (const std::string &L : A.K->Launch)
        ++Bound[L];
      for (const Param &P : A.K->Params)
        if (P.IsTensor && P.R == Param::Out) {
          auto It = Bound.find(P.PyName);
          if (It != Bound.end() && It->second)
            --It->second;
        }
      // A template parameter is not a Python parameter: the program binds
      // it once, from the launch (`TILE = block_y`).
      if (TPL)
        for (const NamedDecl *D : *TPL) {
          auto F = Scope.Final.find(D->getName().str());
          if (F == Scope.Final.end())
            continue;
          auto It = Bound.find(F->second);
          if (It != Bound.end() && It->second)
            --It->second;
        }
      bool Clash = false;
      for (const auto &[User, Py] : Scope.Final) {
        auto It = Bound.find(Py);
        if (It != Bound.end() && It->second)
          Clash = true;
      }
      if (!Clash) {
        for (const auto &[User, Py] : Scope.Final)
          if (User != Py)
            Renamed.push_back(llvm::formatv("'{0}' is '{1}'", User, Py).str());
        return A;
      }
      if (Round == 8)
        return LiftAnswer::refused(
            Refusal{RuleId::PK5007, FD->getLocation(),
                    "no Python names were found for its identifiers that "
                    "the generated code does not also bind"});
      for (const auto &[N, Count] : Bound)
        if (Count)
          Scope.Avoid.insert(N);
    }
  };

  // A kernel (TPL null) or a kernel template: the registry's lifters in
  // order until one lifts it; else the reason the policy picks.
  struct Outcome {
    std::optional<Kernel> K;
    std::vector<std::string> Renamed;
    lift::Verdict V;
  };
  auto Attempt = [&](const FunctionDecl *FD,
                     const TemplateParameterList *TPL) -> Outcome {
    std::vector<lift::Given> Refused;
    lift::Verdict V;
    for (const std::vector<const Lifter *> &Group : lift::registry()) {
      if (V.Next == lift::Verdict::Stop)
        break;
      bool Only = V.Next == lift::Verdict::Only;
      if (Only && llvm::none_of(Group, [&](const Lifter *L) {
            return llvm::is_contained(V.OnlyLifters, L);
          }))
        continue;
      const Lifter *By = nullptr;
      std::vector<std::string> Renamed;
      LiftAnswer A = Named(
          FD, TPL,
          [&]() {
            for (const Lifter *L : Group) {
              By = L;
              LiftAnswer R = L->lift(TC, FD, TPL);
              if (R.K || R.Why)
                return R;
            }
            return LiftAnswer::notMine();
          },
          Renamed);
      if (A.K) {
        // The tile program's expressions must type-check before anything
        // is printed: a lifter's mistake is a refusal, not broken Python.
        std::string Bad = verifyTileTypes(*A.K);
        if (Bad.empty())
          return Outcome{std::move(*A.K), std::move(Renamed), V};
        A = LiftAnswer::refused(Refusal{
            RuleId::PK5009, FD->getLocation(),
            "the tile program built for it fails the tile IR's type check "
            "(an internal error of the lifter; please report it): " +
                Bad});
      }
      if (A.Why) {
        Refused.push_back({By, *A.Why});
        V = lift::refusalPolicy(Refused);
      }
    }
    assert(V.Reported && "every kernel is refused by some lifter");
    return Outcome{std::nullopt, {}, V};
  };
  auto Finish = [&](const FunctionDecl *FD, Outcome O) {
    std::string Name = FD->getNameAsString();
    if (O.K)
      Lifted(Name, FD, std::move(*O.K), O.Renamed);
    else
      Report(Name, FD->getLocation(), *O.V.Reported);
  };

  // A kernel template that the template-aware lifters do not lift, and
  // that the file instantiates once (`norm<float><<<...>>>`, a template
  // over the element type): that instantiation is the kernel, lifted as
  // any other; its template arguments are fixed in the tile program.
  static const std::string TemplateNotLifted =
      "template kernels are not lifted";
  auto OnlyInstantiation =
      [&](const FunctionTemplateDecl *FT) -> const FunctionDecl * {
    const FunctionDecl *One = nullptr;
    for (const FunctionDecl *Sp : FT->specializations()) {
      const FunctionDecl *Def = Sp->getDefinition();
      if (!Def || !Def->hasBody())
        continue;
      if (One && One != Def)
        return nullptr;
      One = Def;
    }
    return One;
  };
  for (const FunctionTemplateDecl *FT : Templates) {
    const FunctionDecl *Pattern = FT->getTemplatedDecl();
    Outcome O = Attempt(Pattern, FT->getTemplateParameters());
    if (!O.K)
      if (const FunctionDecl *Inst = OnlyInstantiation(FT)) {
        Outcome I = Attempt(Inst, nullptr);
        if (I.K) {
          std::string Args;
          if (const TemplateArgumentList *TA =
                  Inst->getTemplateSpecializationArgs()) {
            llvm::raw_string_ostream OS(Args);
            PrintingPolicy PP(TC.Ctx().getLangOpts());
            PP.SuppressTagKeyword = true;
            llvm::interleaveComma(TA->asArray(), OS,
                                  [&](const TemplateArgument &A) {
                                    A.print(PP, OS, /*IncludeType=*/false);
                                  });
          }
          I.K->Family +=
              "; the template's one instantiation in this file, <" + Args + ">";
          Finish(Pattern, std::move(I));
          continue;
        }
        // The instantiation's own reason over the template's "not
        // lifted as a template".
        if (O.V.Reported && O.V.Reported->Msg.rfind(TemplateNotLifted, 0) == 0)
          O = std::move(I);
      }
    Finish(Pattern, std::move(O));
  }
  for (const FunctionDecl *FD : Kernels)
    Finish(FD, Attempt(FD, nullptr));
  return Out;
}
