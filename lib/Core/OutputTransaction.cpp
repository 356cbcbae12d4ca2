//===- OutputTransaction.cpp - all of a run's outputs, or none ------------===//
// Rules: PK9001
#include "pk/OutputTransaction.h"

#include "llvm/ADT/SmallString.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Process.h"
#include "llvm/Support/Signals.h"
#include "llvm/Support/raw_ostream.h"
#include <atomic>
#include <cstdlib>

using namespace pk;
namespace fs = llvm::sys::fs;
namespace path = llvm::sys::path;

// ---- interrupts -------------------------------------------------------------

static std::atomic<bool> Interrupted{false};
static_assert(std::atomic<bool>::is_always_lock_free,
              "the interrupt flag is set from a signal handler");

static void onInterrupt() { Interrupted.store(true); }

InterruptGuard::InterruptGuard() {
  Interrupted.store(false);
  llvm::sys::SetInterruptFunction(onInterrupt);
}
InterruptGuard::~InterruptGuard() { llvm::sys::SetInterruptFunction(nullptr); }
bool InterruptGuard::interrupted() { return Interrupted.load(); }

// ---- transaction ------------------------------------------------------------

static llvm::Error fail(llvm::StringRef Path, const llvm::Twine &What) {
  return llvm::createStringError(
      llvm::inconvertibleErrorCode(),
      (Path + ": error: " + What + " [PK9001]").str());
}

OutputTransaction::~OutputTransaction() {
  if (!Done)
    rollback();
}

std::vector<std::string> OutputTransaction::destinations() const {
  std::vector<std::string> V;
  for (const Entry &E : Staged)
    V.push_back(E.Dest);
  return V;
}

llvm::Error OutputTransaction::makeParents(llvm::StringRef Dir) {
  // The missing directories, innermost first.
  std::vector<std::string> Missing;
  llvm::SmallString<256> D(Dir);
  while (!D.empty()) {
    fs::file_status St;
    std::error_code EC = fs::status(D, St);
    if (!EC) {
      if (St.type() != fs::file_type::directory_file)
        return fail(D, "exists and is not a directory; cannot write under it");
      break;
    }
    if (EC == std::errc::not_a_directory)
      return fail(D, "a parent of this path exists and is not a directory; "
                     "cannot write under it");
    if (EC != std::errc::no_such_file_or_directory)
      return fail(D, "cannot access: " + EC.message());
    Missing.push_back(D.str().str());
    llvm::StringRef Parent = path::parent_path(D);
    if (Parent == D)
      break;
    D = Parent;
  }
  for (auto It = Missing.rbegin(); It != Missing.rend(); ++It) {
    if (std::error_code EC =
            fs::create_directory(*It, /*IgnoreExisting=*/false))
      return fail(*It, "cannot create directory: " + EC.message());
    CreatedDirs.push_back(*It);
  }
  return llvm::Error::success();
}

llvm::Error OutputTransaction::stage(llvm::StringRef Path,
                                     llvm::StringRef Contents,
                                     std::optional<unsigned> Mode,
                                     llvm::StringRef KeepBackupAs) {
  if (InterruptGuard::interrupted())
    return fail(Path, "interrupted");
  for (const Entry &E : Staged)
    if (E.Dest == Path)
      return fail(Path, "two outputs of this run have this path");
  fs::file_status St;
  if (!fs::status(Path, St) && St.type() == fs::file_type::directory_file)
    return fail(Path, "cannot write: a directory has this name");
  if (!KeepBackupAs.empty() && fs::exists(KeepBackupAs))
    return fail(KeepBackupAs,
                "backup already exists; refusing to overwrite it");
  if (llvm::Error E = makeParents(path::parent_path(Path)))
    return E;

  // A short temporary name in the destination's directory: same filesystem
  // (the final rename is atomic) and no longer than any name there.
  llvm::SmallString<256> Model(path::parent_path(Path));
  path::append(Model, ".pk-tmp-%%%%%%%%");
  llvm::SmallString<256> Temp;
  int FD = -1;
  unsigned Perm = Mode.value_or(fs::all_read | fs::all_write);
  if (std::error_code EC =
          fs::createUniqueFile(Model, FD, Temp, fs::OF_None, Perm))
    return fail(Path, "cannot write: " + EC.message());
  llvm::sys::RemoveFileOnSignal(Temp);
  Entry E;
  E.Dest = Path.str();
  E.Temp = Temp.str().str();
  E.KeepBackupAs = KeepBackupAs.str();
  Staged.push_back(E);
  {
    llvm::raw_fd_ostream OS(FD, /*shouldClose=*/true);
    OS << Contents;
    OS.close();
    if (OS.has_error()) {
      std::error_code EC = OS.error();
      OS.clear_error();
      return fail(Path, "cannot write: " + EC.message());
    }
  }
  // An explicit mode (a replaced file's) is kept exactly, whatever the umask.
  if (Mode)
    if (std::error_code EC =
            fs::setPermissions(Temp, static_cast<fs::perms>(*Mode)))
      return fail(Path, "cannot set permissions: " + EC.message());
  if (InterruptGuard::interrupted())
    return fail(Path, "interrupted");
  return llvm::Error::success();
}

llvm::Error OutputTransaction::commit() {
  auto Undo = [&](llvm::Error Err) {
    // Put every destination back as it was, newest first.
    for (auto It = Staged.rbegin(); It != Staged.rend(); ++It) {
      if (It->Committed) {
        if (!It->Backup.empty())
          (void)fs::rename(It->Backup, It->Dest);
        else
          (void)fs::remove(It->Dest);
        It->Committed = false;
        It->Backup.clear();
      } else if (!It->Backup.empty()) {
        (void)fs::rename(It->Backup, It->Dest);
        It->Backup.clear();
      }
    }
    rollback();
    return Err;
  };
  if (InterruptGuard::interrupted())
    return Undo(fail("port-kernel", "interrupted"));
  // Fault injection for the reliability tests: the commit fails after N
  // destinations were replaced (docs/reliability.md).
  long FailAt = -1;
  if (const char *V = std::getenv("PK_TEST_FAIL_COMMIT_AT"))
    FailAt = std::atol(V);
  long N = 0;
  for (Entry &E : Staged) {
    if (N++ == FailAt)
      return Undo(fail(E.Dest, "cannot write: injected failure "
                               "(PK_TEST_FAIL_COMMIT_AT)"));
    fs::file_status St;
    if (!fs::status(E.Dest, St, /*Follow=*/false)) {
      // Move the existing destination aside, in its own directory.
      llvm::SmallString<256> Model(path::parent_path(E.Dest));
      path::append(Model, ".pk-bak-%%%%%%%%");
      llvm::SmallString<256> Bak;
      int FD = -1;
      if (std::error_code EC = fs::createUniqueFile(Model, FD, Bak))
        return Undo(fail(E.Dest, "cannot back up: " + EC.message()));
      (void)llvm::sys::Process::SafelyCloseFileDescriptor(FD);
      if (std::error_code EC = fs::rename(E.Dest, Bak)) {
        (void)fs::remove(Bak);
        return Undo(fail(E.Dest, "cannot replace: " + EC.message()));
      }
      E.Backup = Bak.str().str();
    }
    if (std::error_code EC = fs::rename(E.Temp, E.Dest))
      return Undo(fail(E.Dest, "cannot write: " + EC.message()));
    llvm::sys::DontRemoveFileOnSignal(E.Temp);
    E.Committed = true;
    if (InterruptGuard::interrupted())
      return Undo(fail("port-kernel", "interrupted"));
  }
  // Everything is in place: keep or drop the old contents.
  for (Entry &E : Staged) {
    if (E.Backup.empty())
      continue;
    if (!E.KeepBackupAs.empty())
      (void)fs::rename(E.Backup, E.KeepBackupAs);
    else
      (void)fs::remove(E.Backup);
  }
  Done = true;
  return llvm::Error::success();
}

void OutputTransaction::rollback() {
  for (const Entry &E : Staged)
    if (!E.Committed) {
      (void)fs::remove(E.Temp);
      llvm::sys::DontRemoveFileOnSignal(E.Temp);
    }
  // Innermost first; only directories this transaction made, and only when
  // empty again.
  for (auto It = CreatedDirs.rbegin(); It != CreatedDirs.rend(); ++It)
    (void)fs::remove(*It);
  CreatedDirs.clear();
  Staged.clear();
  Done = true;
}
