//===- Frontend.h - parse a CUDA/HIP file once
//-----------------------------===//
// Rules: PK9001, PK9102, PK9103
#ifndef PK_FRONTEND_H
#define PK_FRONTEND_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"
#include <memory>
#include <string>
#include <vector>

namespace clang {
class ASTUnit;
class Decl;
}

namespace pk {

class ParentIndex;

enum class Lang { CUDA, HIP };

struct FrontendOptions {
  std::string CompDbDir;                    ///< -p DIR (empty: defaults)
  std::vector<std::string> ExtraArgs;       ///< --extra-arg
  std::vector<std::string> ExtraArgsBefore; ///< --extra-arg-before
  /// --cuda-path: empty = auto-detect ($CUDA_PATH, $CUDA_HOME,
  /// /usr/local/cuda); "none" = use the bundled declarations.
  std::string CudaPath;
  /// --stub-missing-includes: a header that is not installed (mpi.h,
  /// omp.h, gsl/...) is parsed as an empty one, and errors in host code that
  /// follow are tolerated; each is reported (ParsedFile::StubNotes, PK9102).
  bool StubMissingIncludes = false;
  /// Parse for the emulator: CUDA/HIP mode against the emulator's shims.
  bool EmuParse = false;
  bool Verbose = false;
};

/// CUDA_VERSION of the toolkit at \p Dir (12080 for 12.8), 0 when unknown.
unsigned cudaToolkitVersion(llvm::StringRef Dir);
/// The build number of the toolkit's nvcc (its __CUDACC_VER_BUILD__: 88 for
/// nvcc 13.0.88), 0 when not known.
unsigned nvccBuildNumber(llvm::StringRef Dir);
/// The newest CUDA version clang 19 knows (12.5); a newer toolkit is parsed
/// with the compatibility declarations of nvccCompatHeader() (PK9103).
constexpr unsigned MaxClangCudaVersion = 12050;
/// Declarations of what nvcc accepts and clang does not (__ldcs on vector
/// types, host min/max on mixed types, unqualified isfinite, __nv_atomic_*),
/// force-included for a newer toolkit and with the bundled declarations.
std::string nvccCompatHeader();

/// Returns the CUDA toolkit to parse against, or "" when none is usable (the
/// bundled declarations are used then).
std::string detectCudaToolkit(const FrontendOptions &O);

/// Language of a source by extension and by what the file itself uses
/// (comments and string literals do not count): .hip/.hiph -> HIP; a
/// .cu/.cuh/.cpp/.h/... file is HIP when it uses more HIP API (hip* calls,
/// hipLaunchKernelGGL, system includes of <hip/...>) than CUDA API (cuda*
/// calls, CUDA headers), and CUDA when it uses CUDA API, has a CUDA
/// extension or uses __global__/__device__/__shared__/<<<; a tie goes to the
/// extension.  A quoted "hip/hip_*.h" counts as HIP unless it exists next to
/// the file; any other quoted "hip/x.h" is the project's own header, not
/// evidence of HIP.  Anything else with a C/C++ extension is PlainCXX; other
/// extensions are Other.
enum class FileKind { CUDA, HIP, PlainCXX, Other };
FileKind classifyFile(llvm::StringRef Path, llvm::StringRef Content);

/// Reduces an nvcc command line from a compilation database (\p Nvcc, with
/// argv[0]) to the clang flags that matter for parsing the source: include
/// paths (-I, --include-path, -isystem, --system-include), macros (-D,
/// --define-macro, -U, --undefine-macro), forced includes (-include,
/// --pre-include), the language standard (-std, --std) and the host
/// compiler's flags of -Xcompiler/--compiler-options that clang understands
/// (-D, -U, -I, -isystem, -include, -std=, -f..., -m..., -W..., -O...).
/// nvcc-only options and their values (-x, -ccbin, -arch, -gencode, -rdc,
/// -MF/-MT, -o, ...) are dropped, as are positional arguments (the source).
/// --options-file/-optf files are read (paths relative to \p Directory) and
/// reduced in place.  Fails only when an options file cannot be read.
llvm::Expected<std::vector<std::string>>
nvccToClangFlags(llvm::ArrayRef<std::string> Nvcc, llvm::StringRef Directory);

/// Reduces a clang/gcc command line from a compilation database (with
/// argv[0]) to its flags: drops argv[0], the source (\p File as written in
/// the entry, or any spelling that names \p AbsFile from \p Directory), -c,
/// -o FILE, -x LANG and the dependency-file options (-M, -MD, -MMD,
/// -MF/-MT/-MQ FILE, -MP, ...), which would write files.
std::vector<std::string> clangCompileFlags(llvm::ArrayRef<std::string> Cmd,
                                           llvm::StringRef Directory,
                                           llvm::StringRef File,
                                           llvm::StringRef AbsFile);

/// The clang flags of \p File's entry in the compilation database in
/// \p DbDir, reduced as for its parse (nvccToClangFlags or
/// clangCompileFlags), with the paths of -I, -isystem, -iquote, -idirafter,
/// -include and -imacros made absolute against the entry's directory; empty
/// when the database has no entry for it.  Fails when the database cannot be
/// loaded or an options file of the entry cannot be read.
llvm::Expected<std::vector<std::string>> compDbEntryFlags(llvm::StringRef DbDir,
                                                          llvm::StringRef File);

/// The flags of \p Flags (clang spellings) that a build of the program needs
/// as well as its parse: include directories (-I, -isystem, -iquote,
/// -idirafter; made absolute against \p Dir), forced includes (-include,
/// -imacros; made absolute when the file is there, otherwise looked up on
/// the include path), macros (-D, -U) and a language standard of C++17 or
/// newer (-std=; the emulator's runtime needs C++17), and OpenMP
/// (-fopenmp, -fopenmp=RUNTIME: written -fopenmp, which the emulator builds
/// also link with).  Values are written
/// joined for -I/-D/-U (-I/abs) and as the next argument otherwise.  The
/// flags left out go to \p Rest when given.
std::vector<std::string> buildFlags(llvm::ArrayRef<std::string> Flags,
                                    llvm::StringRef Dir,
                                    std::vector<std::string> *Rest = nullptr);

/// The files the compilation database in \p Dir lists (absolute paths).
llvm::Expected<std::vector<std::string>> compDbFiles(llvm::StringRef Dir);

/// Something the parse accepted only because a header was stubbed.
struct ParseNote {
  std::string File; ///< absolute
  unsigned Offset = 0;
  std::string Message;
};

/// A parsed translation unit: the AST every target consumes.
struct ParsedFile {
  std::string Path; ///< absolute path of the main file
  Lang Language = Lang::CUDA;
  bool BundledDecls = false; ///< parsed without a CUDA toolkit
  bool CompatDecls = false;  ///< with nvccCompatHeader() (PK9103)
  std::unique_ptr<clang::ASTUnit> AST;
  /// Main file and the local (non-system) headers of the TU, absolute paths.
  std::vector<std::string> UserFiles;
  std::vector<std::string> CommandLine; ///< the clang command used
  /// Stubbed headers (where included) and the host-code errors tolerated
  /// because of them (--stub-missing-includes, PK9102).
  std::vector<ParseNote> StubNotes;
  /// What nvcc predefines and the CUDA parse defined the way nvcc of the
  /// toolkit in use would (`__NVCC__`, `__CUDACC__`, `__CUDACC_VER_MAJOR__`,
  /// ...): name and value.  Empty for HIP inputs.  HIP compilers define none
  /// of them, so the HIP target writes their values where the user's files
  /// test them (PK1026).
  std::vector<std::pair<std::string, std::string>> NvccMacros;
  /// The top-level declarations in the user's files: the AST's traversal
  /// scope (every RecursiveASTVisitor and matcher walks these).
  std::vector<clang::Decl *> UserScope;
  /// The parents of the nodes under UserScope, built on first use
  /// (UserSource::parents) and shared by every target's passes.
  mutable std::unique_ptr<ParentIndex> Parents;
  ~ParsedFile();
};

/// Parses \p Path once.  Any clang error fails the parse (the AST of a TU
/// with errors is never trusted); the message lists clang's diagnostics.  A
/// compilation database that cannot be loaded, or whose entry for the file
/// names a directory that does not exist, fails it too (PK9001).  Safe to
/// call from several threads: the parse's working directory is its own.
llvm::Expected<std::unique_ptr<ParsedFile>>
parseFile(llvm::StringRef Path, Lang L, const FrontendOptions &O);

/// Paths configured at build time.
struct FrontendPaths {
  static std::string resourceDir();
  static std::string bundledDeclsDir();
  static std::string cuda13ShimDir();
  static std::string emuShimDir();
  static std::string hipIncludeDir();
};

} // namespace pk
#endif
