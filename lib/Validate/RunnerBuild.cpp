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

Error Runner::portOnce(ArrayRef<std::string> Sources, Target T, StringRef Dir,
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
    if (Error E = PS.portFilesToTargets(Sources, Ts, Dirs, Paths))
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
  return PS.portFiles(Sources, T, joinPath(Dir, "src"), Outs);
}

std::optional<std::string>
Runner::portAndPrepare(StringRef Source, std::optional<Target> T, StringRef Dir,
                       Cell &C, bool OriginalIsHip, std::string *Ported,
                       VariantFlags *Flags) {
  std::vector<std::string> PortedAll;
  std::optional<std::vector<std::string>> R =
      portAndPrepare(ArrayRef<std::string>{Source.str()}, T, Dir, C,
                     OriginalIsHip, Ported ? &PortedAll : nullptr, Flags);
  if (!R)
    return std::nullopt;
  if (Ported && !PortedAll.empty())
    *Ported = PortedAll.front();
  return R->front();
}

std::optional<std::vector<std::string>>
Runner::portAndPrepare(ArrayRef<std::string> Sources, std::optional<Target> T,
                       StringRef Dir, Cell &C, bool OriginalIsHip,
                       std::vector<std::string> *Ported, VariantFlags *Flags) {
  std::vector<std::string> Inputs(Sources.begin(), Sources.end());
  if (T) {
    std::vector<std::string> Outs;
    Error E = Error::success();
    E = portOnce(Inputs, *T, Dir, Outs);
    if (E) {
      C.Kind = "port";
      std::string Msg = toString(std::move(E));
      C.Reason = "port failed: " + firstLine(Msg);
      C.Detail = StringRef(Msg).trim().str();
      return std::nullopt;
    }
    for (size_t I = 0; I < Inputs.size(); ++I)
      if (I >= Outs.size() || Outs[I].empty()) {
        C.Kind = "port";
        C.Reason = "port produced no output file for " +
                   sys::path::filename(Inputs[I]).str();
        return std::nullopt;
      }
    Outs.resize(Inputs.size());
    if (Ported)
      *Ported = Outs;
    std::string Src = joinPath(Dir, "src");
    if (Flags)
      if (std::optional<std::string> R =
              mirroredRoot(Sources.front(), Outs.front(), Src))
        Flags->Source = remapTree(Flags->Source, *R, Src);
    if (std::optional<std::string> R =
            mirroredRoot(Sources.front(), Outs.front(), Src))
      if (!C.SrcDir.empty() && *R == cleanPath(C.SrcDir) &&
          sameAsSources(Outs, Src, *R))
        C.SrcCopy = Src;
    Inputs = std::move(Outs);
    if (runsOnNkiSimulator(*T))
      return Inputs; // the NKI runner's input, not the emulator's
    if (targetEmuLanguage(*T) == EmuLanguage::None) {
      C.Status = CellStatus::Skip;
      C.Kind = "skip";
      C.Reason = "ported to " + Inputs.front() + "; " + targetName(*T).str() +
                 " output is not run by the emulator";
      return std::nullopt;
    }
  }
  // Each translation unit is prepared into a tree of its own (prep/ for
  // the first, prep-2/, ... for the others): a tree mirrors the unit's
  // directory and the local headers it includes, which differ between
  // units.
  std::vector<std::string> Result;
  if (Flags)
    Flags->Prepared.clear();
  for (size_t I = 0; I < Inputs.size(); ++I) {
    const std::string &Input = Inputs[I];
    std::string Prep = joinPath(Dir, I == 0 ? std::string("prep")
                                            : "prep-" + std::to_string(I + 1));
    Expected<std::string> Prepared = [&] {
      std::lock_guard<std::mutex> L(ServiceMutex);
      bool Hip = T ? targetEmuLanguage(*T) == EmuLanguage::HIP : OriginalIsHip;
      if (T && Flags)
        return PS.emuPrepareWithFlags(Input, Hip, Prep, Flags->Source);
      return PS.emuPrepare(Input, Hip, Prep);
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
      std::vector<std::string> P = Flags->Source;
      if (std::optional<std::string> R = mirroredRoot(Input, Abs, Prep))
        P = remapTree(Flags->Source, *R, Prep);
      Flags->Prepared.push_back(std::move(P));
    }
    Result.push_back(std::string(Abs));
  }
  return Result;
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

bool Runner::compile(ArrayRef<BuildUnit> Units, StringRef Exe, bool Hip,
                     StringRef Dir, Cell &C) {
  std::vector<std::string> Head = TC.CompileFlags;
  bool HasOpt = false, HasStd = false;
  for (const std::string &F : Head) {
    HasOpt |= StringRef(F).starts_with("-O");
    HasStd |= StringRef(F).starts_with("-std=");
  }
  if (!HasStd)
    Head.push_back("-std=c++17");
  if (!HasOpt)
    Head.push_back("-O1");
  // A compiler crash is reported in the cell; clang's reproducer (the
  // preprocessed source and a script, several MB in the temporary
  // directory) would outlive the run.
  Head.push_back("-fno-crash-diagnostics");
  std::vector<std::string> Tail;
  Tail.push_back(Hip ? "-DPKEMU_DEFAULT_WARP=64" : "-DPKEMU_DEFAULT_WARP=32");
  Tail.push_back(Hip ? "-DPKEMU_LANG_HIP" : "-DPKEMU_LANG_CUDA");
  if (Opts.InlineHooks)
    Tail.push_back("-DPKEMU_INLINE_HOOKS");
  // The objects record fixed names for the scratch directory, the cell's
  // and the sources' directories and the working directory (what the run
  // prints gets them back), so that they do not depend on where they are:
  // --cache-dir.
  const validate::PathMap Map = pathMap(C);
  // opt and llc of the same LLVM: next to clang++ once symlinks
  // (/usr/bin/clang++-19) are resolved.
  SmallString<256> RealClang;
  if (sys::fs::real_path(TC.ClangXX, RealClang))
    RealClang = TC.ClangXX;
  const std::string LlvmBin = sys::path::parent_path(RealClang).str();
  const std::string OptTool = joinPath(LlvmBin, "opt"),
                    LlcTool = joinPath(LlvmBin, "llc");

  // One object per translation unit: Exe.o, Exe.2.o, ...
  struct Unit {
    std::string Main, Base, Obj, Log, Bc, InlinedBc;
    std::vector<std::string> Args, CompileArgs;
    std::optional<validate::PreludePlan> Pch;
    std::string Key, MKey, CacheNote;
    std::vector<std::pair<std::string, std::string>> Inputs;
    std::vector<std::vector<std::string>> Post;
    bool Cached = false;
  };
  std::vector<Unit> Us(Units.size());
  bool OpenMP = false;
  for (size_t I = 0; I < Units.size(); ++I) {
    Unit &U = Us[I];
    U.Main = Units[I].Main;
    U.Base = I == 0 ? Exe.str() : (Exe + "." + Twine(I + 1)).str();
    U.Obj = U.Base + ".o";
    U.Log = joinPath(Dir, I == 0 ? std::string("compile.log")
                                 : "compile-" + std::to_string(I + 1) + ".log");
    U.Args = Head;
    llvm::append_range(U.Args, Units[I].Flags ? *Units[I].Flags
                               : C.BuildFlags ? *C.BuildFlags
                                              : Opts.BuildFlags);
    llvm::append_range(U.Args, Tail);
    OpenMP |= llvm::is_contained(U.Args, "-fopenmp");
    // The precompiled prelude (--cache-dir): planned from the flags before
    // the path maps, which name this run's scratch directory.
    if (!Opts.CacheDir.empty())
      U.Pch = validate::planPrelude(TC.ClangXX, U.Args, Work);
    llvm::append_range(U.Args, validate::pathMapFlags(Map));
    if (!Opts.CacheDir.empty()) {
      // Direct lookup first: the manifest of this command lists the files
      // earlier builds read; when all are unchanged, their object is used
      // without preprocessing.
      U.MKey = validate::manifestKey(TC.ClangXX, U.Args, U.Main, Map, Hashes);
      U.Key = validate::lookupManifest(Opts.CacheDir, U.MKey, Map, Hashes);
      if (U.Key.empty() && !cacheKey(U.Main, U.Base, U.Args, Map, C, U.Key,
                                     U.CacheNote, U.Inputs))
        return false;
    }
    U.CompileArgs = U.Args;
    if (U.Pch && !usePrelude(*U.Pch, Dir, U.CompileArgs))
      U.Pch.reset();
    // --inline-hooks: clang stops at instrumented bitcode, opt inlines the
    // hooks' fast path and cleans up, llc generates the object.
    U.Bc = U.Obj + ".bc";
    U.InlinedBc = U.Obj + ".inl.bc";
    if (Opts.InlineHooks) {
      U.CompileArgs.push_back("-emit-llvm");
      U.Post.push_back({"-passes=always-inline,function(early-cse<memssa>,"
                        "instcombine,simplifycfg,loop-mssa(licm))",
                        U.Bc, "-o", U.InlinedBc});
      U.Post.push_back({"-O2", "-filetype=obj", "-relocation-model=pic",
                        U.InlinedBc, "-o", U.Obj});
    }
    llvm::append_range(U.CompileArgs,
                       std::vector<std::string>{"-c", "-o",
                                                Opts.InlineHooks ? U.Bc : U.Obj,
                                                U.Main});
  }

  std::vector<std::string> LinkArgs{"-o", Exe.str()};
  for (const Unit &U : Us)
    LinkArgs.push_back(U.Obj);
  llvm::append_range(LinkArgs, TC.LinkFlags);
  // OpenMP host code (pk::buildFlags keeps -fopenmp): clang's runtime.
  if (OpenMP)
    LinkArgs.push_back("-fopenmp");

  auto ToolLine = [&](const std::string &Tool, ArrayRef<std::string> A) {
    std::string Cmd = Tool;
    for (const std::string &X : A)
      Cmd += " " + X;
    return Cmd + "\n";
  };
  std::string Cmds;
  for (const Unit &U : Us) {
    Cmds += ToolLine(TC.ClangXX, U.CompileArgs);
    for (std::size_t I = 0; I < U.Post.size(); ++I)
      Cmds += ToolLine(I == 0 ? OptTool : LlcTool, U.Post[I]);
  }
  (void)writeFile(joinPath(Dir, "compile.cmd"),
                  Cmds + ToolLine(TC.ClangXX, LinkArgs));

  // Another cell of this run compiling the same object: wait for it, then
  // take what it stored. Keys are taken in the units' order.
  std::vector<validate::KeysInFlight::Hold> Flights;
  std::vector<std::string> Keys;
  bool AllKeyed = true;
  for (const Unit &U : Us) {
    AllKeyed &= !U.Key.empty();
    if (!llvm::is_contained(Keys, U.Key))
      Flights.push_back(InFlight.acquire(U.Key));
    Keys.push_back(U.Key);
  }
  // The linked program of these objects and these link flags (the key of a
  // one-unit program is that of its object, as it has always been).
  std::string PKey;
  if (AllKeyed)
    PKey = validate::programKey(llvm::join(Keys, ","), LinkArgs, Map, Hashes);
  if (!PKey.empty()) {
    validate::CacheFetch F =
        validate::fetchObject(Opts.CacheDir, PKey, Exe, ".exe");
    if (F && !sys::fs::setPermissions(Exe, sys::fs::perms(0755))) {
      (void)writeFile(joinPath(Dir, "compile.log"),
                      "program " + PKey + " reused from " + Opts.CacheDir +
                          " (object" + (Keys.size() > 1 ? "s " : " ") +
                          llvm::join(Keys, ", ") + ")\n");
      for (const Unit &U : Us)
        if (!U.Inputs.empty())
          validate::recordManifest(Opts.CacheDir, U.MKey, Map, U.Inputs, U.Key);
      return true;
    }
    if (F.K == validate::CacheFetch::Damaged)
      Us.front().CacheNote += "cache entry " + PKey + " in " + Opts.CacheDir +
                              " was damaged (" + F.Why + "); linked again\n";
  }
  for (Unit &U : Us) {
    if (U.Key.empty())
      continue;
    validate::CacheFetch F = validate::fetchObject(Opts.CacheDir, U.Key, U.Obj);
    U.Cached = bool(F);
    if (F.K == validate::CacheFetch::Damaged)
      U.CacheNote += "cache entry " + U.Key + " in " + Opts.CacheDir +
                     " was damaged (" + F.Why + "); compiled again\n";
    if (!U.Cached && U.Inputs.empty()) {
      // Found through the manifest but gone or damaged: the inputs for
      // recording it again come from preprocessing.
      std::string Ignored;
      if (!cacheKey(U.Main, U.Base, U.Args, Map, C, Ignored, U.CacheNote,
                    U.Inputs))
        return false;
    }
    if (U.Cached) {
      (void)writeFile(U.Log, "object " + U.Key + " reused from " +
                                 Opts.CacheDir + "\n");
      if (!U.Inputs.empty())
        validate::recordManifest(Opts.CacheDir, U.MKey, Map, U.Inputs, U.Key);
    }
  }
  // Clang's refusals of a precompiled header name it or say what it is.
  auto RefusesPrelude = [&](const Unit &U, StringRef Out) {
    return (U.Pch && Out.contains(validate::preludePchPath(Opts.CacheDir,
                                                           U.Pch->Key))) ||
           Out.contains_insensitive("precompiled header") ||
           Out.contains("PCH file") || Out.contains("AST file");
  };
  // Fills C for a failed step; false.
  auto Failed = [&](bool Link, validate::BoundedResult &R) {
    C.Kind = Link ? "link" : "compile";
    const char *Step = Link ? "linking" : "compiling";
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
  };
  auto Ok = [](const validate::BoundedResult &R) {
    return R.Code == 0 && !R.ExecFailed && !R.TimedOut && !R.Interrupted;
  };
  for (Unit &U : Us) {
    if (U.Cached)
      continue;
    unsigned Limit = 0;
    if (!timeLeft(C, "compiling", Limit))
      return false;
    validate::BoundedResult R =
        validate::runBounded(TC.ClangXX, U.CompileArgs, std::nullopt, Limit,
                             Opts.OutputLimit, /*MergeStderr=*/true);
    if (U.Pch && R.Code != 0 && !R.ExecFailed && !R.TimedOut &&
        !R.Interrupted && RefusesPrelude(U, R.Out.Text)) {
      // A precompiled prelude clang refuses (it validates the files it
      // was built from too): compile as written instead.  Any other
      // failure is the program's and would only fail again.
      U.CompileArgs = U.Args;
      if (Opts.InlineHooks)
        U.CompileArgs.push_back("-emit-llvm");
      llvm::append_range(
          U.CompileArgs,
          std::vector<std::string>{"-c", "-o", Opts.InlineHooks ? U.Bc : U.Obj,
                                   U.Main});
      U.Pch.reset();
      if (!timeLeft(C, "compiling", Limit))
        return false;
      R = validate::runBounded(TC.ClangXX, U.CompileArgs, std::nullopt, Limit,
                               Opts.OutputLimit, /*MergeStderr=*/true);
    }
    // --inline-hooks: the inlining and code generation steps.
    for (std::size_t I = 0; I < U.Post.size(); ++I) {
      if (!Ok(R))
        break;
      std::string Text = std::move(R.Out.Text);
      if (!timeLeft(C, "compiling", Limit))
        return false;
      R = validate::runBounded(I == 0 ? OptTool : LlcTool, U.Post[I],
                               std::nullopt, Limit, Opts.OutputLimit,
                               /*MergeStderr=*/true);
      R.Out.Text = Text + R.Out.Text;
    }
    (void)writeFile(U.Log, U.CacheNote + R.Out.Text);
    if (!Ok(R))
      return Failed(false, R);
    if (!U.Key.empty()) {
      validate::storeObject(Opts.CacheDir, U.Key, U.Obj);
      validate::recordManifest(Opts.CacheDir, U.MKey, Map, U.Inputs, U.Key);
    }
  }
  unsigned Limit = 0;
  if (!timeLeft(C, "linking", Limit))
    return false;
  validate::BoundedResult R =
      validate::runBounded(TC.ClangXX, LinkArgs, std::nullopt, Limit,
                           Opts.OutputLimit, /*MergeStderr=*/true);
  (void)writeFile(joinPath(Dir, "link.log"), R.Out.Text);
  if (!Ok(R))
    return Failed(true, R);
  if (!PKey.empty())
    validate::storeObject(Opts.CacheDir, PKey, Exe, ".exe");
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
