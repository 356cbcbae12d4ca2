//===- FromHipMfmaBuiltins.cpp - hand-written MFMA GEMMs to WMMA ----------===//
// Rules: PK6042, PK6043, PK6044
//
// PK6043: a HIP kernel that computes a 16x16 tile per 64-lane wave with
// __builtin_amdgcn_mfma_f32_16x16x16f16 in the fragment pattern of AMD's
// documentation becomes an nvcuda::wmma m16n16k16 kernel:
//
//   floatx4 acc = {0, 0, 0, 0};                 fragment<accumulator> acc;
//                                               fill_fragment(acc, 0.0f);
//   for (k0 ...) {                              for (k0 ...) {
//     halfx4 a, b;                                fragment<matrix_a, ...> a;
//     for (int e = 0; e < 4; ++e) {               fragment<matrix_b, ...> b;
//       a[e] = A[ia(lane, e)];                    load_matrix_sync(a, A + ..,
//       ld); b[e] = B[ib(lane, e)];                    load_matrix_sync(b, B +
//       .., ld);
//     }
//     acc = __builtin_amdgcn_mfma_f32_16x16x16f16(a, b, acc, 0, 0, 0);
//                                                 mma_sync(acc, a, b, acc);
//   }                                           }
//   for (int r = 0; r < 4; ++r)                 store_matrix_sync(C + .., acc,
//     C[ic(lane, r)] = acc[r];                                    ld, layout);
//
// The index expressions are evaluated as polynomials over the lane's digits
// (lane = i + 16 * q: the row or column i and the K group q of the MFMA
// layout), the element or register number, and values that are the same in
// every lane of the wave (parameters, blockIdx, the K loop's counter, the
// wave number).  The mapping is taken only when it is exactly the MFMA
// layout: A[i][k] in lane i + 16 * (k / 4), element k % 4, read from
// ptr[i * ld + k] (row_major) or ptr[i + k * ld] (col_major); B[k][j] in lane
// j + 16 * (k / 4); D[i][j] in lane j + 16 * (i / 4), register i % 4.  The
// lane-independent part is the tile's address, the remaining coefficient the
// leading dimension.
//
// PK6044: a block keeps its thread count, so a 64-lane wave is two CUDA
// warps: the first warp of each wave computes the wave's tile (the matrix
// part is guarded by `threadIdx.x % 64 < 32`), the wave number stays
// `threadIdx.x / 64` and the kernel is not narrowed by PK6033.
//
// PK6042: an MFMA builtin outside this pattern is reported with the reason
// and left as written.
//
//===----------------------------------------------------------------------===//
#include "FromHipMfmaGemm.h"
#include "RawTokens.h"

#include "pk/DynamicVisitor.h"
#include "clang/AST/ASTContext.h"
#include "clang/Basic/SourceManager.h"
#include "clang/Lex/Lexer.h"
#include "llvm/Support/FormatVariadic.h"

#include <map>
#include <optional>
#include <set>

using namespace pk;
using namespace clang;
using pk::cuda::lex;
using pk::cuda::Tok;
namespace tok = clang::tok;

namespace pk::cuda {
/// Defined below; used by the warp-width pass to leave mapped kernels alone.
bool mfmaGemmKernel(TargetContext &TC, const FunctionDecl *FD);
} // namespace pk::cuda

namespace pk::cuda::mfmagemm {

/// The kernels of the TU with an MFMA builtin: mapped or not.
void analyse(TargetContext &TC, std::vector<Mapping> &Maps,
             std::vector<Failure> &Fails) {
  struct W : DynamicASTVisitor {
    TargetContext &TC;
    std::vector<Mapping> &Maps;
    std::vector<Failure> &Fails;
    std::map<std::string, std::vector<cuda::HelperBlock>> Blocks;
    W(TargetContext &TC, std::vector<Mapping> &M, std::vector<Failure> &F)
        : TC(TC), Maps(M), Fails(F) {}
    bool VisitFunctionDecl(FunctionDecl *FD) override {
      if (!FD->doesThisDeclarationHaveABody() ||
          !TC.isUserLoc(FD->getLocation()))
        return true;
      // port-kernel's own MFMA helpers are removed (PK6030, PK6040).
      SourceLocation L = TC.SM().getExpansionLoc(FD->getLocation());
      std::string File = TC.fileOf(L);
      auto It = Blocks.find(File);
      if (It == Blocks.end())
        It = Blocks.emplace(File, cuda::helperBlocks(TC.contents(File))).first;
      if (cuda::inRevertedBlock(It->second, TC.SM().getFileOffset(L)))
        return true;
      Recogniser R(TC, FD);
      size_t N = Fails.size();
      if (std::optional<Mapping> M = R.run(Fails))
        Maps.push_back(std::move(*M));
      for (size_t I = N; I < Fails.size(); ++I)
        Fails[I].Call = R.CallLoc;
      return true;
    }
  } Wk(TC, Maps, Fails);
  Wk.TraverseDecl(TC.Ctx().getTranslationUnitDecl());
}

} // namespace pk::cuda::mfmagemm

bool cuda::mfmaGemmKernel(TargetContext &TC, const FunctionDecl *FD) {
  if (TC.PF.Language != Lang::HIP)
    return false;
  std::vector<mfmagemm::Failure> Fails;
  mfmagemm::Recogniser R(TC, FD);
  return R.run(Fails).has_value();
}

void cuda::fromHipMfmaBuiltins(TargetContext &TC) {
  if (TC.PF.Language != Lang::HIP)
    return;
  std::vector<mfmagemm::Mapping> Maps;
  std::vector<mfmagemm::Failure> Fails;
  mfmagemm::analyse(TC, Maps, Fails);
  for (const mfmagemm::Failure &F : Fails) {
    SourceLocation L = TC.SM().getExpansionLoc(F.Call);
    if (!TC.isUserLoc(L))
      continue;
    std::string Where;
    SourceLocation W = TC.SM().getExpansionLoc(F.Loc);
    if (W.isValid() && W != L)
      Where =
          llvm::formatv(" (line {0})", TC.SM().getExpansionLineNumber(W)).str();
    TC.finding(L, RuleId::PK6042, Severity::Error,
               "an MFMA builtin whose fragment pattern is not recognised, "
               "not translated: " +
                   F.Why + Where);
  }
  std::set<const TypedefNameDecl *> Types;
  std::map<std::string, std::vector<std::pair<unsigned, unsigned>>> Regions;
  for (const mfmagemm::Mapping &M : Maps) {
    TC.edit(M.File, M.GuardAt, 0, M.Indent + "if (threadIdx.x % 64 < 32) {\n  ",
            RuleId::PK6044,
            "a block keeps its thread count, so each 64-lane wave is two "
            "32-lane warps: the wave's tile is computed by its first warp "
            "(the wave number stays threadIdx.x / 64)");
    std::string Why =
        "the MFMA operand loads, __builtin_amdgcn_mfma_f32_16x16x16f16 K "
        "loop and result store follow AMD's 16x16x16 lane layout exactly: "
        "WMMA m16n16k16 fragments, load_matrix_sync, mma_sync and "
        "store_matrix_sync over the same tiles";
    if (!M.Notes.empty())
      Why += " (" + llvm::StringRef(M.Notes).drop_back(2).str() + ")";
    TC.edit(M.File, M.RegionBegin, M.RegionEnd - M.RegionBegin, M.Region,
            RuleId::PK6043, Why);
    TC.edit(M.File, M.RegionEnd, 0, "\n" + M.Indent + "}", RuleId::PK6044,
            "the end of the first warp's matrix part");
    if (!M.Notes.empty())
      TC.finding(TC.SM().getExpansionLoc(M.Call), RuleId::PK6043,
                 Severity::Warning,
                 "WMMA's requirements that the MFMA code does not show: " +
                     llvm::StringRef(M.Notes).drop_back(2).str());
    TC.Helpers[M.File][HelperKey{RuleId::PK6040, "mma"}] =
        "\n#include <mma.h> // port-kernel: WMMA fragments [PK6040]\n";
    Types.insert(M.VectorTypes.begin(), M.VectorTypes.end());
    Regions[M.File].push_back({M.RegionBegin, M.RegionEnd});
  }
  // The vector typedefs of the operands (clang's ext_vector_type, which
  // nvcc's host compilers reject) go when nothing else names them.
  for (const TypedefNameDecl *TD : Types) {
    SourceLocation L = TD->getBeginLoc();
    if (L.isMacroID() || !TC.isUserLoc(L))
      continue;
    std::string File = TC.fileOf(L);
    llvm::StringRef Buf = TC.contents(File);
    unsigned B = TC.SM().getFileOffset(L);
    unsigned E = TC.SM().getFileOffset(
        Lexer::getLocForEndOfToken(TC.SM().getExpansionLoc(TD->getEndLoc()), 0,
                                   TC.SM(), TC.Ctx().getLangOpts()));
    size_t Semi = Buf.find(';', E);
    if (Semi == llvm::StringRef::npos)
      continue;
    bool Used = false;
    llvm::StringRef N = TD->getName();
    for (const Tok &T : lex(Buf, TC.Ctx().getLangOpts())) {
      if (T.Kind != tok::raw_identifier || T.Text != N ||
          (T.Off >= B && T.Off < Semi))
        continue;
      bool Inside = false;
      for (auto &R : Regions[File])
        Inside |= T.Off >= R.first && T.Off < R.second;
      Used |= !Inside;
    }
    if (Used)
      continue;
    size_t LE = Buf.find('\n', Semi);
    LE = LE == llvm::StringRef::npos ? Buf.size() : LE + 1;
    size_t LS = Buf.take_front(B).rfind('\n');
    LS = LS == llvm::StringRef::npos ? 0 : LS + 1;
    if (!Buf.slice(LS, B).trim().empty() ||
        !Buf.slice(Semi + 1, LE).trim().empty())
      continue;
    TC.edit(File, LS, LE - LS, "", RuleId::PK6043,
            llvm::formatv("'{0}' is the MFMA operand vector type (clang's "
                          "ext_vector_type): WMMA fragments replace it",
                          N)
                .str());
  }
}
