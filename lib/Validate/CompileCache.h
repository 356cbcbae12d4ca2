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
#include <condition_variable>
#include <cstdint>
#include <map>
#include <mutex>
#include <optional>
#include <set>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

namespace pk::validate {

/// What builds record instead of the scratch directory, one variant's
/// directory in it, the case's (or program's) source directory and the
/// working directory.
inline constexpr llvm::StringLiteral MappedWork = "/@pk-work@";
inline constexpr llvm::StringLiteral MappedCell = "/@pk-cell@";
inline constexpr llvm::StringLiteral MappedSrc = "/@pk-src@";
inline constexpr llvm::StringLiteral MappedCwd = "/@pk-cwd@";

/// The directories a build names and the fixed names it records instead,
/// so that the same sources compiled for another case directory, another
/// variant (the original and a byte-identical port) or another scratch
/// directory have the same key and the same object. Always maps the scratch
/// directory; a map made from a path alone maps only that (the converting
/// constructors). A directory inside another is replaced first, and "/" is
/// never mapped.
class PathMap {
public:
  PathMap(llvm::StringRef Work);
  PathMap(const char *Work) : PathMap(llvm::StringRef(Work)) {}
  PathMap(const std::string &Work) : PathMap(llvm::StringRef(Work)) {}
  /// Adds \p Real (absolute, no trailing '/') recorded as \p Mapped. Two
  /// directories may share a name (a byte-identical copy of the sources):
  /// the name is read back as the first of them.
  PathMap &add(llvm::StringRef Real, llvm::StringRef Mapped);
  const std::string &work() const { return Work; }
  /// \p Text with every mapped directory replaced by its name.
  std::string map(llvm::StringRef Text) const;
  /// \p Text with every name replaced by its directory, and /@pk-cwd@ by
  /// \p Cwd.
  std::string unmap(llvm::StringRef Text, llvm::StringRef Cwd) const;
  /// Whether \p Text names a mapped directory.
  bool mentions(llvm::StringRef Text) const;
  /// Whether \p Path lies in the scratch directory.
  bool inWork(llvm::StringRef Path) const;
  /// -ffile-prefix-map for each directory (the outermost first: clang's
  /// debug-info map tries the last one first) and -fdebug-compilation-dir.
  std::vector<std::string> flags() const;

private:
  std::string Work;
  /// (directory, name), the longest directory first.
  std::vector<std::pair<std::string, std::string>> Dirs;
  /// (name, directory it reads back as), each name once.
  std::vector<std::pair<std::string, std::string>> Names;
};

/// SHA-256 (hex) of files' contents, remembered by path, size and
/// modification time, so that one run hashes each system header once.
/// Thread-safe. Files under the scratch directory are hashed with the
/// directories of the map counted as their names (as readInputs does) and
/// never remembered.
class FileHashes {
public:
  explicit FileHashes(std::string Work) : Work(std::move(Work)) {}
  /// The hash of \p Path's content, or "" when it cannot be read. \p Map:
  /// the directories of the build that reads it (else the scratch
  /// directory alone).
  std::string hash(llvm::StringRef Path, const PathMap *Map = nullptr);

private:
  std::string Work;
  std::mutex M;
  std::map<std::string, std::tuple<uint64_t, int64_t, std::string>> Memo;
};

/// The flags that make a build record /@pk-work@ and /@pk-cwd@ for the
/// scratch directory \p Work and the working directory (PathMap::flags).
std::vector<std::string> pathMapFlags(const PathMap &Map);

/// \p Text with /@pk-work@ and /@pk-cwd@ (and the map's other names)
/// replaced by their directories (PathMap::unmap).
std::string unmapBuildPaths(llvm::StringRef Text, const PathMap &Map,
                            llvm::StringRef Cwd);

/// The key of an object: SHA-256 (hex) over the compiler (its path, size and
/// modification time), \p Flags, \p Preprocessed (the output of -E) and
/// \p Inputs: every file the build reads, as (path, SHA-256 of its content)
/// (readInputs). The directories of \p Map are replaced by their names in
/// the flags, the paths and the line markers of the preprocessed text; anything else that names
/// it (a string literal) stays and makes the key differ.
std::string
objectKey(llvm::StringRef Compiler, llvm::ArrayRef<std::string> Flags,
          llvm::StringRef Preprocessed, const PathMap &Map,
          llvm::ArrayRef<std::pair<std::string, std::string>> Inputs = {});

/// The files a build with \p Flags reads, each with the SHA-256 (hex) of its
/// content: those of the dependency file \p DepFile that preprocessing
/// wrote (-MD -MF: the source, every header, sanitizer ignore lists) and
/// every absolute path of a regular file that a flag names (-include FILE,
/// -fprofile-use=FILE, ...). The directories of \p Map count as their
/// names in their content.
/// False when one of them cannot be read: such a build is not cached.
bool readInputs(llvm::StringRef DepFile, llvm::ArrayRef<std::string> Flags,
                const PathMap &Map,
                std::vector<std::pair<std::string, std::string>> &Inputs);

/// Why the preprocessed source \p Preprocessed cannot be cached, or "" when
/// it can: inline assembly can make the assembler read files (`.incbin`,
/// `.include`), which neither the preprocessor nor its dependency output
/// sees. The test is conservative: the string literals of the source are
/// decoded (escapes, adjacent literals joined) and any mention of those
/// directives, or of the assembler's macro facilities (`.macro`, `.irp`,
/// which can spell them), refuses the cache.
std::string uncacheableReason(llvm::StringRef Preprocessed);

/// The outcome of looking an object up.
struct CacheFetch {
  enum Kind { Miss, Hit, Damaged } K = Miss;
  std::string Why; ///< Damaged: what was wrong with the entry
  explicit operator bool() const { return K == Hit; }
};

/// Copies the object of \p Key from \p CacheDir to \p Obj after checking it
/// against the SHA-256 stored next to it (`<key>.o.sha256`). An entry whose
/// object or hash is missing, truncated or altered is Damaged: it is
/// removed, so that the caller compiles and stores it again.
CacheFetch fetchObject(llvm::StringRef CacheDir, llvm::StringRef Key,
                       llvm::StringRef Obj, llvm::StringRef Ext = ".o");

/// Stores \p Obj under \p Key in \p CacheDir (created if missing), with the
/// SHA-256 of its bytes: each written to a unique temporary name there and
/// renamed (the hash first), so that concurrent runs never see half an
/// object; an entry seen between the two renames fails its check and is
/// rebuilt. Failures are ignored: the cache is an optimisation.
void storeObject(llvm::StringRef CacheDir, llvm::StringRef Key,
                 llvm::StringRef Obj, llvm::StringRef Ext = ".o");

/// The key of the program linked from the object \p ObjKey with
/// \p LinkArgs: the arguments (\p Map's directories counting as their names) and the
/// content of every regular file they name outside it (the emulator's
/// runtime library). "" when one cannot be read. Programs are stored and
/// fetched like objects, with the extension ".exe".
std::string programKey(llvm::StringRef ObjKey,
                       llvm::ArrayRef<std::string> LinkArgs,
                       const PathMap &Map, FileHashes &Hashes);


/// Direct lookup (no preprocessing): the key of the manifest of compiling
/// \p Main with \p Flags by \p Compiler. A manifest lists, for each object
/// stored from that command, the files the build read with the hash of
/// their content; \p Map's directories count as their names in flags, paths
/// and contents.
std::string manifestKey(llvm::StringRef Compiler,
                        llvm::ArrayRef<std::string> Flags,
                        llvm::StringRef Main, const PathMap &Map,
                        FileHashes &Hashes);

/// The object key of an entry of manifest \p MKey in \p CacheDir whose
/// files all have their recorded content now, or "" (no manifest, no such
/// entry, an unreadable or damaged manifest: the caller preprocesses).
std::string lookupManifest(llvm::StringRef CacheDir, llvm::StringRef MKey,
                           const PathMap &Map, FileHashes &Hashes);

/// Adds to manifest \p MKey the entry: the build read \p Inputs (as
/// readInputs gives them) and its object is \p ObjKey. The newest entries
/// are kept (at most 16); written to a temporary file and renamed.
void recordManifest(
    llvm::StringRef CacheDir, llvm::StringRef MKey, const PathMap &Map,
    llvm::ArrayRef<std::pair<std::string, std::string>> Inputs,
    llvm::StringRef ObjKey);

/// Builds of one run that would compile the same object (the original and a
/// byte-identical port, validated in parallel): the first holds its key
/// while it compiles and stores; the others wait, then find it stored.
class KeysInFlight {
public:
  /// Holds a key until destroyed (an empty key holds nothing).
  class Hold {
  public:
    Hold(Hold &&O) : Owner(O.Owner), Key(std::move(O.Key)) { O.Owner = nullptr; }
    Hold(const Hold &) = delete;
    Hold &operator=(const Hold &) = delete;
    Hold &operator=(Hold &&) = delete;
    ~Hold();

  private:
    friend class KeysInFlight;
    Hold(KeysInFlight *Owner, std::string Key)
        : Owner(Owner), Key(std::move(Key)) {}
    KeysInFlight *Owner;
    std::string Key;
  };
  /// Waits while another holds \p Key, then holds it.
  Hold acquire(llvm::StringRef Key);

private:
  std::mutex M;
  std::condition_variable CV;
  std::set<std::string> Held;
};

/// A precompiled prelude: compiles that force-include `pkemu/prelude.h`
/// (-include) use a precompiled header of it built with the same flags.
struct PreludePlan {
  std::vector<std::string> BuildArgs; ///< compile the header (no -o)
  std::string Header;                 ///< the prelude's path
  std::string Key;                    ///< names the .pch in the cache
  size_t IncludeAt = 0;               ///< index of "-include" in the flags
};

/// The plan for \p Flags, or none when they force-include no prelude, name
/// the scratch directory \p Work (the header could then differ per run), or
/// the prelude is not found on their -I path.
std::optional<PreludePlan> planPrelude(llvm::StringRef Compiler,
                                       llvm::ArrayRef<std::string> Flags,
                                       llvm::StringRef Work);

/// `<CacheDir>/pch/<key>.pch`; its `.deps` lists the files it was built from
/// with their hashes.
std::string preludePchPath(llvm::StringRef CacheDir, llvm::StringRef Key);

/// Whether the PCH of \p Key exists and every file it was built from has its
/// recorded content.
bool preludePchValid(llvm::StringRef CacheDir, llvm::StringRef Key,
                     FileHashes &Hashes);

/// Moves the PCH built at \p Built (with dependency file \p DepFile) into
/// the cache under \p Key, its .deps first. False when it cannot.
bool storePreludePch(llvm::StringRef CacheDir, llvm::StringRef Key,
                     llvm::StringRef Built, llvm::StringRef DepFile,
                     llvm::ArrayRef<std::string> Flags);

} // namespace pk::validate

#endif // PK_VALIDATE_COMPILECACHE_H
