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

#include "FakePortService.h"
#include "pk/Validate.h"
#include "pk/ValidateCase.h"
#include "llvm/Support/Path.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/raw_ostream.h"
#include <cstdlib>

int main(int argc, char **argv) {
  pk::ValidateOptions O;
  std::string NativeDir;
  pk::EmuToolchain TC;
  TC.ClangXX = PKV_CLANGXX;
  pk::test::FakePortService PS;
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
  return pk::runValidate(O, TC, PS, llvm::outs(), llvm::errs());
}
