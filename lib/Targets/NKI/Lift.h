//===- Lift.h - CUDA/HIP kernels to NKI tile programs ---------------------===//
// Rules: PK5001, PK5002, PK5003, PK5004, PK5005, PK5006, PK5007, PK5008, PK5009
#ifndef PK_NKI_LIFT_H
#define PK_NKI_LIFT_H

#include "TileProgram.h"
#include "pk/TargetContext.h"
#include <map>

namespace pk {
namespace nki {

/// What the lifter made of one user file: the kernels it lifted (in source
/// order) and, for the output's header, the diagnostics of those it did not.
struct LiftedFile {
  std::vector<Kernel> Kernels;
  std::vector<std::string> Header;
};

/// Lifts every __global__ function defined in the user files of \p TC.
/// Records a PK5001 note per lifted kernel and one finding (PK5002-PK5008)
/// per kernel that is not lifted, at the construct that stops it.
std::map<std::string, LiftedFile> liftKernels(TargetContext &TC);

} // namespace nki
} // namespace pk

#endif
