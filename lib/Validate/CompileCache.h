//===- CompileCache.h - reuse of compiled emulator objects ----*- C++ -*-===//
// Rules: none (validation harness)
//
// `validate --cache-dir DIR`: an emulator object compiled once is reused by
// every later build of the same preprocessed source with the same compiler and
// flags, in this run or another (docs/validate.md, "Compile cache").
//
// Builds record fixed names (/@pk-work@, /@pk-cwd@) for the scratch and the
// working directory (-ffile-prefix-map, -fdebug-compilation-dir), so that an
// object is the same whichever scratch directory compiled it; unmapBuildPaths
// puts the real directories back into what a run prints.
//
//===----------------------------------------------------------------------===//
#ifndef PK_VALIDATE_COMPILECACHE_H
#define PK_VALIDATE_COMPILECACHE_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"
#include <string>
#include <vector>

namespace pk::validate {

/// What builds record instead of the scratch directory and the working
/// directory.
inline constexpr llvm::StringLiteral MappedWork = "/@pk-work@";
inline constexpr llvm::StringLiteral MappedCwd = "/@pk-cwd@";

/// The flags that make a build record /@pk-work@ and /@pk-cwd@ for the
/// scratch directory \p Work and the working directory.
std::vector<std::string> pathMapFlags(llvm::StringRef Work);

/// \p Text with /@pk-work@ and /@pk-cwd@ replaced by \p Work and \p Cwd.
std::string unmapBuildPaths(llvm::StringRef Text, llvm::StringRef Work,
                            llvm::StringRef Cwd);

/// The key of an object: SHA-256 (hex) over the compiler (its path, size and
/// modification time), \p Flags and \p Preprocessed (the output of -E). \p Work
/// is replaced by /@pk-work@ in the flags and in the line markers of the
/// preprocessed text; anything else that names it (a string literal) stays
/// and makes the key differ.
std::string objectKey(llvm::StringRef Compiler,
                      llvm::ArrayRef<std::string> Flags,
                      llvm::StringRef Preprocessed, llvm::StringRef Work);

/// Copies the object of \p Key from \p CacheDir to \p Obj; false when there
/// is none (or it cannot be copied).
bool fetchObject(llvm::StringRef CacheDir, llvm::StringRef Key,
                 llvm::StringRef Obj);

/// Stores \p Obj under \p Key in \p CacheDir (created if missing): written to
/// a unique temporary name there and renamed, so that concurrent runs never
/// see half an object. Failures are ignored: the cache is an optimisation.
void storeObject(llvm::StringRef CacheDir, llvm::StringRef Key,
                 llvm::StringRef Obj);

} // namespace pk::validate

#endif // PK_VALIDATE_COMPILECACHE_H
