//===- Target.h - what an output target is to the driver
//-------------------===//
// Rules: none (the target interface)
//
// A target (HIP, CUDA, ...) is a name, a way to name its outputs, and two
// ordered lists of passes over a parsed translation unit: the passes of
// `port` (rewrites and findings) and the hazard passes of `check` (findings
// only).  The driver knows targets only through this interface and the rows
// of pk/TargetList.def; a target lives in its own folder lib/Targets/<Name>/.
//
//===----------------------------------------------------------------------===//
#ifndef PK_TARGET_H
#define PK_TARGET_H

#include "pk/TargetContext.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"
#include <functional>
#include <map>
#include <memory>
#include <string>
#include <vector>

namespace pk {

/// One pass of a target: a name (for docs and debugging) and the function
/// that runs it over a translation unit.  Passes run in list order and share
/// what they learn through TargetContext::Facts.
struct TargetPass {
  const char *Name;
  std::function<llvm::Error(TargetContext &)> Run;
};
/// A pass that records its edits and findings in the context and cannot
/// fail on its own (conflicting edits are collected by the context).
inline TargetPass pass(const char *Name, void (*Run)(TargetContext &)) {
  return {Name, [Run](TargetContext &TC) {
            Run(TC);
            return llvm::Error::success();
          }};
}

class TargetBackend {
public:
  virtual ~TargetBackend() = default;
  virtual Target id() const = 0;
  llvm::StringRef name() const { return targetName(id()); }
  /// The output path of an input of the target's language (foo.cu ->
  /// foo.hip); files the target does not translate keep their name.
  virtual std::string outputName(llvm::StringRef Path) const = 0;
  /// How comments (diagnostics in the output) start: "//" or "#".
  virtual llvm::StringRef commentPrefix() const { return "//"; }
  /// The passes of `port`, in order.
  virtual std::vector<TargetPass> portPasses() const = 0;
  /// The passes of `check`: what the target reports as portability hazards
  /// without rewriting anything.
  virtual std::vector<TargetPass> checkPasses() const = 0;
  /// A target whose output is not an edit of the source (NKI) writes the
  /// whole text of a user file's output here, after its port passes, while
  /// the AST is alive (it may record findings in \p TC too): file -> output
  /// text.  Files it leaves out (and every file of targets that do not
  /// override this) are rendered from the edits and findings.
  virtual void generate(TargetContext &TC,
                        std::map<std::string, std::string> &Out) const {}
};

/// The target \p T (created once, from its TargetList.def factory).
const TargetBackend &targetBackend(Target T);

/// Runs \p Passes in order over \p TC; returns the first error (conflicting
/// edits).
llvm::Error runPasses(TargetContext &TC, const std::vector<TargetPass> &Passes);

#define PK_TARGET(ID, NAME, EMU, FACTORY)                                      \
  std::unique_ptr<TargetBackend> FACTORY();
#include "pk/TargetList.def"

} // namespace pk
#endif
