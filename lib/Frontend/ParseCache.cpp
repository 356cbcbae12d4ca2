//===- ParseCache.cpp - precompiled preludes for the parse ----------------===//
// Rules: none (infrastructure of PK9001's parse)
#include "ParseCache.h"

#include "clang/Basic/Version.h"
#include "clang/Frontend/CompilerInstance.h"
#include "clang/Frontend/CompilerInvocation.h"
#include "clang/Frontend/FrontendActions.h"
#include "clang/Lex/HeaderSearchOptions.h"
#include "clang/Lex/PreprocessorOptions.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/Support/Chrono.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Process.h"
#include "llvm/Support/SHA256.h"
#include "llvm/Support/TimeProfiler.h"
#include "llvm/Support/raw_ostream.h"
#include <chrono>
#include <map>
#include <mutex>
#include <vector>

using namespace clang;
namespace fs = llvm::sys::fs;
namespace path = llvm::sys::path;

namespace pk {
namespace parsecache {

/// The forced includes that make up a prelude: clang's runtime wrappers and
/// port-kernel's own.  A user's -include is never part of a PCH.
bool isPreludeInclude(llvm::StringRef Name) {
  static const char *const Known[] = {
      "__clang_cuda_runtime_wrapper.h", "__clang_hip_runtime_wrapper.h",
      "__pk_nvcc_compat.h", "__pk_cuda_prelude.h", "pkemu/prelude.h"};
  for (const char *K : Known)
    if (Name == K)
      return true;
  return false;
}

enum class State { Seen, Building, Ready, Bad };

struct Registry {
  std::mutex M;
  std::map<std::string, State> Keys;
  unsigned Builds = 0; ///< PCHs this process built (or began)
};

/// PCHs one process builds at most: a tree whose files each have flags of
/// their own (a compilation database with per-file defines) would otherwise
/// build one per file on its second run, each costing more than the parse
/// it saves once, and push the useful ones out of the cache.
constexpr unsigned MaxBuildsPerProcess = 8;
Registry &registry() {
  static Registry R;
  return R;
}

std::string envOr(const char *Name) {
  if (std::optional<std::string> V = llvm::sys::Process::GetEnv(Name))
    return *V;
  return "";
}

/// Marks (creates empty) \p P; false when it cannot.
bool touchNew(const std::string &P) {
  int FD;
  if (fs::openFileForWrite(P, FD, fs::CD_OpenAlways))
    return false;
  llvm::sys::Process::SafelyCloseFileDescriptor(FD);
  return true;
}

/// The empty main file every prelude PCH is built from.  It is created once
/// and never rewritten: clang checks a PCH's inputs (this file among them)
/// for changes when it loads the PCH.
std::string emptyMainFile(const std::string &Dir, InputKind Kind) {
  const char *Ext = Kind.getLanguage() == Language::HIP ? "hip" : "cu";
  std::string P = Dir + "/prelude-main-" + Ext + ".in";
  if (fs::exists(P))
    return P;
  // Written under a temporary name and renamed (LLVM's writeToOutput); two
  // processes racing write the same text, and the PCHs check content.
  llvm::Error E = llvm::writeToOutput(P, [](llvm::raw_ostream &OS) {
    OS << "/* The main file of port-kernel's precompiled preludes (parse "
          "cache): empty. */\n";
    return llvm::Error::success();
  });
  if (E) {
    llvm::consumeError(std::move(E));
    return "";
  }
  return P;
}

/// Removes what no run used for 30 days, and PCHs beyond the newest 64.
void prune(const std::string &Dir) {
  using namespace std::chrono;
  auto Now = system_clock::now();
  std::vector<std::pair<llvm::sys::TimePoint<>, std::string>> Pchs;
  std::error_code EC;
  for (fs::directory_iterator It(Dir, EC), End; !EC && It != End;
       It.increment(EC)) {
    llvm::StringRef Name = path::filename(It->path());
    if (!Name.ends_with(".pch") && !Name.ends_with(".seen") &&
        !Name.contains(".pch-"))
      continue;
    fs::file_status St;
    if (fs::status(It->path(), St))
      continue;
    auto Age = Now - St.getLastModificationTime();
    if (Age > hours(24 * 30) ||
        (Name.contains(".pch-") && Age > hours(1))) { // a build that died
      fs::remove(It->path());
      continue;
    }
    if (Name.ends_with(".pch"))
      Pchs.push_back({St.getLastModificationTime(), It->path()});
  }
  if (Pchs.size() <= 64)
    return;
  llvm::sort(Pchs, [](const auto &A, const auto &B) { return A.first > B.first; });
  for (size_t I = 64; I < Pchs.size(); ++I)
    fs::remove(Pchs[I].second);
}

/// Builds the PCH of \p Inv's prelude at \p Out; false when it cannot.
bool build(const CompilerInvocation &Inv,
           const std::vector<std::string> &Prelude, const std::string &Main,
           const std::string &Out, FileManager &Files,
           std::shared_ptr<PCHContainerOperations> Ops) {
  llvm::TimeTraceScope Scope("build the prelude PCH");
  auto BI = std::make_shared<CompilerInvocation>(Inv);
  InputKind Kind = Inv.getFrontendOpts().Inputs.front().getKind();
  FrontendOptions &FO = BI->getFrontendOpts();
  FO.Inputs = {FrontendInputFile(Main, Kind)};
  FO.OutputFile = Out;
  FO.ProgramAction = frontend::GeneratePCH;
  BI->getPreprocessorOpts().Includes = Prelude;
  BI->getPreprocessorOpts().ImplicitPCHInclude.clear();
  // The inputs' hashes go into the PCH: a header copied anew (a new mtime,
  // the same content) leaves it valid.
  BI->getHeaderSearchOpts().ValidateASTInputFilesContent = true;
  CompilerInstance CI(std::move(Ops));
  CI.setInvocation(BI);
  CI.createDiagnostics(new IgnoringDiagConsumer(), /*ShouldOwnClient=*/true);
  // A file manager of its own over the parse's file system: the parse's
  // must not cache what the build stats.
  CI.setFileManager(new FileManager(Files.getFileSystemOpts(),
                                    Files.getVirtualFileSystemPtr()));
  GeneratePCHAction Act;
  // clang writes the PCH to a temporary file beside Out and renames it into
  // place, or removes it on an error: readers never see half a PCH.
  bool OK = CI.ExecuteAction(Act) && !CI.getDiagnostics().hasErrorOccurred();
  return OK && fs::exists(Out);
}

} // namespace parsecache

std::string parseCacheDir() {
  using parsecache::envOr;
  std::string Off = envOr("PORT_KERNEL_PARSE_CACHE");
  if (Off == "off" || Off == "0")
    return "";
  std::string Base = envOr("PORT_KERNEL_CACHE_DIR");
  if (Base.empty()) {
    std::string Xdg = envOr("XDG_CACHE_HOME");
    if (!Xdg.empty() && path::is_absolute(Xdg))
      Base = Xdg + "/port-kernel";
    else if (std::string Home = envOr("HOME"); !Home.empty())
      Base = Home + "/.cache/port-kernel";
  }
  if (Base.empty())
    return "";
  llvm::SmallString<256> P(Base);
  if (fs::make_absolute(P))
    return "";
  path::append(P, "parse");
  return P.str().str();
}

PreludePch preludePchFor(const CompilerInvocation &Inv, FileManager &Files,
                         std::shared_ptr<PCHContainerOperations> Ops) {
  using namespace parsecache;
  const PreprocessorOptions &PP = Inv.getPreprocessorOpts();
  if (!PP.ImplicitPCHInclude.empty() || !PP.MacroIncludes.empty() ||
      Inv.getFrontendOpts().Inputs.size() != 1)
    return {};
  std::vector<std::string> Prelude;
  for (const std::string &I : PP.Includes) {
    if (!isPreludeInclude(I))
      break;
    Prelude.push_back(I);
  }
  if (Prelude.empty())
    return {};
  std::string Dir = parseCacheDir();
  if (Dir.empty())
    return {};

  // The key: the compiler and every option of the parse but its main file
  // (cc1 options, so include paths, defines, target and language are all
  // in it as the driver resolved them).
  CompilerInvocation K(Inv);
  K.getFrontendOpts().Inputs.clear();
  K.getFrontendOpts().OutputFile.clear();
  K.getCodeGenOpts().MainFileName.clear();
  K.getCodeGenOpts().DebugCompilationDir.clear();
  K.getCodeGenOpts().CoverageCompilationDir.clear();
  K.getPreprocessorOpts().Includes = Prelude;
  std::string Material = getClangFullVersion();
  for (const std::string &A : K.getCC1CommandLine())
    Material += '\0' + A;
  // Relative include directories resolve against the working directory.
  bool Relative = false;
  for (const auto &E : Inv.getHeaderSearchOpts().UserEntries)
    Relative |= !path::is_absolute(E.Path);
  if (Relative)
    if (auto CWD = Files.getVirtualFileSystem().getCurrentWorkingDirectory())
      Material += "\0cwd=" + *CWD;
  std::string Key = llvm::toHex(
      llvm::ArrayRef<uint8_t>(llvm::SHA256::hash(llvm::arrayRefFromStringRef(
                                  llvm::StringRef(Material))))
          .take_front(16),
      /*LowerCase=*/true);
  std::string Pch = Dir + "/" + Key + ".pch";

  Registry &R = registry();
  {
    std::lock_guard<std::mutex> G(R.M);
    auto It = R.Keys.find(Key);
    if (It != R.Keys.end() &&
        (It->second == State::Bad || It->second == State::Building))
      return {"", Key};
    if (fs::exists(Pch)) {
      R.Keys[Key] = State::Ready;
      return {Pch, Key};
    }
    bool SeenBefore = It != R.Keys.end() || fs::exists(Dir + "/" + Key + ".seen");
    if (!SeenBefore) {
      // The first sighting only marks the configuration: a one-off parse
      // (a file with flags of its own) would pay for a PCH it never reuses.
      R.Keys[Key] = State::Seen;
      if (!fs::create_directories(Dir))
        touchNew(Dir + "/" + Key + ".seen");
      return {"", Key};
    }
    if (R.Builds >= MaxBuildsPerProcess)
      return {"", Key};
    ++R.Builds;
    R.Keys[Key] = State::Building;
  }
  bool OK = false;
  if (!fs::create_directories(Dir)) {
    std::string Main = emptyMainFile(Dir, Inv.getFrontendOpts().Inputs.front().getKind());
    if (!Main.empty())
      OK = build(Inv, Prelude, Main, Pch, Files, std::move(Ops));
    if (OK)
      prune(Dir);
  }
  std::lock_guard<std::mutex> G(R.M);
  R.Keys[Key] = OK ? State::Ready : State::Bad;
  return OK ? PreludePch{Pch, Key} : PreludePch{"", Key};
}

void discardPreludePch(const PreludePch &P) {
  using namespace parsecache;
  if (P.Key.empty())
    return;
  Registry &R = registry();
  std::lock_guard<std::mutex> G(R.M);
  R.Keys[P.Key] = State::Bad;
  if (!P.Path.empty())
    fs::remove(P.Path);
}

} // namespace pk
