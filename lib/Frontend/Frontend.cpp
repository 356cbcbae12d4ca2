//===- Frontend.cpp - parse a CUDA/HIP file once ---------------------------===//
#include "pk/Frontend.h"

#include "clang/Basic/Diagnostic.h"
#include "clang/Basic/SourceManager.h"
#include "clang/Frontend/ASTUnit.h"
#include "clang/Frontend/TextDiagnostic.h"
#include "clang/Tooling/ArgumentsAdjusters.h"
#include "clang/Tooling/CompilationDatabase.h"
#include "clang/Tooling/Tooling.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Process.h"
#include "llvm/Support/Regex.h"
#include <mutex>

using namespace pk;
using namespace clang;

#ifndef PK_RESOURCE_DIR
#error "PK_RESOURCE_DIR must be defined by the build"
#endif

std::string FrontendPaths::resourceDir() { return PK_RESOURCE_DIR; }
std::string FrontendPaths::bundledDeclsDir() {
  return PK_SOURCE_DIR "/lib/Frontend/cuda-decls";
}
std::string FrontendPaths::cuda13ShimDir() {
  return PK_SOURCE_DIR "/lib/Frontend/cuda13-shim";
}
std::string FrontendPaths::emuShimDir() { return PK_SOURCE_DIR "/lib/Emu/shim"; }
std::string FrontendPaths::hipIncludeDir() { return "/usr/include"; }

ParsedFile::~ParsedFile() = default;

std::string pk::detectCudaToolkit(const FrontendOptions &O) {
  auto Usable = [](llvm::StringRef Dir) {
    return !Dir.empty() &&
           llvm::sys::fs::exists(Dir + "/include/cuda_runtime.h") &&
           llvm::sys::fs::exists(Dir + "/include/cuda.h");
  };
  if (O.CudaPath == "none")
    return "";
  if (!O.CudaPath.empty())
    return Usable(O.CudaPath) ? O.CudaPath : "";
  for (const char *Var : {"CUDA_PATH", "CUDA_HOME"})
    if (auto V = llvm::sys::Process::GetEnv(Var))
      return Usable(*V) ? *V : ""; // an explicit setting wins, even if empty
  return Usable("/usr/local/cuda") ? "/usr/local/cuda" : "";
}

FileKind pk::classifyFile(llvm::StringRef Path, llvm::StringRef Content) {
  llvm::StringRef Ext = llvm::sys::path::extension(Path);
  if (Ext == ".hip" || Ext == ".hiph")
    return FileKind::HIP;
  static const char *Exts[] = {".cpp", ".cc", ".cxx", ".c",   ".h",
                               ".hh",  ".hpp", ".hxx", ".inl", ".ipp"};
  bool CudaExt = Ext == ".cu" || Ext == ".cuh";
  if (!CudaExt && llvm::find(Exts, Ext) == std::end(Exts))
    return FileKind::Other;
  static const llvm::Regex HipRe(
      "(#[[:space:]]*include[[:space:]]*[<\"]hip/|hipLaunchKernelGGL|"
      "\\<hip(Malloc|Memcpy|Stream|Event|Device|Free)[A-Za-z]*\\()");
  static const llvm::Regex CudaRe(
      "(__global__|__device__|__shared__|<<<|#[[:space:]]*include[[:space:]]*"
      "[<\"](cuda|cooperative_groups|mma\\.h|device_launch)|\\<cuda[A-Z][A-Za-z]*"
      "\\()");
  if (HipRe.match(Content))
    return FileKind::HIP;
  if (CudaExt || CudaRe.match(Content))
    return FileKind::CUDA;
  return FileKind::PlainCXX;
}

namespace {

/// Collects clang's errors as text so a failed parse reports file:line:col.
class CollectingConsumer : public DiagnosticConsumer {
public:
  std::vector<std::string> Errors;
  void HandleDiagnostic(DiagnosticsEngine::Level Level,
                        const Diagnostic &Info) override {
    DiagnosticConsumer::HandleDiagnostic(Level, Info);
    if (Level < DiagnosticsEngine::Error)
      return;
    llvm::SmallString<256> Msg;
    Info.FormatDiagnostic(Msg);
    std::string Where;
    if (Info.hasSourceManager() && Info.getLocation().isValid()) {
      PresumedLoc P =
          Info.getSourceManager().getPresumedLoc(Info.getLocation());
      if (P.isValid())
        Where = llvm::formatv("{0}:{1}:{2}: ", P.getFilename(), P.getLine(),
                              P.getColumn())
                    .str();
    }
    Errors.push_back(Where + "error: " + Msg.str().str());
  }
};

/// Turns an nvcc command line from a compilation database into clang
/// arguments: keeps include paths, macros, forced includes and -std.
std::vector<std::string> fromNvcc(const std::vector<std::string> &In) {
  std::vector<std::string> Out{In.empty() ? "clang++" : "clang++"};
  for (size_t I = 1; I < In.size(); ++I) {
    llvm::StringRef A = In[I];
    auto TakesValue = [&](llvm::StringRef Flag) {
      if (A == Flag && I + 1 < In.size()) {
        Out.push_back(A.str());
        Out.push_back(In[++I]);
        return true;
      }
      if (A.starts_with(Flag) && A.size() > Flag.size()) {
        Out.push_back(A.str());
        return true;
      }
      return false;
    };
    if (TakesValue("-I") || TakesValue("-D") || TakesValue("-U") ||
        TakesValue("-isystem") || TakesValue("-include"))
      continue;
    if (A.starts_with("-std="))
      Out.push_back(A.str());
    else if (A == "-c" || A == "-o") {
      if (A == "-o")
        ++I;
    } else if (!A.starts_with("-")) {
      Out.push_back(A.str()); // the source file
    } else {
      // nvcc flags that take a separate value; everything else is dropped.
      static const char *WithValue[] = {"-x", "-ccbin", "-arch", "-gencode",
                                        "-Xcompiler", "--compiler-options",
                                        "-Xptxas", "--generate-code",
                                        "-maxrregcount", "-rdc", "-Xcudafe"};
      if (llvm::is_contained(WithValue, A) && I + 1 < In.size())
        ++I;
    }
  }
  return Out;
}

std::once_flag LLVMInitOnce;

} // namespace

llvm::Expected<std::unique_ptr<ParsedFile>>
pk::parseFile(llvm::StringRef PathIn, Lang L, const FrontendOptions &O) {
  llvm::SmallString<256> Path(PathIn);
  if (std::error_code EC = llvm::sys::fs::make_absolute(Path))
    return llvm::createStringError(EC, "%s: %s", PathIn.str().c_str(),
                                   EC.message().c_str());
  llvm::sys::path::remove_dots(Path, true);
  if (!llvm::sys::fs::is_regular_file(Path))
    return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                   "%s: error: no such file", Path.c_str());

  auto Result = std::make_unique<ParsedFile>();
  Result->Path = Path.str().str();
  Result->Language = L;

  // The compile command: from the compilation database when one is given
  // and knows the file, otherwise sane defaults.
  std::unique_ptr<tooling::CompilationDatabase> DB;
  std::vector<std::string> UserArgs;
  std::string Dir = llvm::sys::path::parent_path(Path).str();
  if (!O.CompDbDir.empty()) {
    std::string Err;
    auto Loaded =
        tooling::CompilationDatabase::loadFromDirectory(O.CompDbDir, Err);
    if (!Loaded)
      return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                     "%s: error: cannot load compilation "
                                     "database: %s",
                                     O.CompDbDir.c_str(), Err.c_str());
    auto Cmds = Loaded->getCompileCommands(Path);
    if (!Cmds.empty()) {
      std::vector<std::string> C = Cmds.front().CommandLine;
      if (!C.empty() && llvm::StringRef(C[0]).ends_with("nvcc"))
        C = fromNvcc(C);
      // Keep only flags: drop argv[0], the file and -c/-o.
      for (size_t I = 1; I < C.size(); ++I) {
        llvm::StringRef A = C[I];
        if (A == "-o") { ++I; continue; }
        if (A == "-c" || A == Path || A == Cmds.front().Filename) continue;
        if (A.starts_with("-x")) { if (A == "-x") ++I; continue; }
        UserArgs.push_back(A.str());
      }
      Dir = Cmds.front().Directory;
    }
  }

  std::vector<std::string> Args;
  for (const auto &A : O.ExtraArgsBefore)
    Args.push_back(A);
  Args.push_back("-resource-dir=" + FrontendPaths::resourceDir());
  if (L == Lang::CUDA) {
    Args.insert(Args.end(), {"-x", "cuda", "--cuda-host-only", "-nocudalib",
                             "--cuda-gpu-arch=sm_90", "-std=c++17"});
    if (O.EmuParse) {
      Args.insert(Args.end(), {"-nocudainc", "-DPKEMU_PARSE", "-DPKEMU_LANG_CUDA",
                               "-isystem", FrontendPaths::emuShimDir(),
                               "-include", "pkemu/prelude.h"});
    } else if (std::string Cuda = detectCudaToolkit(O); !Cuda.empty()) {
      Args.push_back("--cuda-path=" + Cuda);
      Args.push_back("-Wno-unknown-cuda-version");
      Args.push_back("-isystem");
      Args.push_back(FrontendPaths::cuda13ShimDir());
      // CUDA 13 keeps libcu++ (cuda/std/...) under include/cccl.
      if (llvm::sys::fs::is_directory(Cuda + "/include/cccl")) {
        Args.push_back("-isystem");
        Args.push_back(Cuda + "/include/cccl");
      }
    } else {
      Result->BundledDecls = true;
      Args.insert(Args.end(),
                  {"-nocudainc", "--cuda-path=/nonexistent",
                   "-isystem", FrontendPaths::bundledDeclsDir(), "-include",
                   "__pk_cuda_prelude.h"});
    }
  } else {
    Args.insert(Args.end(), {"-x", "hip", "--cuda-host-only", "-nogpulib",
                             "-std=c++17"});
    if (O.EmuParse)
      Args.insert(Args.end(), {"-nogpuinc", "-DPKEMU_PARSE", "-DPKEMU_LANG_HIP",
                               "-isystem", FrontendPaths::emuShimDir(),
                               "-include", "pkemu/prelude.h"});
    else
      Args.push_back("--rocm-path=/usr");
  }
  Args.push_back("-w"); // warnings are not ours to report; errors are
  Args.push_back("-ferror-limit=20");
  Args.insert(Args.end(), UserArgs.begin(), UserArgs.end());
  for (const auto &A : O.ExtraArgs)
    Args.push_back(A);

  tooling::FixedCompilationDatabase Fixed(Dir, Args);
  tooling::ClangTool Tool(Fixed, {Result->Path});
  CollectingConsumer Diags;
  Tool.setDiagnosticConsumer(&Diags);
  Tool.appendArgumentsAdjuster(tooling::getClangStripOutputAdjuster());
  Tool.appendArgumentsAdjuster(tooling::getClangSyntaxOnlyAdjuster());
  Result->CommandLine = Args;

  std::vector<std::unique_ptr<ASTUnit>> ASTs;
  int RC = Tool.buildASTs(ASTs);
  if (!Diags.Errors.empty() || RC != 0 || ASTs.size() != 1) {
    std::string Msg = llvm::formatv("{0}: error: cannot parse as {1}{2} [PK9001]",
                                    Result->Path,
                                    L == Lang::CUDA ? "CUDA" : "HIP",
                                    Result->BundledDecls
                                        ? " (bundled CUDA declarations; no "
                                          "toolkit found)"
                                        : "")
                          .str();
    for (const auto &E : Diags.Errors)
      Msg += "\n  " + E;
    return llvm::createStringError(llvm::inconvertibleErrorCode(), Msg);
  }
  Result->AST = std::move(ASTs.front());

  // The user's files in this TU: main file and local headers.
  SourceManager &SM = Result->AST->getSourceManager();
  llvm::StringSet<> Seen;
  for (unsigned I = 0, N = SM.local_sloc_entry_size(); I < N; ++I) {
    const SrcMgr::SLocEntry &E = SM.getLocalSLocEntry(I);
    if (!E.isFile())
      continue;
    const SrcMgr::FileInfo &FI = E.getFile();
    if (FI.getFileCharacteristic() != SrcMgr::C_User)
      continue;
    OptionalFileEntryRef FE = FI.getContentCache().OrigEntry;
    if (!FE)
      continue;
    llvm::SmallString<256> P(FE->getName());
    llvm::sys::fs::make_absolute(Dir, P);
    llvm::sys::path::remove_dots(P, true);
    if (Seen.insert(P).second)
      Result->UserFiles.push_back(P.str().str());
  }
  return Result;
}
