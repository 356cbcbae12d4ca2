//===- NKITarget.cpp - CUDA/HIP tile kernels -> NKI tile programs ---------===//
// Rules: PK5001
//
// The NKI target: the output of a file is not an edit of the source but a
// Python module generated from its lifted kernels (LiftDriver.cpp) by the tile
// program emitter (TileProgram.cpp): foo.cu -> foo.py, one @nki.jit function
// per lifted __global__ function and the PK_KERNELS calling convention.
// Kernels that are not lifted get a finding (PK5002-PK5008) and are listed
// in the module's header comment; `check --to nki` reports the same
// findings without writing anything.
//
// Every printed tile operation's origin (LiftOrigins.cpp) goes to the
// report as the output line it is on (TargetContext::GenLines).
//
// PK_NKI_DUMP_TILE_IR=FILE writes the tile programs as JSON lines (one
// kernel per line) for inspection and tests.
//
//===----------------------------------------------------------------------===//
#include "Lift.h"
#include "TileProgram.h"
#include "pk/Target.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"
#include <cstdlib>
#include <mutex>

using namespace pk;

namespace {

void dumpTileIR(const std::map<std::string, nki::LiftedFile> &Files) {
  const char *Path = std::getenv("PK_NKI_DUMP_TILE_IR");
  if (!Path || !*Path)
    return;
  static std::mutex M;
  std::lock_guard<std::mutex> G(M);
  std::error_code EC;
  llvm::raw_fd_ostream OS(Path, EC, llvm::sys::fs::OF_Append);
  if (EC)
    return;
  for (const auto &[File, LF] : Files)
    for (const nki::Kernel &K : LF.Kernels)
      OS << nki::toJson(K) << "\n";
}

class NkiTarget : public TargetBackend {
public:
  Target id() const override { return Target::NKI; }

  /// foo.cu, foo.hip, foo.cpp -> foo.py; a header foo.cuh -> foo_cuh.py
  /// (an importable module that cannot collide with foo.cu's); other files
  /// keep their names.
  std::string outputName(llvm::StringRef Path) const override {
    llvm::StringRef Ext = llvm::sys::path::extension(Path);
    bool Header = Ext == ".cuh" || Ext == ".hiph" || Ext == ".h" ||
                  Ext == ".hpp" || Ext == ".hh";
    if (!Header && Ext != ".cu" && Ext != ".hip" && Ext != ".cpp" &&
        Ext != ".cc" && Ext != ".cxx")
      return Path.str();
    llvm::SmallString<256> P(Path);
    llvm::sys::path::replace_extension(P, "");
    if (Header)
      P += "_" + Ext.drop_front().str();
    P += ".py";
    return P.str().str();
  }

  llvm::StringRef commentPrefix() const override { return "#"; }

  /// Nothing is edited: the output is generated whole (generate()).
  std::vector<TargetPass> portPasses() const override { return {}; }

  /// The lifter's findings, without output.
  std::vector<TargetPass> checkPasses() const override {
    return {pass("nki-lift",
                 [](TargetContext &TC) { (void)nki::liftKernels(TC); })};
  }

  void generate(TargetContext &TC,
                std::map<std::string, std::string> &Out) const override {
    auto Files = nki::liftKernels(TC);
    dumpTileIR(Files);
    for (const auto &[File, LF] : Files) {
      std::vector<nki::PrintedOp> Printed;
      Out[File] = nki::emitPython(LF.Kernels, LF.Header, &Printed);
      // Which source lines became which tile operations (the report).
      std::vector<GeneratedLine> &GL = TC.GenLines[File];
      for (const nki::PrintedOp &P : Printed) {
        GeneratedLine G;
        G.OutLine = P.OutLine;
        G.Kernel = P.Kernel;
        G.What = nki::opCallName(P.Kind);
        G.Line = P.From->Line;
        G.EndLine = P.From->EndLine;
        G.RuleID = ruleName(P.From->Rule);
        G.Why = P.From->Why;
        GL.push_back(std::move(G));
      }
    }
  }
};

} // namespace

std::unique_ptr<TargetBackend> pk::createNkiTarget() {
  return std::make_unique<NkiTarget>();
}
