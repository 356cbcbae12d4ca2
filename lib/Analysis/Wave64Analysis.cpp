//===- Wave64Analysis.cpp - warp-32 assumptions in CUDA device code -------===//
// Rules: none (its phases and hazard classes live in the files it names)
//
// How it works
//
//  1. Pre-scan (Wave64Prescan.cpp): collect the user functions with bodies
//     (kernels, device functions, host functions with launches; template
//     patterns, not instantiations), their call edges (unresolved template
//     calls by name) and whether they contain warp code.
//  2. Value flow (Wave64ValueFlow.cpp): every expression evaluates to a Val
//     -- what it depends on (thread index, lane id, warp id, warps per
//     block, warp width, lane mask, lane rank, lane count) and, for the
//     exact idioms, what it is (`tid & 31` is a lane id, `__ballot_sync(..)`
//     a lane mask, `1u << lane` a lane bit, `WARP_SIZE / 2` half the warp
//     width, ...).  Variables, parameters and return values collect the
//     Vals of everything assigned to them (flow-insensitive); the TU is
//     walked (Wave64Walk.cpp) until nothing changes.
//  3. Record: one more walk classifies every use.  Idioms that a 64-lane
//     warp can express are "claimed" and become edits of the native
//     strategy (Token sites: 31 -> 63, 16 -> 32, ...); every use that would
//     change what the code computes under 64-lane warps is a blocker; every
//     construct of the hazard classes is a hazard (for `check`).  The
//     idioms and hazards live with their class:
//       Wave64MaskIdioms.cpp      classes 1, 2, 8 (PK2101, PK2102, PK2108)
//       Wave64ArithIdioms.cpp     class 3 (PK2103), with Wave64CallFlow.cpp
//       Wave64ShuffleChecks.cpp   class 4 (PK2104)
//       Wave64SharedArrays.cpp    class 5 (PK2105)
//       Wave64LoopBounds.cpp      class 6 (PK2106)
//       Wave64Block32.cpp         class 7 (PK2107)
//       Wave64WarpSync.cpp        class 9 (PK2109)
//       Wave64TensorFrag.cpp      class 10 (PK2110), with Wave64PtxRegs.cpp
//       Wave64WarpSizeConst.cpp   class 11 (PK2111)
//  4. Decide (Wave64Decide.cpp): functions and macros whose edits must
//     agree are unified (union-find over call edges and over the macros
//     that hold edits, Wave64Entities.cpp); a group goes native under
//     --wave64=auto only when it holds a kernel and no blocker.
//
//===----------------------------------------------------------------------===//
#include "Wave64Internal.h"

using namespace pk;

RuleId pk::w64CheckID(W64Class C) {
  switch (C) {
  case W64Class::Mask:
    return RuleId::PK2101;
  case W64Class::Ballot:
    return RuleId::PK2102;
  case W64Class::LaneArith:
    return RuleId::PK2103;
  case W64Class::ShflWidth:
    return RuleId::PK2104;
  case W64Class::PerWarpArray:
    return RuleId::PK2105;
  case W64Class::LoopBound:
    return RuleId::PK2106;
  case W64Class::Block32:
    return RuleId::PK2107;
  case W64Class::LaneBits:
    return RuleId::PK2108;
  case W64Class::WarpSync:
    return RuleId::PK2109;
  case W64Class::TensorFrag:
    return RuleId::PK2110;
  case W64Class::WarpSizeConst:
    return RuleId::PK2111;
  }
  llvm_unreachable("hazard class without a check rule");
}

Wave64Analysis::Wave64Analysis(const UserSource &Src)
    : P(std::make_unique<Impl>(Src, *this)) {}
Wave64Analysis::~Wave64Analysis() = default;

void Wave64Analysis::run(Wave64Strategy Requested) {
  Impl &I = *P;
  I.Requested = Requested;
  I.collect();
  I.computeRelevance();
  I.walkAll();
  I.maskTypes();
  I.launchChecks();
  I.warpSizeUses();
  I.decide();
  I.summarize();
  I.chooseStrategies();
  I.releaseWalkState();
}
