//===- IntMinMax.cpp - CUDA's integer min/max names on HIP ----------------===//
// Rules: PK1032
//
// CUDA's device library has min and max for each integer type under names
// of their own: umin, umax (unsigned int), llmin, llmax (long long), ullmin,
// ullmax (unsigned long long). HIP has none of them (ROCm 5.2, ROCm 6.3);
// clang's HIP math header has the template min<T>/max<T> for the device.  A
// call of CUDA's function becomes the template at the type CUDA's function
// converts its arguments to, so mixed arguments convert as they did:
// umin(a, 5) -> min<unsigned int>(a, 5).  A function of the program's own
// with such a name is left alone.
//
//===----------------------------------------------------------------------===//
#include "HipPasses.h"

#include "pk/DynamicVisitor.h"
#include "clang/AST/Expr.h"
#include "llvm/ADT/StringSwitch.h"
#include "llvm/Support/FormatVariadic.h"

using namespace pk;
using namespace clang;

namespace {

class IntMinMaxCalls : public DynamicASTVisitor {
public:
  explicit IntMinMaxCalls(TargetContext &TC) : TC(TC) {}
  bool VisitCallExpr(CallExpr *CE) override {
    const FunctionDecl *FD = CE->getDirectCallee();
    if (!FD || !FD->getIdentifier() || TC.isUserLoc(FD->getLocation()))
      return true;
    llvm::StringRef Name = FD->getName();
    llvm::StringRef Type = llvm::StringSwitch<llvm::StringRef>(Name)
                               .Cases("umin", "umax", "unsigned int")
                               .Cases("llmin", "llmax", "long long")
                               .Cases("ullmin", "ullmax", "unsigned long long")
                               .Default("");
    if (Type.empty() || CE->getNumArgs() != 2)
      return true;
    const Expr *Callee = CE->getCallee()->IgnoreParenImpCasts();
    if (!TC.isUserLoc(TC.SM().getFileLoc(Callee->getBeginLoc())))
      return true;
    std::string To =
        llvm::formatv("{0}<{1}>", Name.ends_with("min") ? "min" : "max", Type)
            .str();
    // A name spelled in a macro body (#define UMIN umin) is refused and
    // reported by replace, never half-edited.
    TC.replace(Callee->getSourceRange(), To, RuleId::PK1032,
               llvm::formatv("{0} -> {1}: HIP has no {0}; its min/max "
                             "template at the type {0} converts to",
                             Name, To)
                   .str());
    return true;
  }

private:
  TargetContext &TC;
};

} // namespace

void pk::hip::portIntMinMax(TargetContext &TC) {
  IntMinMaxCalls V(TC);
  for (Decl *D : TC.userTopLevelDecls())
    V.TraverseDecl(D);
}
