//===- LiftFold.h - unrolled terms read back as reductions ----------------===//
// Rules: none (a reading of kernel-model values)
//
// What a loop the kernel model unrolled (a tensor-core fragment's 16-deep
// sums, a lane's fixed columns, a butterfly over 64 columns) leaves behind
// is a chain of terms g(0), g(1), ..., g(N-1) that differ only in integer
// constants linear in k: the Folder reads such a family back as the
// reduction over an iteration variable, bottom-up, so the readers see
// `reduce(op, k < N, g(k))` however the kernel spelled the loop.
//
//===----------------------------------------------------------------------===//
#ifndef PK_NKI_LIFTFOLD_H
#define PK_NKI_LIFTFOLD_H

#include "pk/KernelModel.h"

#include <map>
#include <optional>
#include <unordered_map>
#include <utility>
#include <vector>

namespace pk {
namespace nki {

class Folder {
public:
  explicit Folder(km::SymPool &P) : P(P) {}

  /// \p S with every family of terms of a float +, max or min chain (N >= 2
  /// terms that are g(k) for k = 0..N-1) replaced by the reduction of g
  /// over an iteration variable [0, N) whose tag is one more than the
  /// deepest reduction inside g (equal families fold alike, nested ones
  /// apart).
  km::SymP fold(km::SymP S);

  /// The g with \p Members[k] = g(k) for k = 0..N-1, as the body over the
  /// iteration variable \p It; none when the members are not such a family.
  std::optional<km::SymP> family(const std::vector<km::SymP> &Members,
                                 km::SymP It);

  /// The deepest tag of an iteration variable in \p S (0: none).
  unsigned depth(km::SymP S);

private:
  km::SymPool &P;
  struct Sig {
    uint64_t Shape = 0;
    std::vector<int64_t> Offs; ///< the constants of its integer slots
    bool Opaque = false;       ///< too large: compared by identity only
  };
  std::unordered_map<km::SymP, Sig> Sigs;
  std::unordered_map<km::SymP, km::SymP> Memo;
  std::unordered_map<km::SymP, unsigned> Depths;
  const Sig &sig(km::SymP S);
  Sig sigNew(km::SymP S);
  /// The operands of \p S in the order its signature lists them.
  std::vector<size_t> order(km::SymP S);
  bool intSlot(km::SymP S) const;
  km::SymP shift(km::SymP S, const std::vector<int64_t> &Delta, size_t &At,
                 km::SymP It, bool &Ok);
  km::SymP foldNew(km::SymP S);
};

} // namespace nki
} // namespace pk

#endif
