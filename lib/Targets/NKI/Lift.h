//===- Lift.h - CUDA/HIP kernels to NKI tile programs ---------------------===//
// Rules: PK5001, PK5002, PK5003, PK5004, PK5005, PK5006, PK5007, PK5008, PK5009
#ifndef PK_NKI_LIFT_H
#define PK_NKI_LIFT_H

#include "TileProgram.h"
#include "pk/TargetContext.h"
#include "clang/AST/Type.h"
#include "llvm/ADT/StringRef.h"
#include <map>
#include <optional>

namespace pk {
namespace nki {

/// What the lifter made of one user file: the kernels it lifted (in source
/// order) and, for the output's header, the diagnostics of those it did not.
struct LiftedFile {
  std::vector<Kernel> Kernels;
  std::vector<std::string> Header;
};

/// Why a kernel is not lifted: the rule, the place, the reason.
struct Refusal {
  RuleId Rule;
  clang::SourceLocation Loc;
  std::string Msg;
  /// The kernel model understood the construct and found it wrong or
  /// without a tile equivalent (a race, a running rescale, a partial
  /// reduction), rather than meeting a construct it does not execute.
  bool Definite = false;
  /// A reason more precise than those of the lifters tried after the one
  /// that gave it (reported when none of them lifts the kernel).
  bool Preferred = false;
};

/// The NKI dtype of a C element type (float, half/__half, bf16, int,
/// unsigned); none for the others.
std::optional<DType> dtypeOf(clang::QualType T);
/// The NKI dtype of a scalar parameter: dtypeOf's, and I64 for the 64-bit
/// integers (size_t, long), which are sizes known when the kernel is traced.
std::optional<DType> scalarDtypeOf(clang::QualType T);
/// A Python name for a C identifier (Python keywords, builtins the output
/// uses and the module names get a trailing underscore).
std::string pyName(llvm::StringRef N);
/// A Python float literal for \p V (9 significant digits, always a float).
std::string pyFloat(double V);

/// The lanes of a warp the kernel model executes a source in: 64 for HIP
/// (whose warpSize and default shuffle width are the CDNA wavefront's),
/// 32 for CUDA.
unsigned waveOf(const TargetContext &TC);

/// Gives every operation of \p K (lifted from \p FD) that its lifter left
/// without an origin one read from the kernel's source (LiftOrigins.cpp).
void attributeOrigins(const TargetContext &TC, const clang::FunctionDecl *FD,
                      Kernel &K);
/// Lifts every __global__ function defined in the user files of \p TC.
/// Records a PK5001 note per lifted kernel and one finding (PK5002-PK5008)
/// per kernel that is not lifted, at the construct that stops it.
std::map<std::string, LiftedFile> liftKernels(TargetContext &TC);

} // namespace nki
} // namespace pk

#endif
