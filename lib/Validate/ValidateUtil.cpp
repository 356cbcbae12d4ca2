//===- ValidateUtil.cpp - paths, files and HIP headers for validate -------===//
// Rules: none (validation harness)
//===----------------------------------------------------------------------===//

#include "ValidateInternal.h"

namespace pk::vrun {

StringRef variantName(std::optional<Target> T) {
  return T ? targetName(*T) : StringRef("original");
}

void fillNkiCell(Cell &C, const NkiOutcome &N) {
  C.Status = N.Passed ? CellStatus::Pass : CellStatus::Fail;
  C.Kind = N.Passed ? "" : N.Kind;
  C.Reason = N.Passed ? "" : N.Reason;
  C.Detail = N.Passed ? "" : N.Detail;
  C.ExitCode = N.ExitCode;
  C.Outputs = N.Outputs;
  C.NkiOps = N.Ops;
  C.HaveErrors = !N.Outputs.empty();
  for (const OutputResult &O : N.Outputs) {
    C.MaxAbs = std::max(C.MaxAbs, O.MaxAbs);
    C.MaxRel = std::max(C.MaxRel, O.MaxRel);
  }
}

void printNkiOps(const std::vector<Row> &Rows, raw_ostream &Out) {
  std::string Line;
  for (const Row &R : Rows)
    for (const Cell &C : R.Cells)
      if (C.NkiOps)
        Line +=
            formatv("{0}{1} {2}", Line.empty() ? "" : ", ", R.Name, *C.NkiOps)
                .str();
  if (!Line.empty())
    Out << "(nki: traced operations per kernel: " << Line << ")\n";
}

std::string hipArchList() {
  return join(
      std::vector<std::string>(std::begin(HipArchs), std::end(HipArchs)),
      " and ");
}

void printHipHeaders(const std::vector<Row> &Rows, unsigned RocmMajor,
                     raw_ostream &Out) {
  std::string Used;
  bool AnyHip = false;
  for (const Row &R : Rows)
    for (const Cell &C : R.Cells) {
      AnyHip |= C.Variant == "hip";
      if (!C.HipHeaders.empty())
        Used = C.HipHeaders;
    }
  if (!Used.empty())
    Out << "(hip: HIP sources also compiled -fsyntax-only, host side and "
           "device side for "
        << hipArchList() << ", against the " << Used << " headers)\n";
  else if (AnyHip)
    Out << "(hip: no ROCm " << RocmMajor
        << " headers found in $PK_HIP_INCLUDE, $HIP_PATH/include, "
           "$ROCM_PATH/include, hipconfig --path, /opt/rocm*/include or "
           "/usr/include: HIP sources were compiled against the emulator's "
           "stand-in headers only)\n";
}

std::string joinPath(StringRef A, StringRef B, StringRef C, StringRef D) {
  SmallString<256> P(A);
  for (StringRef X : {B, C, D})
    if (!X.empty())
      sys::path::append(P, X);
  return std::string(P);
}

std::string readFileOr(StringRef Path, StringRef Default) {
  auto B = MemoryBuffer::getFile(Path);
  return B ? (*B)->getBuffer().str() : Default.str();
}

Error writeFile(StringRef Path, StringRef Text) {
  std::error_code EC;
  raw_fd_ostream OS(Path, EC, sys::fs::OF_Text);
  if (EC)
    return createStringError(EC, "cannot write " + Path + ": " + EC.message());
  OS << Text;
  return Error::success();
}

std::string lastLines(StringRef Text, unsigned N) {
  SmallVector<StringRef, 64> Lines;
  Text.rtrim().split(Lines, '\n');
  std::string R;
  for (size_t I = Lines.size() > N ? Lines.size() - N : 0; I < Lines.size();
       ++I)
    R += Lines[I].rtrim().str() + "\n";
  return StringRef(R).rtrim().str();
}

std::string sizeText(std::uint64_t N) {
  if (N >= (10u << 20))
    return formatv("{0} MB", N >> 20).str();
  if (N >= (10u << 10))
    return formatv("{0} KB", N >> 10).str();
  return formatv("{0} bytes", N).str();
}

std::vector<std::string> hipHeaderCandidates() {
  std::vector<std::string> Dirs;
  if (const char *E = std::getenv("PK_HIP_INCLUDE"))
    if (*E)
      Dirs.push_back(E);
  for (const char *V : {"HIP_PATH", "ROCM_PATH"})
    if (const char *E = std::getenv(V))
      if (*E)
        Dirs.push_back(joinPath(E, "include"));
  Dirs.push_back("");
  Dirs.push_back("/opt/rocm/include");
  std::vector<std::pair<std::vector<unsigned>, std::string>> Versioned;
  std::error_code EC;
  for (sys::fs::directory_iterator I("/opt", EC), E; I != E && !EC;
       I.increment(EC)) {
    StringRef Name = sys::path::filename(I->path());
    if (!Name.consume_front("rocm-"))
      continue;
    SmallVector<StringRef, 4> Parts;
    Name.split(Parts, '.');
    std::vector<unsigned> V;
    for (StringRef X : Parts) {
      unsigned N = 0;
      if (X.getAsInteger(10, N))
        break;
      V.push_back(N);
    }
    Versioned.push_back({V, joinPath(I->path(), "include")});
  }
  llvm::sort(Versioned, [](const auto &A, const auto &B) {
    return std::tie(B.first, B.second) < std::tie(A.first, A.second);
  });
  for (auto &[V, D] : Versioned)
    Dirs.push_back(D);
  Dirs.push_back("/usr/include");
  return Dirs;
}

std::string hipconfigInclude() {
  ErrorOr<std::string> HC = sys::findProgramByName("hipconfig");
  if (!HC)
    return "";
  validate::BoundedResult R = validate::runBounded(
      *HC, {"--path"}, std::nullopt, 10, 1 << 16, /*MergeStderr=*/false);
  StringRef P = StringRef(R.Out.Text).trim();
  if (R.Code != 0 || R.TimedOut || P.empty() || P.contains('\n'))
    return "";
  return joinPath(P, "include");
}

std::optional<HipHeaderSet> findHipHeaders(unsigned Major) {
  for (std::string D : hipHeaderCandidates()) {
    if (D.empty() && (D = hipconfigInclude()).empty())
      continue;
    auto Buf = MemoryBuffer::getFile(joinPath(D, "hip", "hip_version.h"));
    if (!Buf)
      continue;
    unsigned Maj = 0, Min = 0;
    bool HaveMaj = false;
    SmallVector<StringRef, 64> Lines;
    (*Buf)->getBuffer().split(Lines, '\n');
    for (StringRef L : Lines) {
      SmallVector<StringRef, 4> W;
      L.split(W, ' ', -1, /*KeepEmpty=*/false);
      if (W.size() < 3 || W[0] != "#define")
        continue;
      if (W[1] == "HIP_VERSION_MAJOR")
        HaveMaj = !W[2].getAsInteger(10, Maj);
      else if (W[1] == "HIP_VERSION_MINOR")
        (void)W[2].getAsInteger(10, Min);
    }
    if (HaveMaj && Maj == Major) {
      SmallString<256> Abs(D);
      sys::fs::make_absolute(Abs);
      return HipHeaderSet{std::string(Abs), formatv("{0}.{1}", Maj, Min)};
    }
  }
  return std::nullopt;
}

std::string cleanPath(StringRef P) {
  SmallString<256> S(P);
  sys::fs::make_absolute(S);
  sys::path::remove_dots(S, true);
  return std::string(S);
}

std::optional<std::string> mirroredRoot(StringRef Orig, StringRef Copy,
                                        StringRef CopyBase) {
  std::string Base = cleanPath(CopyBase),
              CopyDir = cleanPath(sys::path::parent_path(Copy)),
              OrigDir = cleanPath(sys::path::parent_path(Orig));
  StringRef Rel = CopyDir;
  if (!Rel.consume_front(Base) || (!Rel.empty() && !Rel.consume_front("/")))
    return std::nullopt;
  if (Rel.empty())
    return OrigDir;
  StringRef Root = OrigDir;
  if (!Root.consume_back(Rel) || !Root.consume_back("/"))
    return std::nullopt;
  return Root.empty() ? std::string("/") : Root.str();
}

std::optional<std::string> underOther(StringRef Path, StringRef From,
                                      StringRef To) {
  StringRef Rel = Path;
  if (!Rel.consume_front(From) ||
      (!Rel.empty() && From != "/" && !Rel.consume_front("/")))
    return std::nullopt;
  return joinPath(To, Rel);
}

std::vector<std::string> remapTree(ArrayRef<std::string> Flags, StringRef From,
                                   StringRef To) {
  auto Dir = [&](StringRef D) {
    std::optional<std::string> M = underOther(D, From, To);
    return M && sys::fs::is_directory(*M) ? *M : D.str();
  };
  auto File = [&](StringRef F) {
    std::optional<std::string> M = underOther(F, From, To);
    if (!M)
      return F.str();
    if (sys::fs::is_regular_file(*M))
      return *M;
    std::string Found;
    unsigned N = 0;
    std::error_code EC;
    for (sys::fs::directory_iterator I(sys::path::parent_path(*M), EC), E;
         I != E && !EC; I.increment(EC))
      if (sys::path::stem(I->path()) == sys::path::stem(F) &&
          sys::fs::is_regular_file(I->path())) {
        Found = I->path();
        ++N;
      }
    return N == 1 ? Found : F.str();
  };
  std::vector<std::string> Out;
  for (size_t I = 0; I < Flags.size(); ++I) {
    StringRef A = Flags[I];
    if (A.starts_with("-I") && A.size() > 2) {
      Out.push_back("-I" + Dir(A.drop_front(2)));
      continue;
    }
    Out.push_back(A.str());
    if (I + 1 >= Flags.size())
      continue;
    if (A == "-iquote")
      Out.push_back(Dir(Flags[++I]));
    else if (A == "-include" || A == "-imacros")
      Out.push_back(File(Flags[++I]));
    else if (A == "-isystem" || A == "-idirafter")
      Out.push_back(Flags[++I]);
  }
  return Out;
}

double emulatorTimeout(unsigned Limit) {
  // The margin covers the program's start before its launch and the
  // report (symbolized) on a loaded machine.
  double Margin = std::clamp(0.2 * Limit, 2.0, 10.0);
  return std::max(Limit - Margin, 0.5 * Limit);
}

} // namespace pk::vrun
