//===- Interned.cpp - strings kept once per process -----------------------===//
// Rules: none (shared infrastructure)
#include "pk/Interned.h"

#include "llvm/ADT/StringSet.h"
#include "llvm/Support/Allocator.h"
#include <mutex>

using namespace pk;

namespace {
struct Pool {
  std::mutex Mu;
  llvm::StringSet<llvm::BumpPtrAllocator> Set;
};
Pool &pool() {
  // Never destroyed: an IStr may outlive static destruction order.
  static Pool *P = new Pool;
  return *P;
}
} // namespace

IStr::IStr(llvm::StringRef S) {
  if (S.empty())
    return; // the empty text is one constant
  Pool &P = pool();
  std::lock_guard<std::mutex> Lock(P.Mu);
  R = P.Set.insert(S).first->getKey();
}
