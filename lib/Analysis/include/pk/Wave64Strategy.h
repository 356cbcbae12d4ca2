//===- Wave64Strategy.h - how warp-32 code runs on 64-lane waves ----------===//
// Rules: none (shared infrastructure)
//
// The strategy of a kernel's warp code on 64-lane waves: chosen per kernel by
// the wave-64 analysis (Auto), or forced by --wave64.
//
//===----------------------------------------------------------------------===//
#ifndef PK_WAVE64STRATEGY_H
#define PK_WAVE64STRATEGY_H

namespace pk {

enum class Wave64Strategy {
  Auto,      ///< per kernel: native unless something needs 32-lane warps
  Logical32, ///< two 32-lane logical warps inside each 64-lane wave
  Native,    ///< 64-lane warps
};

} // namespace pk
#endif
