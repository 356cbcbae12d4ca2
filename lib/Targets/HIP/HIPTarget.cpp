//===- HIPTarget.cpp - the HIP target: CUDA -> HIP for AMD GPUs
//------------===//
// Rules: none (the target's pass list; the rules live in the files it names)
//
// The passes of `port --to hip`, in order:
//   wave64-analysis       the wave-64 analysis (lib/Analysis), first: its
//                         walk state is freed before any edit exists
//   dead-case-labels      PK1034: case labels of enumerators HIP lacks
//                         become comments (DeadCaseLabels.cpp)
//   includes, renames     YAML tables (TargetCommon.cpp): PK1001-PK1004,
//                         PK1006, PK1011
//   runtime-include       PK1012: nvcc's implicit cuda_runtime.h, made
//                         explicit (RuntimeInclude.cpp)
//   nvcc-macros           PK1026: __NVCC__, __CUDACC__, __CUDACC_VER_*__
//                         become their values in the parse (NvccMacros.cpp)
//   toolkit-headers       PK1014 math_constants.h, PK1010 other toolkit
//                         headers with no HIP counterpart (ToolkitHeaders.cpp)
//   launch-casts          PK1005 (LaunchCasts.cpp)
//   mem-location          PK1028: prefetch/advise with a cudaMemLocation
//                         (MemLocation.cpp)
//   host-math             PK1015: device-only math in host code
//                         (HostMath.cpp)
//   int-min-max           PK1032: umin, llmax, ... -> min<T>, max<T>
//                         (IntMinMax.cpp)
//   atomics-cache-hints   PK1017 __nv_atomic_* -> __hip_atomic_*, PK1018
//                         cache-hinted loads/stores (AtomicsCacheHints.cpp)
//   bfloat16              PK1016: ROCm 5's explicit bfloat16 conversions;
//                         PK1019: the bfloat16 API ROCm 5 lacks
//                         (Bfloat16.cpp; the renames of both versions are
//                         in TargetCommon.cpp)
//   wave64                warp-32 code on 64-lane waves, per kernel strategy:
//                         PK2000-PK2023 (Wave64*.cpp over lib/Analysis)
//   mfma                  tensor cores -> MFMA: PK3001-PK3017 (Mfma*.cpp)
//   coop-groups-api       PK1013: cooperative groups HIP lacks or changes
//                         (CoopGroupsApi.cpp)
//   unported-includes     PK1010 for headers no pass made unnecessary
//   unknown-api           PK1033: names of CUDA's headers that nothing
//                         translated (UnknownApi.cpp)
//   refused-edits         edits a macro would not take, at the macro's use,
//                         under their own rules (unless reported already)
//   helpers               generated helper blocks after the includes
// `check --to hip` runs wave64-analysis, includes, toolkit-headers, renames,
// host-math, bfloat16, the wave-64 hazard report (PK2101-PK2111),
// coop-groups-api and unported-includes; the PK1014-PK1016 rewrites it would
// make are reported as notes (CheckRewrites.cpp).
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
        pass("wave64-analysis",
             [](TargetContext &TC) {
               if (cudaInput(TC))
                 runWave64Analysis(TC);
             }),
        pass("includes", [](TargetContext &TC) { runIncludePass(TC, true); }),
        pass("runtime-include", hip::insertRuntimeInclude),
        pass("nvcc-macros", hip::writeNvccMacroValues),
        pass("toolkit-headers", hip::portToolkitHeaders),
        pass("dead-case-labels", hip::commentDeadCaseLabels),
        pass("renames", [](TargetContext &TC) { runRenamePass(TC, true); }),
        pass("thrust-system", hip::portThrustSystem),
        pass("launch-casts", hip::runLaunchCasts),
        pass("mem-location", hip::rewriteMemLocationCalls),
        pass("cub-warp-width", hip::keepCubWarpWidth),
        pass("host-math", hip::rewriteHostMath),
        pass("int-min-max", hip::portIntMinMax),
        pass("atomics-cache-hints", hip::rewriteAtomicsAndCacheHints),
        pass("bfloat16", hip::rocm5Bfloat16),
        pass("rocm5-pitch", hip::rocm5PitchCasts),
        pass("wave64",
             [](TargetContext &TC) {
               if (cudaInput(TC))
                 runWave64Rewrites(TC);
             }),
        {"mfma", runMfmaRules},
        pass("coop-groups-api", hip::flagCoopGroupsApi),
        pass("texture-fetches", hip::flagTextureFetches),
        pass("unported-includes", reportUnportedIncludes),
        pass("unknown-api",
             [](TargetContext &TC) {
               if (cudaInput(TC))
                 reportUnknownApiNames(TC, /*FromCuda=*/true);
             }),
        pass("refused-edits", reportRefusedEdits),
        pass("helpers", insertHelpers)};
  }

  std::vector<TargetPass> checkPasses() const override {
    return {
        pass("wave64-analysis",
             [](TargetContext &TC) {
               if (cudaInput(TC))
                 runWave64Analysis(TC);
             }),
        pass("includes", [](TargetContext &TC) { runIncludePass(TC, true); }),
        pass("toolkit-headers", hip::portToolkitHeaders),
        pass("renames", [](TargetContext &TC) { runRenamePass(TC, true); }),
        pass("host-math", hip::rewriteHostMath),
        pass("bfloat16", hip::rocm5Bfloat16),
        pass("rewrites-as-findings", hip::reportRewritesAsFindings),
        pass("wave64-check",
             [](TargetContext &TC) {
               if (cudaInput(TC))
                 runWave64Check(TC);
             }),
        pass("coop-groups-api", hip::flagCoopGroupsApi),
        pass("texture-fetches", hip::flagTextureFetches),
        pass("unported-includes", reportUnportedIncludes)};
  }
};

} // namespace

std::unique_ptr<TargetBackend> pk::createHipTarget() {
  return std::make_unique<HipTarget>();
}
