//===- LiftPrescan.cpp - constructs outside the element-wise model --------===//
// Rules: PK5002, PK5003, PK5004, PK5005, PK5007
//
// Before the spelling matchers read a kernel, it (and the device functions
// it calls) is scanned for what the element-wise model cannot express; the
// first such construct is the prescan's refusal:
//   PK5002  atomics;  PK5003  data-dependent indices;  PK5004  shuffles,
//   votes, barriers and shared memory;  PK5005  tensor-core fragments.
// The driver's policy (LiftDriver.cpp) decides which of them stand.
//
//===----------------------------------------------------------------------===//
#include "LiftInternal.h"
#include "Lifter.h"

using namespace pk;
using namespace pk::nki;
using namespace clang;

namespace pk {
namespace nki {
namespace lift {

//===----------------------------------------------------------------------===//
// The pre-scan: constructs outside the element-wise model.
//===----------------------------------------------------------------------===//

class Scan : public DynamicASTVisitor {
public:
  explicit Scan(ASTContext &Ctx) : Ctx(Ctx) {}
  std::optional<Refusal> F;
  std::set<const FunctionDecl *> Seen;

  void run(const FunctionDecl *FD) {
    if (!FD || !FD->hasBody() || !Seen.insert(FD).second)
      return;
    TraverseStmt(const_cast<clang::Stmt *>(FD->getBody()));
  }

  /// The reason reported when several apply: atomics, fragments, data-
  /// dependent indices, a scan across lanes, then other communication
  /// between threads.
  static int rank(RuleId R) {
    switch (R) {
    case RuleId::PK5002:
      return 0;
    case RuleId::PK5005:
      return 1;
    case RuleId::PK5003:
      return 2;
    default:
      return 4;
    }
  }
  int Rank = 5;
  bool fail(RuleId R, SourceLocation L, std::string M, int Rk = -1) {
    if (Rk < 0)
      Rk = rank(R);
    if (!F || Rk < Rank) {
      F = Refusal{R, L, std::move(M)};
      Rank = Rk;
    }
    return true; // keep looking for a reason that ranks higher
  }

  bool VisitVarDecl(VarDecl *V) override {
    if (V->hasAttr<CUDASharedAttr>())
      return fail(RuleId::PK5004, V->getLocation(),
                  llvm::formatv("__shared__ array '{0}': threads of a block "
                                "communicate through shared memory, which "
                                "the lifter only models as element-wise "
                                "maps (no reduction or staging pattern is "
                                "recognised here)",
                                V->getName())
                      .str());
    std::string T = V->getType().getAsString();
    if (T.find("fragment") != std::string::npos)
      return fail(RuleId::PK5005, V->getLocation(),
                  llvm::formatv("tensor-core fragment '{0}' ({1}): WMMA "
                                "fragments are not lifted to nc_matmul",
                                V->getName(), T)
                      .str());
    return true;
  }

  bool VisitCallExpr(CallExpr *C) override {
    const FunctionDecl *Callee = C->getDirectCallee();
    if (!Callee)
      return true;
    std::string N = Callee->getNameAsString();
    llvm::StringRef NR(N);
    if (NR.starts_with("atomic") || NR.starts_with("__atomic"))
      return fail(RuleId::PK5002, C->getBeginLoc(),
                  llvm::formatv("{0}: an atomic read-modify-write from "
                                "many threads has no sequential tile "
                                "equivalent the lifter can prove (contended "
                                "updates to data-dependent addresses)",
                                N)
                      .str());
    if (NR.contains("mma_sync") || NR.contains("load_matrix_sync") ||
        NR.contains("store_matrix_sync") || NR == "fill_fragment")
      return fail(RuleId::PK5005, C->getBeginLoc(),
                  llvm::formatv("{0}: tensor-core fragments are not lifted "
                                "to nc_matmul",
                                N)
                      .str());
    if (NR.starts_with("__shfl_up"))
      return fail(RuleId::PK5004, C->getBeginLoc(),
                  llvm::formatv("{0}: a prefix scan across the lanes (each "
                                "lane adds the values of the lanes below "
                                "it); scans are not lifted to tile "
                                "operations: compute the prefix sums on the "
                                "host or keep this kernel on a GPU target",
                                N)
                      .str(),
                  3);
    if (NR.starts_with("__shfl") || NR.starts_with("__ballot") ||
        NR.starts_with("__any") || NR.starts_with("__all") ||
        NR == "__syncthreads" || NR == "__syncwarp" ||
        NR.starts_with("__activemask") || NR == "reduce" || NR == "sync")
      return fail(RuleId::PK5004, C->getBeginLoc(),
                  llvm::formatv("{0}: threads exchange values here; the "
                                "lifter recognises element-wise maps only, "
                                "not this reduction or scan",
                                N)
                      .str());
    if (Callee->hasBody() && !Callee->hasAttr<CUDAGlobalAttr>())
      run(Callee->getDefinition());
    return true;
  }

  /// A store or load whose index reads memory: a scatter or gather.
  bool VisitArraySubscriptExpr(ArraySubscriptExpr *A) override {
    bool Reads = false;
    std::function<void(const clang::Stmt *)> Walk = [&](const clang::Stmt *S) {
      if (!S)
        return;
      if (isa<ArraySubscriptExpr>(S))
        Reads = true;
      if (auto *U = dyn_cast<UnaryOperator>(S))
        if (U->getOpcode() == UO_Deref)
          Reads = true;
      if (auto *C = dyn_cast<CallExpr>(S))
        if (auto *Fn = C->getDirectCallee())
          if (Fn->getName().starts_with("__popc") ||
              Fn->getName().starts_with("__ballot"))
            Reads = true;
      for (const clang::Stmt *Ch : S->children())
        Walk(Ch);
    };
    Walk(A->getIdx());
    if (Reads)
      return fail(RuleId::PK5003, A->getBeginLoc(),
                  "the index of this access depends on data read at run "
                  "time (a gather or scatter): a tile access must be a "
                  "rectangle known when the kernel is traced");
    return true;
  }

private:
  ASTContext &Ctx;
};

std::optional<Refusal> prescan(ASTContext &Ctx, const FunctionDecl *FD) {
  Scan S(Ctx);
  S.run(FD);
  return S.F;
}

/// The prescan as a lifter: it lifts nothing, and refuses the kernels with
/// a construct the element-wise model cannot express.  It is the last
/// lifter that reads a kernel template: one it does not refuse is refused
/// as a template.
class PrescanUnit final : public Lifter {
public:
  LiftAnswer lift(TargetContext &TC, const FunctionDecl *FD,
                  const TemplateParameterList *TPL) const override {
    if (std::optional<Refusal> F = prescan(TC.Ctx(), FD))
      return LiftAnswer::refused(*F);
    if (TPL)
      return LiftAnswer::refused(Refusal{
          RuleId::PK5007, FD->getDescribedFunctionTemplate()->getLocation(),
          "template kernels are not lifted unless the file instantiates "
          "them once (each instantiation would be a kernel of its own)"});
    return LiftAnswer::notMine();
  }
};

} // namespace lift
} // namespace nki
} // namespace pk

const Lifter &nki::prescanLifter() {
  static const lift::PrescanUnit L;
  return L;
}
