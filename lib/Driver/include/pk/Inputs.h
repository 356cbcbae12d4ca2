//===- Inputs.h - which files a run reads ---------------------------------===//
// Rules: PK9001
#ifndef PK_INPUTS_H
#define PK_INPUTS_H

#include "pk/Frontend.h"
#include "llvm/ADT/ArrayRef.h"
#include "llvm/Support/Error.h"
#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace pk {

/// One input file of a run.
struct InputFile {
  std::string Path; ///< absolute
  std::string Root; ///< directory the input's layout is relative to
  FileKind Kind;
  bool Named = false; ///< named on the command line, not found by a walk
};

/// Collects the files under \p Paths (directories recursively, hidden
/// entries skipped), sorted and without duplicates, classified by
/// extension and content.
///
/// The walk stays inside each directory given: a symbolic link whose target
/// lies outside that directory is not followed, nor is a link to a directory
/// the walk reads anyway (which includes every link loop); a linked file
/// inside the tree is read once, at its own path.  Entries that cannot be
/// read as sources (an unreadable subdirectory, a FIFO, a socket, a device,
/// a dangling link) are left out too.  Each entry left out adds one line
/// `PATH: note: ... [PK9001]` to \p Skipped (when given), in walk order, for
/// the driver to print.  Paths given explicitly that do not exist or are not
/// regular files or directories are errors.
llvm::Error collectInputs(llvm::ArrayRef<std::string> Paths,
                          std::vector<InputFile> &Out,
                          std::vector<std::string> *Skipped = nullptr);

/// Source files among \p Inputs (not headers) that another input includes
/// (`#include "kernels.cu"` in main.cu): each such file -> the first input
/// that includes it, in input order.  A cheap scan of `#include` lines (no
/// preprocessing: a file included under `#if 0` counts too); a quoted name
/// is looked up next to the including file, then in \p IncludeDirs, an
/// angled one in \p IncludeDirs.  A file that includes itself does not count.
std::map<std::string, std::string>
findIncludedSources(const std::vector<InputFile> &Inputs,
                    llvm::ArrayRef<std::string> IncludeDirs);
/// The include directories (-I, -isystem, -iquote, -idirafter) of a clang
/// command line, made absolute.
std::vector<std::string> includeDirsOf(llvm::ArrayRef<std::string> Args);

/// How many translation units to parse at once.  \p Requested is the `-j`
/// value (0: one per core); the result never exceeds what the available
/// memory allows (about ParseBytesEstimate per parse) nor \p NumTUs, and is
/// at least 1.
unsigned effectiveJobs(unsigned Requested, size_t NumTUs);
/// The same computation for a given machine: \p Cores hardware threads and
/// \p AvailableBytes of free memory (0: unknown, no memory cap).
unsigned effectiveJobs(unsigned Requested, size_t NumTUs, unsigned Cores,
                       uint64_t AvailableBytes);
/// Memory one parse of a translation unit is assumed to need.
constexpr uint64_t ParseBytesEstimate = 400ull << 20;
/// Memory available to this process now (the smaller of the system's
/// available memory and the cgroup's remaining limit); 0 when unknown.
uint64_t availableMemoryBytes();

/// Absolute, dot-free form of \p P.
std::string absPath(llvm::StringRef P);

/// Files \p File includes: its `#include "..."` / `<...>` lines resolved
/// next to it, then in \p IncludeDirs (the first existing file wins); a
/// textual scan, so includes built by macros are not seen.
std::vector<std::string> scanIncludes(llvm::StringRef File,
                                      llvm::ArrayRef<std::string> IncludeDirs);
/// True when \p Child is \p Dir or lies under it.
bool isUnder(llvm::StringRef Child, llvm::StringRef Dir);
/// The deepest directory containing both \p A and \p B.
std::string commonDir(llvm::StringRef A, llvm::StringRef B);
/// Header extensions (.cuh, .h, .hpp, ...).
bool isHeaderExt(llvm::StringRef P);

} // namespace pk
#endif
