//===- FuzzEscape.cpp - fuzz target: the escaping layer --------------------===//
//
// Each input is text a user controls (a file name, a source line, a
// message).  Every escaping function of pk/Escape.h must hold its property
// on it (EscapeOracle.h: the escaped text read back by its language's
// reader is the text, and nothing else); a violation traps.
//
//===----------------------------------------------------------------------===//
#include "EscapeOracle.h"

#include <cstdint>
#include <cstdio>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *Data, size_t Size) {
  llvm::StringRef X(reinterpret_cast<const char *>(Data), Size);
  std::string Why = pk::oracle::check(X);
  if (!Why.empty()) {
    std::fprintf(stderr, "escape property violated: %s\ninput (hex): %s\n",
                 Why.c_str(), llvm::toHex(X).c_str());
    __builtin_trap();
  }
  return 0;
}
