//===- Lifter.h - the NKI lifters as registered units ---------------------===//
// Rules: none (declarations)
//
// A lifter reads one kernel and answers: not mine (another lifter may read
// it), lifted (its tile program) or refused (why a kernel it recognises has
// no tile program).  LiftDriver.cpp tries the lifters in the order of its
// registry; when none lifts a kernel, its refusal policy picks the reason
// reported.
//
//===----------------------------------------------------------------------===//
#ifndef PK_NKI_LIFTER_H
#define PK_NKI_LIFTER_H

#include "Lift.h"
#include <optional>

namespace clang {
class FunctionDecl;
class TemplateParameterList;
} // namespace clang

namespace pk {
namespace nki {

/// One lifter's answer for one kernel: K when lifted, Why when refused,
/// neither when the kernel is not the lifter's.
struct LiftAnswer {
  std::optional<Kernel> K;
  std::optional<Refusal> Why;

  static LiftAnswer notMine() { return {}; }
  static LiftAnswer lifted(Kernel K) { return {std::move(K), std::nullopt}; }
  static LiftAnswer refused(Refusal R) { return {std::nullopt, std::move(R)}; }
};

class Lifter {
public:
  virtual ~Lifter() = default;
  /// Reads \p FD: a kernel, or the pattern of a kernel template whose
  /// parameters are \p TPL (null for a kernel).  Python names are taken
  /// with pyName, under the naming scope the driver sets.
  virtual LiftAnswer lift(TargetContext &TC, const clang::FunctionDecl *FD,
                          const clang::TemplateParameterList *TPL) const = 0;
};

/// The lifters defined with their readers (the others, liftMatmul,
/// liftScan, liftMap and liftRows, are registered by LiftDriver.cpp).
const Lifter &prescanLifter();     ///< LiftPrescan.cpp
const Lifter &transposeLifter();   ///< LiftTranspose.cpp
const Lifter &warpRowLifter();     ///< WarpRowLifter.cpp
const Lifter &elementwiseLifter(); ///< LiftElementwise.cpp

} // namespace nki
} // namespace pk

#endif
