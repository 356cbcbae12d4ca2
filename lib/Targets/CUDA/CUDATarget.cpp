//===- CUDATarget.cpp - CUDA/HIP -> modern CUDA
//----------------------------===//
// Rules: PK1007, PK4001, PK4011
//
// (The HIP -> CUDA passes of PK6030-PK6042 are in FromHip*.cpp.)
// HIP input: API renames and includes back to CUDA (tables reversed), HIP
// launches and warp intrinsics to their CUDA forms.  CUDA input: already
// CUDA; the output is the input unless a rule applies.
//
//   PK1007  hipLaunchKernelGGL(k, g, b, s, st, args...) -> k<<<g, b, s,
//   st>>>(args...) PK4001  HIP warp intrinsics -> CUDA *_sync forms with the
//   full mask PK4011  HIP code that assumes 64-lane waves (ballot as 64 bits)
//
//===----------------------------------------------------------------------===//
#include "pk/Target.h"

#include "FromHip.h"
#include "RawTokens.h"

#include "LegacyPasses.h"

#include "llvm/ADT/SmallString.h"
#include "llvm/Support/Path.h"

#include "clang/AST/ASTContext.h"
#include "clang/Frontend/ASTUnit.h"
#include "clang/Lex/Lexer.h"
#include "llvm/Support/FormatVariadic.h"

using namespace pk;
using namespace clang;
using pk::cuda::args;
using pk::cuda::lex;
using pk::cuda::Tok;

namespace {

void hipLaunches(TargetContext &TC, const std::string &File) {
  llvm::StringRef Buf = TC.contents(File);
  auto T = lex(Buf, TC.Ctx().getLangOpts());
  auto Blocks = cuda::helperBlocks(Buf);
  for (size_t I = 0; I + 1 < T.size(); ++I) {
    if (cuda::inRevertedBlock(Blocks, T[I].Off))
      continue;
    if (T[I].Kind != tok::raw_identifier || T[I].Text != "hipLaunchKernelGGL" ||
        T[I + 1].Kind != tok::l_paren)
      continue;
    if (I > 0 && T[I - 1].Kind == tok::raw_identifier &&
        T[I - 1].Text == "define")
      continue;
    std::vector<std::pair<size_t, size_t>> Args;
    size_t Close = args(T, I + 1, Args);
    if (!Close || Args.size() < 5)
      continue;
    auto Text = [&](std::pair<size_t, size_t> R) {
      return Buf
          .slice(T[R.first].Off, T[R.second - 1].Off + T[R.second - 1].Len)
          .str();
    };
    std::string Kernel = Text(Args[0]);
    llvm::StringRef KR(Kernel);
    if (KR.consume_front("HIP_KERNEL_NAME(") && KR.consume_back(")"))
      Kernel = KR.trim().str();
    std::string S = Kernel + "<<<" + Text(Args[1]) + ", " + Text(Args[2]) +
                    ", " + Text(Args[3]) + ", " + Text(Args[4]) + ">>>(";
    for (size_t A = 5; A < Args.size(); ++A)
      S += (A > 5 ? ", " : "") + Text(Args[A]);
    S += ")";
    TC.edit(File, T[I].Off, T[Close].Off + 1 - T[I].Off, S, RuleId::PK1007,
            "hipLaunchKernelGGL(k, grid, block, shmem, stream, args...) is "
            "k<<<grid, block, shmem, stream>>>(args...) in CUDA");
    I = Close;
  }
}

void hipWarpIntrinsics(TargetContext &TC, const std::string &File) {
  llvm::StringRef Buf = TC.contents(File);
  auto T = lex(Buf, TC.Ctx().getLangOpts());
  auto Blocks = cuda::helperBlocks(Buf);
  for (size_t I = 0; I + 1 < T.size(); ++I) {
    if (cuda::inRevertedBlock(Blocks, T[I].Off))
      continue;
    if (T[I].Kind != tok::raw_identifier || T[I + 1].Kind != tok::l_paren)
      continue;
    if (I > 0 && (T[I - 1].Kind == tok::period || T[I - 1].Kind == tok::arrow ||
                  T[I - 1].Kind == tok::coloncolon))
      continue;
    llvm::StringRef N = T[I].Text;
    static const char *Shfl[] = {"__shfl",     "__shfl_up", "__shfl_down",
                                 "__shfl_xor", "__any",     "__all"};
    bool IsShfl = llvm::is_contained(Shfl, N);
    if (!IsShfl && N != "__ballot")
      continue;
    if (cuda::coveredByEdit(TC, File, T[I].Off))
      continue; // removed with its statement (PK6033)
    std::string New = N.str() + "_sync";
    TC.edit(File, T[I].Off, T[I].Len + 1, New + "(0xffffffffu, ",
            RuleId::PK4001,
            llvm::formatv("{0} -> {1} with the full 32-lane mask (the "
                          "non-sync forms are gone from CUDA 9 on for sm_70+)",
                          N, New)
                .str());
    if (N == "__ballot")
      TC.finding(File, T[I].Off, RuleId::PK4011, Severity::Warning,
                 "HIP's __ballot returns 64 bits for a 64-lane wave; CUDA's "
                 "__ballot_sync returns 32 bits for a 32-lane warp: check code "
                 "that uses the upper half");
  }
}

} // namespace

namespace {

bool hipInput(const TargetContext &TC) { return TC.PF.Language == Lang::HIP; }

/// HIP launches and warp intrinsics in every user file of a HIP TU.
void hipToCuda(TargetContext &TC) {
  if (!hipInput(TC))
    return;
  for (const std::string &File : TC.PF.UserFiles) {
    hipLaunches(TC, File);
    hipWarpIntrinsics(TC, File);
  }
}

class CudaTarget : public TargetBackend {
public:
  Target id() const override { return Target::CUDA; }

  std::string outputName(llvm::StringRef Path) const override {
    llvm::StringRef Ext = llvm::sys::path::extension(Path);
    llvm::SmallString<256> P(Path);
    if (Ext == ".hip")
      llvm::sys::path::replace_extension(P, ".cu");
    else if (Ext == ".hiph")
      llvm::sys::path::replace_extension(P, ".cuh");
    return P.str().str();
  }

  /// HIP input: tables reversed, then HIP launches and intrinsics; CUDA
  /// input: kept as written unless a rule applies.
  std::vector<TargetPass> portPasses() const override {
    return {pass("includes",
                 [](TargetContext &TC) {
                   if (hipInput(TC))
                     runIncludePass(TC, /*ToHip=*/false);
                 }),
            pass("renames",
                 [](TargetContext &TC) {
                   if (hipInput(TC))
                     runRenamePass(TC, /*ToHip=*/false);
                 }),
            pass("from-hip-helpers", cuda::fromHipHelpers),
            pass("from-hip-mfma-builtins", cuda::fromHipMfmaBuiltins),
            pass("from-hip-warp-width", cuda::fromHipWarpWidth),
            pass("from-hip-mfma", cuda::fromHipMfma),
            pass("hip-to-cuda", hipToCuda),
            {"legacy-runtime-api", cudaleg::portRuntimeApi},
            pass("legacy-warp-intrinsics", cudaleg::portWarpIntrinsics),
            pass("legacy-warp-sync", cudaleg::portWarpSync),
            pass("unported-includes", reportUnportedIncludes),
            pass("unknown-api",
                 [](TargetContext &TC) {
                   if (hipInput(TC))
                     reportUnknownApiNames(TC, /*FromCuda=*/false);
                 }),
            pass("refused-edits", reportRefusedEdits),
            pass("helpers", insertHelpers)};
  }

  /// Legacy CUDA input: what port would change for Volta and newer.  HIP
  /// input: what does not hold on 32-lane warps (PK6034, PK6045), found by
  /// the same passes as port (their edits are not used).
  std::vector<TargetPass> checkPasses() const override {
    return {pass("from-hip-helpers", cuda::fromHipHelpers),
            pass("from-hip-warp-width", cuda::fromHipWarpWidth),
            {"legacy-runtime-api", cudaleg::checkRuntimeApi},
            pass("legacy-warp-intrinsics", cudaleg::checkWarpIntrinsics),
            pass("legacy-warp-sync", cudaleg::checkWarpSync)};
  }
};

} // namespace

std::unique_ptr<TargetBackend> pk::createCudaTarget() {
  return std::make_unique<CudaTarget>();
}
