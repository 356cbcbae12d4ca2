//===- Mfma.cpp - tensor cores -> AMD MFMA ---------------------------------===//
#include "pk/TargetContext.h"

llvm::Error pk::runMfmaRules(TargetContext &TC) {
  (void)TC;
  return llvm::Error::success();
}
