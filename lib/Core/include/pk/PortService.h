//===- PortService.h - what the validation harness needs from the translator
//-===//
// Rules: none (interface)
//
// The harness (lib/Validate) ports sources and prepares them for the SIMT
// emulator through this interface; the translator (lib/Driver) implements it.
//
//===----------------------------------------------------------------------===//
#ifndef PK_PORTSERVICE_H
#define PK_PORTSERVICE_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"
#include <optional>
#include <string>
#include <vector>

namespace pk {

/// The output targets (pk/TargetList.def).
enum class Target {
#define PK_TARGET(ID, NAME, EMU, FACTORY) ID,
#include "pk/TargetList.def"
};

/// How `validate` runs a target's output.
enum class EmuLanguage { None, CUDA, HIP };

/// "cuda", "hip", ... (the name of --to and of the output folder).
llvm::StringRef targetName(Target T);
EmuLanguage targetEmuLanguage(Target T);
/// The target named \p Name, if there is one.
std::optional<Target> findTarget(llvm::StringRef Name);
/// Every target, in TargetList.def order.
std::vector<Target> allTargets();

class PortService {
public:
  virtual ~PortService() = default;

  /// Ports \p Inputs (files; their local headers come along) to \p T and
  /// writes the outputs under \p OutDir mirroring the inputs' layout relative
  /// to their common parent directory, with the target's extensions and
  /// include directives pointing at the translated names.  On success
  /// \p OutPaths receives the path of each input's output, in input order.
  virtual llvm::Error portFiles(llvm::ArrayRef<std::string> Inputs, Target T,
                                llvm::StringRef OutDir,
                                std::vector<std::string> &OutPaths) = 0;

  /// Ports \p Inputs to every target of \p Targets: the outputs of
  /// Targets[I] go under OutDirs[I] and their paths into OutPaths[I], as
  /// portFiles does.  A translator that can parses the inputs once for all
  /// the targets; this default ports to each target in turn.
  virtual llvm::Error
  portFilesToTargets(llvm::ArrayRef<std::string> Inputs,
                     llvm::ArrayRef<Target> Targets,
                     llvm::ArrayRef<std::string> OutDirs,
                     std::vector<std::vector<std::string>> &OutPaths) {
    OutPaths.assign(Targets.size(), {});
    for (size_t I = 0; I < Targets.size(); ++I)
      if (llvm::Error E =
              portFiles(Inputs, Targets[I], OutDirs[I], OutPaths[I]))
        return E;
    return llvm::Error::success();
  }

  /// Prepares \p MainFile (CUDA when !IsHip, HIP otherwise) for the emulator:
  /// rewrites launches to pkemu::launch and __shared__ declarations to the
  /// PKEMU_* macros, in the main file and every local header it includes.
  /// Writes the prepared main file and the local files it includes under
  /// \p OutDir (same relative layout as next to \p MainFile) and returns the
  /// prepared main file's path.
  virtual llvm::Expected<std::string>
  emuPrepare(llvm::StringRef MainFile, bool IsHip, llvm::StringRef OutDir) = 0;

  /// emuPrepare with the include directories, macros, forced includes and
  /// standard of the parse given by \p BuildFlags (absolute paths, as
  /// buildFlags of pk/Frontend.h writes them) instead of those of the
  /// compilation database and --extra-arg: `validate --program` prepares a
  /// port, whose headers are found in the translated tree.
  virtual llvm::Expected<std::string>
  emuPrepareWithFlags(llvm::StringRef MainFile, bool IsHip,
                      llvm::StringRef OutDir,
                      llvm::ArrayRef<std::string> BuildFlags) {
    return emuPrepare(MainFile, IsHip, OutDir);
  }

  /// True when \p File is HIP source (by its extension and by what it uses),
  /// so that `validate --program` runs a HIP original at 64 lanes.
  virtual bool isHipSource(llvm::StringRef File) const { return false; }
};

} // namespace pk

#endif
