//===- LiftRows.h - row programs lifted from the kernel model -------------===//
// Rules: PK5001, PK5003, PK5004, PK5005, PK5007
#ifndef PK_NKI_LIFTROWS_H
#define PK_NKI_LIFTROWS_H

#include "Lift.h"

namespace clang {
class FunctionDecl;
}

namespace pk {
namespace nki {

/// Lifts \p FD when the kernel model (pk/KernelModel.h) shows it to be a
/// row program: each row of its outputs is a function of the same row of
/// its inputs, of row vectors and of reductions over the row, whatever the
/// threads, warps, shuffles, shared-memory trees and atomics that compute
/// it.  Returns true with \p K filled; false with \p Why set when the model
/// ran into something it cannot prove (the reason, at its construct); false
/// with \p Why empty when the kernel is not a row program at all.
bool liftRows(TargetContext &TC, const clang::FunctionDecl *FD, Kernel &K,
              std::optional<Refusal> &Why);

} // namespace nki
} // namespace pk

#endif
