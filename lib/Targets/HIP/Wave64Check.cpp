//===- Wave64Check.cpp - `check`: wave-64 hazards without porting ---------===//
// Rules: PK2000, PK2101, PK2102, PK2103, PK2104, PK2105, PK2106, PK2107,
// PK2108, PK2109, PK2110, PK2111
//
// `port-kernel check --to hip` runs the wave-64 analysis alone: one finding
// per hazard (PK2101-PK2111, the classes of docs/wave64.md) and a PK2000
// note with the strategy each kernel's HIP port would get.
//
//===----------------------------------------------------------------------===//
#include "Wave64Rewrite.h"

#include "clang/AST/Decl.h"
#include "clang/Basic/SourceManager.h"
#include "llvm/Support/FormatVariadic.h"

using namespace pk;
using namespace pk::hip;
using namespace clang;

void pk::runWave64Check(TargetContext &TC) {
  const Wave64Analysis &A = wave64Of(TC);
  reportUnanalysed(TC, A);
  for (const W64Hazard &H : A.hazards())
    TC.finding(H.Loc, w64CheckID(H.Class), Severity::Warning, H.Msg);
  for (const W64Kernel &K : A.kernels()) {
    if (!K.HasWarpCode)
      continue;
    std::string Msg;
    if (K.Strategy == Wave64Strategy::Native)
      Msg =
          llvm::formatv("kernel {0}: the HIP port {1} native 64-lane warps",
                        K.Name, K.Forced ? "uses (--wave64=native)" : "can use")
              .str();
    else if (K.Forced || K.Reason.empty())
      Msg = llvm::formatv("kernel {0}: the HIP port keeps logical 32-lane "
                          "warps (--wave64=logical32)",
                          K.Name)
                .str();
    else
      Msg = llvm::formatv(
                "kernel {0}: the HIP port keeps logical 32-lane "
                "warps because {1} (line {2})",
                K.Name, K.Reason,
                TC.SM().getPresumedLineNumber(TC.SM().getFileLoc(K.ReasonLoc)))
                .str();
    TC.finding(kernelNoteLoc(K.FD), RuleId::PK2000, Severity::Note, Msg);
  }
  TC.Facts.Wave64.reset(); // its last reader: freed before the later passes
}
