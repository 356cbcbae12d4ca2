//===- FuzzCompDb.cpp - libFuzzer target: the compilation-database reader -===//
//
// Each input is a compile_commands.json.  It is read from memory by LLVM's
// JSON compilation database (the reader -p uses), and every command is
// reduced to the clang flags port-kernel parses with, as parseFile does: a
// compiler launcher is dropped, nvcc commands go through nvccToClangFlags,
// others through clangCompileFlags; compDbFiles' path normalisation is
// applied to every file.  Any input must give flags or an error, never a
// crash, a hang or a sanitizer report.  Nothing is written.
//
//===----------------------------------------------------------------------===//
#include "pk/Frontend.h"

#include "clang/Tooling/JSONCompilationDatabase.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/Error.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include <cstddef>
#include <cstdint>
#include <string>

using namespace clang::tooling;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *Data, size_t Size) {
  llvm::StringRef Text(reinterpret_cast<const char *>(Data), Size);
  for (JSONCommandLineSyntax Syntax :
       {JSONCommandLineSyntax::Gnu, JSONCommandLineSyntax::AutoDetect}) {
    std::string Err;
    auto DB = JSONCompilationDatabase::loadFromBuffer(Text, Err, Syntax);
    if (!DB)
      continue;
    for (const CompileCommand &Cmd : DB->getAllCompileCommands()) {
      // compDbFiles: the file's absolute path.
      llvm::SmallString<256> P(Cmd.Filename);
      llvm::sys::fs::make_absolute(Cmd.Directory, P);
      llvm::sys::path::remove_dots(P, true);
      // parseFile: the command reduced to clang flags.
      std::vector<std::string> C = Cmd.CommandLine;
      while (C.size() > 1 && llvm::is_contained({"ccache", "sccache", "distcc"},
                                                llvm::sys::path::stem(C[0])))
        C.erase(C.begin());
      if (!C.empty() && llvm::sys::path::stem(C[0]).ends_with("nvcc")) {
        auto Flags = pk::nvccToClangFlags(C, Cmd.Directory);
        if (!Flags)
          llvm::consumeError(Flags.takeError());
      } else {
        pk::clangCompileFlags(C, Cmd.Directory, Cmd.Filename, P);
      }
    }
  }
  return 0;
}
