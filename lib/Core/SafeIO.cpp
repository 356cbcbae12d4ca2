//===- SafeIO.cpp - the one I/O layer of every subcommand ------------------===//
// Rules: PK9001
#include "pk/SafeIO.h"
#include "pk/OutputTransaction.h"

#include "llvm/ADT/SmallString.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/Path.h"
#include <csignal>
#include <cstdlib>
#include <map>
#include <mutex>

using namespace pk;
namespace fs = llvm::sys::fs;
namespace path = llvm::sys::path;

static llvm::Error ioError(llvm::StringRef Path, const llvm::Twine &Why) {
  return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                 (Path + ": error: " + Why).str());
}

static std::string absolute(llvm::StringRef P) {
  llvm::SmallString<256> S(P);
  fs::make_absolute(S);
  path::remove_dots(S, /*remove_dot_dot=*/true);
  return S.str().str();
}

std::string pk::landingPath(llvm::StringRef P0) {
  std::string A = absolute(P0);
  llvm::StringRef P = A;
  llvm::SmallString<256> Real;
  if (!fs::real_path(P, Real))
    return Real.str().str();
  llvm::StringRef Parent = path::parent_path(P);
  if (Parent.empty() || Parent == P)
    return P.str();
  llvm::SmallString<256> R(landingPath(Parent));
  path::append(R, path::filename(P));
  return R.str().str();
}

// ---- reads ------------------------------------------------------------------

namespace {
struct ReadEntry {
  std::string Path, Role;
};
std::mutex ReadMutex;
std::map<std::string, ReadEntry> &reads() {
  static std::map<std::string, ReadEntry> M;
  return M;
}
} // namespace

ReadSet &ReadSet::get() {
  static ReadSet S;
  return S;
}

void ReadSet::note(llvm::StringRef Path, llvm::StringRef Role) {
  if (Path.empty() || Path == "-" || Role.empty())
    return;
  std::string L = landingPath(Path);
  std::lock_guard<std::mutex> Lock(ReadMutex);
  reads().emplace(L, ReadEntry{Path.str(), Role.str()});
}

std::optional<std::string> ReadSet::roleOf(llvm::StringRef Landing) const {
  std::lock_guard<std::mutex> Lock(ReadMutex);
  auto It = reads().find(Landing.str());
  if (It == reads().end())
    return std::nullopt;
  return It->second.Role;
}

std::optional<std::string> ReadSet::pathOf(llvm::StringRef Landing) const {
  std::lock_guard<std::mutex> Lock(ReadMutex);
  auto It = reads().find(Landing.str());
  if (It == reads().end())
    return std::nullopt;
  return It->second.Path;
}

void ReadSet::clear() {
  std::lock_guard<std::mutex> Lock(ReadMutex);
  reads().clear();
}

llvm::Expected<std::unique_ptr<llvm::MemoryBuffer>>
pk::readFile(llvm::StringRef Path, llvm::StringRef Role, uint64_t MaxBytes) {
  fs::file_status St;
  if (std::error_code EC = fs::status(Path, St))
    return ioError(Path, "cannot read " + Role + ": " + EC.message());
  if (St.type() == fs::file_type::directory_file)
    return ioError(Path, "cannot read " + Role + ": is a directory");
  if (MaxBytes && St.type() == fs::file_type::regular_file &&
      St.getSize() > MaxBytes)
    return ioError(Path, llvm::formatv("{0} is {1} bytes, more than the "
                                       "{2} bytes this run reads of it",
                                       Role, St.getSize(), MaxBytes));
  noteRead(Path, Role);
  auto Buf = llvm::MemoryBuffer::getFile(Path, /*IsText=*/false,
                                         /*RequiresNullTerminator=*/false);
  if (!Buf)
    return ioError(Path,
                   "cannot read " + Role + ": " + Buf.getError().message());
  if (MaxBytes && (*Buf)->getBufferSize() > MaxBytes)
    return ioError(Path, llvm::formatv("{0} is more than the {1} bytes this "
                                       "run reads of it",
                                       Role, MaxBytes));
  return std::move(*Buf);
}

llvm::Error pk::checkJsonNesting(llvm::StringRef Text, llvm::StringRef Name,
                                 unsigned MaxDepth) {
  // llvm::json::parse recurses once per level: a document nested tens of
  // thousands deep exhausts the stack.  The nesting is measured first,
  // iteratively, skipping strings.
  unsigned Depth = 0, Line = 1;
  bool InString = false;
  for (size_t I = 0; I < Text.size(); ++I) {
    char C = Text[I];
    if (C == '\n')
      ++Line;
    if (InString) {
      if (C == '\\')
        ++I;
      else if (C == '"')
        InString = false;
      continue;
    }
    if (C == '"')
      InString = true;
    else if (C == '[' || C == '{') {
      if (++Depth > MaxDepth)
        return ioError(Name, llvm::formatv("line {0}: JSON nested deeper than "
                                           "{1} levels; not read",
                                           Line, MaxDepth));
    } else if ((C == ']' || C == '}') && Depth)
      --Depth;
  }
  return llvm::Error::success();
}

llvm::Expected<llvm::json::Value>
pk::parseJsonBounded(llvm::StringRef Text, llvm::StringRef Name,
                     unsigned MaxDepth) {
  if (llvm::Error E = checkJsonNesting(Text, Name, MaxDepth))
    return std::move(E);
  auto V = llvm::json::parse(Text);
  if (!V)
    return ioError(Name, "not JSON: " + llvm::toString(V.takeError()));
  return std::move(*V);
}

llvm::Error pk::checkYamlNesting(llvm::StringRef Text, llvm::StringRef Name,
                                 unsigned MaxDepth) {
  std::vector<size_t> Indents; // the block levels open at this line
  unsigned Flow = 0, Line = 0;
  char Quote = 0;
  llvm::StringRef Rest = Text;
  while (!Rest.empty()) {
    auto [L, Next] = Rest.split('\n');
    Rest = Next;
    ++Line;
    size_t I = 0;
    unsigned Depth = 0;
    if (!Quote && Flow == 0) {
      size_t Indent = L.find_first_not_of(' ');
      llvm::StringRef Body = Indent == llvm::StringRef::npos
                                 ? llvm::StringRef()
                                 : L.drop_front(Indent).rtrim();
      if (Body.empty() || Body.starts_with("#"))
        continue;
      while (!Indents.empty() && Indents.back() >= Indent)
        Indents.pop_back();
      Indents.push_back(Indent);
      // "- - - x": each indicator opens a sequence on this line.
      while (Body.starts_with("- ") || Body == "-") {
        ++Depth;
        Body = Body.drop_front(std::min<size_t>(2, Body.size())).ltrim();
      }
      I = Indent;
    }
    for (; I < L.size(); ++I) {
      char C = L[I];
      if (Quote) {
        if (C == Quote)
          Quote = 0;
        else if (C == '\\' && Quote == '"')
          ++I;
        continue;
      }
      if (C == '"' || C == '\'')
        Quote = C;
      else if (C == '#' && (I == 0 || L[I - 1] == ' '))
        break;
      else if (C == '[' || C == '{')
        ++Flow;
      else if ((C == ']' || C == '}') && Flow)
        --Flow;
      if (Indents.size() + Depth + Flow > MaxDepth)
        return ioError(llvm::formatv("{0}:{1}", Name, Line).str(),
                       llvm::formatv("YAML nested deeper than {0} levels; not "
                                     "read",
                                     MaxDepth));
    }
    if (Indents.size() + Depth + Flow > MaxDepth)
      return ioError(llvm::formatv("{0}:{1}", Name, Line).str(),
                     llvm::formatv("YAML nested deeper than {0} levels; not "
                                   "read",
                                   MaxDepth));
    // A quoted scalar in a block context ends with its line unless it is
    // continued; keep the state only inside flow collections.
    if (Flow == 0)
      Quote = 0;
  }
  return llvm::Error::success();
}

llvm::Expected<llvm::json::Value> pk::readJsonFile(llvm::StringRef Path,
                                                   llvm::StringRef Role,
                                                   uint64_t MaxBytes,
                                                   unsigned MaxDepth) {
  auto Buf = readFile(Path, Role, MaxBytes);
  if (!Buf)
    return Buf.takeError();
  return parseJsonBounded((*Buf)->getBuffer(), Path, MaxDepth);
}

// ---- writes -----------------------------------------------------------------

WritePlan::Output &WritePlan::add(llvm::StringRef Path, llvm::StringRef Role,
                                  std::string Text) {
  Output O;
  O.Path = absolute(Path);
  O.Role = Role.str();
  O.Text = std::move(Text);
  Outs.push_back(std::move(O));
  return Outs.back();
}

static llvm::Error refuse(llvm::StringRef Path, const llvm::Twine &Why) {
  return ioError(Path, Why + " [PK9001]");
}

llvm::Error WritePlan::check() const {
  std::map<std::string, const Output *> Seen;
  for (const Output &O : Outs) {
    std::string L = landingPath(O.Path);
    fs::file_status St;
    if (!fs::status(O.Path, St, /*Follow=*/false)) {
      if (St.type() == fs::file_type::symlink_file)
        return refuse(O.Path,
                      llvm::formatv("{0} is a symbolic link (to {1}); writing "
                                    "would replace the link: give the file it "
                                    "points to, or another path",
                                    O.Role, L));
      if (St.type() == fs::file_type::directory_file)
        return refuse(O.Path, llvm::formatv("cannot write the {0} output: a "
                                            "directory has this name",
                                            O.Role));
    }
    if (!O.ReplacesInput)
      if (std::optional<std::string> Role = ReadSet::get().roleOf(L))
        return refuse(
            O.Path,
            llvm::formatv("{0} would overwrite {1} {2}, which this run "
                          "reads; choose another {0} path",
                          O.Role, *Role,
                          ReadSet::get().pathOf(L).value_or(L)));
    auto [It, New] = Seen.emplace(L, &O);
    if (!New)
      return refuse(O.Path,
                    llvm::formatv("{0} and {1} name the same file; each "
                                  "output needs a path of its own",
                                  It->second->Role, O.Role));
  }
  return llvm::Error::success();
}

int WritePlan::write(llvm::raw_ostream &Diag) {
  if (llvm::Error E = check()) {
    Diag << llvm::toString(std::move(E)) << "\n"
         << "port-kernel: no output written\n";
    return 2;
  }
  InterruptGuard Guard;
  OutputTransaction Tx;
  llvm::Error Err = llvm::Error::success();
  // Fault injection for the reliability tests: a real SIGINT after N
  // staged files (docs/reliability.md).
  long InterruptAfter = -1;
  if (const char *V = std::getenv("PK_TEST_INTERRUPT_AFTER"))
    InterruptAfter = std::atol(V);
  for (const Output &O : Outs) {
    if ((Err = Tx.stage(O.Path, O.Text, O.Mode, O.KeepBackupAs)))
      break;
    if (InterruptAfter >= 0 && (long)Tx.size() == InterruptAfter)
      std::raise(SIGINT);
  }
  if (!Err)
    Err = Tx.commit();
  if (Err) {
    Tx.rollback();
    bool Int = InterruptGuard::interrupted();
    if (Int)
      llvm::consumeError(std::move(Err));
    else
      Diag << llvm::toString(std::move(Err)) << "\n";
    Diag << (Int ? "port-kernel: interrupted; no output written\n"
                 : "port-kernel: no output written\n");
    return Int ? 130 : 2;
  }
  return 0;
}
