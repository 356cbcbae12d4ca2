//===- InputsTest.cpp - input collection, classification, parallelism -----===//
#include "pk/Inputs.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Regex.h"
#include "llvm/Support/raw_ostream.h"
#include "gtest/gtest.h"
#include <filesystem>
#include <grp.h>
#include <random>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <unistd.h>

using namespace pk;
namespace fs = llvm::sys::fs;

namespace {

/// A scratch directory, removed at the end of the test.
class ScratchDir {
public:
  ScratchDir() {
    llvm::SmallString<128> P;
    EXPECT_FALSE(fs::createUniqueDirectory("pk-inputs", P));
    // The real path, so that the tests' expectations need no resolving.
    llvm::SmallString<128> R;
    EXPECT_FALSE(fs::real_path(P, R));
    Root = R.str().str();
  }
  // std::filesystem: LLVM's remove refuses FIFOs and sockets, which some
  // tests create.
  ~ScratchDir() {
    std::error_code EC;
    std::filesystem::remove_all(Root, EC);
  }
  std::string path(llvm::StringRef Rel) const { return Root + "/" + Rel.str(); }
  void file(llvm::StringRef Rel, llvm::StringRef Text = "int x;\n") const {
    std::string P = path(Rel);
    fs::create_directories(llvm::sys::path::parent_path(P));
    std::error_code EC;
    llvm::raw_fd_ostream OS(P, EC);
    OS << Text;
  }
  void dir(llvm::StringRef Rel) const { fs::create_directories(path(Rel)); }
  void link(llvm::StringRef Target, llvm::StringRef Rel) const {
    ASSERT_FALSE(fs::create_link(Target, path(Rel)));
  }
  std::string Root;
};

struct Collected {
  std::vector<std::string> Files; ///< relative to the scratch root
  std::vector<std::string> Skipped;
};

Collected collect(const ScratchDir &D, llvm::StringRef Rel) {
  Collected C;
  std::vector<InputFile> In;
  llvm::Error E = collectInputs({D.path(Rel)}, In, &C.Skipped);
  EXPECT_FALSE(bool(E)) << llvm::toString(std::move(E));
  for (const InputFile &F : In)
    C.Files.push_back(F.Path.substr(D.Root.size() + 1));
  return C;
}

std::string joined(const std::vector<std::string> &V) {
  return llvm::join(V, "\n");
}

} // namespace

TEST(Inputs, SymlinkLoopIsNotFollowed) {
  ScratchDir D;
  D.file("t/a.cu");
  D.file("t/sub/b.cu");
  D.link("..", "t/sub/up");  // loop back to t
  D.link(".", "t/sub/self"); // loop to itself
  Collected C = collect(D, "t");
  EXPECT_EQ(C.Files, (std::vector<std::string>{"t/a.cu", "t/sub/b.cu"}));
  ASSERT_EQ(C.Skipped.size(), 2u) << joined(C.Skipped);
  EXPECT_EQ(C.Skipped[0], D.path("t/sub/self") +
                              ": note: skipped: symbolic link loop back to " +
                              D.path("t/sub") + " [PK9001]");
  EXPECT_EQ(C.Skipped[1], D.path("t/sub/up") +
                              ": note: skipped: symbolic link loop back to " +
                              D.path("t") + " [PK9001]");
}

TEST(Inputs, SymlinkOutOfTheTreeIsNotFollowed) {
  ScratchDir D;
  D.file("t/a.cu");
  D.file("etc/passwd", "root:x:0:0\n");
  D.link(D.path("etc"), "t/etc");             // a directory outside
  D.link(D.path("etc/passwd"), "t/passwd.h"); // a file outside
  D.link("../etc/passwd", "t/rel.h");         // relative, outside
  Collected C = collect(D, "t");
  EXPECT_EQ(C.Files, (std::vector<std::string>{"t/a.cu"}));
  ASSERT_EQ(C.Skipped.size(), 3u) << joined(C.Skipped);
  EXPECT_EQ(C.Skipped[0], D.path("t/etc") +
                              ": note: skipped: symbolic link to " +
                              D.path("etc") + ", outside the input directory " +
                              D.path("t") + " [PK9001]");
  EXPECT_NE(C.Skipped[1].find("t/passwd.h: note: skipped: symbolic link to " +
                              D.path("etc/passwd") + ", outside"),
            std::string::npos);
  EXPECT_NE(C.Skipped[2].find("t/rel.h: note: skipped: symbolic link to " +
                              D.path("etc/passwd") + ", outside"),
            std::string::npos);
}

TEST(Inputs, LinkedFileInsideTheTreeIsReadOnce) {
  ScratchDir D;
  D.file("t/a.cu");
  D.file("t/inc/k.cuh");
  D.link("inc/k.cuh", "t/0k.cuh"); // sorts before its target
  D.link("../a.cu", "t/inc/a_link.cu");
  D.link("inc", "t/inc2"); // a directory the walk reads anyway
  Collected C = collect(D, "t");
  EXPECT_EQ(C.Files, (std::vector<std::string>{"t/a.cu", "t/inc/k.cuh"}));
  ASSERT_EQ(C.Skipped.size(), 1u) << joined(C.Skipped);
  EXPECT_EQ(C.Skipped[0], D.path("t/inc2") +
                              ": note: skipped: symbolic link to " +
                              D.path("t/inc") +
                              ", a directory the walk reads already [PK9001]");
}

TEST(Inputs, LinkToAHiddenDirectoryIsReadUnderTheLinkName) {
  ScratchDir D;
  D.file("t/.store/k.cu");
  D.link(".store", "t/kernels");
  Collected C = collect(D, "t");
  EXPECT_EQ(C.Files, (std::vector<std::string>{"t/kernels/k.cu"}));
  EXPECT_TRUE(C.Skipped.empty()) << joined(C.Skipped);
}

TEST(Inputs, SpecialFilesAndDanglingLinksAreReported) {
  ScratchDir D;
  D.file("t/a.cu");
  ASSERT_EQ(mkfifo(D.path("t/pipe").c_str(), 0600), 0);
  D.link("nowhere.cu", "t/dangling.cu");
  // A Unix socket (bound, then left behind).
  int S = socket(AF_UNIX, SOCK_STREAM, 0);
  ASSERT_GE(S, 0);
  sockaddr_un Addr{};
  Addr.sun_family = AF_UNIX;
  std::string SockPath = D.path("t/sock");
  if (SockPath.size() < sizeof(Addr.sun_path)) {
    strcpy(Addr.sun_path, SockPath.c_str());
    ASSERT_EQ(bind(S, reinterpret_cast<sockaddr *>(&Addr), sizeof(Addr)), 0);
  }
  close(S);
  Collected C = collect(D, "t");
  EXPECT_EQ(C.Files, (std::vector<std::string>{"t/a.cu"}));
  std::vector<std::string> Want = {
      D.path("t/dangling.cu") +
          ": note: skipped: dangling symbolic link [PK9001]",
      D.path("t/pipe") +
          ": note: skipped: a FIFO, not a regular file or directory [PK9001]"};
  if (SockPath.size() < sizeof(Addr.sun_path))
    Want.push_back(D.path("t/sock") + ": note: skipped: a socket, not a "
                                      "regular file or directory [PK9001]");
  EXPECT_EQ(C.Skipped, Want);
}

/// collect() as an unprivileged user (root reads every directory): in a
/// child process that drops to uid/gid 65534 first.  Returns false when that
/// is not possible.
bool collectUnprivileged(const ScratchDir &D, llvm::StringRef Rel,
                         Collected &C) {
  if (geteuid() != 0) {
    C = collect(D, Rel);
    return true;
  }
  int Pipe[2];
  if (pipe(Pipe) != 0)
    return false;
  pid_t Pid = fork();
  if (Pid < 0)
    return false;
  if (Pid == 0) {
    close(Pipe[0]);
    if (setgroups(0, nullptr) != 0 || setgid(65534) != 0 || setuid(65534) != 0)
      _exit(2);
    std::vector<InputFile> In;
    std::vector<std::string> Skipped;
    if (llvm::Error E = collectInputs({D.path(Rel)}, In, &Skipped)) {
      llvm::consumeError(std::move(E));
      _exit(3);
    }
    std::string Out;
    for (const InputFile &F : In)
      Out += "F" + F.Path.substr(D.Root.size() + 1) + "\n";
    for (const std::string &S : Skipped)
      Out += "S" + S + "\n";
    if (write(Pipe[1], Out.data(), Out.size()) != (ssize_t)Out.size())
      _exit(4);
    _exit(0);
  }
  close(Pipe[1]);
  std::string Got;
  char Buf[4096];
  for (ssize_t N; (N = read(Pipe[0], Buf, sizeof(Buf))) > 0;)
    Got.append(Buf, N);
  close(Pipe[0]);
  int Status = 0;
  waitpid(Pid, &Status, 0);
  if (!WIFEXITED(Status) || WEXITSTATUS(Status) != 0)
    return false;
  llvm::SmallVector<llvm::StringRef, 8> Lines;
  llvm::StringRef(Got).split(Lines, '\n', -1, /*KeepEmpty=*/false);
  for (llvm::StringRef L : Lines)
    (L.front() == 'F' ? C.Files : C.Skipped).push_back(L.drop_front().str());
  return true;
}

TEST(Inputs, UnreadableSubdirectoryIsReported) {
  ScratchDir D;
  D.file("t/a.cu");
  D.file("t/locked/b.cu");
  // Everyone may walk the scratch tree, except into locked/.
  for (const char *P : {"", "t", "t/a.cu"})
    chmod(D.path(P).c_str(), 0755);
  ASSERT_EQ(chmod(D.path("t/locked").c_str(), 0), 0);
  Collected C;
  bool Ran = collectUnprivileged(D, "t", C);
  chmod(D.path("t/locked").c_str(), 0700);
  if (!Ran)
    GTEST_SKIP() << "cannot run as an unprivileged user here";
  EXPECT_EQ(C.Files, (std::vector<std::string>{"t/a.cu"}));
  ASSERT_EQ(C.Skipped.size(), 1u) << joined(C.Skipped);
  EXPECT_EQ(C.Skipped[0], D.path("t/locked") +
                              ": note: skipped: cannot read directory: "
                              "Permission denied [PK9001]");
}

TEST(Inputs, ExplicitPaths) {
  ScratchDir D;
  D.file("t/a.cu");
  D.link("t/a.cu", "alias.cu");
  ASSERT_EQ(mkfifo(D.path("fifo.cu").c_str(), 0600), 0);
  std::vector<InputFile> In;
  std::vector<std::string> Skipped;
  // A file named twice (once through a link) is read once.
  ASSERT_FALSE(bool(
      collectInputs({D.path("t/a.cu"), D.path("alias.cu")}, In, &Skipped)));
  ASSERT_EQ(In.size(), 1u);
  EXPECT_EQ(In[0].Path, D.path("t/a.cu"));
  EXPECT_EQ(In[0].Kind, FileKind::CUDA);
  In.clear();
  llvm::Error E = collectInputs({D.path("fifo.cu")}, In, &Skipped);
  ASSERT_TRUE(bool(E));
  EXPECT_EQ(llvm::toString(std::move(E)),
            D.path("fifo.cu") +
                ": error: a FIFO, not a regular file or directory [PK9001]");
  E = collectInputs({D.path("missing.cu")}, In, &Skipped);
  ASSERT_TRUE(bool(E));
  EXPECT_EQ(llvm::toString(std::move(E)),
            D.path("missing.cu") + ": error: no such file or directory [PK9001]");
  EXPECT_TRUE(Skipped.empty());
}

// ---- classification -------------------------------------------------------

TEST(Classify, ByWhatTheFileUses) {
  ScratchDir D;
  D.file("p/hip/compat.h");
  D.file("p/hip/hip_runtime.h"); // the project's own, despite the name
  struct Case {
    const char *Name, *Text;
    FileKind Want;
  } Cases[] = {
      {"p/a.cu",
       "#include \"hip/compat.h\"\n__global__ void k() {}\n"
       "void f(float **p) { cudaMalloc(p, 4); }\n",
       FileKind::CUDA},
      {"p/b.cpp",
       "#include \"hip/compat.h\"\n#include <cuda_runtime.h>\n"
       "void f(float **p) { cudaMalloc(p, 4); }\n",
       FileKind::CUDA},
      {"p/c.cu", "#include \"hip/hip_runtime.h\"\n__global__ void k() {}\n",
       FileKind::CUDA},
      {"q/d.cpp", "#include \"hip/hip_runtime.h\"\n__global__ void k() {}\n",
       FileKind::HIP},
      {"p/e.cpp", "#include <hip/hip_runtime.h>\n__global__ void k() {}\n",
       FileKind::HIP},
      {"p/f.cu",
       "#include <hip/hip_runtime.h>\n"
       "void f(float **p) { hipMalloc(p, 4); }\n",
       FileKind::HIP},
      {"p/g.cu",
       "// was: hipMalloc(p, 4);  #include <hip/hip_runtime.h>\n"
       "/* hipFree(p); */ const char *s = \"hipFree(p)\";\n"
       "void f(float **p) { cudaMalloc(p, 4); }\n",
       FileKind::CUDA},
      {"p/h.cpp", "void f() { hipLaunchKernelGGL(k, 1, 1, 0, 0); }\n",
       FileKind::HIP},
      {"p/i.cpp", "__global__ void k() {}\n", FileKind::CUDA},
      {"p/j.cpp", "int main() { return 0; }\n", FileKind::PlainCXX},
      {"p/k.txt", "cudaMalloc(p, 4);\n", FileKind::Other},
      {"p/l.hip", "int x;\n", FileKind::HIP},
      {"p/m.cu", "int x;\n", FileKind::CUDA},
      {"p/n.cu", "char c = '\"'; // hipFree(p)\nvoid f() { cudaFree(0); }\n",
       FileKind::CUDA},
  };
  for (const Case &C : Cases) {
    D.file(C.Name, C.Text);
    EXPECT_EQ(classifyFile(D.path(C.Name), C.Text), C.Want) << C.Name;
  }
}

// ---- parallelism ----------------------------------------------------------

TEST(Jobs, EffectiveJobs) {
  const uint64_t GB = 1ull << 30;
  struct Case {
    unsigned Requested;
    size_t TUs;
    unsigned Cores;
    uint64_t Avail;
    unsigned Want;
  } Cases[] = {
      {0, 72, 16, 64 * GB, 16},     // default: one per core
      {0, 72, 16, 2 * GB, 5},       // ... fewer when memory is short
      {0, 3, 16, 64 * GB, 3},       // ... never more than the files
      {10000, 72, 16, 64 * GB, 72}, // an explicit -j: capped by the files
      {10000, 72, 16, 4 * GB, 10},  // ... and by memory
      {4, 72, 16, 64 * GB, 4},      // an explicit -j below every cap
      {1, 72, 16, 64 * GB, 1},
      {0, 72, 16, 100ull << 20, 1}, // less than one parse's worth: still 1
      {0, 0, 16, 64 * GB, 1},       // nothing to parse: 1
      {0, 72, 0, 64 * GB, 1},       // cores unknown: 1
      {8, 72, 16, 0, 8},            // memory unknown: no memory cap
  };
  for (const Case &C : Cases)
    EXPECT_EQ(effectiveJobs(C.Requested, C.TUs, C.Cores, C.Avail), C.Want)
        << "-j " << C.Requested << ", " << C.TUs << " TUs, " << C.Cores
        << " cores, " << C.Avail << " bytes";
  // On this machine: at least 1, at most the files.
  EXPECT_GE(effectiveJobs(0, 5), 1u);
  EXPECT_LE(effectiveJobs(0, 5), 5u);
  EXPECT_LE(effectiveJobs(10000, 72), 72u);
  EXPECT_EQ(effectiveJobs(10000, 1), 1u);
}

// classifyFile tries its anchored patterns only where their first literal
// occurs; the counts must be those of the unanchored search every position
// of the file used to run. Random files of include lines, API calls, words,
// blanks and line breaks (no comments or string literals, so that blanking
// them changes nothing) are classified both ways.
TEST(Inputs, ClassifyMatchesUnanchoredSearch) {
  auto Count = [](const llvm::Regex &Re, llvm::StringRef S) {
    unsigned N = 0;
    llvm::SmallVector<llvm::StringRef, 3> M;
    while (Re.match(S, &M)) {
      ++N;
      size_t Next = M[0].data() - S.data() + std::max<size_t>(M[0].size(), 1);
      S = S.substr(Next);
    }
    return N;
  };
  const llvm::Regex HipSysInc("#[[:space:]]*include[[:space:]]*<hip/",
                              llvm::Regex::Newline);
  const llvm::Regex HipLocalInc(
      "#[[:space:]]*include[[:space:]]*\"(hip/hip_[^\"]*)\"",
      llvm::Regex::Newline);
  const llvm::Regex CudaInc("#[[:space:]]*include[[:space:]]*[<\"](cuda|"
                            "cooperative_groups|mma\\.h|device_launch)",
                            llvm::Regex::Newline);
  const llvm::Regex HipCall("[[:<:]](hipLaunchKernelGGL[[:>:]]|"
                            "hip[A-Z][A-Za-z0-9_]*[[:space:]]*\\()");
  const llvm::Regex CudaCall("[[:<:]]cuda[A-Z][A-Za-z0-9_]*[[:space:]]*\\(");
  const char *Pieces[] = {"#",        "include",         " ",      "\n",
                          "\t",       "<hip/",           "<cuda",  "<mma.h>",
                          "\"hip/hip_runtime.h\"",       "\"cuda_runtime.h\"",
                          "cuda",     "Malloc",          "(",      "hip",
                          "Memcpy",   "LaunchKernelGGL", "x",      "_",
                          "my",       "__global__",      "<<<",    ";",
                          "hipLaunchKernelGGL",          "cudaFree (", "2"};
  std::mt19937 Rng(20261206);
  int Hips = 0, Cudas = 0;
  for (int Iter = 0; Iter < 4000; ++Iter) {
    std::string Text;
    int Len = 1 + Rng() % 40;
    for (int I = 0; I < Len; ++I)
      Text += Pieces[Rng() % (sizeof(Pieces) / sizeof(*Pieces))];
    for (const char *Name : {"/nonexistent-dir/a.cpp", "/nonexistent-dir/a.cu"}) {
      bool CudaExt = llvm::StringRef(Name).ends_with(".cu");
      unsigned Hip = Count(HipSysInc, Text) + Count(HipLocalInc, Text) +
                     Count(HipCall, Text);
      unsigned Cuda = Count(CudaInc, Text) + Count(CudaCall, Text);
      FileKind Want;
      if (Hip > Cuda || (Hip && Hip == Cuda && !CudaExt))
        Want = FileKind::HIP;
      else if (CudaExt || Cuda ||
               llvm::Regex("(__global__|__device__|__shared__|<<<)")
                   .match(Text))
        Want = FileKind::CUDA;
      else
        Want = FileKind::PlainCXX;
      Hips += Want == FileKind::HIP;
      Cudas += Want == FileKind::CUDA;
      ASSERT_EQ(classifyFile(Name, Text), Want) << Name << ":\n" << Text;
    }
  }
  // The inputs reach every outcome.
  EXPECT_GT(Hips, 100);
  EXPECT_GT(Cudas, 100);
}
