//===- RunnerBuild.cpp - port, prepare and build one validate cell --------===//
// Rules: none (validation harness)
//
// The Runner's port of a case or program (one parse for every target), its
// preparation for the emulator, and the build: the compile cache, the
// precompiled prelude, --inline-hooks.
//
//===----------------------------------------------------------------------===//

#include "ValidateInternal.h"

namespace pk::vrun {

Error Runner::portOnce(StringRef Source, Target T, StringRef Dir,
                       std::vector<std::string> &Outs) {
  std::lock_guard<std::mutex> L(ServiceMutex);
  StringRef CaseDir = sys::path::parent_path(Dir);
  PortedCase &P = Ported[CaseDir.str()];
  if (!P.Tried) {
    P.Tried = true;
    std::vector<Target> Ts;
    std::vector<std::string> Dirs;
    for (Target X : Opts.Targets)
      if (!llvm::is_contained(Ts, X)) {
        Ts.push_back(X);
        Dirs.push_back(joinPath(CaseDir, targetName(X), "src"));
      }
    std::vector<std::vector<std::string>> Paths;
    if (Error E = PS.portFilesToTargets({Source.str()}, Ts, Dirs, Paths))
      consumeError(std::move(E));
    else
      for (size_t I = 0; I < Ts.size() && I < Paths.size(); ++I)
        P.Outs[(int)Ts[I]] = Paths[I];
  }
  auto It = P.Outs.find((int)T);
  if (It != P.Outs.end()) {
    Outs = It->second;
    return Error::success();
  }
  return PS.portFiles({Source.str()}, T, joinPath(Dir, "src"), Outs);
}

std::optional<std::string>
Runner::portAndPrepare(StringRef Source, std::optional<Target> T, StringRef Dir,
                       Cell &C, bool OriginalIsHip, std::string *Ported,
                       VariantFlags *Flags) {
  std::string Input = Source.str();
  if (T) {
    std::vector<std::string> Outs;
    Error E = Error::success();
    E = portOnce(Input, *T, Dir, Outs);
    if (E) {
      C.Kind = "port";
      std::string Msg = toString(std::move(E));
      C.Reason = "port failed: " + firstLine(Msg);
      C.Detail = StringRef(Msg).trim().str();
      return std::nullopt;
    }
    if (Outs.empty()) {
      C.Kind = "port";
      C.Reason = "port produced no output file";
      return std::nullopt;
    }
    Input = Outs.front();
    if (Ported)
      *Ported = Input;
    std::string Src = joinPath(Dir, "src");
    if (Flags)
      if (std::optional<std::string> R = mirroredRoot(Source, Input, Src))
        Flags->Source = remapTree(Flags->Source, *R, Src);
    if (std::optional<std::string> R = mirroredRoot(Source, Input, Src))
      if (!C.SrcDir.empty() && *R == cleanPath(C.SrcDir) &&
          sameAsSources(Outs, Src, *R))
        C.SrcCopy = Src;
    if (runsOnNkiSimulator(*T))
      return Input; // the NKI runner's input, not the emulator's
    if (targetEmuLanguage(*T) == EmuLanguage::None) {
      C.Status = CellStatus::Skip;
      C.Kind = "skip";
      C.Reason = "ported to " + Input + "; " + targetName(*T).str() +
                 " output is not run by the emulator";
      return std::nullopt;
    }
  }
  Expected<std::string> Prepared = [&] {
    std::lock_guard<std::mutex> L(ServiceMutex);
    bool Hip = T ? targetEmuLanguage(*T) == EmuLanguage::HIP : OriginalIsHip;
    if (T && Flags)
      return PS.emuPrepareWithFlags(Input, Hip, joinPath(Dir, "prep"),
                                    Flags->Source);
    return PS.emuPrepare(Input, Hip, joinPath(Dir, "prep"));
  }();
  if (!Prepared) {
    C.Kind = "prepare";
    std::string Msg = toString(Prepared.takeError());
    C.Reason = "emulator preparation failed: " + firstLine(Msg);
    C.Detail = StringRef(Msg).trim().str();
    return std::nullopt;
  }
  SmallString<256> Abs(*Prepared);
  sys::fs::make_absolute(Abs);
  if (Flags) {
    std::string Prep = joinPath(Dir, "prep");
    Flags->Prepared = Flags->Source;
    if (std::optional<std::string> R = mirroredRoot(Input, Abs, Prep))
      Flags->Prepared = remapTree(Flags->Source, *R, Prep);
  }
  return std::string(Abs);
}

bool Runner::sameAsSources(ArrayRef<std::string> Outs, StringRef Copy,
                           StringRef Root) {
  // Every file of the copy, not only the outputs the port named: a build
  // reads whatever lies there, and its reports would name the user's file.
  const std::string Base = cleanPath(Copy);
  unsigned Files = 0;
  std::error_code EC;
  for (sys::fs::recursive_directory_iterator I(Base, EC), E; I != E && !EC;
       I.increment(EC)) {
    ErrorOr<sys::fs::basic_file_status> St = I->status();
    if (!St)
      return false;
    if (St->type() == sys::fs::file_type::directory_file)
      continue;
    if (St->type() != sys::fs::file_type::regular_file)
      return false;
    std::optional<std::string> Orig = underOther(I->path(), Base, Root);
    if (!Orig)
      return false;
    ErrorOr<std::unique_ptr<MemoryBuffer>> A = MemoryBuffer::getFile(
        I->path(), /*IsText=*/false, /*RequiresNullTerminator=*/false);
    ErrorOr<std::unique_ptr<MemoryBuffer>> B = MemoryBuffer::getFile(
        *Orig, /*IsText=*/false, /*RequiresNullTerminator=*/false);
    if (!A || !B || (*A)->getBuffer() != (*B)->getBuffer())
      return false;
    ++Files;
  }
  return !EC && Files >= Outs.size() && !Outs.empty();
}

validate::PathMap Runner::pathMap(const Cell &C) const {
  validate::PathMap M(Work);
  M.add(C.Dir, validate::MappedCell);
  M.add(C.SrcDir, validate::MappedSrc);
  M.add(C.SrcCopy, validate::MappedSrc);
  return M;
}

bool Runner::compile(StringRef Main, StringRef Exe, bool Hip, StringRef Dir,
                     Cell &C) {
  std::vector<std::string> Args = TC.CompileFlags;
  bool HasOpt = false, HasStd = false;
  for (const std::string &F : Args) {
    HasOpt |= StringRef(F).starts_with("-O");
    HasStd |= StringRef(F).starts_with("-std=");
  }
  if (!HasStd)
    Args.push_back("-std=c++17");
  if (!HasOpt)
    Args.push_back("-O1");
  // A compiler crash is reported in the cell; clang's reproducer (the
  // preprocessed source and a script, several MB in the temporary
  // directory) would outlive the run.
  Args.push_back("-fno-crash-diagnostics");
  llvm::append_range(Args, C.BuildFlags ? *C.BuildFlags : Opts.BuildFlags);
  Args.push_back(Hip ? "-DPKEMU_DEFAULT_WARP=64" : "-DPKEMU_DEFAULT_WARP=32");
  Args.push_back(Hip ? "-DPKEMU_LANG_HIP" : "-DPKEMU_LANG_CUDA");
  if (Opts.InlineHooks)
    Args.push_back("-DPKEMU_INLINE_HOOKS");
  // The precompiled prelude (--cache-dir): planned from the flags before
  // the path maps, which name this run's scratch directory.
  std::optional<validate::PreludePlan> Pch;
  if (!Opts.CacheDir.empty())
    Pch = validate::planPrelude(TC.ClangXX, Args, Work);
  // The object records fixed names for the scratch directory, the cell's
  // and the sources' directories and the working directory (what the run
  // prints gets them back), so that it does not depend on where they are:
  // --cache-dir.
  const validate::PathMap Map = pathMap(C);
  llvm::append_range(Args, validate::pathMapFlags(Map));
  std::string Obj = (Exe + ".o").str();
  std::string Key, CacheNote, MKey;
  std::vector<std::pair<std::string, std::string>> Inputs;
  if (!Opts.CacheDir.empty()) {
    // Direct lookup first: the manifest of this command lists the files
    // earlier builds read; when all are unchanged, their object is used
    // without preprocessing.
    MKey = validate::manifestKey(TC.ClangXX, Args, Main, Map, Hashes);
    Key = validate::lookupManifest(Opts.CacheDir, MKey, Map, Hashes);
    if (Key.empty() &&
        !cacheKey(Main, Exe, Args, Map, C, Key, CacheNote, Inputs))
      return false;
  }
  std::vector<std::string> CompileArgs = Args;
  if (Pch && !usePrelude(*Pch, Dir, CompileArgs))
    Pch.reset();
  // --inline-hooks: clang stops at instrumented bitcode, opt inlines the
  // hooks' fast path and cleans up, llc generates the object.
  const std::string Bc = Obj + ".bc", InlinedBc = Obj + ".inl.bc";
  std::vector<std::vector<std::string>> Post;
  if (Opts.InlineHooks) {
    CompileArgs.push_back("-emit-llvm");
    Post.push_back({"-passes=always-inline,function(early-cse<memssa>,"
                    "instcombine,simplifycfg,loop-mssa(licm))",
                    Bc, "-o", InlinedBc});
    Post.push_back({"-O2", "-filetype=obj", "-relocation-model=pic", InlinedBc,
                    "-o", Obj});
  }
  CompileArgs.push_back("-c");
  CompileArgs.push_back("-o");
  CompileArgs.push_back(Opts.InlineHooks ? Bc : Obj);
  CompileArgs.push_back(Main.str());
  // opt and llc of the same LLVM: next to clang++ once symlinks
  // (/usr/bin/clang++-19) are resolved.
  SmallString<256> RealClang;
  if (sys::fs::real_path(TC.ClangXX, RealClang))
    RealClang = TC.ClangXX;
  const std::string LlvmBin = sys::path::parent_path(RealClang).str();
  const std::string OptTool = joinPath(LlvmBin, "opt"),
                    LlcTool = joinPath(LlvmBin, "llc");

  std::vector<std::string> LinkArgs{"-o", Exe.str(), Obj};
  llvm::append_range(LinkArgs, TC.LinkFlags);
  // OpenMP host code (pk::buildFlags keeps -fopenmp): clang's runtime.
  if (llvm::is_contained(Args, "-fopenmp"))
    LinkArgs.push_back("-fopenmp");

  auto CmdLine = [&](ArrayRef<std::string> A) {
    std::string Cmd = TC.ClangXX;
    for (const std::string &X : A)
      Cmd += " " + X;
    return Cmd + "\n";
  };
  auto ToolLine = [&](const std::string &Tool, ArrayRef<std::string> A) {
    std::string Cmd = Tool;
    for (const std::string &X : A)
      Cmd += " " + X;
    return Cmd + "\n";
  };
  std::string Cmds = CmdLine(CompileArgs);
  for (std::size_t I = 0; I < Post.size(); ++I)
    Cmds += ToolLine(I == 0 ? OptTool : LlcTool, Post[I]);
  (void)writeFile(joinPath(Dir, "compile.cmd"), Cmds + CmdLine(LinkArgs));

  // Another cell of this run compiling the same object: wait for it, then
  // take what it stored.
  validate::KeysInFlight::Hold Flight = InFlight.acquire(Key);
  // The linked program of this object and these link flags.
  std::string PKey;
  if (!Key.empty())
    PKey = validate::programKey(Key, LinkArgs, Map, Hashes);
  if (!PKey.empty()) {
    validate::CacheFetch F =
        validate::fetchObject(Opts.CacheDir, PKey, Exe, ".exe");
    if (F && !sys::fs::setPermissions(Exe, sys::fs::perms(0755))) {
      (void)writeFile(joinPath(Dir, "compile.log"),
                      "program " + PKey + " reused from " + Opts.CacheDir +
                          " (object " + Key + ")\n");
      if (!Inputs.empty())
        validate::recordManifest(Opts.CacheDir, MKey, Map, Inputs, Key);
      return true;
    }
    if (F.K == validate::CacheFetch::Damaged)
      CacheNote += "cache entry " + PKey + " in " + Opts.CacheDir +
                   " was damaged (" + F.Why + "); linked again\n";
  }
  bool Cached = false;
  if (!Key.empty()) {
    validate::CacheFetch F = validate::fetchObject(Opts.CacheDir, Key, Obj);
    Cached = bool(F);
    if (F.K == validate::CacheFetch::Damaged)
      CacheNote += "cache entry " + Key + " in " + Opts.CacheDir +
                   " was damaged (" + F.Why + "); compiled again\n";
    if (!Cached && Inputs.empty()) {
      // Found through the manifest but gone or damaged: the inputs for
      // recording it again come from preprocessing.
      std::string Ignored;
      if (!cacheKey(Main, Exe, Args, Map, C, Ignored, CacheNote, Inputs))
        return false;
    }
  }
  if (Cached) {
    (void)writeFile(joinPath(Dir, "compile.log"),
                    "object " + Key + " reused from " + Opts.CacheDir + "\n");
    if (!Inputs.empty())
      validate::recordManifest(Opts.CacheDir, MKey, Map, Inputs, Key);
  }
  // Clang's refusals of a precompiled header name it or say what it is.
  auto RefusesPrelude = [&](StringRef Out) {
    return (Pch &&
            Out.contains(validate::preludePchPath(Opts.CacheDir, Pch->Key))) ||
           Out.contains_insensitive("precompiled header") ||
           Out.contains("PCH file") || Out.contains("AST file");
  };
  for (bool Link : {false, true}) {
    if (!Link && Cached)
      continue;
    std::string Log = joinPath(Dir, Link ? "link.log" : "compile.log");
    const char *Step = Link ? "linking" : "compiling";
    unsigned Limit = 0;
    if (!timeLeft(C, Step, Limit))
      return false;
    validate::BoundedResult R = validate::runBounded(
        TC.ClangXX, Link ? LinkArgs : CompileArgs, std::nullopt, Limit,
        Opts.OutputLimit, /*MergeStderr=*/true);
    if (!Link && Pch && R.Code != 0 && !R.ExecFailed && !R.TimedOut &&
        !R.Interrupted && RefusesPrelude(R.Out.Text)) {
      // A precompiled prelude clang refuses (it validates the files it
      // was built from too): compile as written instead.  Any other
      // failure is the program's and would only fail again.
      CompileArgs = Args;
      if (Opts.InlineHooks)
        CompileArgs.push_back("-emit-llvm");
      llvm::append_range(CompileArgs,
                         std::vector<std::string>{"-c", "-o",
                                                  Opts.InlineHooks ? Bc : Obj,
                                                  Main.str()});
      Pch.reset();
      if (!timeLeft(C, Step, Limit))
        return false;
      R = validate::runBounded(TC.ClangXX, CompileArgs, std::nullopt, Limit,
                               Opts.OutputLimit, /*MergeStderr=*/true);
    }
    // --inline-hooks: the inlining and code generation steps.
    for (std::size_t I = 0; !Link && I < Post.size(); ++I) {
      if (R.Code != 0 || R.ExecFailed || R.TimedOut || R.Interrupted)
        break;
      std::string Text = std::move(R.Out.Text);
      if (!timeLeft(C, Step, Limit))
        return false;
      R = validate::runBounded(I == 0 ? OptTool : LlcTool, Post[I],
                               std::nullopt, Limit, Opts.OutputLimit,
                               /*MergeStderr=*/true);
      R.Out.Text = Text + R.Out.Text;
    }
    (void)writeFile(Log, (Link ? std::string() : CacheNote) + R.Out.Text);
    if (R.Code == 0 && !R.ExecFailed && !R.TimedOut && !R.Interrupted) {
      if (!Link && !Key.empty()) {
        validate::storeObject(Opts.CacheDir, Key, Obj);
        validate::recordManifest(Opts.CacheDir, MKey, Map, Inputs, Key);
      }
      if (Link && !PKey.empty())
        validate::storeObject(Opts.CacheDir, PKey, Exe, ".exe");
      continue;
    }
    C.Kind = Link ? "link" : "compile";
    if (R.ExecFailed)
      C.Reason = "cannot run " + TC.ClangXX + ": " + R.ErrMsg;
    else if (R.TimedOut)
      timedOut(C, Step);
    else if (R.Interrupted)
      interrupted(C);
    else {
      C.Detail = compileErrorSummary(R.Out.Text);
      C.Reason = C.Kind + " error: " + firstLine(C.Detail);
    }
    return false;
  }
  return true;
}

bool Runner::usePrelude(const validate::PreludePlan &Plan, StringRef Dir,
                        std::vector<std::string> &Args) {
  std::string P = validate::preludePchPath(Opts.CacheDir, Plan.Key);
  {
    std::lock_guard<std::mutex> L(PchMutex);
    if (!validate::preludePchValid(Opts.CacheDir, Plan.Key, Hashes)) {
      std::string Built = joinPath(Dir, "prelude.pch");
      std::string Dep = Built + ".d";
      std::vector<std::string> B = Plan.BuildArgs;
      // Clang checks the PCH's inputs by size only; their content is
      // checked against the hashes of its .deps before each use.
      llvm::append_range(
          B, std::vector<std::string>{"-Xclang", "-fno-pch-timestamp", "-MD",
                                      "-MF", Dep, "-o", Built, Plan.Header});
      validate::BoundedResult R = validate::runBounded(
          TC.ClangXX, B, std::nullopt, 300, Opts.OutputLimit,
          /*MergeStderr=*/true);
      bool Ok = R.Code == 0 && !R.ExecFailed && !R.TimedOut && !R.Interrupted &&
                validate::storePreludePch(Opts.CacheDir, Plan.Key, Built, Dep,
                                          Plan.BuildArgs);
      sys::fs::remove(Built);
      sys::fs::remove(Dep);
      if (!Ok)
        return false;
    }
  }
  Args[Plan.IncludeAt] = "-include-pch";
  Args[Plan.IncludeAt + 1] = P;
  return true;
}

bool Runner::cacheKey(
    StringRef Main, StringRef Exe, ArrayRef<std::string> Flags,
    const validate::PathMap &Map, Cell &C, std::string &Key, std::string &Note,
    std::vector<std::pair<std::string, std::string>> &Inputs) {
  std::vector<std::string> Args(Flags.begin(), Flags.end());
  std::string Pre = (Exe + ".ii").str(), Dep = (Exe + ".ii.d").str();
  llvm::append_range(Args, std::vector<std::string>{"-E", "-MD", "-MF", Dep,
                                                    "-o", Pre, Main.str()});
  unsigned Limit = 0;
  if (!timeLeft(C, "preprocessing", Limit))
    return false;
  validate::BoundedResult R =
      validate::runBounded(TC.ClangXX, Args, std::nullopt, Limit,
                           Opts.OutputLimit, /*MergeStderr=*/true);
  auto Remove = llvm::make_scope_exit([&] {
    sys::fs::remove(Pre);
    sys::fs::remove(Dep);
  });
  if (R.Code != 0 || R.ExecFailed || R.TimedOut || R.Interrupted)
    return true; // no key: the compile step reports what is wrong
  ErrorOr<std::unique_ptr<MemoryBuffer>> B = MemoryBuffer::getFile(Pre);
  if (!B)
    return true;
  std::string Why = validate::uncacheableReason((*B)->getBuffer());
  Inputs.clear();
  if (Why.empty() && !validate::readInputs(Dep, Flags, Map, Inputs))
    Why = "a file the build reads could not be read for the cache key";
  if (!Why.empty()) {
    Inputs.clear();
    Note = "not cached: " + Why + "\n";
    return true;
  }
  Key = validate::objectKey(TC.ClangXX, Flags, (*B)->getBuffer(), Map, Inputs);
  return true;
}

} // namespace pk::vrun
