//===- CompileCache.cpp - reuse of compiled emulator objects --------------===//
// Rules: none (validation harness)
//===----------------------------------------------------------------------===//

#include "CompileCache.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/SHA256.h"
#include <chrono>

using namespace llvm;

namespace pk::validate {

namespace {

std::string replaceAll(StringRef Text, StringRef From, StringRef To) {
  if (From.empty())
    return Text.str();
  std::string R;
  R.reserve(Text.size());
  while (true) {
    size_t P = Text.find(From);
    if (P == StringRef::npos)
      break;
    R += Text.take_front(P);
    R += To;
    Text = Text.drop_front(P + From.size());
  }
  R += Text;
  return R;
}

/// A line marker of -E output: `# 12 "file" flags`.
bool isLineMarker(StringRef L) {
  return L.size() > 2 && L[0] == '#' && L[1] == ' ' && isDigit(L[2]);
}

std::string objectPath(StringRef CacheDir, StringRef Key) {
  SmallString<256> P(CacheDir);
  sys::path::append(P, Key.take_front(2), Key.str() + ".o");
  return std::string(P);
}

} // namespace

std::vector<std::string> pathMapFlags(StringRef Work) {
  return {("-ffile-prefix-map=" + Work + "=" + MappedWork).str(),
          ("-fdebug-compilation-dir=" + MappedCwd).str()};
}

std::string unmapBuildPaths(StringRef Text, StringRef Work, StringRef Cwd) {
  if (!Text.contains("/@pk-"))
    return Text.str();
  return replaceAll(replaceAll(Text, MappedWork, Work), MappedCwd, Cwd);
}

std::string objectKey(StringRef Compiler, ArrayRef<std::string> Flags,
                      StringRef Preprocessed, StringRef Work) {
  SHA256 H;
  auto Field = [&](StringRef S) {
    H.update(S);
    H.update(StringRef("\0", 1));
  };
  Field("port-kernel emulator object 1");
  Field(Compiler);
  sys::fs::file_status St;
  if (!sys::fs::status(Compiler, St)) {
    Field(std::to_string(St.getSize()));
    Field(std::to_string(
        St.getLastModificationTime().time_since_epoch().count()));
  }
  for (const std::string &F : Flags)
    Field(replaceAll(F, Work, MappedWork));
  Field("-E");
  while (!Preprocessed.empty()) {
    auto [L, Rest] = Preprocessed.split('\n');
    if (isLineMarker(L) && L.contains(Work))
      H.update(replaceAll(L, Work, MappedWork));
    else
      H.update(L);
    H.update("\n");
    Preprocessed = Rest;
  }
  return toHex(H.final(), /*LowerCase=*/true);
}

bool fetchObject(StringRef CacheDir, StringRef Key, StringRef Obj) {
  std::string P = objectPath(CacheDir, Key);
  if (!sys::fs::exists(P))
    return false;
  if (sys::fs::copy_file(P, Obj)) {
    sys::fs::remove(Obj);
    return false;
  }
  // Used now: what no run used for days can be removed by age.
  int FD;
  if (!sys::fs::openFileForWrite(P, FD, sys::fs::CD_OpenExisting,
                                 sys::fs::OF_Append)) {
    (void)sys::fs::setLastAccessAndModificationTime(
        FD, std::chrono::system_clock::now());
    sys::fs::closeFile(FD);
  }
  return true;
}

void storeObject(StringRef CacheDir, StringRef Key, StringRef Obj) {
  std::string P = objectPath(CacheDir, Key);
  StringRef Parent = sys::path::parent_path(P);
  if (sys::fs::create_directories(Parent))
    return;
  SmallString<256> Tmp;
  if (sys::fs::createUniqueFile(Parent + "/.tmp-%%%%%%%%.o", Tmp))
    return;
  if (sys::fs::copy_file(Obj, Tmp) || sys::fs::rename(Tmp, P))
    sys::fs::remove(Tmp);
}

} // namespace pk::validate
