//===- LdsBanks.cpp - LDS bank model for MFMA fragment traffic
//-------------===//
// Rules: PK3017
//
// The access lists below follow the generated helpers (MfmaHelpers.cpp) line
// by line; the layouts they implement are in docs/mfma.md.
//
//===----------------------------------------------------------------------===//
#include "pk/LdsBanks.h"

#include <algorithm>
#include <map>
#include <set>

using namespace pk;
using namespace pk::lds;

unsigned lds::lanesPerPhase(unsigned Width) {
  return Banks * BankBytes / std::max(Width, BankBytes);
}

namespace {
/// Phase number -> its accesses.
std::map<int, std::vector<const Access *>> byPhase(const Instr &I) {
  std::map<int, std::vector<const Access *>> P;
  for (const Access &A : I)
    P[A.Lane / (int)lanesPerPhase(A.Width)].push_back(&A);
  return P;
}
int64_t floorDiv(int64_t A, int64_t B) {
  return A >= 0 ? A / B : -((-A + B - 1) / B);
}
} // namespace

uint64_t lds::cycles(const Instr &I) {
  uint64_t Total = 0;
  for (const auto &[Phase, Acc] : byPhase(I)) {
    // (logical warp, bank) -> the dwords it must deliver.
    std::map<std::pair<int, unsigned>, std::set<int64_t>> Dwords;
    for (const Access *A : Acc)
      for (int64_t D = floorDiv(A->Offset, BankBytes),
                   E = floorDiv(A->Offset + A->Width - 1, BankBytes);
           D <= E; ++D)
        Dwords[{A->Warp, (unsigned)(((D % Banks) + Banks) % Banks)}].insert(D);
    size_t Most = 0;
    for (const auto &[Bank, Set] : Dwords)
      Most = std::max(Most, Set.size());
    Total += Most;
  }
  return Total;
}

uint64_t lds::phases(const Instr &I) { return byPhase(I).size(); }

unsigned lds::pitchAlignment(Traffic T, unsigned ElemBytes) {
  switch (T) {
  case Traffic::OperandContiguous:
    return 4 * ElemBytes; // one 4-element vector load per lane
  case Traffic::AccColMajorStore:
    return 16; // f32x4 stores of 4 consecutive rows (16x16x16, 32x32x8)
  case Traffic::OperandStrided:
  case Traffic::AccRowMajor:
  case Traffic::AccColMajorLoad:
    return ElemBytes;
  }
  return ElemBytes;
}

std::vector<Instr> lds::fragmentAccesses(Mapping M, Traffic T,
                                         unsigned ElemBytes, int64_t Ld,
                                         int Parity) {
  std::vector<Instr> Out;
  const int64_t ES = ElemBytes;
  // Lanes that take part, and the logical warp whose pointer each one uses.
  auto lanes = [&](int Group) {
    std::vector<std::pair<int, int>> L;
    for (int Lane = 0; Lane < 64; ++Lane) {
      switch (M) {
      case Mapping::Pair16: // every lane reads logical warp Group's tile
        L.push_back({Lane, Group});
        break;
      case Mapping::Diagonal32: // lanes 16-31 and 48-63: the second warp
        L.push_back({Lane, (Lane >> 4) & 1});
        break;
      case Mapping::Tile32: // the lanes that hold fragment parity, warp Group
        if (((Lane >> 4) & 1) == (Parity & 1))
          L.push_back({Lane, Group});
        break;
      }
    }
    return L;
  };
  // Pair16 and Tile32 issue one round per logical warp; Diagonal32 one.
  const int Rounds = M == Mapping::Diagonal32 ? 1 : 2;
  for (int G = 0; G < Rounds; ++G) {
    const auto L = lanes(G);
    // Fragment operands: m = L % 16; k = 4 (L / 16) (Pair16) or
    // 8h + 4 (L / 32), h = 0, 1 (32x32x8 mappings).
    const bool Pair = M == Mapping::Pair16;
    const int Halves = Pair ? 1 : 2;
    switch (T) {
    case Traffic::OperandContiguous:
    case Traffic::OperandStrided:
      for (int H = 0; H < Halves; ++H) {
        auto k = [&](int Lane) {
          return Pair ? 4 * (Lane >> 4) : 8 * H + 4 * (Lane >> 5);
        };
        if (T == Traffic::OperandContiguous) {
          Instr I;
          for (auto [Lane, W] : L)
            I.push_back(
                {Lane, ((Lane & 15) * Ld + k(Lane)) * ES, 4 * ElemBytes, W});
          Out.push_back(std::move(I));
        } else {
          for (int E = 0; E < 4; ++E) {
            Instr I;
            for (auto [Lane, W] : L)
              I.push_back({Lane, ((k(Lane) + E) * Ld + (Lane & 15)) * ES,
                           ElemBytes, W});
            Out.push_back(std::move(I));
          }
        }
      }
      break;
    case Traffic::AccRowMajor:
    case Traffic::AccColMajorLoad:
    case Traffic::AccColMajorStore: {
      // Accumulator rows of this lane: 4 (L / 16) + r, r < 4 (Pair16);
      // 8 (n / 4) + 4 (L / 32) + n % 4, n < 8 (32x32x8 mappings).
      const int N = Pair ? 4 : 8;
      auto row = [&](int Lane, int R) {
        return Pair ? 4 * (Lane >> 4) + R
                    : 8 * (R >> 2) + 4 * (Lane >> 5) + (R & 3);
      };
      // Column-major stores write 4 consecutive rows as one vector, except
      // in 32-wide tiles; everything else moves one element at a time.
      if (T == Traffic::AccColMajorStore && M != Mapping::Tile32) {
        for (int R = 0; R < N; R += 4) {
          Instr I;
          for (auto [Lane, W] : L)
            I.push_back({Lane, ((Lane & 15) * Ld + row(Lane, R)) * 4, 16, W});
          Out.push_back(std::move(I));
        }
        break;
      }
      for (int R = 0; R < N; ++R) {
        Instr I;
        for (auto [Lane, W] : L)
          I.push_back(
              {Lane,
               (T == Traffic::AccRowMajor ? row(Lane, R) * Ld + (Lane & 15)
                                          : (Lane & 15) * Ld + row(Lane, R)) *
                   4,
               4, W});
        Out.push_back(std::move(I));
      }
      break;
    }
    }
  }
  return Out;
}

Cost lds::cost(const std::vector<Use> &Uses, unsigned ElemBytes, int64_t Ld) {
  Cost C;
  for (const Use &U : Uses)
    for (const Instr &I : fragmentAccesses(U.M, U.T, ElemBytes, Ld, U.Parity)) {
      C.Cycles += cycles(I);
      C.Ideal += phases(I);
    }
  return C;
}

PitchPlan lds::planPitch(const std::vector<Use> &Uses, unsigned ElemBytes,
                         int64_t Pitch) {
  PitchPlan P;
  P.Pitch = Pitch;
  P.Before = P.After = cost(Uses, ElemBytes, Pitch);
  unsigned Align = ElemBytes;
  for (const Use &U : Uses)
    Align = std::max(Align, pitchAlignment(U.T, ElemBytes));
  // Pitches keep the alignment the uses need; one turn of the banks covers
  // every distinct bank pattern.
  const int64_t Step = std::max<int64_t>(1, Align / ElemBytes);
  const int64_t Turn = Banks * BankBytes / ElemBytes;
  int64_t First = (Pitch + Step - 1) / Step * Step;
  for (int64_t Ld = First; Ld <= Pitch + Turn; Ld += Step) {
    if (P.After.Cycles == P.After.Ideal)
      break;
    Cost C = cost(Uses, ElemBytes, Ld);
    if (C.Cycles < P.After.Cycles) {
      P.Pitch = Ld;
      P.After = C;
    }
  }
  return P;
}
