//===- CompileFlagsTest.cpp - database commands to clang flags ------------===//
#include "pk/Frontend.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/raw_ostream.h"
#include "gtest/gtest.h"

using namespace pk;

namespace {

std::vector<std::string> words(llvm::StringRef S) {
  llvm::SmallVector<llvm::StringRef, 32> Parts;
  S.split(Parts, ' ', -1, /*KeepEmpty=*/false);
  return std::vector<std::string>(Parts.begin(), Parts.end());
}

std::string reduce(llvm::StringRef Cmd, llvm::StringRef Dir = "/build") {
  auto R = nvccToClangFlags(words(Cmd), Dir);
  if (!R)
    return "error: " + llvm::toString(R.takeError());
  return llvm::join(*R, " ");
}

} // namespace

TEST(NvccFlags, Table) {
  struct Case {
    const char *Nvcc, *Clang;
  } Cases[] = {
      // Dependency files: -MT's value is not a source file.
      {"nvcc -MD -MT CMakeFiles/k.dir/k.cu.o -MF CMakeFiles/k.dir/k.cu.o.d "
       "-c k.cu -o k.o",
       ""},
      // Include paths, every spelling.
      {"nvcc -Iinc -I inc2 --include-path=inc3 --include-path inc4 -I=inc5 "
       "-I a,b k.cu",
       "-Iinc -Iinc2 -Iinc3 -Iinc4 -Iinc5 -Ia -Ib"},
      {"nvcc -isystem /opt/sys -isystem=/opt/sys2 --system-include /opt/sys3",
       "-isystem /opt/sys -isystem /opt/sys2 -isystem /opt/sys3"},
      // Macros.
      {"nvcc -DA -D B=1 --define-macro=C --define-macro D=2 -UE "
       "--undefine-macro F",
       "-DA -DB=1 -DC -DD=2 -UE -UF"},
      // Forced includes and the standard.
      {"nvcc -include pre.h --pre-include=pre2.h -std=c++17",
       "-include pre.h -include pre2.h -std=c++17"},
      {"nvcc --std=c++20", "-std=c++20"},
      {"nvcc --std c++14 -std c++17", "-std=c++14 -std=c++17"},
      // The host compiler's flags: those clang understands.
      {"nvcc -Xcompiler -fPIC,-Wall,-fno-gnu-unique,-O2", "-fPIC -Wall -O2"},
      {"nvcc -Xcompiler=-fopenmp --compiler-options -DHOST=1,-Ihost",
       "-fopenmp -DHOST=1 -Ihost"},
      {"nvcc -Xcompiler -Wl,-rpath,/x -Xcompiler -rdynamic,-pipe", ""},
      {"nvcc -Xcompiler -isystem,/usr/inc,-include,h.h",
       "-isystem /usr/inc -include h.h"},
      {"nvcc -Xcompiler /MD,/W3", ""},
      // nvcc-only options and their values.
      {"nvcc -x cu -ccbin /usr/bin/g++-12 -arch=sm_80 -arch sm_90 "
       "-gencode arch=compute_80,code=sm_80 "
       "-gencode=arch=compute_90,code=sm_90 "
       "--generate-code=arch=compute_90,code=[compute_90,sm_90] "
       "-rdc=true -rdc true --relocatable-device-code=true -dc",
       ""},
      {"nvcc -O3 -g -G -lineinfo --use_fast_math --expt-relaxed-constexpr "
       "--extended-lambda -Xptxas -v -Xcudafe --diag_suppress=177 "
       "-maxrregcount 64 -m64 -Werror all-warnings -t 0 -lcublas -L/opt/lib "
       "--ftz=true -DKEEP",
       "-DKEEP"},
      // With --forward-unknown-to-host-compiler, host flags given to nvcc.
      {"nvcc -forward-unknown-to-host-compiler -fPIC -fno-gnu-unique "
       "-Wall -MD -DX",
       "-fPIC -Wall -DX"},
      // A CMake-generated command, whole.
      {"/usr/local/cuda/bin/nvcc -forward-unknown-to-host-compiler "
       "-DKERNELS_EXPORTS -I/src/include -isystem /opt/dep/include -O3 "
       "-DNDEBUG -std=c++17 --generate-code=arch=compute_80,code=[compute_80,"
       "sm_80] -Xcompiler=-fPIC -MD -MT src/CMakeFiles/k.dir/k.cu.o -MF "
       "src/CMakeFiles/k.dir/k.cu.o.d -x cu -c /src/k.cu -o "
       "src/CMakeFiles/k.dir/k.cu.o",
       "-DKERNELS_EXPORTS -I/src/include -isystem /opt/dep/include -DNDEBUG "
       "-std=c++17 -fPIC"},
  };
  for (const Case &C : Cases)
    EXPECT_EQ(reduce(C.Nvcc), C.Clang) << C.Nvcc;
}

TEST(NvccFlags, OptionsFile) {
  llvm::SmallString<128> Dir;
  ASSERT_FALSE(llvm::sys::fs::createUniqueDirectory("pk-optf", Dir));
  {
    std::error_code EC;
    llvm::raw_fd_ostream OS((Dir + "/includes_CUDA.rsp").str(), EC);
    OS << "-I/src/include \"-I/src/with space\"\n-isystem /opt/inc "
          "--options-file more.rsp\n";
    llvm::raw_fd_ostream OS2((Dir + "/more.rsp").str(), EC);
    OS2 << "-DFROM_MORE -x cu\n";
  }
  std::string D = Dir.str().str();
  EXPECT_EQ(
      reduce("nvcc --options-file includes_CUDA.rsp -DX -c k.cu", D),
      "-I/src/include -I/src/with space -isystem /opt/inc -DFROM_MORE -DX");
  EXPECT_EQ(reduce("nvcc -optf=" + D + "/more.rsp", "/elsewhere"),
            "-DFROM_MORE");
  std::string Missing = reduce("nvcc --options-file nope.rsp k.cu", D);
  EXPECT_EQ(Missing, "error: cannot read options file " + D +
                         "/nope.rsp: No such file or directory");
  llvm::sys::fs::remove_directories(Dir);
}

TEST(ClangFlags, DropsOutputsDependencyFilesAndTheSource) {
  std::vector<std::string> Cmd = {"/usr/bin/clang++",
                                  "-DA",
                                  "-Iinc",
                                  "-MD",
                                  "-MT",
                                  "obj.o",
                                  "-MF",
                                  "obj.d",
                                  "-MMD",
                                  "-MP",
                                  "-MFjoined.d",
                                  "-x",
                                  "cuda",
                                  "--cuda-gpu-arch=sm_80",
                                  "-std=c++17",
                                  "-c",
                                  "k.cu",
                                  "-o",
                                  "k.o",
                                  "-isystem",
                                  "/opt/inc"};
  std::vector<std::string> Want = {
      "-DA",        "-Iinc",    "--cuda-gpu-arch=sm_80",
      "-std=c++17", "-isystem", "/opt/inc"};
  EXPECT_EQ(clangCompileFlags(Cmd, "/src", "k.cu", "/src/k.cu"), Want);
  // The source spelt differently from the entry's "file".
  Cmd[16] = "./sub/../k.cu";
  EXPECT_EQ(clangCompileFlags(Cmd, "/src", "k.cu", "/src/k.cu"), Want);
}

// validate --program: what of a compile command reaches the emulator builds.
TEST(BuildFlags, KeepsWhatABuildNeedsWithAbsolutePaths) {
  std::vector<std::string> Rest;
  std::vector<std::string> In = {"-Iinc",      "-I",          "inc2",
                                 "-isystem",   "sys",         "-iquote",
                                 "q",          "-idirafter",  "/after",
                                 "-DA=1",      "-D",          "B",
                                 "-UC",        "-include",    "nowhere.h",
                                 "-std=c++14", "-std=gnu++20", "-fopenmp",
                                 "-Wall",      "-O3",         "-include-pch",
                                 "x.pch"};
  std::vector<std::string> Want = {
      "-I/p/inc", "-I/p/inc2",  "-isystem",  "/p/sys",       "-iquote",
      "/p/q",     "-idirafter", "/after",    "-DA=1",        "-DB",
      "-UC",      "-include",   "nowhere.h", "-std=gnu++20", "-fopenmp"};
  EXPECT_EQ(buildFlags(In, "/p", &Rest), Want);
  // -std=c++14 is older than the emulator's runtime needs.
  std::vector<std::string> WantRest = {"-std=c++14", "-Wall", "-O3",
                                       "-include-pch", "x.pch"};
  EXPECT_EQ(Rest, WantRest);
}

TEST(BuildFlags, CompDbEntryInNvccLongForms) {
  llvm::SmallString<128> Dir;
  ASSERT_FALSE(llvm::sys::fs::createUniqueDirectory("pk-dbflags", Dir));
  std::string D = Dir.str().str();
  ASSERT_FALSE(llvm::sys::fs::create_directories(D + "/pre"));
  {
    std::error_code EC;
    llvm::raw_fd_ostream OS(D + "/opts.rsp", EC);
    OS << "--include-path inc2 --define-macro=FROM_FILE\n";
    llvm::raw_fd_ostream Pre(D + "/pre/forced.h", EC);
    llvm::raw_fd_ostream DB(D + "/compile_commands.json", EC);
    DB << "[{\"directory\": \"" << D
       << "\", \"file\": \"main.cu\", \"command\": \"ccache nvcc "
          "--include-path=inc --options-file opts.rsp --system-include=sys "
          "--pre-include pre/forced.h --define-macro X=1 --undefine-macro Y "
          "--std=c++17 -Xcompiler -fopenmp,-Wall -MT main.o -MF main.d "
          "-gencode arch=compute_90,code=sm_90 -c main.cu -o main.o\"}]\n";
  }
  auto F = compDbEntryFlags(D, D + "/main.cu");
  ASSERT_TRUE(bool(F)) << llvm::toString(F.takeError());
  std::vector<std::string> Want = {
      "-I" + D + "/inc", "-I" + D + "/inc2",        "-DFROM_FILE",
      "-isystem",        D + "/sys",                "-include",
      D + "/pre/forced.h", "-DX=1",                 "-UY",
      "-std=c++17",      "-fopenmp",                "-Wall"};
  EXPECT_EQ(*F, Want);
  // An options file that cannot be read is an error naming the entry.
  {
    std::error_code EC;
    llvm::raw_fd_ostream DB(D + "/compile_commands.json", EC);
    DB << "[{\"directory\": \"" << D
       << "\", \"file\": \"main.cu\", \"command\": \"nvcc --options-file "
          "gone.rsp -c main.cu\"}]\n";
  }
  auto Bad = compDbEntryFlags(D, D + "/main.cu");
  ASSERT_FALSE(bool(Bad));
  EXPECT_EQ(llvm::toString(Bad.takeError()),
            D + "/compile_commands.json: error: the entry for " + D +
                "/main.cu: cannot read options file " + D +
                "/gone.rsp: No such file or directory [PK9001]");
  llvm::sys::fs::remove_directories(D);
}
