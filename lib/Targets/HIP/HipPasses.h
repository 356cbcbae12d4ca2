//===- HipPasses.h - passes of the HIP target -----------------------------===//
// Rules: none (declarations)
//
// Passes of the HIP target that have no declaration in pk/TargetContext.h.
//
//===----------------------------------------------------------------------===//
#ifndef PK_HIP_HIPPASSES_H
#define PK_HIP_HIPPASSES_H

#include "pk/TargetContext.h"

namespace pk::hip {

/// PK1005: kernel arguments of cudaLaunchKernel & co. become `const void *`.
void runLaunchCasts(TargetContext &TC);

} // namespace pk::hip
#endif
