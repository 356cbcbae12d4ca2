//===- Validate.cpp - port, build, run and compare ------------------------===//
// Rules: none (validation harness)
//
// runValidate: reads the cases (or the program), schedules one cell per
// case and variant on the Runner (RunnerBuild.cpp, RunnerRun.cpp), and
// prints the table, the failures and the JSON (ValidateReport.cpp).
//
//===----------------------------------------------------------------------===//

#include "ValidateInternal.h"

namespace pk {

using namespace vrun;

int runValidate(const ValidateOptions &Opts, const EmuToolchain &TC,
                PortService &PS, raw_ostream &Out, raw_ostream &Err) {
  if (TC.ClangXX.empty()) {
    Err << "error: no C++ compiler configured for the emulator\n";
    return 2;
  }
  for (const std::string &A : Opts.Allow)
    if (llvm::none_of(RelaxableChecks,
                      [&](const RelaxableCheck &R) { return A == R.Name; })) {
      std::vector<std::string> Names;
      for (const RelaxableCheck &R : RelaxableChecks)
        Names.push_back(R.Name);
      Err << "error: --allow: unknown check '" << A
          << "' (checks that can be relaxed: " << llvm::join(Names, ", ")
          << ")\n";
      return 2;
    }
  std::vector<std::optional<Target>> Variants{std::nullopt};
  for (Target T : Opts.Targets)
    if (!llvm::is_contained(Variants, std::optional<Target>(T)))
      Variants.push_back(T);
  std::vector<std::string> VariantNames;
  for (auto &V : Variants)
    VariantNames.push_back(variantName(V).str());

  // Rows.
  std::vector<Row> Rows;
  if (Opts.Program) {
    if (Opts.ProgramFile.empty()) {
      Err << "error: no program file given\n";
      return 2;
    }
    Row R;
    std::vector<std::string> Given{Opts.ProgramFile};
    llvm::append_range(Given, Opts.ProgramSources);
    for (const std::string &F : Given) {
      SmallString<256> Abs(F);
      sys::fs::make_absolute(Abs);
      sys::path::remove_dots(Abs, true);
      if (sys::fs::is_directory(Abs)) {
        Err << F
            << ": error: is a directory; --program takes the source files of "
               "one program (its translation units), not case directories\n";
        return 2;
      }
      if (!sys::fs::is_regular_file(Abs)) {
        Err << F << ": error: no such file\n";
        return 2;
      }
      if (llvm::is_contained(R.Sources, std::string(Abs))) {
        Err << F
            << ": error: given twice; each translation unit of the program "
               "is compiled once\n";
        return 2;
      }
      R.Sources.push_back(std::string(Abs));
    }
    R.Name = sys::path::filename(R.Sources.front()).str();
    R.Path = R.Sources.front();
    Rows.push_back(std::move(R));
  } else {
    if (Opts.Paths.empty()) {
      Err << "error: no case directories given\n";
      return 2;
    }
    Expected<std::vector<std::string>> Specs = findCaseSpecs(Opts.Paths);
    if (!Specs) {
      Err << toString(Specs.takeError()) << "\n";
      return 2;
    }
    if (Specs->empty()) {
      Err << "error: no case.yaml found under the given paths\n";
      return 2;
    }
    llvm::StringSet<> Names;
    for (const std::string &P : *Specs) {
      Row R;
      R.Path = P;
      Expected<CaseSpec> S = parseCaseSpecFile(P);
      if (!S) {
        R.SpecError = toString(S.takeError());
        R.Name = sys::path::filename(sys::path::parent_path(P)).str();
      } else {
        R.Name = S->Name;
        if (!Names.insert(S->Name).second) {
          R.SpecError =
              P + ":1:1: error: case name '" + S->Name + "' is used twice";
        } else
          R.Spec = std::move(*S);
      }
      Rows.push_back(std::move(R));
    }
  }

  // Scratch directory. A fresh one is removed on every way out (success,
  // failure, interruption) unless --keep-work; one named by --work-dir is
  // the user's and is kept.
  validate::ChildInterruptGuard Guard;
  std::string Work = Opts.WorkDir;
  bool RemoveWork = false;
  if (Work.empty()) {
    SmallString<256> Tmp;
    if (std::error_code EC =
            sys::fs::createUniqueDirectory("pk-validate", Tmp)) {
      Err << "error: cannot create a scratch directory: " << EC.message()
          << "\n";
      return 2;
    }
    Work = std::string(Tmp);
    RemoveWork = !Opts.KeepWork;
  } else if (std::error_code EC = sys::fs::create_directories(Work)) {
    Err << "error: cannot create " << Work << ": " << EC.message() << "\n";
    return 2;
  }
  {
    SmallString<256> Abs(Work);
    sys::fs::make_absolute(Abs);
    Work = std::string(Abs);
  }
  auto RemoveScratch = llvm::make_scope_exit([&] {
    if (RemoveWork)
      sys::fs::remove_directories(Work);
  });

  Runner Run(Opts, TC, PS, Work);
  if (Error E = writeFile(Run.runtimeHeaderPath(), driverRuntimeHeader())) {
    Err << "error: " << toString(std::move(E)) << "\n";
    return 2;
  }

  // One task per (row, variant).
  struct Task {
    size_t Row, Variant;
  };
  std::vector<Task> Tasks;
  for (size_t R = 0; R < Rows.size(); ++R) {
    if (!Rows[R].SpecError.empty())
      continue;
    Rows[R].Cells.resize(Variants.size());
    for (size_t V = 0; V < Variants.size(); ++V)
      Tasks.push_back({R, V});
  }
  for (const Row &R : Rows)
    if (!R.SpecError.empty())
      Err << R.SpecError << "\n";

  // Fault injection for the reliability tests: a real SIGINT after N
  // finished runs (docs/reliability.md).
  long InterruptAfter = -1;
  if (const char *V = std::getenv("PK_TEST_INTERRUPT_AFTER"))
    InterruptAfter = std::atol(V);
  std::atomic<unsigned> Finished{0};
  {
    DefaultThreadPool Pool(hardware_concurrency(std::max(1, Opts.Jobs)));
    std::mutex ProgressMutex;
    std::vector<bool> TaskDone(Tasks.size(), false);
    size_t NextProgress = 0;
    for (size_t I = 0; I < Tasks.size(); ++I)
      Pool.async([&, I, T = Tasks[I]] {
        if (validate::ChildInterruptGuard::interrupted())
          return;
        Row &R = Rows[T.Row];
        Cell C = Opts.Program ? Run.runProgram(R.Sources, Variants[T.Variant])
                              : Run.runCase(*R.Spec, Variants[T.Variant]);
        if (validate::ChildInterruptGuard::interrupted())
          return;
        unsigned N = ++Finished;
        R.Cells[T.Variant] = std::move(C);
        {
          // Progress lines in the order of the table, each as soon as its
          // run and every run before it have finished: the error stream is
          // the same whatever the schedule and -j.
          std::lock_guard<std::mutex> L(ProgressMutex);
          TaskDone[I] = true;
          for (; NextProgress < Tasks.size() && TaskDone[NextProgress];
               ++NextProgress) {
            const Task &P = Tasks[NextProgress];
            Run.progress(Rows[P.Row], Rows[P.Row].Cells[P.Variant],
                         NextProgress + 1, Tasks.size(), Err);
          }
        }
        if (InterruptAfter >= 0 && (long)N == InterruptAfter)
          std::raise(SIGINT);
      });
    Pool.wait();
  }
  if (validate::ChildInterruptGuard::interrupted()) {
    Err << "port-kernel: validate interrupted after " << Finished << " of "
        << Tasks.size() << " runs; running programs were killed"
        << (RemoveWork      ? "; scratch directory removed"
            : Opts.KeepWork ? "; scratch directory kept (--keep-work): " + Work
                            : "; work directory kept: " + Work)
        << "\n";
    return 130;
  }

  unsigned Passed = 0, Failed = 0, Skipped = 0;
  for (const Row &R : Rows) {
    if (!R.SpecError.empty())
      ++Failed;
    for (const Cell &C : R.Cells)
      (C.Status == CellStatus::Pass   ? Passed
       : C.Status == CellStatus::Skip ? Skipped
                                      : Failed)++;
  }
  // Passes that needed a check --allow relaxed.
  unsigned RelaxedPasses = 0;
  for (const Row &R : Rows)
    for (const Cell &C : R.Cells)
      RelaxedPasses += C.Status == CellStatus::Pass && !C.Relaxed.empty();
  const std::string AllowList = llvm::join(Opts.Allow, ",");

  if (Opts.Json) {
    json::Array JRows;
    for (const Row &R : Rows) {
      json::Object O{{"name", R.Name}, {"path", R.Path}};
      // The one kernel the case's driver launches, and where it is defined.
      if (R.Spec) {
        O["entry"] = R.Spec->Entry;
        O["source"] = R.Spec->sourcePath();
      }
      if (!R.SpecError.empty()) {
        O["status"] = "fail";
        O["error"] = R.SpecError;
      } else {
        bool AllOk = llvm::all_of(R.Cells, [](const Cell &C) {
          return C.Status != CellStatus::Fail;
        });
        O["status"] = AllOk ? "pass" : "fail";
      }
      json::Array Cells;
      for (const Cell &C : R.Cells) {
        json::Value V = cellJson(C);
        if (!RemoveWork)
          (*V.getAsObject())["work_dir"] = C.Dir;
        Cells.push_back(std::move(V));
      }
      O["results"] = std::move(Cells);
      JRows.push_back(std::move(O));
    }
    json::Array JVariants;
    for (const std::string &V : VariantNames)
      JVariants.push_back(V);
    json::Object Doc{{"mode", Opts.Program ? "program" : "kernel"},
                     {"lanes", Opts.Lanes},
                     {"variants", std::move(JVariants)},
                     {Opts.Program ? "programs" : "cases", std::move(JRows)},
                     {"summary", json::Object{{"passed", Passed},
                                              {"failed", Failed},
                                              {"skipped", Skipped}}},
                     {"ok", Failed == 0}};
    if (!Opts.Allow.empty()) {
      json::Array Allow;
      for (const std::string &A : Opts.Allow)
        Allow.push_back(A);
      Doc["allow"] = std::move(Allow);
      (*Doc.getObject("summary"))["passed_relaxed"] = RelaxedPasses;
    }
    if (!RemoveWork)
      Doc["work_dir"] = Work;
    Out << formatv("{0:2}", json::Value(std::move(Doc))) << "\n";
  } else {
    printTable(Rows, VariantNames, Opts.Program, Opts.Lanes, Out);
    if (!Opts.Allow.empty())
      Out << "(PASS*: passed only because --allow=" << AllowList
          << " relaxed a check that fired: not a strict pass)\n";
    printNkiOps(Rows, Out);
    if (Opts.Program)
      printHipHeaders(Rows, Opts.RocmMajor, Out);
    bool Header = false;
    for (const Row &R : Rows) {
      auto Section = [&] {
        if (!Header)
          Out << "\nFailures:\n";
        Header = true;
      };
      if (!R.SpecError.empty()) {
        Section();
        Out << "  " << R.Name << ": " << R.SpecError << "\n";
      }
      for (const Cell &C : R.Cells) {
        if (C.Status == CellStatus::Pass)
          continue;
        if (C.Status == CellStatus::Skip) {
          Section();
          Out << "  " << R.Name << " [" << C.Variant
              << "] skipped: " << C.Reason << "\n";
          continue;
        }
        Section();
        Out << "  " << R.Name << " [" << C.Variant << "]: " << C.Reason << "\n";
        if (!C.Detail.empty()) {
          SmallVector<StringRef, 16> Lines;
          StringRef(C.Detail).split(Lines, '\n');
          for (StringRef L : Lines) {
            StringRef Core = L.trim();
            size_t P = Core.find("pkemu: error:");
            if (P != StringRef::npos)
              Core = Core.drop_front(P + 13).trim();
            if (!StringRef(C.Reason).contains(Core))
              Out << "      " << L << "\n";
          }
        }
        if (!RemoveWork)
          Out << "      work: " << C.Dir << "\n";
      }
    }
    bool RelaxedHeader = false;
    for (const Row &R : Rows)
      for (const Cell &C : R.Cells) {
        if (C.Relaxed.empty())
          continue;
        if (!RelaxedHeader)
          Out << "\nRelaxed checks that fired (--allow=" << AllowList << "):\n";
        RelaxedHeader = true;
        for (const std::string &N : C.Relaxed)
          Out << "  " << R.Name << " [" << C.Variant << "]: " << N << "\n";
      }
    Out << "\n" << Passed << " passed";
    if (!Opts.Allow.empty())
      Out << " (" << RelaxedPasses << " only with --allow=" << AllowList << ")";
    Out << ", " << Failed << " failed";
    if (Skipped)
      Out << ", " << Skipped << " skipped";
    Out << " (" << Rows.size() << (Opts.Program ? " program" : " case")
        << (Rows.size() == 1 ? "" : "s") << " x " << Variants.size()
        << " variant" << (Variants.size() == 1 ? "" : "s") << ")\n";
    if (Failed && RemoveWork)
      Out << "(rerun with --keep-work to inspect the generated files)\n";
  }

  return Failed ? 1 : 0;
}

} // namespace pk
