//===- RunnerRun.cpp - run one validate cell and read its result ----------===//
// Rules: none (validation harness)
//
// The Runner's time limits, the program's own working directory, the run
// under the supervisor, and the cells of a case (driver) and of a program.
//
//===----------------------------------------------------------------------===//

#include "ValidateInternal.h"

namespace pk::vrun {

std::string Runner::emuTimeoutVar(unsigned Limit) const {
  std::optional<double> S = UserEmuTimeout;
  if (Limit && !(S && *S <= 0))
    S = std::min(emulatorTimeout(Limit), S.value_or(Limit));
  if (!S)
    S = 0.0;
  return formatv("PKEMU_TIMEOUT_S={0}", format("%g", *S)).str();
}

bool Runner::timeLeft(Cell &C, StringRef Step, unsigned &Limit) {
  if (validate::ChildInterruptGuard::interrupted()) {
    interrupted(C);
    return false;
  }
  Limit = 0;
  if (!Opts.TimeoutSec)
    return true;
  double Used = std::chrono::duration<double>(Clock::now() - C.Start).count();
  if (Used >= Opts.TimeoutSec) {
    timedOut(C, Step);
    return false;
  }
  Limit = std::max(1u, (unsigned)std::ceil(Opts.TimeoutSec - Used));
  return true;
}

void Runner::timedOut(Cell &C, StringRef Step) {
  C.Kind = "timeout";
  C.Reason = formatv("'{0}' ({1}) timed out while {2}: the limit is {3} s "
                     "per case (--timeout {3}); its process group was killed",
                     C.Name, C.Variant, Step, Opts.TimeoutSec)
                 .str();
}

void Runner::interrupted(Cell &C) {
  C.Kind = "interrupted";
  C.Reason = "interrupted";
}

void Runner::noteDropped(Cell &C, StringRef Stream,
                         const validate::CapturedStream &S) {
  if (!S.Dropped)
    return;
  C.Notes.push_back(formatv("the program wrote {0} to {1}; kept the first "
                            "and last {2}, discarded {3}",
                            sizeText(S.Total), Stream,
                            sizeText(Opts.OutputLimit / 2), sizeText(S.Dropped))
                        .str());
}

bool Runner::makeRunDir(StringRef RunDir, StringRef DataDir, Cell &C) {
  sys::fs::remove_directories(RunDir);
  if (std::error_code EC = sys::fs::create_directories(RunDir)) {
    C.Kind = "run";
    C.Reason = "cannot create " + RunDir.str() + ": " + EC.message();
    return false;
  }
  if (DataDir.empty())
    return true;
  SmallString<256> RealWork;
  if (sys::fs::real_path(Work, RealWork))
    RealWork = Work;
  uint64_t Bytes = 0, Files = 0;
  bool Left = false;
  std::error_code EC;
  for (sys::fs::recursive_directory_iterator
           I(DataDir, EC, /*follow_symlinks=*/false),
       E;
       I != E && !EC; I.increment(EC)) {
    StringRef Path = I->path();
    SmallString<256> Rel(Path);
    sys::path::replace_path_prefix(Rel, DataDir, "");
    std::string To = joinPath(RunDir, sys::path::relative_path(Rel));
    ErrorOr<sys::fs::basic_file_status> St = I->status();
    if (!St)
      continue;
    if (St->type() == sys::fs::file_type::directory_file) {
      SmallString<256> Real;
      if (!sys::fs::real_path(Path, Real) &&
          (Real == RealWork ||
           StringRef(RealWork).starts_with((Real + "/").str()) ||
           StringRef(Real).starts_with((RealWork + "/").str()))) {
        I.no_push(); // the scratch directory, or one holding it
        continue;
      }
      (void)sys::fs::create_directories(To);
      continue;
    }
    // Links are followed to regular files only (a link to a directory
    // could lead anywhere, or in a circle).
    sys::fs::file_status Target;
    if (sys::fs::status(Path, Target) ||
        Target.type() != sys::fs::file_type::regular_file)
      continue;
    if (Files + 1 > RunDirCopyFiles ||
        Bytes + Target.getSize() > RunDirCopyLimit) {
      // The walk ends here too: a program kept in a huge tree must not
      // cost a walk over all of it.
      Left = true;
      break;
    }
    if (sys::fs::copy_file(Path, To))
      continue;
    (void)sys::fs::setPermissions(To, Target.permissions());
    ++Files;
    Bytes += Target.getSize();
  }
  if (Left)
    C.Notes.push_back(
        formatv("{0} was copied into the run's working directory only in "
                "part ({1} files, {2}): the copy is limited to {3} files "
                "and {4}",
                DataDir, Files, sizeText(Bytes), RunDirCopyFiles,
                sizeText(RunDirCopyLimit))
            .str());
  return true;
}

namespace {
// The emulator's launch statistics (one line: "pkemu-stats launches N
// threads T kernel_s S replayed P", then "running_s R" while a launch was in
// flight: the run ended inside it) on the cell, and as a note where the run
// took a second or more; nothing when the program launched no kernel or the
// file is unreadable. The launch in flight counts as kernel time.
void noteLaunchStats(Cell &C, StringRef Path, double RunSeconds) {
  auto B = MemoryBuffer::getFile(Path);
  if (!B)
    return;
  SmallVector<StringRef, 12> W;
  (*B)->getBuffer().trim().split(W, ' ');
  Cell::LaunchStats S;
  if ((W.size() != 9 && W.size() != 11) || W[0] != "pkemu-stats" ||
      W[1] != "launches" || W[3] != "threads" || W[5] != "kernel_s" ||
      W[7] != "replayed" || W[2].getAsInteger(10, S.Launches) ||
      W[4].getAsInteger(10, S.Threads) || W[6].getAsDouble(S.KernelSeconds) ||
      W[8].getAsInteger(10, S.Replayed))
    return;
  if (W.size() == 11 &&
      (W[9] != "running_s" || W[10].getAsDouble(S.RunningSeconds) ||
       S.RunningSeconds < 0))
    return;
  if (!S.Launches && !S.RunningSeconds)
    return;
  S.KernelSeconds = std::min(S.KernelSeconds + S.RunningSeconds, RunSeconds);
  S.RunSeconds = RunSeconds;
  C.Launches = S;
  if (RunSeconds < 1)
    return;
  std::string In = formatv("{0} kernel launch{1} ({2} threads)", S.Launches,
                           S.Launches == 1 ? "" : "es", S.Threads)
                       .str();
  if (S.Replayed)
    In += formatv(", {0} of them replayed (each repeated an earlier launch "
                  "exactly: the same kernel, configuration, arguments and "
                  "device memory)",
                  S.Replayed)
              .str();
  if (S.RunningSeconds > 0)
    In = (S.Launches ? In + " and a launch" : std::string("a kernel launch")) +
         formatv(" still running when the run ended ({0} s of it)",
                 format("%.1f", S.RunningSeconds))
             .str();
  C.Notes.push_back(
      formatv("time: {0} s in {1}, {2} s outside kernels (the program's host "
              "code and the emulator's start-up)",
              format("%.1f", S.KernelSeconds), In,
              format("%.1f", RunSeconds - S.KernelSeconds))
          .str());
}
} // namespace

bool Runner::run(StringRef Exe, ArrayRef<std::string> Args, StringRef Dir,
                 StringRef DataDir, Cell &C, std::string &Stdout) {
  std::string OutP = joinPath(Dir, "run.out"), ErrP = joinPath(Dir, "run.err");
  std::string RunDir = joinPath(Dir, "run");
  if (!makeRunDir(RunDir, DataDir, C))
    return false;
  unsigned Limit = 0;
  if (!timeLeft(C, "running", Limit))
    return false;
  std::vector<StringRef> Env = EnvRefs;
  const std::string VariantVar = "PKV_VARIANT=" + C.Variant;
  Env.push_back(VariantVar);
  std::string EmuTimeout = emuTimeoutVar(Limit);
  if (!EmuTimeout.empty())
    Env.push_back(EmuTimeout);
  if (Opts.NoReplay)
    Env.push_back("PKEMU_REPLAY=0");
  // A program's launches and the time in them (PKEMU_STATS_FILE, kept by
  // the emulator's runtime): the note that splits its time.
  const std::string StatsP = joinPath(Dir, "launch-stats");
  const std::string StatsVar = "PKEMU_STATS_FILE=" + StatsP;
  if (Opts.Program) {
    (void)sys::fs::remove(StatsP);
    Env.push_back(StatsVar);
  }
  std::optional<Regex> StopRe;
  if (!Opts.StopAt.empty())
    StopRe.emplace(Opts.StopAt, Regex::Newline);
  auto StopAtLine = [&](StringRef Line) { return StopRe->match(Line); };
  const auto RunStart = Clock::now();
  validate::BoundedResult R = validate::runBounded(
      Exe, Args, ArrayRef<StringRef>(Env), Limit, Opts.OutputLimit,
      /*MergeStderr=*/false, RunDir,
      StopRe ? function_ref<bool(StringRef)>(StopAtLine) : nullptr);
  if (Opts.Program)
    noteLaunchStats(
        C, StatsP,
        std::chrono::duration<double>(Clock::now() - RunStart).count());
  if (R.Strays)
    C.Notes.push_back(
        formatv("the program left {0} process{1} running (a daemon, a "
                "child it did not wait for); killed when it ended",
                R.Strays, R.Strays == 1 ? "" : "es")
            .str());
  const validate::PathMap Map = pathMap(C);
  R.Out.Text = validate::unmapBuildPaths(R.Out.Text, Map, Cwd);
  R.Err.Text = validate::unmapBuildPaths(R.Err.Text, Map, Cwd);
  (void)writeFile(OutP, R.Out.Text);
  (void)writeFile(ErrP, R.Err.Text);
  noteDropped(C, "stdout", R.Out);
  noteDropped(C, "stderr", R.Err);
  Stdout = std::move(R.Out.Text);
  std::string Stderr = std::move(R.Err.Text);
  C.ExitCode = R.Code;
  if (R.StoppedAtOutput) {
    // Judged as if it had exited 0 at the matching line.
    C.ExitCode = 0;
    C.Notes.push_back("stopped at the first output line matching --stop-at '" +
                      Opts.StopAt + "'; what follows that line did not run");
    return true;
  }
  if (!Opts.Allow.empty()) {
    SmallVector<StringRef, 16> Lines;
    StringRef(Stderr).split(Lines, '\n');
    for (StringRef L : Lines) {
      size_t P = L.find("pkemu: allowed (");
      if (P != StringRef::npos)
        C.Relaxed.push_back(L.drop_front(P + 7).rtrim().str());
    }
  }
  if (R.ExecFailed) {
    C.Kind = "run";
    C.Reason = "cannot run " + Exe.str() + ": " + R.ErrMsg;
    return false;
  }
  if (R.Interrupted) {
    interrupted(C);
    return false;
  }
  if (R.TimedOut) {
    timedOut(C, "running");
    Expected<DriverResult> Res = parseDriverResult(Stdout);
    if (Res)
      C.Reason += " (after printing its result: it hangs at exit)";
    else
      consumeError(Res.takeError());
    C.Detail = lastLines(Stderr, 8);
    return false;
  }
  if (R.Code == EmuErrorExit) {
    C.Kind = "emulator";
    C.Detail = emulatorReport(Stderr);
    if (C.Detail.empty())
      C.Detail = lastLines(Stderr, 8);
    std::string First = firstLine(C.Detail);
    StringRef F = First;
    size_t P = F.find("pkemu: error:");
    C.Reason = "emulator: " +
               (P == StringRef::npos ? F : F.drop_front(P + 13).trim()).str();
    if (Limit && StringRef(C.Reason).contains("(PKEMU_TIMEOUT_S)"))
      C.Reason += formatv(" [{0}: the emulator's limit per launch, from "
                          "the {1} s that --timeout {2} left for the run]",
                          EmuTimeout, Limit, Opts.TimeoutSec)
                      .str();
    return false;
  }
  if (R.Signal) {
    C.Kind = "crash";
    C.Reason = "crashed: " + R.ErrMsg;
    C.Detail = lastLines(Stderr, 8);
    return false;
  }
  C.Detail = lastLines(Stderr, 8);
  return true;
}

Cell Runner::runCase(const CaseSpec &Spec, std::optional<Target> T) {
  Cell C;
  C.Variant = variantName(T).str();
  C.Dir = joinPath(Work, Spec.Name, C.Variant);
  C.SrcDir = Spec.Dir;
  C.Name = Spec.Name;
  auto Start = C.Start = Clock::now();
  auto Done = [&]() -> Cell {
    C.Seconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - Start)
            .count();
    return C;
  };
  if (std::error_code EC = sys::fs::create_directories(C.Dir)) {
    C.Kind = "run";
    C.Reason = "cannot create " + C.Dir + ": " + EC.message();
    return Done();
  }
  // A HIP case's original runs as HIP at 64 lanes (its CUDA port at 32).
  const bool OrigHip = PS.isHipSource(Spec.sourcePath());
  const bool Hip = T ? targetEmuLanguage(*T) == EmuLanguage::HIP : OrigHip;
  std::optional<std::string> Prepared =
      portAndPrepare(Spec.sourcePath(), T, C.Dir, C, OrigHip);
  if (!Prepared)
    return Done();
  if (T && runsOnNkiSimulator(*T)) {
    NkiRunConfig NC = defaultNkiRunConfig();
    NC.ClangXX = TC.ClangXX;
    NC.RuntimeHeader = runtimeHeaderPath();
    NC.OutputLimit = Opts.OutputLimit;
    if (!timeLeft(C, "running the NKI output", NC.TimeoutSec))
      return Done();
    fillNkiCell(C, runNkiCase(Spec, *Prepared, C.Dir, NC));
    return Done();
  }

  DriverConfig DC;
  DC.Language = Hip ? Lang::HIP : Lang::CUDA;
  DC.PreparedSource = *Prepared;
  DC.ReferenceSource = Spec.referencePath();
  DC.RuntimeHeader = runtimeHeaderPath();
  // The variant comes from PKV_VARIANT (run): the driver's text, and so
  // its object, is then the same for the original and an identical port.
  DC.Variant.clear();
  std::string Driver = joinPath(C.Dir, "driver.cpp");
  if (Error E = writeFile(Driver, generateDriver(Spec, DC))) {
    C.Kind = "run";
    C.Reason = toString(std::move(E));
    return Done();
  }
  std::string Exe = joinPath(C.Dir, "driver");
  if (!compile(Driver, Exe, Hip, C.Dir, C))
    return Done();
  std::string Stdout;
  if (!run(Exe, {}, C.Dir, "", C, Stdout))
    return Done();

  Expected<DriverResult> R = parseDriverResult(Stdout);
  if (!R) {
    consumeError(R.takeError());
    C.Kind = C.ExitCode < 0 ? "crash" : "run";
    C.Reason = "no result (exit status " + std::to_string(C.ExitCode) + ")";
    return Done();
  }
  C.Outputs = R->Outputs;
  C.HaveErrors = !R->Outputs.empty();
  for (const OutputResult &O : R->Outputs) {
    C.MaxAbs = std::max(C.MaxAbs, O.MaxAbs);
    C.MaxRel = std::max(C.MaxRel, O.MaxRel);
  }
  if (R->Status == "error") {
    C.Kind = "run";
    C.Reason = "runtime error: " + R->Message;
    return Done();
  }
  if (R->Status == "mismatch") {
    C.Kind = "mismatch";
    std::string Parts;
    for (const OutputResult &O : R->Outputs) {
      if (!O.Mismatches)
        continue;
      if (!Parts.empty())
        Parts += "; ";
      Parts += formatv("{0}[{1}] = {2} (want {3}); {4} of {5} differ", O.Name,
                       O.FirstBad, format("%.7g", O.Got),
                       format("%.7g", O.Want), O.Mismatches, O.Count)
                   .str();
      if (O.NanMismatches)
        Parts += formatv(" ({0} NaN)", O.NanMismatches).str();
    }
    C.Reason = "mismatch: " + Parts;
    return Done();
  }
  if (C.ExitCode != 0) {
    C.Kind = "run";
    C.Reason = "exit status " + std::to_string(C.ExitCode) +
               " after a passing comparison";
    return Done();
  }
  C.Status = CellStatus::Pass;
  C.Kind.clear();
  C.Detail.clear();
  return Done();
}

bool Runner::checkHipHeaders(StringRef File, ArrayRef<std::string> Flags,
                             Cell &C) {
  if (!HipHdr)
    return true;
  C.HipHeaders = "ROCm " + HipHdr->Version + " (" + HipHdr->Include + ")";
  std::vector<std::string> Archs(std::begin(HipArchs), std::end(HipArchs));
  std::vector<std::pair<std::string, std::vector<std::string>>> Steps;
  Steps.push_back({hipArchList() + ", host side", {"--offload-host-only"}});
  for (const std::string &A : Archs)
    Steps.push_back({A + ", device side",
                     {"--offload-device-only", "--offload-arch=" + A}});
  for (auto &[What, StepArgs] : Steps) {
    std::vector<std::string> Args{"-x", "hip", "-fsyntax-only", "-nogpulib",
                                  "-w"};
    if (StepArgs.size() == 1)
      for (const std::string &A : Archs)
        Args.push_back("--offload-arch=" + A);
    llvm::append_range(Args, StepArgs);
    if (HipHdr->Include == "/usr/include") {
      Args.push_back("--rocm-path=/usr");
    } else {
      for (const char *A : {"-nogpuinc", "-isystem"})
        Args.push_back(A);
      Args.push_back(HipHdr->Include);
      for (const char *A : {"-include", "__clang_hip_runtime_wrapper.h",
                            "-DHIP_ENABLE_WARP_SYNC_BUILTINS"})
        Args.push_back(A);
    }
    llvm::append_range(Args, Flags);
    Args.push_back(File.str());
    unsigned Limit = 0;
    if (!timeLeft(C, "compiling against the HIP headers", Limit))
      return false;
    validate::BoundedResult R =
        validate::runBounded(TC.ClangXX, Args, std::nullopt, Limit,
                             Opts.OutputLimit, /*MergeStderr=*/true);
    if (R.Code == 0 && !R.ExecFailed && !R.TimedOut && !R.Interrupted)
      continue;
    C.Kind = "hip-headers";
    if (R.ExecFailed)
      C.Reason = "cannot run " + TC.ClangXX + ": " + R.ErrMsg;
    else if (R.TimedOut)
      timedOut(C, "compiling against the HIP headers");
    else if (R.Interrupted)
      interrupted(C);
    else {
      C.Detail = compileErrorSummary(R.Out.Text);
      C.Reason = formatv("{0} does not compile against the ROCm {1} headers "
                         "({2}; {3}), which the emulator's stand-in headers "
                         "accept: {4}",
                         sys::path::filename(File), HipHdr->Version,
                         HipHdr->Include, What, firstLine(C.Detail))
                     .str();
    }
    return false;
  }
  return true;
}

Cell Runner::runProgram(ArrayRef<std::string> Files, std::optional<Target> T) {
  StringRef File = Files.front();
  Cell C;
  C.Variant = variantName(T).str();
  C.Dir = joinPath(Work, sys::path::stem(File), C.Variant);
  C.SrcDir = std::string(sys::path::parent_path(cleanPath(File)));
  C.Name = sys::path::filename(File).str();
  auto Start = C.Start = Clock::now();
  auto Done = [&]() -> Cell {
    C.Seconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - Start)
            .count();
    return C;
  };
  if (std::error_code EC = sys::fs::create_directories(C.Dir)) {
    C.Kind = "run";
    C.Reason = "cannot create " + C.Dir + ": " + EC.message();
    return Done();
  }
  // A HIP program's original runs as HIP at 64 lanes (its CUDA port at
  // 32); a CUDA program's at 32. The first unit (the one named by
  // --program) decides for the program.
  const bool OrigHip = PS.isHipSource(File);
  const bool Hip = T ? targetEmuLanguage(*T) == EmuLanguage::HIP : OrigHip;
  std::vector<std::string> Ported;
  VariantFlags Flags{Opts.BuildFlags, {}};
  std::optional<std::vector<std::string>> Prepared =
      portAndPrepare(Files, T, C.Dir, C, OrigHip, &Ported, &Flags);
  if (!Prepared)
    return Done();
  C.BuildFlags = Flags.Prepared.front();
  // A HIP source (the port, or a HIP original) must also compile against
  // the real HIP headers of the chosen ROCm version: each unit.
  if (Hip)
    for (size_t I = 0; I < Files.size(); ++I)
      if (!checkHipHeaders(T ? StringRef(Ported[I]) : StringRef(Files[I]),
                           Flags.Source, C))
        return Done();
  if (T && runsOnNkiSimulator(*T)) {
    C.Status = CellStatus::Skip;
    C.Kind = "skip";
    C.Reason = "ported to " + Prepared->front() +
               "; program mode does not run NKI outputs (they have no host "
               "code)";
    return Done();
  }
  // A wrapper per unit so that the prepared file compiles as C++ whatever
  // its extension: main.cpp, unit-2.cpp, ...
  std::vector<BuildUnit> Units;
  for (size_t I = 0; I < Prepared->size(); ++I) {
    std::string Main =
        joinPath(C.Dir, I == 0 ? std::string("main.cpp")
                               : "unit-" + std::to_string(I + 1) + ".cpp");
    if (Error E = writeFile(Main, "#include \"" + (*Prepared)[I] + "\"\n")) {
      C.Kind = "run";
      C.Reason = toString(std::move(E));
      return Done();
    }
    Units.push_back({Main, &Flags.Prepared[I]});
  }
  std::string Exe = joinPath(C.Dir, "program");
  if (!compile(Units, Exe, Hip, C.Dir, C))
    return Done();
  std::string Stdout;
  if (!run(Exe, Opts.ProgramArgs, C.Dir, sys::path::parent_path(File), C,
           Stdout))
    return Done();
  if (C.ExitCode != 0) {
    C.Kind = "run";
    C.Reason = "exit status " + std::to_string(C.ExitCode);
    std::string Tail = lastLines(Stdout, 6);
    if (!C.Detail.empty() && !Tail.empty())
      C.Detail = Tail + "\n" + C.Detail;
    else if (!Tail.empty())
      C.Detail = Tail;
    return Done();
  }
  // Programs that print their verdict and exit 0.
  SmallVector<StringRef, 1> M;
  if (!Opts.FailOutput.empty() &&
      Regex(Opts.FailOutput, Regex::Newline).match(Stdout, &M)) {
    C.Kind = "run";
    size_t At = M[0].data() - Stdout.data();
    size_t B = StringRef(Stdout).rfind('\n', At);
    B = B == StringRef::npos ? 0 : B + 1;
    C.Reason = "output matches --fail-output: " +
               StringRef(Stdout).substr(B).split('\n').first.str();
    return Done();
  }
  if (!Opts.ExpectOutput.empty() &&
      !Regex(Opts.ExpectOutput, Regex::Newline).match(Stdout)) {
    C.Kind = "run";
    C.Reason =
        "output does not match --expect-output '" + Opts.ExpectOutput + "'";
    C.Detail = lastLines(Stdout, 6);
    return Done();
  }
  C.Status = CellStatus::Pass;
  C.Kind.clear();
  C.Detail.clear();
  return Done();
}

void Runner::progress(const Row &R, const Cell &C, unsigned Done,
                      unsigned Total, raw_ostream &Err) {
  std::lock_guard<std::mutex> L(PrintMutex);
  Err << "[" << Done << "/" << Total << "] " << R.Name << " (" << C.Variant
      << "): "
      << (C.Status == CellStatus::Pass ? (C.Relaxed.empty() ? "PASS" : "PASS*")
          : C.Status == CellStatus::Skip ? "SKIP"
                                         : "FAIL")
      << format(" %.1fs", C.Seconds) << "\n";
  for (const std::string &N : C.Notes)
    Err << "  note: " << R.Name << " (" << C.Variant << "): " << N << "\n";
}

} // namespace pk::vrun
