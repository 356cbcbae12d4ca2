//===- FromHip.h - HIP -> CUDA passes of the CUDA target -------*- C++ -*-===//
// Rules: none (declarations)
//
// The passes that turn HIP input (hand-written, or written by port-kernel's
// own HIP target) into CUDA for 32-lane warps: port-kernel's helper blocks
// and their calls back to the CUDA forms they came from (FromHipHelpers.cpp),
// wave-64 lane arithmetic and shuffle widths narrowed to 32-lane warps
// (FromHipWarpWidth.cpp), MFMA fragments back to WMMA (FromHipMfma.cpp).
//
//===----------------------------------------------------------------------===//
#ifndef PK_TARGETS_CUDA_FROMHIP_H
#define PK_TARGETS_CUDA_FROMHIP_H

#include "pk/TargetContext.h"
#include "clang/AST/Decl.h"
#include "llvm/ADT/StringRef.h"
#include <string>
#include <vector>

namespace pk::cuda {

/// A helper block port-kernel's HIP target inserts: the lines from
/// `#ifndef PK_<NAME>` to `#endif // PK_<NAME>`.
struct HelperBlock {
  std::string Guard;           ///< PK_<NAME>
  unsigned Begin = 0, End = 0; ///< [Begin, End): whole lines
  /// True for the blocks the CUDA target turns back into CUDA (their uses
  /// are rewritten and the block is removed).
  bool Reverted = false;
};
/// The helper blocks of \p Buf, in offset order.
std::vector<HelperBlock> helperBlocks(llvm::StringRef Buf);
/// True when \p Off lies in a block of \p Blocks that is removed.
bool inRevertedBlock(const std::vector<HelperBlock> &Blocks, unsigned Off);

/// True when an edit recorded so far replaces text that covers \p Off (a
/// statement or block already removed).
bool coveredByEdit(const TargetContext &TC, llvm::StringRef File, unsigned Off);

/// PK6030, PK6031: helper blocks and their calls; HIP lane queries.
void fromHipHelpers(TargetContext &TC);
/// PK6032, PK6033, PK6034: shuffle widths, wave-64 lane arithmetic, code
/// that only works on 64-lane waves.
void fromHipWarpWidth(TargetContext &TC);
/// PK6040, PK6041, PK6042: MFMA fragments back to WMMA, the padding of
/// their shared tiles, MFMA builtins that are not recognised.
void fromHipMfma(TargetContext &TC);
/// PK6042, PK6043, PK6044: hand-written MFMA GEMM kernels
/// (__builtin_amdgcn_mfma_f32_16x16x16f16 in AMD's lane layout) to WMMA.
void fromHipMfmaBuiltins(TargetContext &TC);
/// True when \p FD is a kernel that fromHipMfmaBuiltins maps to WMMA (its
/// wave arithmetic stays at 64 lanes: PK6033 leaves it alone).
bool mfmaGemmKernel(TargetContext &TC, const clang::FunctionDecl *FD);

} // namespace pk::cuda
#endif
