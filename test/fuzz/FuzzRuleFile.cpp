//===- FuzzRuleFile.cpp - libFuzzer target: the rule-file loader ----------===//
//
// Each input is a rename table (YAML) loaded by RenameDB::loadFile, as a
// user table (--rules) and as a built-in one.  The bytes live in an
// in-memory file (memfd): nothing is written to disk.  Any input must give a
// table or an error with file:line, never a crash, a hang or a sanitizer
// report.
//
//===----------------------------------------------------------------------===//
#include "pk/Rules.h"

#include "llvm/Support/Error.h"
#include <cstddef>
#include <cstdint>
#include <string>
#include <sys/mman.h>
#include <unistd.h>

static int MemFd = -1;

static std::string putInMemory(const uint8_t *Data, size_t Size) {
  if (MemFd < 0)
    MemFd = memfd_create("rules.yaml", 0);
  if (MemFd < 0 || ftruncate(MemFd, 0) != 0 ||
      pwrite(MemFd, Data, Size, 0) != (ssize_t)Size)
    __builtin_trap(); // the harness itself failed
  return "/proc/self/fd/" + std::to_string(MemFd);
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *Data, size_t Size) {
  std::string Path = putInMemory(Data, Size);
  for (bool BuiltIn : {false, true}) {
    pk::RenameDB DB;
    if (llvm::Error E = DB.loadFile(Path, BuiltIn)) {
      // An error must say where: the path and a line.
      std::string Msg = llvm::toString(std::move(E));
      if (Msg.find("/proc/self/fd/") == std::string::npos)
        __builtin_trap();
      continue;
    }
    // A loaded table answers lookups in both directions.
    for (const pk::RenameTable &T : DB.tables())
      for (const pk::RenameEntry &R : T.Entries) {
        DB.lookup(R.Cuda, true);
        DB.lookup(R.Hip, false);
        DB.lookupHeader(R.Cuda, true);
      }
  }
  return 0;
}
