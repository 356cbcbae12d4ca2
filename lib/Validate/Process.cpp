//===- Process.cpp - bounded child processes for validate -----------------===//
// Rules: none (validation harness)
//
// posix_spawn in a new process group, stdout/stderr through close-on-exec
// pipes read with poll(), a deadline, and a registry of live process groups
// that the interrupt handler kills (kill() is async-signal-safe).
//
//===----------------------------------------------------------------------===//
#include "Process.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/Support/Signals.h"
#include <atomic>
#include <cerrno>
#include <chrono>
#include <csignal>
#include <cstring>
#include <fcntl.h>
#include <poll.h>
#include <spawn.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>
#include <vector>

extern char **environ;

namespace pk {
namespace validate {
namespace {

constexpr int MaxGroups = 256;
std::atomic<pid_t> Groups[MaxGroups];
std::atomic<bool> Interrupted{false};
static_assert(std::atomic<pid_t>::is_always_lock_free &&
                  std::atomic<bool>::is_always_lock_free,
              "used from a signal handler");

void onInterrupt() {
  Interrupted.store(true);
  for (auto &G : Groups)
    if (pid_t P = G.load())
      ::kill(-P, SIGKILL);
}

int registerGroup(pid_t P) {
  for (int I = 0; I < MaxGroups; ++I) {
    pid_t Zero = 0;
    if (Groups[I].compare_exchange_strong(Zero, P))
      return I;
  }
  return -1;
}

/// Keeps the first and the last Cap/2 bytes of a stream.
class Bounded {
public:
  explicit Bounded(std::size_t Cap) : Half(std::max<std::size_t>(Cap / 2, 1)) {}
  void add(const char *P, std::size_t N) {
    S.Total += N;
    std::size_t H = std::min(N, Half - std::min(Half, Head.size()));
    Head.append(P, H);
    P += H;
    N -= H;
    if (!N)
      return;
    Tail.append(P, N);
    if (Tail.size() > 2 * Half) {
      std::size_t Cut = Tail.size() - Half;
      S.Dropped += Cut;
      Tail.erase(0, Cut);
    }
  }
  CapturedStream finish(std::size_t Cap) {
    if (Tail.size() > Half) {
      std::size_t Cut = Tail.size() - Half;
      S.Dropped += Cut;
      Tail.erase(0, Cut);
    }
    S.Text = std::move(Head);
    if (S.Dropped)
      S.Text += "\n[port-kernel: " + std::to_string(S.Dropped) +
                " bytes of output discarded here; output is kept up to " +
                std::to_string(Cap) + " bytes per stream]\n";
    S.Text += Tail;
    return std::move(S);
  }

private:
  std::size_t Half;
  std::string Head, Tail;
  CapturedStream S;
};

void setNonBlocking(int Fd) {
  int Fl = ::fcntl(Fd, F_GETFL);
  ::fcntl(Fd, F_SETFL, Fl | O_NONBLOCK);
}

} // namespace

ChildInterruptGuard::ChildInterruptGuard() {
  Interrupted.store(false);
  llvm::sys::SetInterruptFunction(onInterrupt);
}
ChildInterruptGuard::~ChildInterruptGuard() {
  llvm::sys::SetInterruptFunction(nullptr);
}
bool ChildInterruptGuard::interrupted() { return Interrupted.load(); }

BoundedResult runBounded(llvm::StringRef Program,
                         llvm::ArrayRef<std::string> Args,
                         std::optional<llvm::ArrayRef<llvm::StringRef>> Env,
                         unsigned TimeoutSec, std::size_t Cap,
                         bool MergeStderr) {
  BoundedResult R;
  if (Interrupted.load()) {
    R.Interrupted = true;
    R.Code = -1;
    R.ErrMsg = "interrupted";
    return R;
  }
  // Everything the child needs, built before the spawn.
  std::vector<std::string> Store;
  Store.push_back(Program.str());
  for (const std::string &A : Args)
    Store.push_back(A);
  std::vector<char *> Argv;
  for (std::string &S : Store)
    Argv.push_back(S.data());
  Argv.push_back(nullptr);
  std::vector<std::string> EnvStore;
  std::vector<char *> Envp;
  if (Env) {
    for (llvm::StringRef E : *Env)
      EnvStore.push_back(E.str());
    for (std::string &S : EnvStore)
      Envp.push_back(S.data());
    Envp.push_back(nullptr);
  }

  int OutP[2] = {-1, -1}, ErrP[2] = {-1, -1};
  if (::pipe2(OutP, O_CLOEXEC) != 0 ||
      (!MergeStderr && ::pipe2(ErrP, O_CLOEXEC) != 0)) {
    R.ExecFailed = true;
    R.Code = -1;
    R.ErrMsg = std::string("cannot create a pipe: ") + std::strerror(errno);
    for (int Fd : {OutP[0], OutP[1], ErrP[0], ErrP[1]})
      if (Fd >= 0)
        ::close(Fd);
    return R;
  }
  posix_spawn_file_actions_t FA;
  posix_spawn_file_actions_init(&FA);
  posix_spawn_file_actions_addopen(&FA, 0, "/dev/null", O_RDONLY, 0);
  posix_spawn_file_actions_adddup2(&FA, OutP[1], 1);
  posix_spawn_file_actions_adddup2(&FA, MergeStderr ? OutP[1] : ErrP[1], 2);
  posix_spawnattr_t SA;
  posix_spawnattr_init(&SA);
  posix_spawnattr_setpgroup(&SA, 0);
  sigset_t Def;
  sigemptyset(&Def);
  for (int Sig : {SIGINT, SIGTERM, SIGHUP, SIGPIPE})
    sigaddset(&Def, Sig);
  posix_spawnattr_setsigdefault(&SA, &Def);
  sigset_t NoMask;
  sigemptyset(&NoMask);
  posix_spawnattr_setsigmask(&SA, &NoMask);
  posix_spawnattr_setflags(&SA, POSIX_SPAWN_SETPGROUP | POSIX_SPAWN_SETSIGDEF |
                                    POSIX_SPAWN_SETSIGMASK);
  pid_t Pid = 0;
  int SpawnErr = ::posix_spawn(&Pid, Store[0].c_str(), &FA, &SA, Argv.data(),
                               Env ? Envp.data() : environ);
  posix_spawn_file_actions_destroy(&FA);
  posix_spawnattr_destroy(&SA);
  ::close(OutP[1]);
  if (!MergeStderr)
    ::close(ErrP[1]);
  if (SpawnErr != 0) {
    ::close(OutP[0]);
    if (!MergeStderr)
      ::close(ErrP[0]);
    R.ExecFailed = true;
    R.Code = -1;
    R.ErrMsg = std::strerror(SpawnErr);
    return R;
  }
  int Slot = registerGroup(Pid);

  using Clock = std::chrono::steady_clock;
  const auto Start = Clock::now();
  const auto Deadline = Start + std::chrono::seconds(TimeoutSec);
  Bounded Out(Cap), Err(Cap);
  int Fds[2] = {OutP[0], MergeStderr ? -1 : ErrP[0]};
  for (int Fd : Fds)
    if (Fd >= 0)
      setNonBlocking(Fd);
  bool Reaped = false, Killed = false;
  int Status = 0;
  std::optional<Clock::time_point> DrainUntil;
  char Buf[65536];
  auto KillGroup = [&] {
    ::kill(-Pid, SIGKILL);
    Killed = true;
  };
  while (Fds[0] >= 0 || Fds[1] >= 0) {
    auto Now = Clock::now();
    if (!Killed && !Reaped) {
      if (TimeoutSec && Now >= Deadline) {
        R.TimedOut = true;
        KillGroup();
      } else if (Interrupted.load()) {
        R.Interrupted = true;
        KillGroup();
      }
    }
    if (!Reaped && ::waitpid(Pid, &Status, WNOHANG) == Pid) {
      Reaped = true;
      // Whatever the program left running in its group goes with it.
      ::kill(-Pid, SIGKILL);
      DrainUntil = Clock::now() + std::chrono::seconds(1);
    }
    if (DrainUntil && Clock::now() > *DrainUntil)
      break;
    pollfd P[2];
    int N = 0;
    for (int Fd : Fds)
      if (Fd >= 0)
        P[N++] = {Fd, POLLIN, 0};
    int Rc = ::poll(P, N, 100);
    if (Rc < 0 && errno != EINTR)
      break;
    for (int I = 0; I < 2; ++I) {
      if (Fds[I] < 0)
        continue;
      for (;;) {
        ssize_t K = ::read(Fds[I], Buf, sizeof Buf);
        if (K > 0) {
          (I == 0 ? Out : Err).add(Buf, (std::size_t)K);
          continue;
        }
        if (K == 0 || (errno != EAGAIN && errno != EINTR)) {
          ::close(Fds[I]);
          Fds[I] = -1;
        }
        break;
      }
    }
  }
  for (int Fd : Fds)
    if (Fd >= 0)
      ::close(Fd);
  if (!Reaped) {
    // Both pipes closed: wait for the exit, still under the deadline.
    for (;;) {
      pid_t W = ::waitpid(Pid, &Status, Killed ? 0 : WNOHANG);
      if (W == Pid || (W < 0 && errno != EINTR))
        break;
      if (!Killed) {
        if (TimeoutSec && Clock::now() >= Deadline) {
          R.TimedOut = true;
          KillGroup();
        } else if (Interrupted.load()) {
          R.Interrupted = true;
          KillGroup();
        } else
          ::usleep(10000);
      }
    }
    ::kill(-Pid, SIGKILL);
  }
  if (Slot >= 0)
    Groups[Slot].store(0);

  R.Out = Out.finish(Cap);
  R.Err = Err.finish(Cap);
  if (WIFEXITED(Status)) {
    R.Code = WEXITSTATUS(Status);
  } else if (WIFSIGNALED(Status)) {
    R.Code = -1;
    R.Signal = WTERMSIG(Status);
    if (!R.TimedOut && !R.Interrupted)
      R.ErrMsg = std::string("killed by signal ") + std::to_string(R.Signal) +
                 " (" + strsignal(R.Signal) + ")";
  }
  if (R.TimedOut)
    R.ErrMsg = "timed out after " + std::to_string(TimeoutSec) + " s";
  else if (R.Interrupted)
    R.ErrMsg = "interrupted";
  return R;
}

} // namespace validate
} // namespace pk
