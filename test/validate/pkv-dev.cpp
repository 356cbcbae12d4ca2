//===- pkv-dev.cpp - run validate with the stand-in translator ------------===//
//
// Development driver for lib/Validate before the translator exists:
//   pkv-dev [--to cuda|hip|none] [--json] [--jobs N] [--keep-work]
//           [--work DIR] [--lanes N] [--cxx-flag F]... [--link-flag F]...
//           [--mock] PATH...
// --mock builds against test/validate/mock_emu instead of the emulator.
// --native-bundle DIR writes, for each case, a driver that launches the
// original kernel with <<<>>> (for nvcc on a real GPU; paths relative to the
// repository root, build with -I<root>) and exits.
// --gpu / --gpu-bundle DIR [--nvcc PATH] run pk::runGpuValidate (validate
// --gpu) with the stand-in translator, or with a built port-kernel given by
// --port-with BIN (its `port --to cuda` as the translator).

#include "FakePortService.h"
#include "pk/GpuRun.h"
#include "pk/Validate.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Program.h"
#include "pk/ValidateCase.h"
#include "llvm/Support/Path.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/raw_ostream.h"
#include <cstdlib>

namespace {
/// The CUDA target of a built port-kernel, run as a child process.
class SubprocessPortService : public pk::test::FakePortService {
public:
  std::string Bin;
  llvm::Error portFiles(llvm::ArrayRef<std::string> Inputs, pk::Target T,
                        llvm::StringRef OutDir,
                        std::vector<std::string> &OutPaths) override {
    if (Bin.empty())
      return FakePortService::portFiles(Inputs, T, OutDir, OutPaths);
    for (const std::string &In : Inputs) {
      std::string Msg;
      std::string Tmp = (OutDir + ".port").str();
      llvm::sys::fs::remove_directories(Tmp);
      std::string Name = pk::targetName(T).str();
      llvm::StringRef Argv[] = {Bin, "port", "--to", Name, "-q", "-o", Tmp, In};
      int RC = llvm::sys::ExecuteAndWait(Bin, Argv, std::nullopt, {}, 0, 0, &Msg);
      if (RC != 0)
        return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                       "port exit status " + std::to_string(RC) + " " + Msg);
      // The output of In: the file of its stem under Tmp/<target>/.
      std::error_code EC;
      std::string Found;
      for (llvm::sys::fs::recursive_directory_iterator I(Tmp + "/" + Name, EC), E;
           I != E && !EC; I.increment(EC))
        if (llvm::sys::path::stem(I->path()) == llvm::sys::path::stem(In) &&
            llvm::sys::fs::is_regular_file(I->path()))
          Found = I->path();
      if (Found.empty())
        return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                       "no output for " + In);
      OutPaths.push_back(Found);
    }
    return llvm::Error::success();
  }
};
} // namespace

int main(int argc, char **argv) {
  pk::ValidateOptions O;
  std::string NativeDir;
  pk::EmuToolchain TC;
  TC.ClangXX = PKV_CLANGXX;
  SubprocessPortService PS;
  pk::GpuOptions G;
  bool Gpu = false;
  PS.AllowHip = std::getenv("PKV_DEV_ALLOW_HIP") != nullptr;
  for (int I = 1; I < argc; ++I) {
    llvm::StringRef A = argv[I];
    auto Next = [&]() -> std::string { return I + 1 < argc ? argv[++I] : ""; };
    if (A == "--to") {
      std::string T = Next();
      if (T == "cuda") O.Targets.push_back(pk::Target::CUDA);
      else if (T == "hip") O.Targets.push_back(pk::Target::HIP);
    } else if (A == "--json") O.Json = true;
    else if (A == "--jobs") O.Jobs = std::atoi(Next().c_str());
    else if (A == "--keep-work") O.KeepWork = true;
    else if (A == "--work") O.WorkDir = Next();
    else if (A == "--lanes") O.Lanes = std::atoi(Next().c_str());
    else if (A == "--cxx-flag") TC.CompileFlags.push_back(Next());
    else if (A == "--link-flag") TC.LinkFlags.push_back(Next());
    else if (A == "--mock") TC.CompileFlags.push_back("-I" PKV_TEST_DIR "/mock_emu");
    else if (A == "--native-bundle") NativeDir = Next();
    else if (A == "--gpu") Gpu = true;
    else if (A == "--gpu-bundle") G.BundleDir = Next();
    else if (A == "--nvcc") G.Nvcc = Next();
    else if (A == "--port-with") PS.Bin = Next();
    else if (A == "--program") { O.Program = true; O.ProgramFile = Next(); }
    else if (A == "--") { for (++I; I < argc; ++I) O.ProgramArgs.push_back(argv[I]); }
    else O.Paths.push_back(A.str());
  }
  if (!NativeDir.empty()) {
    auto Specs = pk::validate::findCaseSpecs(O.Paths);
    if (!Specs) {
      llvm::errs() << llvm::toString(Specs.takeError()) << "\n";
      return 2;
    }
    for (const std::string &P : *Specs) {
      auto S = pk::validate::parseCaseSpecFile(P);
      if (!S) {
        llvm::errs() << llvm::toString(S.takeError()) << "\n";
        return 2;
      }
      std::string Rel = "corpus/" + llvm::sys::path::filename(S->Dir).str() + "/";
      pk::validate::DriverConfig C;
      C.NativeLaunch = true;
      C.Variant = "native";
      C.PreparedSource = Rel + S->Source;
      C.ReferenceSource = Rel + S->ReferenceSource;
      C.RuntimeHeader = "lib/Validate/runtime/pkv_rt.h";
      std::error_code EC;
      llvm::raw_fd_ostream OS(NativeDir + "/" + S->Name + ".cu", EC);
      OS << pk::validate::generateDriver(*S, C);
    }
    return 0;
  }
  if (Gpu || !G.BundleDir.empty()) {
    O.Targets = {pk::Target::CUDA};
    return pk::runGpuValidate(O, G, PS, llvm::outs(), llvm::errs());
  }
  return pk::runValidate(O, TC, PS, llvm::outs(), llvm::errs());
}
