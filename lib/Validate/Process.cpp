//===- Process.cpp - bounded child processes for validate -----------------===//
// Rules: none (validation harness)
//
// Each run is a forked supervisor (a child subreaper) that starts the
// program in a session of its own and, when the program ends or is stopped,
// kills and reaps every process the program left, daemons included. Port-
// kernel reads stdout/stderr through close-on-exec pipes with poll(), keeps
// a deadline, and holds a registry of live supervisors that the interrupt
// handler signals (kill() is async-signal-safe). No shell is involved:
// programs are started with execve() and an argument vector.
//
//===----------------------------------------------------------------------===//
#include "Process.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/Support/Signals.h"
#include <algorithm>
#include <atomic>
#include <cerrno>
#include <chrono>
#include <csignal>
#include <cstdio>
#include <cstring>
#include <dirent.h>
#include <fcntl.h>
#include <poll.h>
#include <string>
#include <sys/prctl.h>
#include <sys/signalfd.h>
#include <sys/syscall.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>
#include <vector>

extern char **environ;

namespace pk {
namespace validate {
namespace {

constexpr int MaxSupervisors = 256;
std::atomic<pid_t> Supervisors[MaxSupervisors];
std::atomic<bool> Interrupted{false};
static_assert(std::atomic<pid_t>::is_always_lock_free &&
                  std::atomic<bool>::is_always_lock_free,
              "used from a signal handler");

void onInterrupt() {
  Interrupted.store(true);
  // Each supervisor kills its program and everything the program started.
  for (auto &S : Supervisors)
    if (pid_t P = S.load())
      ::kill(P, SIGTERM);
}

int registerSupervisor(pid_t P) {
  for (int I = 0; I < MaxSupervisors; ++I) {
    pid_t Zero = 0;
    if (Supervisors[I].compare_exchange_strong(Zero, P))
      return I;
  }
  return -1;
}

/// Kills and reaps every child of this process: at the end of validate,
/// when no supervisor runs, these can only be processes reparented here
/// because their supervisor was killed from outside.
void reapOrphans() {
  for (;;) {
    bool Any = false;
    if (DIR *D = ::opendir("/proc/self/task")) {
      while (dirent *E = ::readdir(D)) {
        if (E->d_name[0] < '0' || E->d_name[0] > '9')
          continue;
        std::string P =
            std::string("/proc/self/task/") + E->d_name + "/children";
        if (FILE *F = std::fopen(P.c_str(), "r")) {
          long Pid;
          while (std::fscanf(F, "%ld", &Pid) == 1) {
            ::kill((pid_t)Pid, SIGKILL);
            Any = true;
          }
          std::fclose(F);
        }
      }
      ::closedir(D);
    }
    int St;
    bool Reaped = false;
    while (::waitpid(-1, &St, Any ? 0 : WNOHANG) > 0) {
      Reaped = true;
      Any = false; // the rest without blocking; the next round rescans
    }
    if (!Reaped)
      return;
  }
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
  // Port-kernel is a subreaper too, behind the supervisors: should one be
  // killed from outside, what it supervised comes here, not to init.
  int Was = 0;
  if (::prctl(PR_GET_CHILD_SUBREAPER, &Was, 0, 0, 0) == 0)
    WasSubreaper = Was != 0;
  ::prctl(PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0);
}
ChildInterruptGuard::~ChildInterruptGuard() {
  reapOrphans();
  if (!WasSubreaper)
    ::prctl(PR_SET_CHILD_SUBREAPER, 0, 0, 0, 0);
  llvm::sys::SetInterruptFunction(nullptr);
}
bool ChildInterruptGuard::interrupted() { return Interrupted.load(); }

namespace {

/// What the supervisor tells port-kernel, in one pipe write each (atomic:
/// smaller than PIPE_BUF).
struct SupervisorMsg {
  int32_t Tag; ///< MsgStarted or MsgFinished
  int32_t A;   ///< Started: the program's pid; Finished: its wait status
  int32_t B;   ///< Started: the step that failed (-1: none); Finished: strays
  int32_t C;   ///< Started: errno of the failed step
};
constexpr int32_t MsgStarted = 1, MsgFinished = 2;
constexpr int32_t StepChdir = 0, StepExec = 1;

/// Everything the supervisor needs, prepared before fork(): after it, only
/// async-signal-safe calls are allowed (the parent has other threads).
struct SpawnSpec {
  const char *Path;
  char *const *Argv;
  char *const *Envp;
  const char *Cwd; ///< nullptr: inherit
  int OutW, ErrW;  ///< the program's stdout and stderr
  int CtlR;        ///< EOF: stop the program (port-kernel asks, or died)
  int RepW;        ///< SupervisorMsg records to port-kernel
};

void writeMsg(int Fd, int32_t Tag, int32_t A, int32_t B, int32_t C) {
  SupervisorMsg M{Tag, A, B, C};
  while (::write(Fd, &M, sizeof M) < 0 && errno == EINTR) {
  }
}

/// Closes every descriptor from \p Lo up to \p Hi inclusive.
void closeRange(unsigned Lo, unsigned Hi) {
  if (Lo > Hi)
    return;
#ifdef SYS_close_range
  if (::syscall(SYS_close_range, Lo, Hi, 0) == 0)
    return;
#endif
  long Max = ::sysconf(_SC_OPEN_MAX);
  unsigned Top = std::min<unsigned>(Hi, Max > 0 ? (unsigned)Max : 65536);
  for (unsigned Fd = Lo; Fd <= Top; ++Fd)
    ::close((int)Fd);
}

/// Closes every descriptor from 3 up except \p Keep (sorted, each >= 3).
void closeAllBut(int *Keep, int N) {
  unsigned Lo = 3;
  for (int I = 0; I < N; ++I) {
    if ((unsigned)Keep[I] > Lo)
      closeRange(Lo, (unsigned)Keep[I] - 1);
    Lo = std::max(Lo, (unsigned)Keep[I] + 1);
  }
  closeRange(Lo, ~0U);
}

/// Sends SIGKILL to every child of this (single-threaded) process; returns
/// how many it found. Reads /proc/self/task/<pid>/children, or, where the
/// kernel has no such file, the parent field of every /proc/<pid>/stat.
int killChildren() {
  char Path[64] = "/proc/self/task/";
  pid_t Self = ::getpid();
  // The path with the pid in decimal, built without snprintf (not
  // async-signal-safe).
  char Digits[16];
  int ND = 0;
  for (pid_t V = Self; V; V /= 10)
    Digits[ND++] = char('0' + V % 10);
  char *W = Path + std::strlen(Path);
  while (ND)
    *W++ = Digits[--ND];
  std::memcpy(W, "/children", 10);
  int Found = 0;
  auto KillListed = [&](int Fd, bool Stat) {
    // Stat: one /proc/<pid>/stat file whose 4th field is the parent.
    char Buf[4096];
    long Num = -1;
    ssize_t K;
    if (Stat) {
      K = ::read(Fd, Buf, sizeof Buf - 1);
      if (K <= 0)
        return;
      Buf[K] = 0;
      char *RParen = std::strrchr(Buf, ')');
      if (!RParen)
        return;
      long Pid = 0;
      for (char *P = Buf; *P >= '0' && *P <= '9'; ++P)
        Pid = Pid * 10 + (*P - '0');
      // ") S PPID ..."
      char *P = RParen + 2;
      while (*P && *P != ' ')
        ++P;
      long PPid = 0;
      for (++P; *P >= '0' && *P <= '9'; ++P)
        PPid = PPid * 10 + (*P - '0');
      if (PPid == Self && Pid > 0) {
        ::kill((pid_t)Pid, SIGKILL);
        ++Found;
      }
      return;
    }
    while ((K = ::read(Fd, Buf, sizeof Buf)) > 0)
      for (ssize_t I = 0; I < K; ++I) {
        if (Buf[I] >= '0' && Buf[I] <= '9') {
          Num = (Num < 0 ? 0 : Num * 10) + (Buf[I] - '0');
        } else if (Num > 0) {
          ::kill((pid_t)Num, SIGKILL);
          ++Found;
          Num = -1;
        }
      }
    if (Num > 0) {
      ::kill((pid_t)Num, SIGKILL);
      ++Found;
    }
  };
  int Fd = ::open(Path, O_RDONLY | O_CLOEXEC);
  if (Fd >= 0) {
    KillListed(Fd, false);
    ::close(Fd);
    return Found;
  }
  int Dir = ::open("/proc", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (Dir < 0)
    return 0;
  alignas(8) char Ents[8192];
  long N;
  while ((N = ::syscall(SYS_getdents64, Dir, Ents, sizeof Ents)) > 0)
    for (long Off = 0; Off < N;) {
      auto *D = reinterpret_cast<struct dirent64 *>(Ents + Off);
      Off += D->d_reclen;
      if (D->d_name[0] < '1' || D->d_name[0] > '9')
        continue;
      char SP[64] = "/proc/";
      std::size_t L = std::strlen(D->d_name);
      if (L > 20)
        continue;
      std::memcpy(SP + 6, D->d_name, L);
      std::memcpy(SP + 6 + L, "/stat", 6);
      int SFd = ::open(SP, O_RDONLY | O_CLOEXEC);
      if (SFd >= 0) {
        KillListed(SFd, true);
        ::close(SFd);
      }
    }
  ::close(Dir);
  return Found;
}

/// The supervisor of one run, a forked child of port-kernel. It is a child
/// subreaper, so every process the program starts that outlives its parent
/// (a double-forked daemon, whatever its session or group) becomes the
/// supervisor's child instead of init's. It starts the program in a session
/// of its own, waits for it (or for port-kernel to ask it to stop, or to
/// die: the control pipe's EOF), then kills and reaps every remaining
/// descendant, reports and exits.
[[noreturn]] void supervise(SpawnSpec S) {
  // Every signal blocked: SIGCHLD and SIGTERM (port-kernel's interrupt
  // handler) arrive through a signalfd; the terminal's SIGINT is for
  // port-kernel, which tells the supervisor. The handlers copied from the
  // parent are reset so that the program starts with default dispositions.
  sigset_t All;
  sigfillset(&All);
  ::sigprocmask(SIG_SETMASK, &All, nullptr);
  struct sigaction Dfl;
  std::memset(&Dfl, 0, sizeof Dfl);
  Dfl.sa_handler = SIG_DFL;
  for (int Sig = 1; Sig < NSIG; ++Sig)
    if (Sig != SIGKILL && Sig != SIGSTOP)
      ::sigaction(Sig, &Dfl, nullptr);
  // Only this run's descriptors stay open: a descriptor of another run's
  // pipe, inherited through fork(), would keep that run's pipe from
  // reporting EOF.
  int *Fds[] = {&S.OutW, &S.ErrW, &S.CtlR, &S.RepW};
  for (int *F : Fds)
    if (*F >= 0 && *F < 3)
      *F = ::fcntl(*F, F_DUPFD_CLOEXEC, 3);
  int Keep[4], NK = 0;
  for (int *F : Fds) {
    bool Dup = false;
    for (int I = 0; I < NK; ++I)
      Dup |= Keep[I] == *F;
    if (*F >= 0 && !Dup)
      Keep[NK++] = *F;
  }
  std::sort(Keep, Keep + NK);
  closeAllBut(Keep, NK);
  ::prctl(PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0);
  sigset_t Watched;
  sigemptyset(&Watched);
  sigaddset(&Watched, SIGCHLD);
  sigaddset(&Watched, SIGTERM);
  int Sfd = ::signalfd(-1, &Watched, SFD_CLOEXEC | SFD_NONBLOCK);
  int ErrPipe[2];
  if (Sfd < 0 || ::pipe2(ErrPipe, O_CLOEXEC) != 0) {
    writeMsg(S.RepW, MsgStarted, 0, StepExec, errno);
    ::_exit(0);
  }

  pid_t P = ::fork();
  if (P == 0) {
    // The program: a session and process group of its own, its own working
    // directory, stdin from /dev/null, default signal mask.
    ::setsid();
    int32_t Fail[2] = {-1, 0};
    if (S.Cwd && ::chdir(S.Cwd) != 0) {
      Fail[0] = StepChdir;
    } else {
      int Nul = ::open("/dev/null", O_RDONLY | O_CLOEXEC);
      if (Nul >= 0)
        ::dup2(Nul, 0);
      ::dup2(S.OutW, 1);
      ::dup2(S.ErrW, 2);
      sigset_t None;
      sigemptyset(&None);
      ::sigprocmask(SIG_SETMASK, &None, nullptr);
      ::execve(S.Path, S.Argv, S.Envp);
      Fail[0] = StepExec;
    }
    Fail[1] = errno;
    while (::write(ErrPipe[1], Fail, sizeof Fail) < 0 && errno == EINTR) {
    }
    ::_exit(127);
  }
  int32_t Fail[2] = {-1, 0};
  if (P < 0) {
    Fail[0] = StepExec;
    Fail[1] = errno;
  }
  ::close(ErrPipe[1]);
  ::close(S.OutW);
  if (S.ErrW != S.OutW)
    ::close(S.ErrW);
  if (P > 0) {
    // EOF (exec succeeded: the pipe was close-on-exec) or the failure.
    while (::read(ErrPipe[0], Fail, sizeof Fail) < 0 && errno == EINTR) {
    }
  }
  ::close(ErrPipe[0]);
  writeMsg(S.RepW, MsgStarted, P, Fail[0], Fail[1]);

  int Status = 0;
  bool Done = P <= 0, Stopping = false;
  while (!Done) {
    pollfd PF[2] = {{Sfd, POLLIN, 0}, {S.CtlR, POLLIN, 0}};
    int NP = S.CtlR >= 0 ? 2 : 1;
    if (::poll(PF, NP, -1) < 0 && errno != EINTR)
      break;
    bool Stop = false;
    signalfd_siginfo SI;
    while (::read(Sfd, &SI, sizeof SI) == (ssize_t)sizeof SI)
      Stop |= SI.ssi_signo == (uint32_t)SIGTERM;
    if (NP == 2 && PF[1].revents) {
      // Port-kernel closed its end: the time limit, an interrupt, or it died.
      Stop = true;
      ::close(S.CtlR);
      S.CtlR = -1;
    }
    if (Stop && !Stopping) {
      Stopping = true;
      ::kill(-P, SIGKILL);
      ::kill(P, SIGKILL); // also before its setsid()
    }
    int St;
    pid_t W;
    while ((W = ::waitpid(-1, &St, WNOHANG)) > 0)
      if (W == P) {
        Status = St;
        Done = true;
      }
  }
  // The program is gone: what it left behind goes too. Each round kills the
  // current children and reaps one; the children of a reaped process were
  // reparented here before it could be reaped, so the next round sees them.
  int Strays = 0;
  if (P > 0)
    ::kill(-P, SIGKILL);
  for (;;) {
    killChildren();
    int St;
    pid_t W = ::waitpid(-1, &St, 0);
    if (W < 0) {
      if (errno == EINTR)
        continue;
      break; // ECHILD: nothing left
    }
    ++Strays;
  }
  writeMsg(S.RepW, MsgFinished, Status, Strays, 0);
  ::_exit(0);
}

} // namespace

BoundedResult runBounded(llvm::StringRef Program,
                         llvm::ArrayRef<std::string> Args,
                         std::optional<llvm::ArrayRef<llvm::StringRef>> Env,
                         unsigned TimeoutSec, std::size_t Cap,
                         bool MergeStderr, llvm::StringRef Cwd,
                         llvm::function_ref<bool(llvm::StringRef)> StopAtLine) {
  BoundedResult R;
  if (Interrupted.load()) {
    R.Interrupted = true;
    R.Code = -1;
    R.ErrMsg = "interrupted";
    return R;
  }
  // Everything the child needs, built before the fork.
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
  std::string CwdStr = Cwd.str();

  int OutP[2] = {-1, -1}, ErrP[2] = {-1, -1}, CtlP[2] = {-1, -1},
      RepP[2] = {-1, -1};
  auto CloseAll = [&] {
    for (int *P : {OutP, ErrP, CtlP, RepP})
      for (int I : {0, 1})
        if (P[I] >= 0) {
          ::close(P[I]);
          P[I] = -1;
        }
  };
  if (::pipe2(OutP, O_CLOEXEC) != 0 ||
      (!MergeStderr && ::pipe2(ErrP, O_CLOEXEC) != 0) ||
      ::pipe2(CtlP, O_CLOEXEC) != 0 || ::pipe2(RepP, O_CLOEXEC) != 0) {
    R.ExecFailed = true;
    R.Code = -1;
    R.ErrMsg = std::string("cannot create a pipe: ") + std::strerror(errno);
    CloseAll();
    return R;
  }
  SpawnSpec Spec{Store[0].c_str(),
                 Argv.data(),
                 Env ? Envp.data() : environ,
                 CwdStr.empty() ? nullptr : CwdStr.c_str(),
                 OutP[1],
                 MergeStderr ? OutP[1] : ErrP[1],
                 CtlP[0],
                 RepP[1]};
  pid_t Sup = ::fork();
  if (Sup == 0)
    supervise(Spec);
  int ForkErr = errno;
  for (int *Fd : {&OutP[1], &ErrP[1], &CtlP[0], &RepP[1]})
    if (*Fd >= 0) {
      ::close(*Fd);
      *Fd = -1;
    }
  if (Sup < 0) {
    CloseAll();
    R.ExecFailed = true;
    R.Code = -1;
    R.ErrMsg = std::string("cannot fork: ") + std::strerror(ForkErr);
    return R;
  }
  int Slot = registerSupervisor(Sup);

  using Clock = std::chrono::steady_clock;
  const auto Start = Clock::now();
  const auto Deadline = Start + std::chrono::seconds(TimeoutSec);
  Bounded Out(Cap), Err(Cap);
  // stdout, stderr, the supervisor's reports.
  int Fds[3] = {OutP[0], MergeStderr ? -1 : ErrP[0], RepP[0]};
  OutP[0] = ErrP[0] = RepP[0] = -1;
  for (int Fd : Fds)
    if (Fd >= 0)
      setNonBlocking(Fd);
  std::string Rep;
  std::string Line; // the stdout line StopAtLine has not seen yet
  bool Started = false, Finished = false, Stopped = false;
  int Status = 0;
  std::optional<Clock::time_point> DrainUntil;
  char Buf[65536];
  auto Stop = [&] {
    // The supervisor kills the program and everything it started.
    ::close(CtlP[1]);
    CtlP[1] = -1;
    Stopped = true;
  };
  while (Fds[0] >= 0 || Fds[1] >= 0 || Fds[2] >= 0) {
    auto Now = Clock::now();
    if (!Stopped && !Finished) {
      if (TimeoutSec && Now >= Deadline) {
        R.TimedOut = true;
        Stop();
      } else if (Interrupted.load()) {
        R.Interrupted = true;
        Stop();
      }
    }
    if (Finished && !DrainUntil)
      DrainUntil = Clock::now() + std::chrono::seconds(1);
    if (DrainUntil && Clock::now() > *DrainUntil)
      break;
    pollfd P[3];
    int N = 0;
    for (int Fd : Fds)
      if (Fd >= 0)
        P[N++] = {Fd, POLLIN, 0};
    int Rc = ::poll(P, N, 100);
    if (Rc < 0 && errno != EINTR)
      break;
    for (int I = 0; I < 3; ++I) {
      if (Fds[I] < 0)
        continue;
      for (;;) {
        ssize_t K = ::read(Fds[I], Buf, sizeof Buf);
        if (K > 0) {
          if (I == 2)
            Rep.append(Buf, (std::size_t)K);
          else
            (I == 0 ? Out : Err).add(Buf, (std::size_t)K);
          if (I == 0 && StopAtLine && !Stopped && !Finished) {
            for (llvm::StringRef Rest(Buf, (std::size_t)K); !Rest.empty();) {
              auto [Part, After] = Rest.split('\n');
              if (Line.size() < 65536)
                Line.append(Part.data(),
                            std::min(Part.size(), 65536 - Line.size()));
              if (Part.size() == Rest.size())
                break; // no newline yet
              Rest = After;
              bool Hit = StopAtLine(Line);
              Line.clear();
              if (Hit) {
                R.StoppedAtOutput = true;
                Stop();
                break;
              }
            }
          }
          continue;
        }
        if (K == 0 || (errno != EAGAIN && errno != EINTR)) {
          ::close(Fds[I]);
          Fds[I] = -1;
        }
        break;
      }
    }
    while (Rep.size() >= sizeof(SupervisorMsg)) {
      SupervisorMsg M;
      std::memcpy(&M, Rep.data(), sizeof M);
      Rep.erase(0, sizeof M);
      if (M.Tag == MsgStarted) {
        Started = true;
        if (M.B >= 0) {
          R.ExecFailed = true;
          R.ErrMsg = M.B == StepChdir ? "cannot change to directory " +
                                            CwdStr + ": " +
                                            std::strerror(M.C)
                                      : std::strerror(M.C);
        }
      } else if (M.Tag == MsgFinished) {
        Finished = true;
        Status = M.A;
        R.Strays = (unsigned)M.B;
      }
    }
  }
  for (int Fd : Fds)
    if (Fd >= 0)
      ::close(Fd);
  if (CtlP[1] >= 0)
    ::close(CtlP[1]);
  // Out of the registry before it is reaped, so that the interrupt handler
  // never signals a pid that was reused. The supervisor exits right after
  // its last report (or has died).
  if (Slot >= 0)
    Supervisors[Slot].store(0);
  int SupStatus;
  while (::waitpid(Sup, &SupStatus, 0) < 0 && errno == EINTR) {
  }

  R.Out = Out.finish(Cap);
  R.Err = Err.finish(Cap);
  if (R.ExecFailed) {
    R.Code = -1;
    return R;
  }
  if (!Started || !Finished) {
    // Killed from outside: what it supervised was reparented to
    // port-kernel, which kills it when validate ends (ChildInterruptGuard).
    R.Code = -1;
    R.Signal = SIGKILL;
    R.ErrMsg = "the process supervising the run was killed";
    return R;
  }
  if (WIFEXITED(Status)) {
    R.Code = WEXITSTATUS(Status);
  } else if (WIFSIGNALED(Status)) {
    R.Code = -1;
    R.Signal = WTERMSIG(Status);
    if (!R.TimedOut && !R.Interrupted && !R.StoppedAtOutput)
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
