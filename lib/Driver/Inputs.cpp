//===- Inputs.cpp - which files a run reads -------------------------------===//
// Rules: PK9001, PK9101
//
// Walks the paths given on the command line, classifies each file (CUDA,
// HIP, other) and gives the driver a sorted, duplicate-free list.  The walk
// never leaves a directory it was given through a symbolic link, never reads
// a directory twice (so link loops end), reads each file once by its real
// path, and says what it left out.  Also: how many files to parse at once.
//
//===----------------------------------------------------------------------===//
#include "pk/Inputs.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Threading.h"
#include <algorithm>
#include <deque>
#include <limits>
#include <set>
#include <unistd.h>

using namespace pk;
namespace fs = llvm::sys::fs;
namespace path = llvm::sys::path;

std::string pk::absPath(llvm::StringRef P) {
  llvm::SmallString<256> S(P);
  fs::make_absolute(S);
  path::remove_dots(S, true);
  return S.str().str();
}

bool pk::isUnder(llvm::StringRef Child, llvm::StringRef Dir) {
  if (Child == Dir)
    return true;
  std::string D = Dir.str();
  if (!D.empty() && D.back() != '/')
    D += '/';
  return Child.starts_with(D);
}

std::string pk::commonDir(llvm::StringRef A, llvm::StringRef B) {
  llvm::SmallVector<llvm::StringRef, 16> PA, PB;
  llvm::StringRef(A).split(PA, '/');
  llvm::StringRef(B).split(PB, '/');
  std::string R;
  for (size_t I = 0; I < PA.size() && I < PB.size() && PA[I] == PB[I]; ++I) {
    if (I)
      R += "/";
    R += PA[I].str();
  }
  return R.empty() ? "/" : R;
}

bool pk::isHeaderExt(llvm::StringRef P) {
  llvm::StringRef E = path::extension(P);
  return E == ".cuh" || E == ".h" || E == ".hh" || E == ".hpp" || E == ".hxx" ||
         E == ".hiph" || E == ".inl" || E == ".ipp";
}

namespace {

/// What an entry that is neither a file nor a directory is, for the note.
const char *kindName(fs::file_type T) {
  switch (T) {
  case fs::file_type::fifo_file:
    return "a FIFO";
  case fs::file_type::socket_file:
    return "a socket";
  case fs::file_type::block_file:
    return "a block device";
  case fs::file_type::character_file:
    return "a character device";
  default:
    return "an entry of unknown type";
  }
}

/// The walk of one directory given on the command line.  Paths are kept in
/// two forms: the logical one (as the user sees it, which the output layout
/// mirrors) and the real one (symbolic links resolved), which decides
/// whether an entry stays inside the tree and whether it was read already.
class TreeWalk {
public:
  TreeWalk(std::string Root, std::string RealRoot,
           std::set<std::string> &SeenReal, std::vector<std::string> *Skipped)
      : Root(std::move(Root)), RealRoot(std::move(RealRoot)),
        SeenReal(SeenReal), Skipped(Skipped) {}

  /// Lists the tree's files (logical paths, unsorted) into \p Files.  Only
  /// the directory given itself must be readable.
  llvm::Error run(std::vector<std::string> &Files) {
    Visited.insert(RealRoot);
    std::error_code EC;
    fs::directory_iterator Probe(Root, EC);
    if (EC)
      return llvm::createStringError(
          EC, "%s: error: cannot read directory: %s [PK9001]", Root.c_str(),
          EC.message().c_str());
    walkDir(Root, RealRoot, Files);
    // Linked directories after the tree itself: a link to a directory the
    // walk has read is not followed (this ends every loop); one to a
    // directory it does not reach (a hidden one) is read once, under the
    // link's name.
    while (!LinkedDirs.empty()) {
      auto [Logical, Real] = LinkedDirs.front();
      LinkedDirs.pop_front();
      if (!Visited.insert(Real).second) {
        skip(Logical, isUnder(realParent(Logical), Real)
                          ? "symbolic link loop back to " + Real
                          : "symbolic link to " + Real +
                                ", a directory the walk reads already");
        continue;
      }
      walkDir(Logical, Real, Files);
    }
    // Linked files last: a file read at its own path is not read again.
    for (const auto &[Logical, Real] : LinkedFiles)
      if (SeenReal.insert(Real).second)
        Files.push_back(Logical);
    return llvm::Error::success();
  }

private:
  std::string Root, RealRoot;
  std::set<std::string> &SeenReal;
  std::vector<std::string> *Skipped;
  std::set<std::string> Visited; ///< real paths of the directories read
  std::deque<std::pair<std::string, std::string>> LinkedDirs;
  std::vector<std::pair<std::string, std::string>> LinkedFiles;

  void skip(llvm::StringRef Path, const llvm::Twine &Why) {
    if (Skipped)
      Skipped->push_back(
          (Path + ": note: skipped: " + Why + " [PK9001]").str());
  }

  /// The real path of the directory holding \p Logical.
  static std::string realParent(llvm::StringRef Logical) {
    llvm::SmallString<256> R;
    if (fs::real_path(path::parent_path(Logical), R))
      return path::parent_path(Logical).str();
    return R.str().str();
  }

  static std::string join(llvm::StringRef Dir, llvm::StringRef Name) {
    llvm::SmallString<256> P(Dir);
    path::append(P, Name);
    return P.str().str();
  }

  void walkDir(const std::string &Dir, const std::string &RealDir,
               std::vector<std::string> &Files) {
    std::error_code EC;
    std::vector<std::string> Names;
    for (fs::directory_iterator It(Dir, EC, /*follow_symlinks=*/false), End;
         It != End && !EC; It.increment(EC))
      Names.push_back(path::filename(It->path()).str());
    if (EC) {
      skip(Dir, "cannot read directory: " + EC.message());
      return;
    }
    std::sort(Names.begin(), Names.end());
    for (const std::string &Name : Names) {
      if (llvm::StringRef(Name).starts_with("."))
        continue; // hidden entries are not inputs
      std::string Logical = join(Dir, Name);
      std::string Real = join(RealDir, Name);
      fs::file_status St;
      if (std::error_code SEC = fs::status(Logical, St, /*follow=*/false)) {
        skip(Logical, "cannot read: " + SEC.message());
        continue;
      }
      switch (St.type()) {
      case fs::file_type::regular_file:
        if (SeenReal.insert(Real).second)
          Files.push_back(Logical);
        break;
      case fs::file_type::directory_file:
        if (Visited.insert(Real).second)
          walkDir(Logical, Real, Files);
        break;
      case fs::file_type::symlink_file:
        walkLink(Logical);
        break;
      default:
        skip(Logical, llvm::Twine(kindName(St.type())) +
                          ", not a regular file or directory");
        break;
      }
    }
  }

  void walkLink(const std::string &Logical) {
    llvm::SmallString<256> R;
    fs::file_status St;
    if (fs::real_path(Logical, R) || fs::status(R, St)) {
      skip(Logical, "dangling symbolic link");
      return;
    }
    std::string Real = R.str().str();
    if (!isUnder(Real, RealRoot)) {
      skip(Logical, "symbolic link to " + Real +
                        ", outside the input directory " + Root);
      return;
    }
    if (St.type() == fs::file_type::directory_file)
      LinkedDirs.push_back({Logical, Real});
    else if (St.type() == fs::file_type::regular_file)
      LinkedFiles.push_back({Logical, Real});
    else
      skip(Logical, "symbolic link to " + Real + ", " + kindName(St.type()) +
                        ", not a regular file or directory");
  }
};

std::string realPathOr(llvm::StringRef P) {
  llvm::SmallString<256> R;
  if (fs::real_path(P, R))
    return P.str();
  return R.str().str();
}

} // namespace

llvm::Error pk::collectInputs(llvm::ArrayRef<std::string> Paths,
                              std::vector<InputFile> &Out,
                              std::vector<std::string> *Skipped) {
  std::set<std::string> SeenReal;
  for (const std::string &P0 : Paths) {
    std::string P = absPath(P0);
    fs::file_status St;
    if (fs::status(P, St) || St.type() == fs::file_type::file_not_found)
      return llvm::createStringError(
          llvm::inconvertibleErrorCode(),
          "%s: error: no such file or directory [PK9001]", P0.c_str());
    if (St.type() == fs::file_type::directory_file) {
      std::vector<std::string> Files;
      if (llvm::Error E =
              TreeWalk(P, realPathOr(P), SeenReal, Skipped).run(Files))
        return E;
      std::sort(Files.begin(), Files.end());
      for (auto &F : Files)
        Out.push_back({F, P, FileKind::Other});
    } else if (St.type() == fs::file_type::regular_file) {
      // Named explicitly: read even through a link, but only once.
      if (SeenReal.insert(realPathOr(P)).second)
        Out.push_back({P, path::parent_path(P).str(), FileKind::Other, true});
    } else {
      return llvm::createStringError(
          llvm::inconvertibleErrorCode(),
          "%s: error: %s, not a regular file or directory [PK9001]", P0.c_str(),
          kindName(St.type()));
    }
  }
  for (InputFile &F : Out) {
    auto Buf = llvm::MemoryBuffer::getFile(F.Path);
    if (!Buf)
      return llvm::createStringError(
          Buf.getError(), "%s: error: cannot read: %s", F.Path.c_str(),
          Buf.getError().message().c_str());
    F.Kind = classifyFile(F.Path, (*Buf)->getBuffer());
  }
  return llvm::Error::success();
}

// ---- files that other files include -----------------------------------------

std::vector<std::string> pk::includeDirsOf(llvm::ArrayRef<std::string> Args) {
  std::vector<std::string> Dirs;
  for (size_t I = 0; I < Args.size(); ++I) {
    llvm::StringRef A = Args[I];
    for (llvm::StringRef Flag : {"-isystem", "-iquote", "-idirafter", "-I"}) {
      if (!A.starts_with(Flag))
        continue;
      llvm::StringRef V = A.drop_front(Flag.size());
      if (V.empty() && I + 1 < Args.size())
        V = Args[++I];
      if (!V.empty())
        Dirs.push_back(absPath(V));
      break;
    }
  }
  return Dirs;
}

std::vector<std::string>
pk::scanIncludes(llvm::StringRef File,
                 llvm::ArrayRef<std::string> IncludeDirs) {
  std::vector<std::string> Out;
  auto Buf = llvm::MemoryBuffer::getFile(File);
  if (!Buf)
    return Out;
  llvm::SmallVector<llvm::StringRef, 0> Lines;
  (*Buf)->getBuffer().split(Lines, '\n');
  for (llvm::StringRef L : Lines) {
    L = L.ltrim();
    if (!L.consume_front("#"))
      continue;
    L = L.ltrim();
    if (!L.consume_front("include"))
      continue;
    L = L.ltrim();
    if (L.empty() || (L.front() != '"' && L.front() != '<'))
      continue;
    char Close = L.front() == '"' ? '"' : '>';
    size_t End = L.find(Close, 1);
    if (End == llvm::StringRef::npos)
      continue;
    llvm::StringRef Name = L.slice(1, End);
    std::vector<std::string> Cands;
    if (Close == '"')
      Cands.push_back(absPath((path::parent_path(File) + "/" + Name).str()));
    for (const std::string &D : IncludeDirs)
      Cands.push_back(absPath((D + "/" + Name).str()));
    for (const std::string &C : Cands)
      if (fs::is_regular_file(C)) { // the first that exists is the one
        Out.push_back(C);
        break;
      }
  }
  return Out;
}

std::map<std::string, std::string>
pk::findIncludedSources(const std::vector<InputFile> &Inputs,
                        llvm::ArrayRef<std::string> IncludeDirs) {
  std::set<std::string> Sources;
  for (const InputFile &F : Inputs)
    if ((F.Kind == FileKind::CUDA || F.Kind == FileKind::HIP) &&
        !isHeaderExt(F.Path))
      Sources.insert(F.Path);
  std::map<std::string, std::string> IncludedBy;
  if (Sources.empty())
    return IncludedBy;
  for (const InputFile &F : Inputs) {
    if (F.Kind == FileKind::Other)
      continue;
    for (const std::string &C : scanIncludes(F.Path, IncludeDirs))
      if (Sources.count(C) && C != F.Path)
        IncludedBy.insert({C, F.Path});
  }
  return IncludedBy;
}

// ---- parallelism ----------------------------------------------------------

unsigned pk::effectiveJobs(unsigned Requested, size_t NumTUs, unsigned Cores,
                           uint64_t AvailableBytes) {
  uint64_t Jobs = Requested ? Requested : std::max(1u, Cores);
  if (AvailableBytes)
    Jobs = std::min<uint64_t>(Jobs, AvailableBytes / ParseBytesEstimate);
  Jobs = std::min<uint64_t>(Jobs, NumTUs);
  return static_cast<unsigned>(std::max<uint64_t>(Jobs, 1));
}

unsigned pk::effectiveJobs(unsigned Requested, size_t NumTUs) {
  return effectiveJobs(Requested, NumTUs,
                       llvm::hardware_concurrency().compute_thread_count(),
                       availableMemoryBytes());
}

/// The first number in \p File, or 0 when it has none (or says "max").
static uint64_t readNumber(llvm::StringRef File) {
  auto Buf = llvm::MemoryBuffer::getFileAsStream(File);
  uint64_t N = 0;
  if (!Buf || (*Buf)->getBuffer().trim().getAsInteger(10, N))
    return 0;
  return N;
}

uint64_t pk::availableMemoryBytes() {
  uint64_t Avail = 0;
  // The system's estimate of memory available without swapping.
  if (auto Buf = llvm::MemoryBuffer::getFileAsStream("/proc/meminfo")) {
    llvm::SmallVector<llvm::StringRef, 64> Lines;
    (*Buf)->getBuffer().split(Lines, '\n');
    for (llvm::StringRef L : Lines)
      if (L.consume_front("MemAvailable:")) {
        uint64_t KB = 0;
        if (!L.trim().split(' ').first.getAsInteger(10, KB))
          Avail = KB * 1024;
      }
  }
#if defined(_SC_AVPHYS_PAGES) && defined(_SC_PAGESIZE)
  if (!Avail) {
    long Pages = sysconf(_SC_AVPHYS_PAGES), Page = sysconf(_SC_PAGESIZE);
    if (Pages > 0 && Page > 0)
      Avail = uint64_t(Pages) * uint64_t(Page);
  }
#endif
  // A container's memory limit (cgroup v2, then v1) when it is lower.
  std::pair<const char *, const char *> Limits[] = {
      {"/sys/fs/cgroup/memory.max", "/sys/fs/cgroup/memory.current"},
      {"/sys/fs/cgroup/memory/memory.limit_in_bytes",
       "/sys/fs/cgroup/memory/memory.usage_in_bytes"}};
  for (auto [LimitFile, UsedFile] : Limits) {
    uint64_t Limit = readNumber(LimitFile);
    if (!Limit || Limit >= (uint64_t(1) << 60))
      continue; // no limit
    uint64_t Used = readNumber(UsedFile);
    uint64_t Left = Limit > Used ? Limit - Used : 1;
    Avail = Avail ? std::min(Avail, Left) : Left;
    break;
  }
  return Avail;
}
