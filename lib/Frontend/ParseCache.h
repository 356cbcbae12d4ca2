//===- ParseCache.h - precompiled preludes for the parse ------------------===//
// Rules: none (infrastructure of PK9001's parse)
//
// Every CUDA or HIP parse starts with the same prelude: clang's runtime
// wrapper, which includes the toolkit's (or HIP's, or the emulator's)
// headers, and port-kernel's forced includes.  Parsing it is most of the time
// of a port of a small file.  The parse cache keeps a precompiled header
// (PCH) of that prelude per compiler configuration, the way clang's own
// -include-pch uses one, so that a parse reads the user's code and loads
// the prelude instead of parsing it again (docs/performance.md, "The
// parse cache").
//
// The cache is an accelerator, never an input: a parse with a PCH that fails
// in any way is repeated without it (its diagnostics are those of the plain
// parse), and the PCH is discarded.
//
//===----------------------------------------------------------------------===//
#ifndef PK_FRONTEND_PARSECACHE_H
#define PK_FRONTEND_PARSECACHE_H

#include "llvm/ADT/StringRef.h"
#include <memory>
#include <string>

namespace clang {
class CompilerInvocation;
class FileManager;
class PCHContainerOperations;
} // namespace clang

namespace pk {

/// Where the parse cache lives: $PORT_KERNEL_CACHE_DIR/parse, else
/// $XDG_CACHE_HOME/port-kernel/parse, else $HOME/.cache/port-kernel/parse;
/// "" when PORT_KERNEL_PARSE_CACHE=off or no location is known.
std::string parseCacheDir();

/// What the cache offers one parse.
struct PreludePch {
  std::string Path; ///< the PCH to parse with ("" when none)
  std::string Key;  ///< the configuration's key ("" when not cacheable)
};

/// The PCH for the parse \p Inv describes.  The prelude is the prefix of its
/// forced includes that port-kernel and clang's driver add; a configuration
/// whose user includes come first, or with -imacros, is not cached.  A PCH
/// is built (into the cache, atomically) the second time a configuration is
/// seen, in this process or an earlier one; the first time only marks it.
PreludePch preludePchFor(const clang::CompilerInvocation &Inv,
                         clang::FileManager &Files,
                         std::shared_ptr<clang::PCHContainerOperations> Ops);

/// The parse with \p P failed and the plain one did not: \p P is removed
/// (it is stale or damaged) and not used again by this process.
void discardPreludePch(const PreludePch &P);

} // namespace pk

#endif
