//===- DataDir.cpp - where port-kernel's data files are -------------------===//
// Rules: none (configuration)
#include "pk/DataDir.h"

#include "llvm/ADT/SmallString.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Program.h"
#include <cstdlib>

using namespace llvm;

namespace {
int AnchorForExecutable;

std::string computeDataDir() {
  if (const char *Env = std::getenv("PORT_KERNEL_DATA_DIR"))
    if (*Env) {
      SmallString<256> P(Env);
      sys::fs::make_absolute(P);
      sys::path::remove_dots(P, /*remove_dot_dot=*/true);
      return std::string(P);
    }
  // /proc/self/exe on Linux: the binary itself, whatever argv[0] says.
  std::string Exe = sys::fs::getMainExecutable(nullptr, &AnchorForExecutable);
  SmallString<256> P(sys::path::parent_path(sys::path::parent_path(Exe)));
  sys::path::append(P, "share", "port-kernel");
  return std::string(P);
}
} // namespace

const std::string &pk::dataDir() {
  static const std::string D = computeDataDir();
  return D;
}

std::string pk::dataPath(StringRef Rel) {
  SmallString<256> P(dataDir());
  SmallVector<StringRef, 8> Parts;
  Rel.split(Parts, '/', -1, /*KeepEmpty=*/false);
  for (StringRef Part : Parts)
    sys::path::append(P, Part);
  return std::string(P);
}

Error pk::checkDataDir() {
  if (sys::fs::is_regular_file(dataPath(DataDirMarker)))
    return Error::success();
  const char *Env = std::getenv("PORT_KERNEL_DATA_DIR");
  if (Env && *Env)
    return createStringError(
        "the data directory %s (PORT_KERNEL_DATA_DIR) is not port-kernel's: "
        "it has no %s file",
        dataDir().c_str(), DataDirMarker);
  return createStringError(
      "port-kernel's data directory %s is missing (it is looked for next to "
      "the executable, as <prefix>/bin/port-kernel and "
      "<prefix>/share/port-kernel); reinstall, or set PORT_KERNEL_DATA_DIR",
      dataDir().c_str());
}
