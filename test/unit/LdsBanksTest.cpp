// The LDS bank model and the helpers' access lists (rule PK3017).
#include "pk/LdsBanks.h"

#include <gtest/gtest.h>

#include <fstream>
#include <map>
#include <sstream>
#include <string>

using namespace pk::lds;

namespace {

Instr uniform(unsigned Width, int64_t Stride, int Lanes = 64) {
  Instr I;
  for (int L = 0; L < Lanes; ++L)
    I.push_back({L, L * Stride, Width, 0});
  return I;
}

// Documented patterns: consecutive 16-byte accesses are served in 8 phases
// of 8 lanes without conflicts; consecutive 8-byte accesses in 4 phases of
// 16 lanes; a 4-byte stride of 128 bytes puts a phase's 32 lanes on one bank.
TEST(LdsBanks, DocumentedPatterns) {
  EXPECT_EQ(lanesPerPhase(16), 8u);
  EXPECT_EQ(lanesPerPhase(8), 16u);
  EXPECT_EQ(lanesPerPhase(4), 32u);
  EXPECT_EQ(lanesPerPhase(2), 32u);
  Instr B128 = uniform(16, 16);
  EXPECT_EQ(phases(B128), 8u);
  EXPECT_EQ(cycles(B128), 8u);
  Instr B64 = uniform(8, 8);
  EXPECT_EQ(cycles(B64), 4u);
  Instr B32 = uniform(4, 4);
  EXPECT_EQ(cycles(B32), 2u);
  Instr Column = uniform(4, 128); // every lane on bank 0
  EXPECT_EQ(cycles(Column), 64u);
  Instr Pairs = uniform(4, 8); // two lanes per bank, different dwords
  EXPECT_EQ(cycles(Pairs), 4u);
}

TEST(LdsBanks, BroadcastAndWarps) {
  Instr Same = uniform(4, 0);
  EXPECT_EQ(cycles(Same), 2u) << "one dword for every lane is a broadcast";
  Instr Halves = uniform(2, 2); // 16-bit elements: two lanes share a dword
  EXPECT_EQ(cycles(Halves), 2u);
  // Logical warps have unrelated pointers: their lanes are not compared.
  Instr Two;
  for (int L = 0; L < 32; ++L)
    Two.push_back({L, (L & 15) * 128, 4, L >> 4});
  EXPECT_EQ(cycles(Two), 16u);
}

// "A[r][c]" -> (r, c).
std::pair<int, int> cell(const std::string &S) {
  size_t A = S.find('['), B = S.find(']', A), C = S.find('[', B), D = S.find(']', C);
  return {std::stoi(S.substr(A + 1, B - A - 1)), std::stoi(S.substr(C + 1, D - C - 1))};
}

// Lane table of the MFMA instruction: lane -> the cells of its registers.
std::map<int, std::vector<std::pair<int, int>>> table(const std::string &Name) {
  std::ifstream In(std::string(PK_MFMA_TABLES) + "/" + Name);
  EXPECT_TRUE(In.good()) << Name;
  std::map<int, std::vector<std::pair<int, int>>> T;
  std::string Line;
  while (std::getline(In, Line)) {
    if (Line.empty() || !isdigit((unsigned char)Line[0]))
      continue;
    std::stringstream SS(Line);
    std::string Field;
    std::getline(SS, Field, ',');
    int Lane = std::stoi(Field);
    while (std::getline(SS, Field, ','))
      T[Lane].push_back(cell(Field));
  }
  EXPECT_EQ(T.size(), 64u) << Name;
  return T;
}

constexpr int64_t Ld = 48; // wide enough that rows and columns do not alias

// Element (row, column) of an operand element at element offset O, for a
// matrix stored with its rows (Rows = true) or its columns along Ld.
std::pair<int, int> at(int64_t O, bool Rows) {
  int64_t Major = O / Ld, Minor = O % Ld;
  return Rows ? std::pair<int, int>(Major, Minor) : std::pair<int, int>(Minor, Major);
}

// Pair16: every lane holds element e of the MFMA A / B layout for the tile
// of logical warp t, in both storage orders.
TEST(LdsBanks, Pair16OperandsFollowTheLaneTables) {
  auto A = table("layout_v_mfma_f32_16x16x16f16_A.csv");
  auto B = table("layout_v_mfma_f32_16x16x16f16_B.csv");
  // A row-major / B col-major: one 4-element access per lane.
  for (bool IsA : {true, false}) {
    auto I = fragmentAccesses(Mapping::Pair16, Traffic::OperandContiguous, 2, Ld);
    ASSERT_EQ(I.size(), 2u); // one per logical warp
    for (const Access &X : I[0]) {
      EXPECT_EQ(X.Width, 8u);
      for (int E = 0; E < 4; ++E) {
        auto RC = at(X.Offset / 2 + E, IsA); // A[m][k] at m*Ld+k; B[k][n] at n*Ld+k
        EXPECT_EQ(RC, (IsA ? A : B)[X.Lane][E]) << "lane " << X.Lane << " e " << E;
      }
    }
  }
  // A col-major / B row-major: element e in access e.
  for (bool IsA : {true, false}) {
    auto I = fragmentAccesses(Mapping::Pair16, Traffic::OperandStrided, 2, Ld);
    ASSERT_EQ(I.size(), 8u);
    for (int E = 0; E < 4; ++E)
      for (const Access &X : I[E])
        EXPECT_EQ(at(X.Offset / 2, !IsA), (IsA ? A : B)[X.Lane][E]);
  }
}

TEST(LdsBanks, Pair16AccumulatorFollowsTheLaneTable) {
  auto D = table("layout_v_mfma_f32_16x16x16f16_D.csv");
  auto Row = fragmentAccesses(Mapping::Pair16, Traffic::AccRowMajor, 4, Ld);
  ASSERT_EQ(Row.size(), 8u);
  for (int R = 0; R < 4; ++R)
    for (const Access &X : Row[R])
      EXPECT_EQ(at(X.Offset / 4, true), D[X.Lane][R]);
  auto Col = fragmentAccesses(Mapping::Pair16, Traffic::AccColMajorStore, 4, Ld);
  ASSERT_EQ(Col.size(), 2u);
  for (const Access &X : Col[0]) {
    EXPECT_EQ(X.Width, 16u);
    for (int R = 0; R < 4; ++R)
      EXPECT_EQ(at(X.Offset / 4 + R, false), D[X.Lane][R]);
  }
  auto ColLoad = fragmentAccesses(Mapping::Pair16, Traffic::AccColMajorLoad, 4, Ld);
  ASSERT_EQ(ColLoad.size(), 8u);
  for (int R = 0; R < 4; ++R)
    for (const Access &X : ColLoad[R])
      EXPECT_EQ(at(X.Offset / 4, false), D[X.Lane][R]);
}

// 32x32x8: fragment parity p is rows (A) / columns (B, accumulator)
// 16p .. 16p+15 of the 32-wide tile, held by the lanes with (L / 16) % 2 == p.
TEST(LdsBanks, Tile32FollowsTheLaneTables) {
  auto A = table("layout_v_mfma_f32_32x32x8f16_A.csv");
  auto B = table("layout_v_mfma_f32_32x32x8f16_B.csv");
  auto D = table("layout_v_mfma_f32_32x32x8f16_D.csv");
  for (Mapping M : {Mapping::Tile32, Mapping::Diagonal32})
    for (int P : {0, 1}) {
      auto I = fragmentAccesses(M, Traffic::OperandContiguous, 2, Ld, P);
      ASSERT_EQ(I.size(), M == Mapping::Tile32 ? 4u : 2u); // h = 0, 1 (per warp)
      int Seen = 0;
      for (const Access &X : I[0]) { // h = 0: k 0-7, the instruction's k
        int Frag = M == Mapping::Tile32 ? P : (X.Lane >> 4) & 1;
        EXPECT_EQ((X.Lane >> 4) & 1, Frag);
        for (int E = 0; E < 4; ++E) {
          auto RC = at(X.Offset / 2 + E, true);
          EXPECT_EQ(std::make_pair(RC.first + 16 * Frag, RC.second), A[X.Lane][E]);
          RC = at(X.Offset / 2 + E, false); // B col-major
          EXPECT_EQ(std::make_pair(RC.first, RC.second + 16 * Frag), B[X.Lane][E]);
        }
        ++Seen;
      }
      EXPECT_EQ(Seen, M == Mapping::Tile32 ? 32 : 64);
    }
  // Accumulator acc[i][j]: lanes from j's parity, registers 8 (i % 2) + n.
  for (int Pj : {0, 1}) {
    auto I = fragmentAccesses(Mapping::Tile32, Traffic::AccRowMajor, 4, Ld, Pj);
    ASSERT_EQ(I.size(), 16u); // 8 registers, per logical warp
    for (int Pi : {0, 1})
      for (int N = 0; N < 8; ++N)
        for (const Access &X : I[N]) {
          auto RC = at(X.Offset / 4, true);
          EXPECT_EQ(std::make_pair(RC.first + 16 * Pi, RC.second + 16 * Pj),
                    D[X.Lane][8 * Pi + N]);
        }
  }
}

// The pitches rule PK3017 picks (docs/mfma.md has the table).
TEST(LdsBanks, PlansPitches) {
  std::vector<Use> A16 = {{Mapping::Pair16, Traffic::OperandContiguous}};
  // 16 + 8 halves (the CUDA skew for 16-byte rows): 2-way on 8-byte loads.
  PitchPlan P = planPitch(A16, 2, 24);
  EXPECT_EQ(P.Before.Cycles, 2 * P.Before.Ideal);
  EXPECT_EQ(P.Pitch, 28);
  EXPECT_EQ(P.After.Cycles, P.After.Ideal);
  // Unpadded 16 halves: 4-way; 20 is the nearest conflict-free pitch.
  P = planPitch(A16, 2, 16);
  EXPECT_EQ(P.Before.Cycles, 4 * P.Before.Ideal);
  EXPECT_EQ(P.Pitch, 20);
  // Already conflict-free: kept.
  EXPECT_EQ(planPitch(A16, 2, 28).Pitch, 28);
  std::vector<Use> B16 = {{Mapping::Pair16, Traffic::OperandStrided}};
  EXPECT_EQ(planPitch(B16, 2, 40).Pitch, 40);
  // Accumulator stores, column-major: 16-byte vectors keep 16-byte rows.
  std::vector<Use> C = {{Mapping::Pair16, Traffic::AccColMajorStore}};
  P = planPitch(C, 4, 16);
  EXPECT_EQ(P.Pitch, 20);
  EXPECT_EQ(P.After.Cycles, P.After.Ideal);
  // Both tile halves of a 32x32 tile.
  std::vector<Use> T = {{Mapping::Tile32, Traffic::OperandContiguous, 0},
                        {Mapping::Tile32, Traffic::OperandContiguous, 1}};
  P = planPitch(T, 2, 40);
  EXPECT_EQ(P.Pitch, 44);
  EXPECT_EQ(P.After.Cycles, P.After.Ideal);
}

// Whatever the written pitch, the plan never shrinks it, never costs more,
// and keeps the alignment of the helpers' vector accesses.
TEST(LdsBanks, PlansKeepAlignmentAndNeverShrink) {
  for (Mapping M : {Mapping::Pair16, Mapping::Diagonal32, Mapping::Tile32})
    for (Traffic T : {Traffic::OperandContiguous, Traffic::OperandStrided,
                      Traffic::AccRowMajor, Traffic::AccColMajorLoad,
                      Traffic::AccColMajorStore}) {
      const unsigned ES = T == Traffic::OperandContiguous || T == Traffic::OperandStrided ? 2 : 4;
      const int64_t Step = pitchAlignment(T, ES) / ES;
      for (int64_t Pitch = 16; Pitch <= 80; Pitch += Step) {
        std::vector<Use> U = {{M, T, 0}, {M, T, 1}};
        PitchPlan P = planPitch(U, ES, Pitch);
        EXPECT_GE(P.Pitch, Pitch);
        EXPECT_LE(P.After.Cycles, P.Before.Cycles);
        EXPECT_EQ(P.Pitch * ES % pitchAlignment(T, ES), 0u)
            << "pitch " << Pitch << " -> " << P.Pitch;
        EXPECT_LE(P.Pitch - Pitch, int64_t(128 / ES));
      }
    }
}

} // namespace
