//===- Frontend.cpp - parse a CUDA/HIP file once
//---------------------------===//
// Rules: PK9001, PK9102, PK9103
//
// Classifies sources and parses each translation unit once, with the flags
// of its compilation-database command (CompileFlags.cpp) or the defaults.
//
//===----------------------------------------------------------------------===//
#include "pk/Frontend.h"
#include "pk/MacroDepth.h"
#include "pk/ParentIndex.h"
#include "pk/SafeIO.h"
#include "CompDb.h"
#include "ParseCache.h"

#include "pk/DataDir.h"
#include "pk/DynamicVisitor.h"
#include "clang/Basic/Diagnostic.h"
#include "clang/Basic/DiagnosticLex.h"
#include "clang/Basic/SourceManager.h"
#include "clang/Driver/Options.h"
#include "clang/Frontend/ASTUnit.h"
#include "clang/Frontend/CompilerInstance.h"
#include "clang/Frontend/TextDiagnostic.h"
#include "clang/Lex/HeaderSearchOptions.h"
#include "clang/Lex/PreprocessorOptions.h"
#include "clang/Tooling/ArgumentsAdjusters.h"
#include "clang/Tooling/CompilationDatabase.h"
#include "clang/Tooling/Tooling.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Option/ArgList.h"
#include "llvm/Option/OptTable.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Process.h"
#include "llvm/Support/Regex.h"
#include "llvm/Support/StringSaver.h"
#include "llvm/Support/TimeProfiler.h"
#include "llvm/Support/VirtualFileSystem.h"
#include <map>
#include <optional>
#include <set>

using namespace pk;
using namespace pk::compdb;
using namespace clang;

#ifndef PK_RESOURCE_DIR
#error "PK_RESOURCE_DIR must be defined by the build"
#endif

std::string FrontendPaths::resourceDir() { return PK_RESOURCE_DIR; }
std::string FrontendPaths::bundledDeclsDir() {
  return pk::dataPath("cuda-decls");
}
std::string FrontendPaths::cuda13ShimDir() {
  return pk::dataPath("cuda13-shim");
}
std::string FrontendPaths::emuShimDir() { return pk::dataPath("emu/shim"); }
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

unsigned pk::cudaToolkitVersion(llvm::StringRef Dir) {
  auto Buf = llvm::MemoryBuffer::getFile(Dir + "/include/cuda.h");
  if (!Buf)
    return 0;
  static const llvm::Regex Def("#[[:space:]]*define[[:space:]]+CUDA_VERSION[["
                               ":space:]]+([0-9]+)",
                               llvm::Regex::Newline);
  llvm::SmallVector<llvm::StringRef, 2> M;
  unsigned V = 0;
  if (Def.match((*Buf)->getBuffer(), &M))
    M[1].getAsInteger(10, V);
  return V;
}

unsigned pk::nvccBuildNumber(llvm::StringRef Dir) {
  // nvcc's __CUDACC_VER_BUILD__ is the third number of its version: the
  // name of dist-info/nvidia_cuda_nvcc-13.0.88.dist-info (CUDA 13), or
  // "cuda_nvcc" : { ..., "version" : "12.8.93" } in version.json (CUDA 11-12).
  llvm::SmallVector<llvm::StringRef, 2> M;
  unsigned V = 0;
  static const llvm::Regex Dist(
      "^nvidia_cuda_nvcc-[0-9]+\\.[0-9]+\\.([0-9]+)\\.dist-info$");
  std::error_code EC;
  for (llvm::sys::fs::directory_iterator I(Dir + "/dist-info", EC), E;
       I != E && !EC; I.increment(EC))
    if (Dist.match(llvm::sys::path::filename(I->path()), &M) &&
        !M[1].getAsInteger(10, V))
      return V;
  auto Buf = llvm::MemoryBuffer::getFile(Dir + "/version.json");
  if (!Buf)
    return 0;
  static const llvm::Regex Json("\"cuda_nvcc\"[^}]*\"version\"[[:space:]]*:["
                                "[:space:]]*\"[0-9]+\\.[0-9]+\\.([0-9]+)\"");
  if (Json.match((*Buf)->getBuffer(), &M))
    M[1].getAsInteger(10, V);
  return V;
}

std::string pk::nvccCompatHeader() {
  return FrontendPaths::cuda13ShimDir() + "/__pk_nvcc_compat.h";
}

namespace {

/// \p Content with comments blanked (and, when \p Strings, string and
/// character literals too), lengths and line breaks kept, so what a file
/// says in a comment does not count as what it uses.
std::string blankComments(llvm::StringRef Content, bool Strings) {
  std::string S = Content.str();
  enum { Code, Line, Block, Str, Chr } State = Code;
  for (size_t I = 0; I < S.size(); ++I) {
    char C = S[I], N = I + 1 < S.size() ? S[I + 1] : '\0';
    switch (State) {
    case Code:
      if (C == '/' && N == '/')
        State = Line;
      else if (C == '/' && N == '*')
        State = Block;
      else if (C == '"')
        State = Str;
      else if (C == '\'' && !(I && isalnum((unsigned char)S[I - 1])))
        State = Chr; // not a digit separator (1'000)
      else
        continue;
      if (State == Line || State == Block) {
        S[I] = S[I + 1] = ' ';
        ++I;
      }
      continue;
    case Line:
      if (C == '\n')
        State = Code;
      else
        S[I] = ' ';
      continue;
    case Block:
      if (C == '*' && N == '/') {
        S[I] = S[I + 1] = ' ';
        ++I;
        State = Code;
      } else if (C != '\n') {
        S[I] = ' ';
      }
      continue;
    case Str:
    case Chr:
      if (C == '\\' && N != '\n') {
        if (Strings)
          S[I] = S[I + 1] = ' ';
        ++I;
      } else if (C == (State == Str ? '"' : '\'') || C == '\n') {
        State = Code;
      } else if (Strings) {
        S[I] = ' ';
      }
      continue;
    }
  }
  return S;
}

/// Number of non-overlapping matches in \p S of a pattern that starts with
/// the literal \p Lit, as an unanchored search of \p S would count them.
/// \p Anchored is the pattern anchored with `^`; it is tried only where
/// \p Lit occurs (at the start of a word when \p WordStart), on the text from
/// there over the blanks and word characters that follow and to the end of
/// that line, which holds any match starting there (an include directive,
/// a call's name and parenthesis). Searching every position of every file
/// with the unanchored pattern was most of the time of a sharded run over a
/// large repository, which classifies every file. \p Accept sees the first
/// group (or the match).
unsigned
countMatches(const llvm::Regex &Anchored, llvm::StringRef S,
             llvm::StringRef Lit, bool WordStart,
             llvm::function_ref<bool(llvm::StringRef)> Accept = nullptr) {
  auto IsWord = [](char C) { return llvm::isAlnum(C) || C == '_'; };
  unsigned N = 0;
  llvm::SmallVector<llvm::StringRef, 3> M;
  for (size_t Pos = S.find(Lit); Pos != llvm::StringRef::npos;
       Pos = S.find(Lit, Pos)) {
    if (WordStart && Pos > 0 && IsWord(S[Pos - 1])) {
      ++Pos;
      continue;
    }
    size_t End = Pos + Lit.size();
    while (End < S.size() && (llvm::isSpace(S[End]) || IsWord(S[End])))
      ++End;
    End = S.find('\n', End);
    llvm::StringRef Window = S.slice(Pos, End);
    // With Regex::Newline, `^` also matches after a line break inside the
    // window: only a match that starts here counts here.
    if (!Anchored.match(Window, &M) || M[0].data() != Window.data()) {
      ++Pos;
      continue;
    }
    if (!Accept || Accept(M.size() > 1 ? M[1] : M[0]))
      ++N;
    Pos += std::max<size_t>(M[0].size(), 1);
  }
  return N;
}

} // namespace

FileKind pk::classifyFile(llvm::StringRef Path, llvm::StringRef Content) {
  llvm::StringRef Ext = llvm::sys::path::extension(Path);
  if (Ext == ".hip" || Ext == ".hiph")
    return FileKind::HIP;
  static const char *Exts[] = {".cpp", ".cc",  ".cxx", ".c",   ".h",
                               ".hh",  ".hpp", ".hxx", ".inl", ".ipp"};
  bool CudaExt = Ext == ".cu" || Ext == ".cuh";
  if (!CudaExt && llvm::find(Exts, Ext) == std::end(Exts))
    return FileKind::Other;
  std::string NoComments = blankComments(Content, /*Strings=*/false);
  std::string CodeOnly = blankComments(Content, /*Strings=*/true);
  // Includes (comments blanked, header names kept), each tried where a '#'
  // is.
  static const llvm::Regex HipSysInc("^#[[:space:]]*include[[:space:]]*<hip/",
                                     llvm::Regex::Newline);
  static const llvm::Regex HipLocalInc(
      "^#[[:space:]]*include[[:space:]]*\"(hip/hip_[^\"]*)\"",
      llvm::Regex::Newline);
  static const llvm::Regex CudaInc(
      "^#[[:space:]]*include[[:space:]]*[<\"](cuda|cooperative_groups|mma\\.h|"
      "device_launch)",
      llvm::Regex::Newline);
  // API uses (comments and literals blanked), each tried where a word
  // starts with hip or cuda.
  static const llvm::Regex HipCall("^(hipLaunchKernelGGL[[:>:]]|"
                                   "hip[A-Z][A-Za-z0-9_]*[[:space:]]*\\()");
  static const llvm::Regex CudaCall(
      "^cuda[A-Z][A-Za-z0-9_]*[[:space:]]*\\(");

  // HIP's own headers are hip/hip_*.h; a quoted one counts unless the file
  // next to the source exists (then it is the project's own header, as is
  // any other "hip/x.h", e.g. a portability layer of a CUDA code base).
  llvm::StringRef Dir = llvm::sys::path::parent_path(Path);
  auto NotLocal = [&](llvm::StringRef Header) {
    return Dir.empty() || !llvm::sys::fs::exists(Dir + "/" + Header);
  };
  unsigned Hip = countMatches(HipSysInc, NoComments, "#", false) +
                 countMatches(HipLocalInc, NoComments, "#", false, NotLocal) +
                 countMatches(HipCall, CodeOnly, "hip", true);
  unsigned Cuda = countMatches(CudaInc, NoComments, "#", false) +
                  countMatches(CudaCall, CodeOnly, "cuda", true);
  if (Hip > Cuda || (Hip && Hip == Cuda && !CudaExt))
    return FileKind::HIP;
  llvm::StringRef Code = CodeOnly;
  if (CudaExt || Cuda ||
      llvm::any_of(std::initializer_list<llvm::StringRef>{
                       "__global__", "__device__", "__shared__", "<<<"},
                   [&](llvm::StringRef K) { return Code.contains(K); }))
    return FileKind::CUDA;
  return FileKind::PlainCXX;
}

namespace {

/// Collects clang's errors as text so a failed parse reports file:line:col.
class CollectingConsumer : public DiagnosticConsumer {
public:
  std::vector<std::string> Errors;
  /// Per error: where it is (file, offset; empty without a location),
  /// whether it is fatal, and its message.
  struct Where {
    std::string File;
    unsigned Offset = 0;
    bool Fatal = false;
    std::string Msg;
  };
  std::vector<Where> Locs;
  /// Headers an #include names that were not found.
  std::vector<std::string> Missing;
  void HandleDiagnostic(DiagnosticsEngine::Level Level,
                        const Diagnostic &Info) override {
    DiagnosticConsumer::HandleDiagnostic(Level, Info);
    if (Level < DiagnosticsEngine::Error)
      return;
    llvm::SmallString<256> Msg;
    Info.FormatDiagnostic(Msg);
    std::string Where;
    CollectingConsumer::Where W;
    W.Fatal = Level == DiagnosticsEngine::Fatal;
    W.Msg = Msg.str().str();
    if (Info.hasSourceManager() && Info.getLocation().isValid()) {
      const SourceManager &SM = Info.getSourceManager();
      PresumedLoc P = SM.getPresumedLoc(Info.getLocation());
      if (P.isValid())
        Where = llvm::formatv("{0}:{1}:{2}: ", P.getFilename(), P.getLine(),
                              P.getColumn())
                    .str();
      SourceLocation L = SM.getFileLoc(Info.getLocation());
      if (OptionalFileEntryRef FE = SM.getFileEntryRefForID(SM.getFileID(L))) {
        W.File = FE->getName().str();
        W.Offset = SM.getFileOffset(L);
      }
    }
    if (Info.getID() == diag::err_pp_file_not_found && Info.getNumArgs() &&
        Info.getArgKind(0) == DiagnosticsEngine::ak_std_string)
      Missing.push_back(Info.getArgStdStr(0));
    Errors.push_back(Where + "error: " + Msg.str().str());
    Locs.push_back(std::move(W));
  }
};

/// Offsets of the bodies of device and kernel functions, per file: an
/// error there is never tolerated, whatever header was stubbed.
class DeviceRanges : public DynamicASTVisitor {
public:
  explicit DeviceRanges(SourceManager &SM) : SM(SM) {}
  std::map<std::string, std::vector<std::pair<unsigned, unsigned>>> Ranges;
  bool VisitFunctionDecl(FunctionDecl *FD) override {
    if (!FD->hasAttr<CUDADeviceAttr>() && !FD->hasAttr<CUDAGlobalAttr>())
      return true;
    SourceLocation B = SM.getFileLoc(FD->getBeginLoc());
    SourceLocation E = SM.getFileLoc(FD->getEndLoc());
    if (SM.getFileID(B) != SM.getFileID(E))
      return true;
    if (OptionalFileEntryRef FE = SM.getFileEntryRefForID(SM.getFileID(B)))
      Ranges[FE->getName().str()].push_back(
          {SM.getFileOffset(B), SM.getFileOffset(E) + 1});
    return true;
  }
  bool inside(const std::string &File, unsigned Off) const {
    auto It = Ranges.find(File);
    if (It == Ranges.end())
      return false;
    return llvm::any_of(
        It->second, [&](auto R) { return R.first <= Off && Off < R.second; });
  }

private:
  SourceManager &SM;
};

/// Builds the AST of the one command as clang's tooling does, with the
/// prelude precompiled when the parse cache has (or now builds) its PCH.
class ASTBuilder : public tooling::ToolAction {
public:
  ASTBuilder(std::vector<std::unique_ptr<ASTUnit>> &ASTs, PreludePch *Pch)
      : ASTs(ASTs), Pch(Pch) {}
  bool runInvocation(std::shared_ptr<CompilerInvocation> Inv,
                     FileManager *Files,
                     std::shared_ptr<PCHContainerOperations> Ops,
                     DiagnosticConsumer *Diags) override {
    if (Pch) {
      *Pch = preludePchFor(*Inv, *Files, Ops);
      if (!Pch->Path.empty()) {
        Inv->getPreprocessorOpts().ImplicitPCHInclude = Pch->Path;
        // The prelude's headers are system headers, which clang does not
        // check for changes by default: a PCH of an edited header is stale.
        Inv->getHeaderSearchOpts().ModulesValidateSystemHeaders = true;
        Inv->getHeaderSearchOpts().ValidateASTInputFilesContent = true;
      }
    }
    std::unique_ptr<ASTUnit> AST = ASTUnit::LoadFromCompilerInvocation(
        Inv, std::move(Ops),
        CompilerInstance::createDiagnostics(&Inv->getDiagnosticOpts(), Diags,
                                            /*ShouldOwnClient=*/false),
        Files);
    // A PCH that clang refuses (damaged, stale) is not the file's failure:
    // the plain parse that follows says whether there is one.
    if (!AST)
      return Pch && !Pch->Path.empty();
    ASTs.push_back(std::move(AST));
    return true;
  }

private:
  std::vector<std::unique_ptr<ASTUnit>> &ASTs;
  PreludePch *Pch;
};

/// Where --stub-missing-includes puts its empty headers (a directory of an
/// in-memory file system, searched after every other include directory).
constexpr llvm::StringLiteral StubDir = "/__pk_stubs__";

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
  // clang's driver reads '\' in the name of the file it compiles as a path
  // separator, so it would parse another file (a/b.cu for a\b.cu) or none.
  if (Path.str().contains('\\'))
    return llvm::createStringError(
        llvm::inconvertibleErrorCode(),
        "%s: error: cannot parse a file whose name contains '\\': the C++ "
        "front end reads it as a path separator; rename the file [PK9001]",
        Path.c_str());

  auto Result = std::make_unique<ParsedFile>();
  Result->Path = Path.str().str();
  Result->Language = L;

  // The compile command: from the compilation database when one is given
  // and knows the file, otherwise sane defaults.
  std::vector<std::string> UserArgs;
  std::string Dir = llvm::sys::path::parent_path(Path).str();
  if (!O.CompDbDir.empty()) {
    auto Loaded = loadCompDb(O.CompDbDir);
    if (!Loaded)
      return Loaded.takeError();
    auto Cmds = (*Loaded)->getCompileCommands(Path);
    if (!Cmds.empty()) {
      const tooling::CompileCommand &Cmd = Cmds.front();
      std::string DbFile = O.CompDbDir + "/compile_commands.json";
      auto Fail = [&](const llvm::Twine &Why) {
        return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                       (DbFile + ": error: the entry for " +
                                        Result->Path + ": " + Why + " [PK9001]")
                                           .str());
      };
      if (!llvm::sys::fs::is_directory(Cmd.Directory))
        return Fail("its directory '" + Cmd.Directory +
                    "' does not exist or is not a directory");
      auto Flags = commandFlags(Cmd, Result->Path);
      if (!Flags)
        return Fail(llvm::toString(Flags.takeError()));
      // Include paths absolute: a header found through a relative -I would
      // be named relative to the command's directory, which is not how the
      // translation names the user's files.
      UserArgs = absolutePathFlags(*Flags, Cmd.Directory);
      Dir = Cmd.Directory;
    }
  }

  std::vector<std::string> Args;
  for (const auto &A : O.ExtraArgsBefore)
    Args.push_back(A);
  Args.push_back("-resource-dir=" + FrontendPaths::resourceDir());
  if (L == Lang::CUDA) {
    Args.insert(Args.end(), {"-x", "cuda", "--cuda-host-only", "-nocudalib",
                             "--cuda-gpu-arch=sm_90", "-std=c++17"});
    // What nvcc predefines and clang does not: code that tests __NVCC__ or
    // the compiler version takes the branch nvcc would (clang defines
    // __CUDACC__ itself, without a value; nvcc defines it as 1).
    auto NvccDefines = [&](unsigned CudaVersion, unsigned Build) {
      Result->NvccMacros = {
          {"__NVCC__", "1"},
          {"__CUDACC__", "1"},
          {"__CUDACC_VER_MAJOR__", std::to_string(CudaVersion / 1000)},
          {"__CUDACC_VER_MINOR__", std::to_string(CudaVersion % 1000 / 10)},
          {"__CUDACC_VER_BUILD__", std::to_string(Build)}};
      for (const auto &[Name, Value] : Result->NvccMacros)
        if (Name != "__CUDACC__")
          Args.push_back("-D" + Name + "=" + Value);
      // The runtime's and the driver API's version, which the headers nvcc
      // includes define (cuda_runtime_api.h, cuda.h): recorded for the HIP
      // output, where no header defines them (PK1026), not predefined.
      Result->NvccMacros.push_back(
          {"CUDART_VERSION", std::to_string(CudaVersion)});
      Result->NvccMacros.push_back(
          {"CUDA_VERSION", std::to_string(CudaVersion)});
    };
    if (O.EmuParse) {
      Args.insert(Args.end(),
                  {"-nocudainc", "-DPKEMU_PARSE", "-DPKEMU_LANG_CUDA",
                   "-isystem", FrontendPaths::emuShimDir(), "-include",
                   "pkemu/prelude.h"});
    } else if (std::string Cuda = detectCudaToolkit(O); !Cuda.empty()) {
      Args.push_back("--cuda-path=" + Cuda);
      Args.push_back("-Wno-unknown-cuda-version");
      NvccDefines(cudaToolkitVersion(Cuda), nvccBuildNumber(Cuda));
      Args.push_back("-isystem");
      Args.push_back(FrontendPaths::cuda13ShimDir());
      // CUDA 13 keeps libcu++ (cuda/std/...) under include/cccl.
      if (llvm::sys::fs::is_directory(Cuda + "/include/cccl")) {
        Args.push_back("-isystem");
        Args.push_back(Cuda + "/include/cccl");
      }
      // A toolkit newer than clang knows: declare what nvcc accepts and clang
      // does not (PK9103).
      if (cudaToolkitVersion(Cuda) > MaxClangCudaVersion) {
        Result->CompatDecls = true;
        Args.insert(Args.end(), {"-include", "__pk_nvcc_compat.h"});
      }
    } else {
      Result->BundledDecls = true;
      Result->CompatDecls = true;
      // The bundled declarations are those of CUDA 12.8
      // (__pk_cuda_prelude.h); their build number is not known: 0.
      NvccDefines(12080, 0);
      // The compatibility header through -isystem: a system header, never a
      // user file of the translation.
      Args.insert(Args.end(),
                  {"-nocudainc", "--cuda-path=/nonexistent", "-isystem",
                   FrontendPaths::bundledDeclsDir(), "-isystem",
                   FrontendPaths::cuda13ShimDir(), "-include",
                   "__pk_cuda_prelude.h", "-include", "__pk_nvcc_compat.h"});
    }
  } else {
    Args.insert(Args.end(),
                {"-x", "hip", "--cuda-host-only", "-nogpulib", "-std=c++17"});
    if (O.EmuParse)
      Args.insert(Args.end(),
                  {"-nogpuinc", "-DPKEMU_PARSE", "-DPKEMU_LANG_HIP", "-isystem",
                   FrontendPaths::emuShimDir(), "-include", "pkemu/prelude.h"});
    else
      Args.push_back("--rocm-path=/usr");
  }
  Args.push_back("-w"); // warnings are not ours to report; errors are
  Args.push_back("-ferror-limit=20");
  Args.insert(Args.end(), UserArgs.begin(), UserArgs.end());
  for (const auto &A : O.ExtraArgs)
    Args.push_back(A);

  if (O.StubMissingIncludes) {
    // Searched last: only a header found nowhere else is stubbed.
    Args.insert(Args.end(), {"-idirafter", StubDir.str(), "-ferror-limit=0"});
  }
  tooling::FixedCompilationDatabase Fixed(Dir, Args);
  Result->CommandLine = Args;
  // Macro arguments nested too deeply: an error before clang expands them
  // (its memory grows with the square of the depth; pk/MacroDepth.h).
  {
    llvm::TimeTraceScope Scope("macro-depth scan");
    if (llvm::Error E =
            checkMacroDepth(Result->Path, Args, Dir, macroDepthLimit()))
      return std::move(E);
  }
  // A file system of this parse's own: ClangTool changes the working
  // directory of its file system to the command's directory, which on the
  // process's real file system would be a chdir() racing with the parses of
  // other threads.  Stubbed headers live in an in-memory layer above it.
  auto Stubs = llvm::makeIntrusiveRefCnt<llvm::vfs::InMemoryFileSystem>();
  auto FS = llvm::makeIntrusiveRefCnt<llvm::vfs::OverlayFileSystem>(
      llvm::vfs::createPhysicalFileSystem());
  FS->pushOverlay(Stubs);
  std::set<std::string> Stubbed;
  std::unique_ptr<CollectingConsumer> DiagsP;
  std::vector<std::unique_ptr<ASTUnit>> ASTs;
  int RC = 0;
  // The prelude precompiled (ParseCache.h) unless a parse with it failed.
  bool AllowPch = true;
  PreludePch FailedPch;
  for (;;) {
    tooling::ClangTool Tool(Fixed, {Result->Path},
                            std::make_shared<PCHContainerOperations>(), FS);
    ASTs.clear();
    DiagsP = std::make_unique<CollectingConsumer>();
    CollectingConsumer &Diags = *DiagsP;
    Tool.setDiagnosticConsumer(&Diags);
    Tool.appendArgumentsAdjuster(tooling::getClangStripOutputAdjuster());
    Tool.appendArgumentsAdjuster(tooling::getClangSyntaxOnlyAdjuster());
    PreludePch Pch;
    {
      llvm::TimeTraceScope Scope("clang parse");
      ASTBuilder Builder(ASTs, AllowPch ? &Pch : nullptr);
      RC = Tool.run(&Builder);
    }
    bool Failed = RC != 0 || ASTs.size() != 1 || !Diags.Errors.empty() ||
                  !Diags.Missing.empty();
    // A header that is not found is the file's failure, not the PCH's: with
    // --stub-missing-includes the stubbed parse comes next, with the PCH.
    bool StubsNext = O.StubMissingIncludes && !Diags.Missing.empty();
    if (!Pch.Path.empty() && Failed && !StubsNext) {
      // Whatever failed is said by the plain parse; if that one succeeds,
      // the PCH was at fault (stale or damaged) and goes.
      AllowPch = false;
      FailedPch = Pch;
      if (std::getenv("PK_PARSE_CACHE_DEBUG"))
        for (const auto &E : Diags.Errors)
          llvm::errs() << "parse cache: " << Pch.Path << ": " << E << "\n";
      continue;
    }
    if (!FailedPch.Path.empty() && !Failed)
      discardPreludePch(FailedPch);
    FailedPch = {};
    if (!O.StubMissingIncludes || Diags.Missing.empty())
      break;
    // Each header not found becomes an empty one, and the file is parsed
    // again (an #include that is not found ends the parse).
    bool Added = false;
    for (const std::string &M : Diags.Missing)
      if (Stubbed.size() < 64 && Stubbed.insert(M).second)
        Added |= Stubs->addFile(
            (StubDir + "/" + M).str(), 0,
            llvm::MemoryBuffer::getMemBuffer(
                "/* empty stub of a header that is not installed "
                "(--stub-missing-includes) */\n"));
    if (!Added)
      break;
  }
  CollectingConsumer &Diags = *DiagsP;
  // With stubbed headers, errors in host code that follow from the missing
  // declarations are tolerated and reported (PK9102); an error in device
  // code, a fatal error or a header still missing fails the parse.
  std::vector<CollectingConsumer::Where> Tolerated;
  if (!Stubbed.empty() && RC == 0 && ASTs.size() == 1 &&
      Diags.Missing.empty() && !Diags.Errors.empty()) {
    DeviceRanges DR(ASTs.front()->getSourceManager());
    DR.TraverseDecl(ASTs.front()->getASTContext().getTranslationUnitDecl());
    bool All = llvm::all_of(Diags.Locs, [&](const auto &W) {
      return !W.Fatal && !W.File.empty() && !DR.inside(W.File, W.Offset);
    });
    if (All) {
      Tolerated = Diags.Locs;
      Diags.Errors.clear();
    }
  }
  if (!Stubbed.empty() && RC != 0 && ASTs.size() == 1 && Diags.Errors.empty())
    RC = 0;
  if (!Diags.Errors.empty() || RC != 0 || ASTs.size() != 1) {
    std::string Msg =
        llvm::formatv("{0}: error: cannot parse as {1}{2} [PK9001]",
                      Result->Path, L == Lang::CUDA ? "CUDA" : "HIP",
                      Result->BundledDecls ? " (bundled CUDA declarations; no "
                                             "toolkit found)"
                                           : "")
            .str();
    for (const auto &E : Diags.Errors)
      Msg += "\n  " + E;
    if (!Stubbed.empty())
      Msg += "\n  note: stubbed headers (--stub-missing-includes): " +
             llvm::join(Stubbed, ", ") +
             "; errors in device code are never tolerated";
    return llvm::createStringError(llvm::inconvertibleErrorCode(), Msg);
  }
  Result->AST = std::move(ASTs.front());

  // The user's files in this TU: main file and local headers.
  SourceManager &SM = Result->AST->getSourceManager();
  // The file parsed must be the one asked for: an AST of another file would
  // be taken for this one's (its edits applied to neither).
  if (OptionalFileEntryRef Main = SM.getFileEntryRefForID(SM.getMainFileID())) {
    llvm::SmallString<256> P(Main->getName());
    llvm::sys::fs::make_absolute(Dir, P);
    llvm::sys::path::remove_dots(P, true);
    llvm::sys::fs::UniqueID A, B;
    bool Same = P == Path || (!llvm::sys::fs::getUniqueID(P, A) &&
                              !llvm::sys::fs::getUniqueID(Path, B) && A == B);
    if (!Same)
      return llvm::createStringError(
          llvm::inconvertibleErrorCode(),
          "%s: error: the C++ front end parsed %s instead of this file "
          "[PK9001]",
          Result->Path.c_str(), P.c_str());
  }
  // Where each stubbed header was included, and what was tolerated.
  for (unsigned I = 0, N = SM.local_sloc_entry_size(); I < N; ++I) {
    const SrcMgr::SLocEntry &E = SM.getLocalSLocEntry(I);
    if (!E.isFile())
      continue;
    OptionalFileEntryRef FE = E.getFile().getContentCache().OrigEntry;
    if (!FE || !FE->getName().starts_with(StubDir))
      continue;
    SourceLocation Inc = SM.getFileLoc(E.getFile().getIncludeLoc());
    OptionalFileEntryRef IncFE = SM.getFileEntryRefForID(SM.getFileID(Inc));
    if (!IncFE)
      continue;
    llvm::StringRef Name = FE->getName().drop_front(StubDir.size() + 1);
    Result->StubNotes.push_back(
        {IncFE->getName().str(), SM.getFileOffset(Inc),
         llvm::formatv("'{0}' is not installed: parsed with an empty stub "
                       "(--stub-missing-includes); what it declares is "
                       "unknown to this translation",
                       Name)
             .str()});
  }
  for (const auto &W : Tolerated)
    Result->StubNotes.push_back(
        {W.File, W.Offset,
         "error in host code tolerated because of a stubbed header: " + W.Msg});
  for (ParseNote &N : Result->StubNotes) {
    llvm::SmallString<256> P(N.File);
    llvm::sys::fs::make_absolute(Dir, P);
    llvm::sys::path::remove_dots(P, true);
    N.File = P.str().str();
  }
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
  // Every traversal of the AST (RecursiveASTVisitor, AST matchers) walks the
  // user's top-level declarations, not the toolkit's headers: no rule edits
  // a header, and with a precompiled prelude (ParseCache.h) a walk over the
  // headers would load all of them from the PCH.  The user's declarations
  // are never loaded ones, so the walk over what is in memory finds them.
  ASTContext &Ctx = Result->AST->getASTContext();
  std::vector<Decl *> Top;
  for (Decl *D : Ctx.getTranslationUnitDecl()->noload_decls()) {
    SourceLocation L = D->getLocation();
    if (L.isInvalid())
      continue;
    L = SM.getFileLoc(L);
    OptionalFileEntryRef FE = SM.getFileEntryRefForID(SM.getFileID(L));
    if (!FE)
      continue;
    llvm::SmallString<256> P(FE->getName());
    llvm::sys::fs::make_absolute(Dir, P);
    llvm::sys::path::remove_dots(P, true);
    if (Seen.contains(P))
      Top.push_back(D);
  }
  Ctx.setTraversalScope(Top);
  Result->UserScope = std::move(Top);
  return Result;
}
