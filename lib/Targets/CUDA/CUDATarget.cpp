//===- CUDATarget.cpp - CUDA/HIP -> modern CUDA ----------------------------===//
//
// HIP input: API renames and includes back to CUDA (tables reversed).
// CUDA input: already CUDA; the output is the input unless a modernisation
// rule applies.
//
//===----------------------------------------------------------------------===//
#include "pk/TargetContext.h"

#include "clang/AST/ASTContext.h"
#include "clang/Frontend/ASTUnit.h"

using namespace pk;

llvm::Error pk::runCudaTarget(TargetContext &TC) {
  if (TC.PF.Language == Lang::HIP) {
    runIncludePass(TC, /*ToHip=*/false);
    runRenamePass(TC, /*ToHip=*/false);
  }
  insertHelpers(TC);
  return TC.takeError();
}
