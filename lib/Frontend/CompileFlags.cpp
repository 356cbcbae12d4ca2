//===- CompileFlags.cpp - compilation-database commands to clang flags ---===//
// Rules: PK9001
//
// Turns the commands of a compilation database (nvcc, or clang/gcc behind a
// compiler launcher or not) into the flags clang parses a file with, and
// reads the database (its size and nesting bounded first).
//
//===----------------------------------------------------------------------===//
#include "CompDb.h"
#include "pk/Frontend.h"
#include "pk/SafeIO.h"

#include "clang/Driver/Options.h"
#include "clang/Tooling/CompilationDatabase.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Option/ArgList.h"
#include "llvm/Option/OptTable.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/StringSaver.h"
#include <map>
#include <optional>
#include <set>

using namespace pk;
using namespace pk::compdb;
using namespace clang;

// ---- compilation-database commands ----------------------------------------

namespace {

/// What the reduction does with an nvcc option.
enum class NvccAct {
  Include,       ///< -I DIR -> -IDIR (a comma-separated list in nvcc)
  SystemInclude, ///< -isystem DIR (list)
  Define,        ///< -D X -> -DX
  Undefine,      ///< -U X -> -UX
  PreInclude,    ///< -include FILE
  Std,           ///< -std c++17 -> -std=c++17
  HostFlags,     ///< -Xcompiler a,b: the host compiler's flags
  OptionsFile,   ///< --options-file FILE: more options, read and reduced
  Drop,          ///< an nvcc-only option: dropped with its value
};

/// One nvcc option that takes a value (in nvcc every option can be written
/// `-name value`, `-name=value` or `--long-name[=]value`).
struct NvccOption {
  llvm::StringLiteral Short, Long;
  NvccAct Act;
  bool Joined;         ///< the value may follow the short name: -IDIR
  bool ValueMayBeFlag; ///< the value may start with '-' (-Xcompiler -fPIC)
};

const NvccOption NvccOptions[] = {
    {"-I", "--include-path", NvccAct::Include, true, false},
    {"-isystem", "--system-include", NvccAct::SystemInclude, true, false},
    {"-D", "--define-macro", NvccAct::Define, true, false},
    {"-U", "--undefine-macro", NvccAct::Undefine, true, false},
    {"-include", "--pre-include", NvccAct::PreInclude, false, false},
    {"-std", "--std", NvccAct::Std, false, false},
    {"-Xcompiler", "--compiler-options", NvccAct::HostFlags, false, true},
    {"-optf", "--options-file", NvccAct::OptionsFile, false, false},
    // nvcc-only options whose values mean nothing to a host-side parse.
    {"-o", "--output-file", NvccAct::Drop, false, false},
    {"-x", "--x", NvccAct::Drop, false, false},
    {"-ccbin", "--compiler-bindir", NvccAct::Drop, false, false},
    {"-arch", "--gpu-architecture", NvccAct::Drop, false, false},
    {"-code", "--gpu-code", NvccAct::Drop, false, false},
    {"-gencode", "--generate-code", NvccAct::Drop, false, false},
    {"-rdc", "--relocatable-device-code", NvccAct::Drop, false, false},
    {"-MF", "--dependency-output", NvccAct::Drop, false, false},
    {"-MT", "--dependency-target-name", NvccAct::Drop, false, false},
    {"-odir", "--output-directory", NvccAct::Drop, false, false},
    {"-Xptxas", "--ptxas-options", NvccAct::Drop, false, true},
    {"-Xlinker", "--linker-options", NvccAct::Drop, false, true},
    {"-Xnvlink", "--nvlink-options", NvccAct::Drop, false, true},
    {"-Xarchive", "--archive-options", NvccAct::Drop, false, true},
    {"-Xfatbin", "--fatbin-options", NvccAct::Drop, false, true},
    {"-Xcudafe", "--cudafe-options", NvccAct::Drop, false, true},
    {"-maxrregcount", "--maxrregcount", NvccAct::Drop, false, false},
    {"-l", "--library", NvccAct::Drop, true, false},
    {"-L", "--library-path", NvccAct::Drop, true, false},
    {"-O", "--optimize", NvccAct::Drop, true, false},
    {"-m", "--machine", NvccAct::Drop, true, false},
    {"-t", "--threads", NvccAct::Drop, false, false},
    {"-Werror", "--Werror", NvccAct::Drop, false, false},
    {"-ftz", "--ftz", NvccAct::Drop, false, false},
    {"-prec-div", "--prec-div", NvccAct::Drop, false, false},
    {"-prec-sqrt", "--prec-sqrt", NvccAct::Drop, false, false},
    {"-fmad", "--fmad", NvccAct::Drop, false, false},
    {"-diag-suppress", "--diag-suppress", NvccAct::Drop, false, false},
    {"-diag-warn", "--diag-warn", NvccAct::Drop, false, false},
    {"-diag-error", "--diag-error", NvccAct::Drop, false, false},
    {"-cudart", "--cudart", NvccAct::Drop, false, false},
    {"-cudadevrt", "--cudadevrt", NvccAct::Drop, false, false},
    {"-default-stream", "--default-stream", NvccAct::Drop, false, false},
    {"-keep-dir", "--keep-dir", NvccAct::Drop, false, false},
    {"-split-compile", "--split-compile", NvccAct::Drop, false, false},
    {"-time", "--time", NvccAct::Drop, false, false},
    {"-dopt", "--dopt", NvccAct::Drop, false, false},
};

/// The option \p A names and its value, if any is attached (-IDIR,
/// -I=DIR, --include-path=DIR).  The longest matching name wins.
const NvccOption *findNvccOption(llvm::StringRef A,
                                 std::optional<llvm::StringRef> &Attached) {
  const NvccOption *Best = nullptr;
  size_t BestLen = 0;
  for (const NvccOption &O : NvccOptions)
    for (llvm::StringRef Name : {O.Short, O.Long}) {
      if (Name.empty() || !A.starts_with(Name) || Name.size() < BestLen)
        continue;
      llvm::StringRef Rest = A.drop_front(Name.size());
      std::optional<llvm::StringRef> Value;
      if (Rest.empty())
        Value = std::nullopt;
      else if (Rest.front() == '=')
        Value = Rest.drop_front();
      else if (O.Joined && Name == O.Short)
        Value = Rest;
      else
        continue;
      if (Name.size() == BestLen && Best)
        continue;
      Best = &O;
      BestLen = Name.size();
      Attached = Value;
    }
  return Best;
}

/// True when clang's driver knows \p Flag as a complete option.
bool clangKnows(const std::string &Flag) {
  const llvm::opt::OptTable &T = clang::driver::getDriverOptTable();
  const char *Argv[] = {Flag.c_str()};
  unsigned MissingIndex = 0, MissingCount = 0;
  llvm::opt::InputArgList Args =
      T.ParseArgs(Argv, MissingIndex, MissingCount,
                  llvm::opt::Visibility(clang::driver::options::ClangOption));
  if (MissingCount)
    return false;
  for (const llvm::opt::Arg *A : Args)
    if (A->getOption().getID() == clang::driver::options::OPT_UNKNOWN ||
        A->getOption().getKind() == llvm::opt::Option::InputClass)
      return false;
  return true;
}

/// Appends the host-compiler flags of one -Xcompiler value (already split
/// at commas) that matter to a parse and that clang understands.
void reduceHostFlags(llvm::ArrayRef<std::string> Pieces,
                     std::vector<std::string> &Out) {
  for (size_t I = 0; I < Pieces.size(); ++I) {
    llvm::StringRef P = Pieces[I];
    // Flags whose value may be the next piece.
    if (llvm::is_contained({"-I", "-D", "-U"}, P)) {
      if (I + 1 < Pieces.size())
        Out.push_back(P.str() + Pieces[++I]);
      continue;
    }
    if (llvm::is_contained({"-isystem", "-include", "-iquote", "-idirafter"},
                           P)) {
      if (I + 1 < Pieces.size()) {
        Out.push_back(P.str());
        Out.push_back(Pieces[++I]);
      }
      continue;
    }
    bool Joined = P.size() > 2 && (P.starts_with("-I") || P.starts_with("-D") ||
                                   P.starts_with("-U"));
    // -Wl,/-Wa,/-Wp, pass options to other tools (split at the comma by now).
    bool OtherTool = llvm::is_contained({"-Wl", "-Wa", "-Wp"}, P) ||
                     P.starts_with("-Wl,") || P.starts_with("-Wa,") ||
                     P.starts_with("-Wp,");
    bool Parse = P.starts_with("-std=") || P.starts_with("-f") ||
                 P.starts_with("-m") || P.starts_with("-O") ||
                 (P.starts_with("-W") && !OtherTool) ||
                 P.starts_with("-isystem") || P == "-pthread" || P == "-ansi" ||
                 P == "-pedantic";
    if (Joined || (Parse && clangKnows(P.str())))
      Out.push_back(P.str());
  }
}

std::vector<std::string> splitList(llvm::StringRef V) {
  llvm::SmallVector<llvm::StringRef, 4> Parts;
  V.split(Parts, ',', -1, /*KeepEmpty=*/false);
  return std::vector<std::string>(Parts.begin(), Parts.end());
}

llvm::Error reduceNvcc(llvm::ArrayRef<std::string> In, llvm::StringRef Dir,
                       unsigned Depth, bool ForwardUnknown,
                       std::vector<std::string> &Out) {
  for (size_t I = 0; I < In.size(); ++I) {
    llvm::StringRef A = In[I];
    if (!A.starts_with("-") || A == "-")
      continue; // the source file, or the value of a dropped option
    std::optional<llvm::StringRef> Attached;
    const NvccOption *O = findNvccOption(A, Attached);
    if (!O) {
      // A flag nvcc takes without a value (-c, -MD, -G, -lineinfo, ...):
      // nvcc's own, or the host compiler's when nvcc forwards those.
      if (ForwardUnknown)
        reduceHostFlags({A.str()}, Out);
      continue;
    }
    std::string Value;
    if (Attached) {
      Value = Attached->str();
    } else if (I + 1 < In.size() &&
               (O->ValueMayBeFlag ||
                !llvm::StringRef(In[I + 1]).starts_with("-"))) {
      Value = In[++I];
    } else {
      continue; // no value: nothing to keep
    }
    switch (O->Act) {
    case NvccAct::Include:
      for (const std::string &D : splitList(Value))
        Out.push_back("-I" + D);
      break;
    case NvccAct::SystemInclude:
      for (const std::string &D : splitList(Value)) {
        Out.push_back("-isystem");
        Out.push_back(D);
      }
      break;
    case NvccAct::Define:
      Out.push_back("-D" + Value);
      break;
    case NvccAct::Undefine:
      Out.push_back("-U" + Value);
      break;
    case NvccAct::PreInclude:
      for (const std::string &F : splitList(Value)) {
        Out.push_back("-include");
        Out.push_back(F);
      }
      break;
    case NvccAct::Std:
      Out.push_back("-std=" + Value);
      break;
    case NvccAct::HostFlags:
      reduceHostFlags(splitList(Value), Out);
      break;
    case NvccAct::OptionsFile:
      for (const std::string &F : splitList(Value)) {
        llvm::SmallString<256> P(F);
        llvm::sys::fs::make_absolute(Dir, P);
        if (Depth >= 8)
          return llvm::createStringError(
              llvm::inconvertibleErrorCode(),
              "options file %s: options files nested too deeply", P.c_str());
        auto Buf = llvm::MemoryBuffer::getFile(P, /*IsText=*/true);
        if (!Buf)
          return llvm::createStringError(
              Buf.getError(), "cannot read options file %s: %s", P.c_str(),
              Buf.getError().message().c_str());
        llvm::BumpPtrAllocator Alloc;
        llvm::StringSaver Saver(Alloc);
        llvm::SmallVector<const char *, 32> Toks;
        llvm::cl::TokenizeGNUCommandLine((*Buf)->getBuffer(), Saver, Toks);
        std::vector<std::string> Args(Toks.begin(), Toks.end());
        if (llvm::Error E =
                reduceNvcc(Args, Dir, Depth + 1, ForwardUnknown, Out))
          return E;
      }
      break;
    case NvccAct::Drop:
      break;
    }
  }
  return llvm::Error::success();
}

} // namespace

llvm::Expected<std::vector<std::string>>
pk::nvccToClangFlags(llvm::ArrayRef<std::string> Nvcc,
                     llvm::StringRef Directory) {
  std::vector<std::string> Out;
  if (Nvcc.empty())
    return Out;
  bool ForwardUnknown = llvm::any_of(Nvcc, [](llvm::StringRef A) {
    return A == "-forward-unknown-to-host-compiler" ||
           A == "--forward-unknown-to-host-compiler";
  });
  if (llvm::Error E =
          reduceNvcc(Nvcc.drop_front(), Directory, 0, ForwardUnknown, Out))
    return std::move(E);
  return Out;
}

std::vector<std::string> pk::clangCompileFlags(llvm::ArrayRef<std::string> Cmd,
                                               llvm::StringRef Directory,
                                               llvm::StringRef File,
                                               llvm::StringRef AbsFile) {
  auto IsSource = [&](llvm::StringRef A) {
    if (A == File || A == AbsFile)
      return true;
    if (A.starts_with("-"))
      return false;
    llvm::SmallString<256> P(A);
    llvm::sys::fs::make_absolute(Directory, P);
    llvm::sys::path::remove_dots(P, true);
    return P == AbsFile;
  };
  std::vector<std::string> Out;
  for (size_t I = 1; I < Cmd.size(); ++I) {
    llvm::StringRef A = Cmd[I];
    // Options with a separate value that name outputs or the language.
    if (llvm::is_contained({"-o", "-x", "-MF", "-MT", "-MQ", "-MJ"}, A)) {
      ++I;
      continue;
    }
    if (A == "-c" || IsSource(A))
      continue;
    if (A.starts_with("-x"))
      continue; // -xcuda
    // Dependency files: -M, -MM, -MD, -MMD, -MP, -MG, -MV and -MF/-MT/-MQ/-MJ
    // with a joined value.
    if (A.starts_with("-M"))
      continue;
    Out.push_back(A.str());
  }
  return Out;
}

namespace pk::compdb {

// Declared in CompDb.h.
llvm::Expected<std::vector<std::string>>
commandFlags(const tooling::CompileCommand &Cmd, llvm::StringRef AbsFile) {
  std::vector<std::string> C = Cmd.CommandLine;
  // A compiler launcher in front of the compiler (ccache nvcc ...).
  while (C.size() > 1 && llvm::is_contained({"ccache", "sccache", "distcc"},
                                            llvm::sys::path::stem(C[0])))
    C.erase(C.begin());
  if (!C.empty() && llvm::sys::path::stem(C[0]).ends_with("nvcc"))
    return nvccToClangFlags(C, Cmd.Directory);
  return clangCompileFlags(C, Cmd.Directory, Cmd.Filename, AbsFile);
}

} // namespace pk::compdb

namespace {

/// Options of a build (not only of a parse) whose value is a directory or
/// a file; the value may be joined (-Iinc) or the next argument.
constexpr llvm::StringLiteral BuildPathOptions[] = {
    "-isystem", "-iquote", "-idirafter", "-include", "-imacros", "-I"};

/// True for a -std= value of C++17 or newer (the emulator's runtime needs
/// C++17).
bool cxx17OrNewer(llvm::StringRef Std) {
  Std.consume_front("gnu++") || Std.consume_front("c++");
  return llvm::is_contained({"17", "1z", "20", "2a", "23", "2b", "26", "2c"},
                            Std);
}

} // namespace

std::vector<std::string> pk::buildFlags(llvm::ArrayRef<std::string> Flags,
                                        llvm::StringRef Dir,
                                        std::vector<std::string> *Rest) {
  std::vector<std::string> Out;
  auto Abs = [&](llvm::StringRef P, bool IsFile) {
    llvm::SmallString<256> R(P);
    if (!Dir.empty())
      llvm::sys::fs::make_absolute(Dir, R);
    llvm::sys::path::remove_dots(R, true);
    // A forced include that is not there is looked up on the include path
    // by the compiler: keep its name.
    if (IsFile && !llvm::sys::fs::exists(R))
      return P.str();
    return std::string(R);
  };
  for (size_t I = 0; I < Flags.size(); ++I) {
    llvm::StringRef A = Flags[I];
    if (A.consume_front("-D") || A.consume_front("-U")) {
      std::string Name = Flags[I].substr(0, 2);
      if (A.empty() && I + 1 < Flags.size())
        A = Flags[++I];
      if (!A.empty())
        Out.push_back(Name + A.str());
      continue;
    }
    bool Done = false;
    for (llvm::StringRef O : BuildPathOptions) {
      llvm::StringRef V = A;
      if (!V.consume_front(O) || V.starts_with("-")) // not -include-pch
        continue;
      if (V.empty() && I + 1 < Flags.size())
        V = Flags[++I];
      if (V.empty())
        break;
      bool IsFile = O == "-include" || O == "-imacros";
      if (O == "-I") {
        Out.push_back("-I" + Abs(V, false));
      } else {
        Out.push_back(O.str());
        Out.push_back(Abs(V, IsFile));
      }
      Done = true;
      break;
    }
    if (Done)
      continue;
    // OpenMP in host code (nvcc -Xcompiler -fopenmp): the emulator builds
    // compile and link with clang's runtime, whatever runtime was named.
    if (A == "-fopenmp" || A.starts_with("-fopenmp=")) {
      if (!llvm::is_contained(Out, "-fopenmp"))
        Out.push_back("-fopenmp");
      continue;
    }
    llvm::StringRef Std = A;
    if ((Std.consume_front("-std=") || Std.consume_front("--std=")) &&
        cxx17OrNewer(Std)) {
      Out.push_back("-std=" + Std.str());
      continue;
    }
    if (Rest)
      Rest->push_back(A.str());
  }
  return Out;
}

namespace pk::compdb {

// Declared in CompDb.h.
std::vector<std::string> absolutePathFlags(llvm::ArrayRef<std::string> Flags,
                                           llvm::StringRef Dir) {
  std::vector<std::string> Out;
  for (size_t I = 0; I < Flags.size(); ++I) {
    llvm::StringRef A = Flags[I];
    std::vector<std::string> One{A.str()};
    if (llvm::is_contained(BuildPathOptions, A) && I + 1 < Flags.size())
      One.push_back(Flags[++I]);
    bool IsPath = llvm::any_of(
        BuildPathOptions, [&](llvm::StringRef O) { return A.starts_with(O); });
    if (IsPath)
      if (std::vector<std::string> B = buildFlags(One, Dir); !B.empty())
        One = std::move(B);
    llvm::append_range(Out, One);
  }
  return Out;
}

// Declared in CompDb.h.
llvm::Expected<std::unique_ptr<tooling::CompilationDatabase>>
loadCompDb(llvm::StringRef Dir) {
  // clang's reader parses JSON with LLVM's YAML parser, which recurses per
  // level: the size and the nesting are bounded first (pk/SafeIO.h).
  llvm::SmallString<256> File(Dir);
  llvm::sys::path::append(File, "compile_commands.json");
  if (llvm::sys::fs::exists(File)) {
    auto Buf = readFile(File, "the compilation database");
    if (!Buf)
      return Buf.takeError();
    if (llvm::Error E = checkJsonNesting((*Buf)->getBuffer(), File))
      return std::move(E);
  }
  std::string Err;
  auto DB = tooling::CompilationDatabase::loadFromDirectory(Dir, Err);
  if (!DB)
    return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                   "%s: error: cannot load compilation "
                                   "database: %s",
                                   Dir.str().c_str(), Err.c_str());
  return std::move(DB);
}

} // namespace pk::compdb

llvm::Expected<std::vector<std::string>>
pk::compDbEntryFlags(llvm::StringRef DbDir, llvm::StringRef File) {
  auto DB = loadCompDb(DbDir);
  if (!DB)
    return DB.takeError();
  llvm::SmallString<256> Abs(File);
  llvm::sys::fs::make_absolute(Abs);
  llvm::sys::path::remove_dots(Abs, true);
  auto Cmds = (*DB)->getCompileCommands(Abs);
  if (Cmds.empty())
    return std::vector<std::string>{};
  const tooling::CompileCommand &Cmd = Cmds.front();
  auto Flags = commandFlags(Cmd, Abs);
  if (!Flags)
    return llvm::createStringError(
        llvm::inconvertibleErrorCode(),
        "%s/compile_commands.json: error: the entry for %s: %s [PK9001]",
        DbDir.str().c_str(), Abs.c_str(),
        llvm::toString(Flags.takeError()).c_str());
  return absolutePathFlags(*Flags, Cmd.Directory);
}

llvm::Expected<std::vector<std::string>> pk::compDbFiles(llvm::StringRef Dir) {
  auto DB = loadCompDb(Dir);
  if (!DB)
    return DB.takeError();
  std::vector<std::string> Files;
  for (const tooling::CompileCommand &C : (*DB)->getAllCompileCommands()) {
    llvm::SmallString<256> P(C.Filename);
    llvm::sys::fs::make_absolute(C.Directory, P);
    llvm::sys::path::remove_dots(P, true);
    Files.push_back(P.str().str());
  }
  return Files;
}
