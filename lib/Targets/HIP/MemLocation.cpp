//===- MemLocation.cpp - memory-location forms of prefetch and advise -----===//
// Rules: PK1028
//
// CUDA 12.2 added cudaMemPrefetchAsync_v2(p, n, location, flags, stream) and
// cudaMemAdvise_v2(p, n, advice, location), whose location is a
// cudaMemLocation {type, id}; CUDA 13 gave the plain names these signatures.
// HIP (ROCm 5.2 and 6.3) has hipMemLocation, but its hipMemPrefetchAsync and
// hipMemAdvise take a device number (hipCpuDeviceId for the host).  The rename
// table renames the callee (PK1001); this pass rewrites the arguments:
//
//   cudaMemPrefetchAsync(p, n, loc, 0, s) -> hipMemPrefetchAsync(p, n,
//                                    __pk_memLocationDevice(loc), s)
//   cudaMemAdvise(p, n, advice, loc)      -> hipMemAdvise(p, n, advice,
//                                    __pk_memLocationDevice(loc))
//
// __pk_memLocationDevice gives the id of a device location and
// hipInvalidDeviceId for any other (HIP's call then fails with an error
// instead of acting on another place).  CUDA's host locations
// (cudaMemLocationTypeHost, ...) have no HIP enumerator: the rename table
// flags them (PK1010).  The flags of the prefetch must be 0 in CUDA and HIP
// has none: a flags argument that is not the constant 0 is not translated
// and is flagged here.
//
//===----------------------------------------------------------------------===//
#include "HipPasses.h"

#include "pk/DynamicVisitor.h"
#include "clang/AST/ASTContext.h"
#include "clang/Basic/SourceManager.h"
#include "clang/Lex/Lexer.h"
#include "llvm/Support/FormatVariadic.h"

using namespace pk;
using namespace clang;

namespace pk_mem_location {

const char *const Helper = R"pk(
#ifndef PK_MEM_LOCATION_HELPERS
#define PK_MEM_LOCATION_HELPERS
// port-kernel: HIP's prefetch and advise take a device number [PK1028]
static inline int __pk_memLocationDevice(hipMemLocation loc) {
  return loc.type == hipMemLocationTypeDevice ? loc.id : hipInvalidDeviceId;
}
#endif // PK_MEM_LOCATION_HELPERS
)pk";

bool isMemLocation(QualType T) {
  const auto *RD =
      T.getNonReferenceType().getCanonicalType()->getAsRecordDecl();
  return RD && RD->getIdentifier() && RD->getName() == "cudaMemLocation";
}

class Visitor : public DynamicASTVisitor {
public:
  explicit Visitor(TargetContext &TC) : TC(TC) {}

  bool VisitCallExpr(CallExpr *CE) override {
    const FunctionDecl *FD = CE->getDirectCallee();
    if (!FD || !FD->getIdentifier() || TC.isUserLoc(FD->getLocation()))
      return true;
    llvm::StringRef Name = FD->getName();
    bool Prefetch =
        Name == "cudaMemPrefetchAsync" || Name == "cudaMemPrefetchAsync_v2";
    bool Advise = Name == "cudaMemAdvise" || Name == "cudaMemAdvise_v2";
    unsigned LocArg = Prefetch ? 2 : 3;
    if ((!Prefetch && !Advise) || FD->getNumParams() <= LocArg ||
        CE->getNumArgs() <= LocArg ||
        !isMemLocation(FD->getParamDecl(LocArg)->getType()))
      return true;
    SourceLocation Use = TC.SM().getFileLoc(CE->getBeginLoc());
    if (!TC.isUserLoc(Use))
      return true;
    const Expr *Loc = CE->getArg(LocArg);
    std::string Why =
        llvm::formatv("{0} with a cudaMemLocation -> {1} with a device "
                      "number: the id of a device location, "
                      "hipInvalidDeviceId (an error) for any other",
                      Name, Prefetch ? "hipMemPrefetchAsync" : "hipMemAdvise")
            .str();
    if (Prefetch) {
      const Expr *Flags = CE->getNumArgs() > 3 ? CE->getArg(3) : nullptr;
      Expr::EvalResult R;
      bool Zero = Flags && !Flags->isValueDependent() &&
                  Flags->EvaluateAsInt(R, TC.Ctx()) && R.Val.getInt() == 0 &&
                  !Flags->HasSideEffects(TC.Ctx());
      if (!Zero) {
        TC.finding(Use, RuleId::PK1028, Severity::Warning,
                   llvm::formatv("{0}: the flags argument is not the constant "
                                 "0 (CUDA requires 0) and hipMemPrefetchAsync "
                                 "has none: not translated; pass 0 or port "
                                 "the call by hand",
                                 Name)
                       .str());
        return true;
      }
      // ", flags" goes: from the end of the location to the end of flags.
      SourceLocation From = endOf(Loc), To = endOf(Flags);
      if (From.isInvalid() || To.isInvalid() ||
          !TC.replace(CharSourceRange::getCharRange(From, To), "",
                      RuleId::PK1028, Why))
        return true;
    }
    if (TC.insert(Loc->getBeginLoc(), "__pk_memLocationDevice(", RuleId::PK1028,
                  Why))
      TC.insert(endOf(Loc), ")", RuleId::PK1028, Why);
    std::string F = TC.fileOf(Use);
    if (TC.isUserFile(F))
      TC.Helpers[F][HelperKey{RuleId::PK1028, "location"}] = Helper;
    return true;
  }

private:
  TargetContext &TC;

  SourceLocation endOf(const Expr *E) {
    return Lexer::getLocForEndOfToken(E->getEndLoc(), 0, TC.SM(),
                                      TC.Ctx().getLangOpts());
  }
};

} // namespace pk_mem_location

void pk::hip::rewriteMemLocationCalls(TargetContext &TC) {
  if (TC.PF.Language == Lang::HIP)
    return;
  pk_mem_location::Visitor V(TC);
  V.TraverseAST(TC.Ctx());
}
