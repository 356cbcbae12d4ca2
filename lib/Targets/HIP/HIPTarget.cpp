//===- HIPTarget.cpp - the HIP target: CUDA -> HIP for AMD GPUs
//------------===//
// Rules: none (the target's pass list; the rules live in the files it names)
//
// The passes of `port --to hip`, in order:
//   includes, renames     YAML tables (TargetCommon.cpp): PK1001-PK1004,
//                         PK1006, PK1011
//   launch-casts          PK1005 (LaunchCasts.cpp)
//   wave64                warp-32 code on 64-lane waves, per kernel strategy:
//                         PK2000-PK2023 (Wave64*.cpp over lib/Analysis)
//   mfma                  tensor cores -> MFMA: PK3001-PK3017 (Mfma*.cpp)
//   unported-includes     PK1010 for headers no pass made unnecessary
//   helpers               generated helper blocks after the includes
// `check --to hip` runs includes, renames, the wave-64 hazard report
// (PK2101-PK2111) and unported-includes.
//
//===----------------------------------------------------------------------===//
#include "HipPasses.h"
#include "pk/Target.h"

#include "llvm/ADT/SmallString.h"
#include "llvm/Support/Path.h"

using namespace pk;

namespace {

bool cudaInput(const TargetContext &TC) { return TC.PF.Language != Lang::HIP; }

class HipTarget : public TargetBackend {
public:
  Target id() const override { return Target::HIP; }

  std::string outputName(llvm::StringRef Path) const override {
    llvm::StringRef Ext = llvm::sys::path::extension(Path);
    llvm::SmallString<256> P(Path);
    if (Ext == ".cu")
      llvm::sys::path::replace_extension(P, ".hip");
    else if (Ext == ".cuh")
      llvm::sys::path::replace_extension(P, ".hpp");
    return P.str().str();
  }

  std::vector<TargetPass> portPasses() const override {
    return {
        pass("includes", [](TargetContext &TC) { runIncludePass(TC, true); }),
        pass("renames", [](TargetContext &TC) { runRenamePass(TC, true); }),
        pass("launch-casts", hip::runLaunchCasts),
        pass("wave64",
             [](TargetContext &TC) {
               if (cudaInput(TC))
                 runWave64Rewrites(TC);
             }),
        {"mfma", runMfmaRules},
        pass("unported-includes", reportUnportedIncludes),
        pass("helpers", insertHelpers)};
  }

  std::vector<TargetPass> checkPasses() const override {
    return {
        pass("includes", [](TargetContext &TC) { runIncludePass(TC, true); }),
        pass("renames", [](TargetContext &TC) { runRenamePass(TC, true); }),
        pass("wave64-check",
             [](TargetContext &TC) {
               if (cudaInput(TC))
                 runWave64Check(TC);
             }),
        pass("unported-includes", reportUnportedIncludes)};
  }
};

} // namespace

std::unique_ptr<TargetBackend> pk::createHipTarget() {
  return std::make_unique<HipTarget>();
}
