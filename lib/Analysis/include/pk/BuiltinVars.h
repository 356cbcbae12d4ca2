//===- BuiltinVars.h - threadIdx.x and the other launch coordinates -------===//
// Rules: none (shared infrastructure)
//
// The one recogniser of a read of CUDA's built-in coordinate variables
// (threadIdx, blockIdx, blockDim, gridDim) that the analyses and the targets
// share.  The bundled CUDA declarations (clang's __clang_cuda_builtin_vars.h)
// make x, y and z properties: `threadIdx.x` parses as a pseudo-object whose
// syntactic form is an MSPropertyRefExpr on an OpaqueValueExpr of the
// variable.  Other declarations (HIP's headers, a CUDA toolkit's own) make
// them plain members.  Both are read here; the HIP macros that expand to
// device library calls (hipThreadIdx_x as __ockl_get_local_id(0)) and the
// AMDGPU builtins (__builtin_amdgcn_workitem_id_x) are not reads of the
// variables and are not recognised.
#ifndef PK_ANALYSIS_BUILTINVARS_H
#define PK_ANALYSIS_BUILTINVARS_H

#include "llvm/ADT/StringRef.h"
#include <optional>

namespace clang {
class Expr;
} // namespace clang

namespace pk {

/// A member of one of the four built-in variables, as written.
struct BuiltinMember {
  llvm::StringRef Var;   ///< threadIdx, blockIdx, blockDim or gridDim
  llvm::StringRef Field; ///< the member's name; empty for an unnamed one
};

/// `threadIdx.x` and the like: \p E (parentheses and implicit casts aside)
/// reads a member of threadIdx, blockIdx, blockDim or gridDim, through a
/// property (a pseudo-object) or a plain member, the variable named by its
/// identifier.  Any member is accepted: the field is reported as written.
std::optional<BuiltinMember> builtinMember(const clang::Expr *E);

/// A coordinate of a built-in variable: builtinMember() with the field x, y
/// or z.
struct BuiltinIndex {
  llvm::StringRef Var; ///< threadIdx, blockIdx, blockDim or gridDim
  unsigned Dim = 0;    ///< 0, 1, 2 for x, y, z
  char axis() const { return char('x' + Dim); }
};

/// builtinMember() of a field x, y or z, with its dimension.
std::optional<BuiltinIndex> builtinIndex(const clang::Expr *E);

} // namespace pk
#endif
