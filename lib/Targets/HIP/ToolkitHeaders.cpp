//===- ToolkitHeaders.cpp - CUDA toolkit headers HIP does not have --------===//
// Rules: PK1010, PK1014
//
// math_constants.h (PK1014): HIP before ROCm 6 has no header of CUDA's
// CUDART_* constants; the #include becomes their definitions (the same
// values; the bit patterns of infinities, NaNs and denormals as compiler
// builtins, which host and device code both accept), so the output needs
// no header that cannot be found.
//
// Any other header of the CUDA toolkit that a user file includes and the
// header table does not map (PK1010): the include stays, flagged, since the
// output cannot find it on a ROCm system.  Thrust's headers are rocThrust's
// too and are not flagged (but for the CUDA system's own).
//
//===----------------------------------------------------------------------===//
#include "HipPasses.h"

#include "clang/AST/ASTContext.h"
#include "clang/Basic/SourceManager.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/Path.h"
#include <set>

using namespace pk;
using namespace clang;

namespace {

const char *const MathConstants =
    R"pk(// port-kernel: the constants of CUDA's math_constants.h [PK1014]
#ifndef PK_MATH_CONSTANTS_H
#define PK_MATH_CONSTANTS_H
@BODY@#endif // PK_MATH_CONSTANTS_H
)pk";

const char *const MathConstantDefs =
    "#define CUDART_INF_F __builtin_huge_valf()\n"
    "#define CUDART_NAN_F __builtin_nanf(\"\")\n"
    "#define CUDART_MIN_DENORM_F __FLT_DENORM_MIN__\n"
    "#define CUDART_MAX_NORMAL_F __FLT_MAX__\n"
    "#define CUDART_NEG_ZERO_F (-0.0F)\n"
    "#define CUDART_ZERO_F 0.0F\n"
    "#define CUDART_ONE_F 1.0F\n"
    "#define CUDART_SQRT_HALF_F 0.707106781F\n"
    "#define CUDART_SQRT_HALF_HI_F 0.707106781F\n"
    "#define CUDART_SQRT_HALF_LO_F 1.210161749e-08F\n"
    "#define CUDART_SQRT_TWO_F 1.414213562F\n"
    "#define CUDART_THIRD_F 0.333333333F\n"
    "#define CUDART_PIO4_F 0.785398163F\n"
    "#define CUDART_PIO2_F 1.570796327F\n"
    "#define CUDART_3PIO4_F 2.356194490F\n"
    "#define CUDART_2_OVER_PI_F 0.636619772F\n"
    "#define CUDART_SQRT_2_OVER_PI_F 0.797884561F\n"
    "#define CUDART_PI_F 3.141592654F\n"
    "#define CUDART_L2E_F 1.442695041F\n"
    "#define CUDART_L2T_F 3.321928094F\n"
    "#define CUDART_LG2_F 0.301029996F\n"
    "#define CUDART_LGE_F 0.434294482F\n"
    "#define CUDART_LN2_F 0.693147181F\n"
    "#define CUDART_LNT_F 2.302585093F\n"
    "#define CUDART_LNPI_F 1.144729886F\n"
    "#define CUDART_TWO_TO_M126_F 1.175494351e-38F\n"
    "#define CUDART_TWO_TO_126_F 8.507059173e37F\n"
    "#define CUDART_NORM_HUGE_F 3.402823466e38F\n"
    "#define CUDART_TWO_TO_23_F 8388608.0F\n"
    "#define CUDART_TWO_TO_24_F 16777216.0F\n"
    "#define CUDART_TWO_TO_31_F 2147483648.0F\n"
    "#define CUDART_TWO_TO_32_F 4294967296.0F\n"
    "#define CUDART_REMQUO_BITS_F 3U\n"
    "#define CUDART_REMQUO_MASK_F (~((~0U)<<CUDART_REMQUO_BITS_F))\n"
    "#define CUDART_TRIG_PLOSS_F 105615.0F\n"
    "#define CUDART_INF __builtin_huge_val()\n"
    "#define CUDART_NAN __builtin_nan(\"\")\n"
    "#define CUDART_NEG_ZERO (-0.0)\n"
    "#define CUDART_MIN_DENORM __DBL_DENORM_MIN__\n"
    "#define CUDART_ZERO 0.0\n"
    "#define CUDART_ONE 1.0\n"
    "#define CUDART_SQRT_TWO 1.4142135623730951e+0\n"
    "#define CUDART_SQRT_HALF 7.0710678118654757e-1\n"
    "#define CUDART_SQRT_HALF_HI 7.0710678118654757e-1\n"
    "#define CUDART_SQRT_HALF_LO (-4.8336466567264567e-17)\n"
    "#define CUDART_THIRD 3.3333333333333333e-1\n"
    "#define CUDART_TWOTHIRD 6.6666666666666667e-1\n"
    "#define CUDART_PIO4 7.8539816339744828e-1\n"
    "#define CUDART_PIO4_HI 7.8539816339744828e-1\n"
    "#define CUDART_PIO4_LO 3.0616169978683830e-17\n"
    "#define CUDART_PIO2 1.5707963267948966e+0\n"
    "#define CUDART_PIO2_HI 1.5707963267948966e+0\n"
    "#define CUDART_PIO2_LO 6.1232339957367660e-17\n"
    "#define CUDART_3PIO4 2.3561944901923448e+0\n"
    "#define CUDART_2_OVER_PI 6.3661977236758138e-1\n"
    "#define CUDART_PI 3.1415926535897931e+0\n"
    "#define CUDART_PI_HI 3.1415926535897931e+0\n"
    "#define CUDART_PI_LO 1.2246467991473532e-16\n"
    "#define CUDART_SQRT_2PI 2.5066282746310007e+0\n"
    "#define CUDART_SQRT_2PI_HI 2.5066282746310007e+0\n"
    "#define CUDART_SQRT_2PI_LO (-1.8328579980459167e-16)\n"
    "#define CUDART_SQRT_PIO2 1.2533141373155003e+0\n"
    "#define CUDART_SQRT_PIO2_HI 1.2533141373155003e+0\n"
    "#define CUDART_SQRT_PIO2_LO (-9.1642899902295834e-17)\n"
    "#define CUDART_SQRT_2OPI 7.9788456080286536e-1\n"
    "#define CUDART_L2E 1.4426950408889634e+0\n"
    "#define CUDART_L2E_HI 1.4426950408889634e+0\n"
    "#define CUDART_L2E_LO 2.0355273740931033e-17\n"
    "#define CUDART_L2T 3.3219280948873622e+0\n"
    "#define CUDART_LG2 3.0102999566398120e-1\n"
    "#define CUDART_LG2_HI 3.0102999566398120e-1\n"
    "#define CUDART_LG2_LO (-2.8037281277851704e-18)\n"
    "#define CUDART_LGE 4.3429448190325182e-1\n"
    "#define CUDART_LGE_HI 4.3429448190325182e-1\n"
    "#define CUDART_LGE_LO 1.09831965021676510e-17\n"
    "#define CUDART_LN2 6.9314718055994529e-1\n"
    "#define CUDART_LN2_HI 6.9314718055994529e-1\n"
    "#define CUDART_LN2_LO 2.3190468138462996e-17\n"
    "#define CUDART_LNT 2.3025850929940459e+0\n"
    "#define CUDART_LNT_HI 2.3025850929940459e+0\n"
    "#define CUDART_LNT_LO (-2.1707562233822494e-16)\n"
    "#define CUDART_LNPI 1.1447298858494002e+0\n"
    "#define CUDART_LN2_X_1024 7.0978271289338397e+2\n"
    "#define CUDART_LN2_X_1025 7.1047586007394398e+2\n"
    "#define CUDART_LN2_X_1075 7.4513321910194122e+2\n"
    "#define CUDART_LG2_X_1024 3.0825471555991675e+2\n"
    "#define CUDART_LG2_X_1075 3.2360724533877976e+2\n"
    "#define CUDART_TWO_TO_23 8388608.0\n"
    "#define CUDART_TWO_TO_52 4503599627370496.0\n"
    "#define CUDART_TWO_TO_53 9007199254740992.0\n"
    "#define CUDART_TWO_TO_54 18014398509481984.0\n"
    "#define CUDART_TWO_TO_M54 5.5511151231257827e-17\n"
    "#define CUDART_TWO_TO_M1022 2.22507385850720140e-308\n"
    "#define CUDART_TRIG_PLOSS 2147483648.0\n"
    "#define CUDART_DBL2INT_CVT 6755399441055744.0\n";

} // namespace

void pk::hip::portToolkitHeaders(TargetContext &TC) {
  if (TC.PF.Language == Lang::HIP)
    return;
  // math_constants.h, by its directive: a header that another header
  // included first is not entered again, so it has no include location.
  for (const std::string &File : TC.PF.UserFiles)
    forEachDirective(TC.contents(File), [&](const Directive &D) {
      if (D.Keyword != "include" || D.Header != "math_constants.h")
        return;
      llvm::SmallString<256> Local(llvm::sys::path::parent_path(File));
      llvm::sys::path::append(Local, D.Header);
      if (!D.Angled && TC.isUserFile(Local))
        return; // the project's own header of that name
      std::string Text = MathConstants;
      size_t At = Text.find("@BODY@");
      Text.replace(At, 6, MathConstantDefs);
      TC.edit(File, D.Begin, D.End - D.Begin, Text, RuleId::PK1014,
              "<math_constants.h> has no HIP counterpart before ROCm 6: its "
              "constants are defined in place");
      TC.Facts.ProvidedHeaders.insert("math_constants.h");
    });
  const SourceManager &SM = TC.SM();
  // The directory of the CUDA declarations this parse used (the toolkit's
  // include directory, or the bundled declarations).
  std::string ToolkitDir;
  std::vector<std::pair<SourceLocation, std::string>> Included;
  for (unsigned I = 0, N = SM.local_sloc_entry_size(); I < N; ++I) {
    const SrcMgr::SLocEntry &E = SM.getLocalSLocEntry(I);
    if (!E.isFile())
      continue;
    const SrcMgr::FileInfo &FI = E.getFile();
    OptionalFileEntryRef FE = FI.getContentCache().OrigEntry;
    if (!FE)
      continue;
    llvm::StringRef Path = FE->getName();
    if (llvm::sys::path::filename(Path) == "cuda_runtime_api.h")
      ToolkitDir = llvm::sys::path::parent_path(Path).str();
    if (FI.getIncludeLoc().isValid())
      Included.push_back({FI.getIncludeLoc(), Path.str()});
  }
  // With a precompiled prelude (ParseCache.h) the toolkit's runtime header
  // is a file of the PCH: a loaded entry.
  for (unsigned I = 0, N = SM.loaded_sloc_entry_size();
       I < N && ToolkitDir.empty(); ++I) {
    bool Invalid = false;
    const SrcMgr::SLocEntry &E = SM.getLoadedSLocEntry(I, &Invalid);
    if (Invalid || !E.isFile())
      continue;
    OptionalFileEntryRef FE = E.getFile().getContentCache().OrigEntry;
    if (FE && llvm::sys::path::filename(FE->getName()) == "cuda_runtime_api.h")
      ToolkitDir = llvm::sys::path::parent_path(FE->getName()).str();
  }
  std::set<std::pair<std::string, unsigned>> Done;
  for (const auto &[IncLoc, Path] : Included) {
    SourceLocation L = SM.getFileLoc(IncLoc);
    if (!TC.isUserLoc(L))
      continue;
    std::string File = TC.fileOf(L);
    if (!TC.isUserFile(File) || TC.isUserFile(Path))
      continue;
    // The directive of this include: the line of IncLoc.
    unsigned Off = SM.getFileOffset(L);
    llvm::StringRef Buf = TC.contents(File);
    unsigned Begin = Buf.rfind('\n', Off) == llvm::StringRef::npos
                         ? 0
                         : Buf.rfind('\n', Off) + 1;
    if (!Done.insert({File, Begin}).second)
      continue;
    size_t End = Buf.find('\n', Off);
    End = End == llvm::StringRef::npos ? Buf.size() : End + 1;
    llvm::StringRef Name = llvm::sys::path::filename(Path);
    if (Name == "math_constants.h")
      continue; // below
    if (ToolkitDir.empty() || !llvm::StringRef(Path).starts_with(ToolkitDir))
      continue;
    // Headers of the table are the include pass's business.
    llvm::SmallString<128> Rel(
        llvm::StringRef(Path).drop_front(ToolkitDir.size() + 1));
    if (TC.DB.lookupHeader(Rel, true) || TC.DB.lookupHeader(Name, true))
      continue;
    // CUDA 13 keeps CUB and Thrust under include/cccl: <cub/cub.cuh> is
    // cccl/cub/cub.cuh there.
    llvm::StringRef Lib = llvm::StringRef(Rel);
    Lib.consume_front("cccl/");
    if (Lib != llvm::StringRef(Rel) && TC.DB.lookupHeader(Lib, true))
      continue;
    // rocThrust keeps Thrust's headers under the same names; only the CUDA
    // system's (thrust/system/cuda/...) are not part of a ROCm build, and
    // the header table maps those it has a HIP twin for (PK1020, PK1030).
    if (Lib.starts_with("thrust/") && !Lib.starts_with("thrust/system/cuda/"))
      continue;
    TC.finding(File, Begin, RuleId::PK1010, Severity::Warning,
               llvm::formatv("header <{0}> of the CUDA toolkit has no HIP "
                             "counterpart in the header table; the include "
                             "is kept and will not be found on a ROCm system",
                             Rel)
                   .str());
  }
}
