//===- TargetTest.cpp - the target list and the target interface ----------===//
#include "pk/Target.h"

#include "gtest/gtest.h"

using namespace pk;

TEST(Targets, ListNamesAndLookups) {
  std::vector<Target> All = allTargets();
  ASSERT_FALSE(All.empty());
  for (Target T : All) {
    EXPECT_EQ(findTarget(targetName(T)), T);
    const TargetBackend &B = targetBackend(T);
    EXPECT_EQ(B.id(), T);
    EXPECT_EQ(B.name().str(), targetName(T).str());
    // NKI output is generated whole from the lifted kernels
    // (TargetBackend::generate), not edited by port passes.
    if (T != Target::NKI)
      EXPECT_FALSE(B.portPasses().empty()) << targetName(T).str();
    for (const TargetPass &P : B.portPasses())
      EXPECT_TRUE(P.Name && *P.Name && P.Run) << targetName(T).str();
  }
  EXPECT_EQ(findTarget("nki"), Target::NKI);
  EXPECT_EQ(targetEmuLanguage(Target::NKI), EmuLanguage::None);
  EXPECT_EQ(targetBackend(Target::NKI).outputName("a/k.cu"), "a/k.py");
  EXPECT_EQ(targetBackend(Target::NKI).outputName("a/k.cuh"), "a/k_cuh.py");
  EXPECT_FALSE(findTarget("tpu").has_value());
  EXPECT_FALSE(findTarget("").has_value());
  EXPECT_EQ(targetEmuLanguage(Target::HIP), EmuLanguage::HIP);
  EXPECT_EQ(targetEmuLanguage(Target::CUDA), EmuLanguage::CUDA);
}

TEST(Targets, HipPassOrder) {
  // The HIP passes run in a documented order (HIPTarget.cpp): tables, then
  // the semantic rules, then what depends on all of them.
  std::vector<std::string> Names;
  for (const TargetPass &P : targetBackend(Target::HIP).portPasses())
    Names.push_back(P.Name);
  std::vector<std::string> Want = {"includes",
                                   "runtime-include",
                                   "nvcc-macros",
                                   "toolkit-headers",
                                   "renames",
                                   "thrust-system",
                                   "launch-casts",
                                   "mem-location",
                                   "cub-warp-width",
                                   "host-math",
                                   "atomics-cache-hints",
                                   "bfloat16",
                                   "rocm5-pitch",
                                   "wave64",
                                   "mfma",
                                   "coop-groups-api",
                                   "unported-includes",
                                   "refused-edits",
                                   "helpers"};
  EXPECT_EQ(Names, Want);
  std::vector<std::string> Check;
  for (const TargetPass &P : targetBackend(Target::HIP).checkPasses())
    Check.push_back(P.Name);
  EXPECT_EQ(Check, (std::vector<std::string>{
                       "includes", "toolkit-headers", "renames", "host-math",
                       "bfloat16", "rewrites-as-findings", "wave64-check",
                       "coop-groups-api", "unported-includes"}));
}
