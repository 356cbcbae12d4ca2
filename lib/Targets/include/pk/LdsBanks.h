//===- LdsBanks.h - LDS bank model for MFMA fragment traffic
//---------------===//
// Rules: PK3017
//
// Rule PK3017 re-plans the row pitch of shared-memory staging arrays for the
// loads and stores that the generated pk_mfma helpers make.  This header has
// the two models it works with:
//
//  * the bank model of CDNA's LDS: 32 banks of 4 bytes; a wave's access is
//    served in phases of 128 bytes' worth of lanes (8 lanes for 16-byte
//    accesses, 16 for 8-byte, 32 for 4-byte and narrower); in one phase,
//    lanes that need different dwords of one bank are served one after the
//    other (the same dword is a broadcast).  docs/mfma.md cites the sources.
//  * the lanes and offsets of every LDS instruction the helpers issue for
//    one fragment operation, per helper mapping (lane-exact: the unit tests
//    check them against the MFMA lane tables).
//
//===----------------------------------------------------------------------===//
#ifndef PK_TARGETS_LDSBANKS_H
#define PK_TARGETS_LDSBANKS_H

#include <cstdint>
#include <vector>

namespace pk {
namespace lds {

constexpr unsigned Banks = 32;
constexpr unsigned BankBytes = 4;

/// One lane's part of an LDS instruction: byte offset from the logical
/// warp's fragment pointer, access width in bytes, and that logical warp
/// (0 or 1).  Different logical warps have different pointers, only known at
/// run time: the model compares addresses within one logical warp only.
struct Access {
  int Lane;
  int64_t Offset;
  unsigned Width;
  int Warp;
};
using Instr = std::vector<Access>;

/// Lanes served together for an access of \p Width bytes.
unsigned lanesPerPhase(unsigned Width);
/// LDS cycles one instruction takes in the bank model: per phase, the
/// largest number of different dwords that one bank must deliver.
uint64_t cycles(const Instr &I);
/// The cycles without any conflict: one per phase that has active lanes.
uint64_t phases(const Instr &I);

/// How the generated helpers map a fragment operation onto lanes.
enum class Mapping {
  Pair16,     ///< 16x16x16: the wave holds both logical warps' tiles
  Diagonal32, ///< 32x32x8 on single fragments (diagonal blocks)
  Tile32,     ///< a logical warp's 32x32 tile (PK3005 fragment_array)
};
/// What the operation moves, and in which order.
enum class Traffic {
  OperandContiguous, ///< A row-major or B col-major: 4 consecutive elements
  OperandStrided,    ///< A col-major or B row-major: 4 elements, ld apart
  AccRowMajor,       ///< accumulator load or store, mem_row_major
  AccColMajorLoad,   ///< accumulator load, mem_col_major
  AccColMajorStore,  ///< accumulator store, mem_col_major
};

/// The LDS instructions of one fragment load or store with leading dimension
/// \p Ld (elements of \p ElemBytes).  For Tile32, \p Parity is the fragment
/// index's parity (which half of the 32x32 tile the fragment is).
std::vector<Instr> fragmentAccesses(Mapping M, Traffic T, unsigned ElemBytes,
                                    int64_t Ld, int Parity = 0);
/// Byte alignment of the row pitch that the helpers' vector accesses need.
unsigned pitchAlignment(Traffic T, unsigned ElemBytes);

/// One fragment operation on an array (a call site).
struct Use {
  Mapping M;
  Traffic T;
  int Parity = 0;
};
/// Total cycles of \p Uses for row pitch \p Ld, and their conflict-free
/// minimum.
struct Cost {
  uint64_t Cycles = 0, Ideal = 0;
};
Cost cost(const std::vector<Use> &Uses, unsigned ElemBytes, int64_t Ld);

/// The row pitch for an array whose rows are \p Pitch elements: the
/// smallest pitch >= Pitch, keeping the alignment the uses need, with the
/// fewest cycles (searched over one turn of the banks).
struct PitchPlan {
  int64_t Pitch = 0;
  Cost Before, After;
};
PitchPlan planPitch(const std::vector<Use> &Uses, unsigned ElemBytes,
                    int64_t Pitch);

} // namespace lds
} // namespace pk

#endif
