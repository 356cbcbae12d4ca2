//===- Inputs.cpp - which files a run reads -------------------------------===//
// Rules: PK9001
//
// Walks the paths given on the command line, classifies each file (CUDA,
// HIP, other) and gives the driver a sorted, duplicate-free list.
//
//===----------------------------------------------------------------------===//
#include "pk/Inputs.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include <algorithm>
#include <set>

using namespace pk;
namespace fs = llvm::sys::fs;
namespace path = llvm::sys::path;

std::string pk::absPath(llvm::StringRef P) {
  llvm::SmallString<256> S(P);
  fs::make_absolute(S);
  path::remove_dots(S, true);
  return S.str().str();
}

bool pk::isUnder(llvm::StringRef Child, llvm::StringRef Dir) {
  if (Child == Dir)
    return true;
  std::string D = Dir.str();
  if (!D.empty() && D.back() != '/')
    D += '/';
  return Child.starts_with(D);
}

std::string pk::commonDir(llvm::StringRef A, llvm::StringRef B) {
  llvm::SmallVector<llvm::StringRef, 16> PA, PB;
  llvm::StringRef(A).split(PA, '/');
  llvm::StringRef(B).split(PB, '/');
  std::string R;
  for (size_t I = 0; I < PA.size() && I < PB.size() && PA[I] == PB[I]; ++I) {
    if (I)
      R += "/";
    R += PA[I].str();
  }
  return R.empty() ? "/" : R;
}

bool pk::isHeaderExt(llvm::StringRef P) {
  llvm::StringRef E = path::extension(P);
  return E == ".cuh" || E == ".h" || E == ".hh" || E == ".hpp" ||
         E == ".hxx" || E == ".hiph" || E == ".inl" || E == ".ipp";
}

llvm::Error pk::collectInputs(llvm::ArrayRef<std::string> Paths,
                    std::vector<InputFile> &Out) {
  std::set<std::string> Seen;
  for (const std::string &P0 : Paths) {
    std::string P = absPath(P0);
    if (fs::is_directory(P)) {
      std::error_code EC;
      std::vector<std::string> Files;
      for (fs::recursive_directory_iterator It(P, EC), End; It != End && !EC;
           It.increment(EC)) {
        if (path::filename(It->path()).starts_with(".")) {
          if (It->type() == fs::file_type::directory_file)
            It.no_push();
          continue;
        }
        if (It->type() == fs::file_type::regular_file ||
            (It->type() != fs::file_type::directory_file &&
             fs::is_regular_file(It->path())))
          Files.push_back(absPath(It->path()));
      }
      if (EC)
        return llvm::createStringError(EC, "%s: error: cannot read directory: %s",
                                       P.c_str(), EC.message().c_str());
      std::sort(Files.begin(), Files.end());
      for (auto &F : Files)
        if (Seen.insert(F).second)
          Out.push_back({F, P, FileKind::Other});
    } else if (fs::is_regular_file(P)) {
      if (Seen.insert(P).second)
        Out.push_back({P, path::parent_path(P).str(), FileKind::Other});
    } else {
      return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                     "%s: error: no such file or directory",
                                     P0.c_str());
    }
  }
  for (InputFile &F : Out) {
    auto Buf = llvm::MemoryBuffer::getFile(F.Path);
    if (!Buf)
      return llvm::createStringError(Buf.getError(), "%s: error: cannot read: %s",
                                     F.Path.c_str(),
                                     Buf.getError().message().c_str());
    F.Kind = classifyFile(F.Path, (*Buf)->getBuffer());
  }
  return llvm::Error::success();
}

