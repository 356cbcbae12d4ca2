//===- CompileCache.cpp - reuse of compiled emulator objects --------------===//
// Rules: none (validation harness)
//===----------------------------------------------------------------------===//

#include "CompileCache.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/SHA256.h"
#include "llvm/Support/raw_ostream.h"
#include <chrono>
#include <optional>
#include <set>

using namespace llvm;

namespace pk::validate {

namespace {

std::string replaceAll(StringRef Text, StringRef From, StringRef To) {
  if (From.empty())
    return Text.str();
  std::string R;
  R.reserve(Text.size());
  while (true) {
    size_t P = Text.find(From);
    if (P == StringRef::npos)
      break;
    R += Text.take_front(P);
    R += To;
    Text = Text.drop_front(P + From.size());
  }
  R += Text;
  return R;
}

/// A line marker of -E output: `# 12 "file" flags`.
bool isLineMarker(StringRef L) {
  return L.size() > 2 && L[0] == '#' && L[1] == ' ' && isDigit(L[2]);
}

std::string objectPath(StringRef CacheDir, StringRef Key,
                       StringRef Ext = ".o") {
  SmallString<256> P(CacheDir);
  sys::path::append(P, Key.take_front(2), (Key + Ext).str());
  return std::string(P);
}

std::string hashPath(StringRef CacheDir, StringRef Key, StringRef Ext = ".o") {
  return objectPath(CacheDir, Key, Ext) + ".sha256";
}

std::string sha256Hex(StringRef Bytes) {
  return toHex(SHA256::hash(arrayRefFromStringRef(Bytes)), /*LowerCase=*/true);
}

/// The SHA-256 of \p Content with \p Map's directories counted as their
/// names (a driver and the prepared sources name them).
std::string contentHash(StringRef Content, const PathMap &Map) {
  return sha256Hex(Map.mentions(Content) ? Map.map(Content) : Content.str());
}

/// \p Flags as keys read them: \p Map's directories as their names, and the
/// -ffile-prefix-map flags as a sorted set where the first of them was.
/// Mapped, they only say which names exist (the innermost directory always
/// wins, whatever their order), and a byte-identical copy of the sources
/// mapped to the sources' name records what the sources themselves record.
std::vector<std::string> keyFlags(ArrayRef<std::string> Flags,
                                  const PathMap &Map) {
  std::vector<std::string> R;
  std::set<std::string> PrefixMaps;
  std::optional<size_t> At;
  for (const std::string &F : Flags) {
    std::string M = Map.map(F);
    if (StringRef(M).starts_with("-ffile-prefix-map=")) {
      if (!At)
        At = R.size();
      PrefixMaps.insert(std::move(M));
      continue;
    }
    R.push_back(std::move(M));
  }
  if (At)
    R.insert(R.begin() + *At, PrefixMaps.begin(), PrefixMaps.end());
  return R;
}

/// Every key of the cache: NUL-separated fields hashed with SHA-256, the
/// first naming the kind and version of what it keys.
class KeyHasher {
public:
  explicit KeyHasher(StringRef Kind) { field(Kind); }
  void field(StringRef S) {
    H.update(S);
    H.update(StringRef("\0", 1));
  }
  /// The compiler: its path, size and modification time.
  void compiler(StringRef Compiler) {
    field(Compiler);
    sys::fs::file_status St;
    if (!sys::fs::status(Compiler, St)) {
      field(std::to_string(St.getSize()));
      field(std::to_string(
          St.getLastModificationTime().time_since_epoch().count()));
    }
  }
  SHA256 &raw() { return H; }
  std::string hex() { return toHex(H.final(), /*LowerCase=*/true); }

private:
  SHA256 H;
};

/// Writes \p Content to \p To through a temporary file in its directory
/// (created if missing) and a rename: a reader never sees half a file.
bool putAtomically(StringRef To, StringRef Content) {
  StringRef Parent = sys::path::parent_path(To);
  if (sys::fs::create_directories(Parent))
    return false;
  int FD;
  SmallString<256> Tmp;
  if (sys::fs::createUniqueFile(Parent + "/.tmp-%%%%%%%%", FD, Tmp))
    return false;
  bool Ok;
  {
    raw_fd_ostream O(FD, /*shouldClose=*/true);
    O << Content;
    O.close();
    Ok = !O.has_error();
    O.clear_error();
  }
  if (Ok && !sys::fs::rename(Tmp, To))
    return true;
  sys::fs::remove(Tmp);
  return false;
}

/// The paths of a Make-style dependency file (`target: dep dep \`), with
/// `\ ` and `$$` unescaped.
std::vector<std::string> depFilePaths(StringRef Text) {
  std::vector<std::string> Paths;
  size_t Colon = Text.find(": ");
  if (Colon == StringRef::npos)
    return Paths;
  Text = Text.drop_front(Colon + 1);
  std::string Cur;
  auto Flush = [&] {
    if (!Cur.empty())
      Paths.push_back(std::move(Cur));
    Cur.clear();
  };
  for (size_t I = 0; I < Text.size(); ++I) {
    char C = Text[I];
    if (C == '\\' && I + 1 < Text.size()) {
      char N = Text[I + 1];
      if (N == '\n' || (N == '\r' && I + 2 < Text.size())) {
        Flush();
        I += N == '\r' ? 2 : 1;
        continue;
      }
      if (N == ' ' || N == '#' || N == '\\') {
        Cur += N;
        ++I;
        continue;
      }
    }
    if (C == '$' && I + 1 < Text.size() && Text[I + 1] == '$') {
      Cur += '$';
      ++I;
      continue;
    }
    if (C == ' ' || C == '\t' || C == '\n' || C == '\r') {
      Flush();
      continue;
    }
    Cur += C;
  }
  Flush();
  return Paths;
}

/// The bytes of every string literal of \p Text (outside line markers),
/// escapes decoded, joined without separators, in lower case.
std::string literalText(StringRef Text) {
  std::string R;
  size_t I = 0, N = Text.size();
  auto AtLineStart = [&](size_t P) { return P == 0 || Text[P - 1] == '\n'; };
  while (I < N) {
    char C = Text[I];
    if (C == '#' && AtLineStart(I)) { // a line marker or #pragma
      size_t E = Text.find('\n', I);
      I = E == StringRef::npos ? N : E + 1;
      continue;
    }
    if (C == '\'') { // a character literal: skip, minding escapes
      for (++I; I < N && Text[I] != '\'' && Text[I] != '\n'; ++I)
        if (Text[I] == '\\')
          ++I;
      ++I;
      continue;
    }
    if (C != '"') {
      ++I;
      continue;
    }
    // A raw string: R"delim( ... )delim" (any prefix before the R).
    if (I > 0 && Text[I - 1] == 'R') {
      size_t Open = Text.find('(', I);
      if (Open == StringRef::npos)
        break;
      std::string End = (")" + Text.slice(I + 1, Open) + "\"").str();
      size_t Close = Text.find(End, Open + 1);
      if (Close == StringRef::npos)
        Close = N;
      R += Text.slice(Open + 1, Close).lower();
      I = Close + End.size();
      continue;
    }
    for (++I; I < N && Text[I] != '"' && Text[I] != '\n'; ++I) {
      char D = Text[I];
      if (D != '\\' || I + 1 >= N) {
        R += toLower(D);
        continue;
      }
      char E = Text[++I];
      unsigned V = 0;
      if (E == 'x') {
        while (I + 1 < N && isHexDigit(Text[I + 1]))
          V = V * 16 + hexDigitValue(Text[++I]);
      } else if (E >= '0' && E <= '7') {
        V = E - '0';
        for (int K = 0; K < 2 && I + 1 < N && Text[I + 1] >= '0' &&
                        Text[I + 1] <= '7';
             ++K)
          V = V * 8 + (Text[++I] - '0');
      } else if (E == 'u' || E == 'U') {
        for (int K = 0; K < (E == 'u' ? 4 : 8) && I + 1 < N &&
                        isHexDigit(Text[I + 1]);
             ++K)
          V = V * 16 + hexDigitValue(Text[++I]);
      } else {
        switch (E) {
        case 'n': V = '\n'; break;
        case 't': V = '\t'; break;
        case 'r': V = '\r'; break;
        case 'a': V = '\a'; break;
        case 'b': V = '\b'; break;
        case 'f': V = '\f'; break;
        case 'v': V = '\v'; break;
        default: V = (unsigned char)E;
        }
      }
      R += toLower((char)(V & 0xff));
    }
    ++I;
  }
  return R;
}

} // namespace

PathMap::PathMap(StringRef W) : Work(W.str()) { add(W, MappedWork); }

PathMap &PathMap::add(StringRef Real, StringRef Mapped) {
  while (Real.size() > 1 && Real.ends_with("/"))
    Real = Real.drop_back();
  if (Real.empty() || Real == "/")
    return *this;
  for (const auto &[D, N] : Dirs)
    if (D == Real)
      return *this; // the first name of a directory stays
  auto At = llvm::find_if(
      Dirs, [&](const auto &E) { return E.first.size() < Real.size(); });
  Dirs.insert(At, {Real.str(), Mapped.str()});
  if (llvm::none_of(Names, [&](const auto &E) { return E.first == Mapped; }))
    Names.push_back({Mapped.str(), Real.str()});
  return *this;
}

std::string PathMap::map(StringRef Text) const {
  std::string R = Text.str();
  for (const auto &[D, N] : Dirs)
    if (StringRef(R).contains(D))
      R = replaceAll(R, D, N);
  return R;
}

std::string PathMap::unmap(StringRef Text, StringRef Cwd) const {
  if (!Text.contains("/@pk-"))
    return Text.str();
  std::string R = Text.str();
  for (const auto &[N, D] : Names)
    R = replaceAll(R, N, D);
  return replaceAll(R, MappedCwd, Cwd);
}

bool PathMap::mentions(StringRef Text) const {
  return llvm::any_of(Dirs, [&](const auto &E) { return Text.contains(E.first); });
}

bool PathMap::inWork(StringRef Path) const {
  return !Work.empty() && Path.starts_with(Work);
}

std::vector<std::string> PathMap::flags() const {
  std::vector<std::string> F;
  for (const auto &[D, N] : llvm::reverse(Dirs))
    F.push_back(("-ffile-prefix-map=" + D + "=" + N));
  F.push_back(("-fdebug-compilation-dir=" + MappedCwd).str());
  return F;
}

std::vector<std::string> pathMapFlags(const PathMap &Map) {
  return Map.flags();
}

std::string unmapBuildPaths(StringRef Text, const PathMap &Map,
                            StringRef Cwd) {
  return Map.unmap(Text, Cwd);
}

std::string objectKey(StringRef Compiler, ArrayRef<std::string> Flags,
                      StringRef Preprocessed, const PathMap &Map,
                      ArrayRef<std::pair<std::string, std::string>> Inputs) {
  KeyHasher K("port-kernel emulator object 2");
  K.compiler(Compiler);
  for (const std::string &F : keyFlags(Flags, Map))
    K.field(F);
  K.field("inputs");
  for (const auto &[Path, Hash] : Inputs) {
    K.field(Map.map(Path));
    K.field(Hash);
  }
  K.field("-E");
  SHA256 &H = K.raw();
  while (!Preprocessed.empty()) {
    auto [L, Rest] = Preprocessed.split('\n');
    if (isLineMarker(L) && Map.mentions(L))
      H.update(Map.map(L));
    else
      H.update(L);
    H.update("\n");
    Preprocessed = Rest;
  }
  return K.hex();
}

bool readInputs(StringRef DepFile, ArrayRef<std::string> Flags,
                const PathMap &Map,
                std::vector<std::pair<std::string, std::string>> &Inputs) {
  ErrorOr<std::unique_ptr<MemoryBuffer>> D = MemoryBuffer::getFile(DepFile);
  if (!D)
    return false;
  std::vector<std::string> Paths = depFilePaths((*D)->getBuffer());
  if (Paths.empty())
    return false;
  for (const std::string &F : Flags) {
    StringRef V = F;
    if (V.starts_with("-")) {
      if (!V.contains('='))
        continue;
      V = V.split('=').second;
    }
    sys::fs::file_status St;
    if (sys::path::is_absolute(V) && !sys::fs::status(V, St) &&
        St.type() == sys::fs::file_type::regular_file)
      Paths.push_back(V.str());
  }
  for (const std::string &P : Paths) {
    ErrorOr<std::unique_ptr<MemoryBuffer>> B =
        MemoryBuffer::getFile(P, /*IsText=*/false,
                              /*RequiresNullTerminator=*/false);
    if (!B)
      return false;
    // The files of the scratch directory (the driver, the prepared sources)
    // name the mapped directories; as in the preprocessed text, they count
    // as their names (as FileHashes::hash does).
    Inputs.push_back({P, Map.inWork(P) ? contentHash((*B)->getBuffer(), Map)
                                       : sha256Hex((*B)->getBuffer())});
  }
  return true;
}

std::string uncacheableReason(StringRef Preprocessed) {
  std::string Lit = literalText(Preprocessed);
  for (const char *D : {"incbin", ".include", ".macro", ".irp"})
    if (StringRef(Lit).contains(D))
      return formatv("a string literal of the source mentions '{0}': inline "
                     "assembly may make the assembler read files that the "
                     "cache key cannot cover",
                     D)
          .str();
  return "";
}

CacheFetch fetchObject(StringRef CacheDir, StringRef Key, StringRef Obj,
                       StringRef Ext) {
  CacheFetch R;
  std::string P = objectPath(CacheDir, Key, Ext),
              HP = hashPath(CacheDir, Key, Ext);
  if (!sys::fs::exists(P) && !sys::fs::exists(HP))
    return R;
  auto Damaged = [&](std::string Why) {
    // Removed so that this run's compile stores a good entry.
    sys::fs::remove(P);
    sys::fs::remove(HP);
    R.K = CacheFetch::Damaged;
    R.Why = std::move(Why);
    return R;
  };
  ErrorOr<std::unique_ptr<MemoryBuffer>> B = MemoryBuffer::getFile(
      P, /*IsText=*/false, /*RequiresNullTerminator=*/false);
  if (!B)
    return Damaged("cannot read the object: " + B.getError().message());
  ErrorOr<std::unique_ptr<MemoryBuffer>> HB = MemoryBuffer::getFile(HP);
  if (!HB)
    return Damaged("cannot read its hash: " + HB.getError().message());
  StringRef Want = (*HB)->getBuffer().trim();
  // The bytes checked are the bytes copied: the entry is read once.
  StringRef Bytes = (*B)->getBuffer();
  std::string Got = sha256Hex(Bytes);
  if (Got != Want)
    return Damaged(formatv("its content ({0} bytes, SHA-256 {1}) does not "
                           "match the stored SHA-256 {2}",
                           Bytes.size(), StringRef(Got).take_front(12),
                           Want.take_front(12))
                       .str());
  std::error_code EC;
  {
    raw_fd_ostream O(Obj, EC, sys::fs::OF_None);
    if (!EC) {
      O << Bytes;
      O.close();
      EC = O.error();
    }
  }
  if (EC) {
    sys::fs::remove(Obj);
    return R;
  }
  // Used now: what no run used for days can be removed by age.
  for (const std::string &F : {P, HP}) {
    int FD;
    if (!sys::fs::openFileForWrite(F, FD, sys::fs::CD_OpenExisting,
                                   sys::fs::OF_Append)) {
      (void)sys::fs::setLastAccessAndModificationTime(
          FD, std::chrono::system_clock::now());
      sys::fs::closeFile(FD);
    }
  }
  R.K = CacheFetch::Hit;
  return R;
}

void storeObject(StringRef CacheDir, StringRef Key, StringRef Obj,
                 StringRef Ext) {
  std::string P = objectPath(CacheDir, Key, Ext),
              HP = hashPath(CacheDir, Key, Ext);
  ErrorOr<std::unique_ptr<MemoryBuffer>> B = MemoryBuffer::getFile(
      Obj, /*IsText=*/false, /*RequiresNullTerminator=*/false);
  if (!B)
    return;
  StringRef Bytes = (*B)->getBuffer();
  if (putAtomically(HP, sha256Hex(Bytes) + "\n"))
    (void)putAtomically(P, Bytes);
}

std::string FileHashes::hash(StringRef Path, const PathMap *Map) {
  bool InWork = !Work.empty() && Path.starts_with(Work);
  sys::fs::file_status St;
  if (sys::fs::status(Path, St))
    return "";
  uint64_t Size = St.getSize();
  int64_t Time = St.getLastModificationTime().time_since_epoch().count();
  if (!InWork) {
    std::lock_guard<std::mutex> L(M);
    auto It = Memo.find(Path.str());
    if (It != Memo.end() && std::get<0>(It->second) == Size &&
        std::get<1>(It->second) == Time)
      return std::get<2>(It->second);
  }
  ErrorOr<std::unique_ptr<MemoryBuffer>> B = MemoryBuffer::getFile(
      Path, /*IsText=*/false, /*RequiresNullTerminator=*/false);
  if (!B)
    return "";
  std::string H = !InWork ? sha256Hex((*B)->getBuffer())
                 : Map    ? contentHash((*B)->getBuffer(), *Map)
                          : contentHash((*B)->getBuffer(), PathMap(Work));
  if (!InWork) {
    std::lock_guard<std::mutex> L(M);
    Memo[Path.str()] = {Size, Time, H};
  }
  return H;
}

namespace {

std::string keyedPath(StringRef CacheDir, StringRef Sub, StringRef Key,
                      StringRef Ext) {
  SmallString<256> P(CacheDir);
  sys::path::append(P, Sub, Key.take_front(2), (Key + Ext).str());
  return std::string(P);
}

/// A list of (hash, path) lines closed by `end <sha256 of what precedes>`;
/// the body without that line, or none when it is missing or wrong.
std::optional<StringRef> checkedBody(StringRef Text) {
  size_t End = Text.rfind("\nend ");
  if (End == StringRef::npos)
    return std::nullopt;
  StringRef Body = Text.take_front(End + 1);
  if (Text.drop_front(End + 5).trim() != sha256Hex(Body))
    return std::nullopt;
  return Body;
}

std::string sealed(StringRef Body) {
  return (Body + "end " + sha256Hex(Body) + "\n").str();
}

/// One entry of a manifest: `object <key> <n>` and n `<hash> <path>` lines.
struct ManifestEntry {
  StringRef Key;
  std::vector<StringRef> Files;
  StringRef Text; ///< the entry's lines, as written
};

/// The entries of a manifest's checked body, oldest first; none when it is
/// not one.
std::optional<std::vector<ManifestEntry>> parseManifest(StringRef Body) {
  SmallVector<StringRef, 0> Lines;
  Body.split(Lines, '\n', -1, /*KeepEmpty=*/false);
  if (Lines.empty() || Lines[0] != "port-kernel manifest 1")
    return std::nullopt;
  std::vector<ManifestEntry> Es;
  for (size_t I = 1; I < Lines.size();) {
    SmallVector<StringRef, 3> F;
    Lines[I].split(F, ' ');
    unsigned N = 0;
    if (F.size() != 3 || F[0] != "object" || F[1].size() != 64 ||
        F[2].getAsInteger(10, N) || I + 1 + N > Lines.size())
      return std::nullopt;
    ManifestEntry E;
    E.Key = F[1];
    E.Files.assign(Lines.begin() + I + 1, Lines.begin() + I + 1 + N);
    const char *End = Lines[I + N].end();
    E.Text = StringRef(Lines[I].begin(), End - Lines[I].begin() + 1);
    Es.push_back(std::move(E));
    I += 1 + N;
  }
  return Es;
}

/// Whether every `<hash> <path>` line of \p Lines names a file whose
/// content has that hash now (the names of \p Map standing for its
/// directories).
bool filesMatch(ArrayRef<StringRef> Lines, const PathMap &Map,
                FileHashes &Hashes) {
  for (StringRef L : Lines) {
    auto [H, P] = L.split(' ');
    if (H.size() != 64 || P.empty())
      return false;
    std::string Path = P.starts_with("/@pk-") ? Map.unmap(P, "") : P.str();
    if (Hashes.hash(Path, &Map) != H)
      return false;
  }
  return true;
}

} // namespace

std::string programKey(StringRef ObjKey, ArrayRef<std::string> LinkArgs,
                       const PathMap &Map, FileHashes &Hashes) {
  KeyHasher K("port-kernel emulator program 1");
  K.field(ObjKey);
  for (const std::string &A : LinkArgs) {
    K.field(Map.map(A));
    sys::fs::file_status St;
    if (!Map.inWork(A) && sys::path::is_absolute(A) &&
        !sys::fs::status(A, St) &&
        St.type() == sys::fs::file_type::regular_file) {
      std::string FH = Hashes.hash(A);
      if (FH.empty())
        return "";
      K.field(FH);
    }
  }
  return K.hex();
}

std::string manifestKey(StringRef Compiler, ArrayRef<std::string> Flags,
                        StringRef Main, const PathMap &Map,
                        FileHashes &Hashes) {
  std::string MainHash = Hashes.hash(Main, &Map);
  if (MainHash.empty())
    return "";
  KeyHasher K("port-kernel emulator manifest 1");
  K.compiler(Compiler);
  for (const std::string &F : keyFlags(Flags, Map))
    K.field(F);
  K.field(Map.map(Main));
  K.field(MainHash);
  return K.hex();
}

std::string lookupManifest(StringRef CacheDir, StringRef MKey,
                           const PathMap &Map, FileHashes &Hashes) {
  if (MKey.empty())
    return "";
  ErrorOr<std::unique_ptr<MemoryBuffer>> B =
      MemoryBuffer::getFile(keyedPath(CacheDir, "manifest", MKey, ".txt"));
  if (!B)
    return "";
  std::optional<StringRef> Body = checkedBody((*B)->getBuffer());
  if (!Body)
    return "";
  std::optional<std::vector<ManifestEntry>> Entries = parseManifest(*Body);
  if (!Entries)
    return "";
  // The newest entry whose files all match.
  std::string Found;
  for (const ManifestEntry &E : *Entries)
    if (filesMatch(E.Files, Map, Hashes))
      Found = E.Key.str();
  return Found;
}

void recordManifest(StringRef CacheDir, StringRef MKey, const PathMap &Map,
                    ArrayRef<std::pair<std::string, std::string>> Inputs,
                    StringRef ObjKey) {
  if (MKey.empty() || Inputs.empty())
    return;
  std::string Entry = formatv("object {0} {1}\n", ObjKey, Inputs.size());
  for (const auto &[Path, Hash] : Inputs) {
    if (StringRef(Path).contains('\n') || StringRef(Path).contains('\r'))
      return;
    Entry += Hash + " " + Map.map(Path) + "\n";
  }
  std::string P = keyedPath(CacheDir, "manifest", MKey, ".txt");
  // The entries already there (a damaged manifest is replaced), the oldest
  // dropped beyond 15.
  std::vector<std::string> Old;
  if (ErrorOr<std::unique_ptr<MemoryBuffer>> B = MemoryBuffer::getFile(P))
    if (std::optional<StringRef> Body = checkedBody((*B)->getBuffer()))
      if (std::optional<std::vector<ManifestEntry>> Es = parseManifest(*Body))
        for (const ManifestEntry &E : *Es)
          if (E.Key != ObjKey)
            Old.push_back(E.Text.str());
  if (Old.size() > 15)
    Old.erase(Old.begin(), Old.end() - 15);
  std::string Body = "port-kernel manifest 1\n";
  for (const std::string &E : Old)
    Body += E;
  Body += Entry;
  (void)putAtomically(P, sealed(Body));
}

KeysInFlight::Hold KeysInFlight::acquire(StringRef Key) {
  if (Key.empty())
    return Hold(nullptr, "");
  std::unique_lock<std::mutex> L(M);
  CV.wait(L, [&] { return !Held.count(Key.str()); });
  Held.insert(Key.str());
  return Hold(this, Key.str());
}

KeysInFlight::Hold::~Hold() {
  if (!Owner)
    return;
  {
    std::lock_guard<std::mutex> L(Owner->M);
    Owner->Held.erase(Key);
  }
  Owner->CV.notify_all();
}

std::optional<PreludePlan> planPrelude(StringRef Compiler,
                                       ArrayRef<std::string> Flags,
                                       StringRef Work) {
  PreludePlan Plan;
  bool Found = false;
  std::vector<std::string> Dirs;
  for (size_t I = 0; I < Flags.size(); ++I) {
    StringRef F = Flags[I];
    if (!Work.empty() && F.contains(Work))
      return std::nullopt;
    if (F == "-include" && I + 1 < Flags.size() &&
        Flags[I + 1] == "pkemu/prelude.h" && !Found) {
      Found = true;
      Plan.IncludeAt = I;
      ++I;
      continue;
    }
    if (F == "-include" || F == "-include-pch" || F == "-o" || F == "-c" ||
        F == "-MD" || F == "-MF")
      return std::nullopt; // not a flag set this plan understands
    if (F.consume_front("-I"))
      Dirs.push_back(F.str());
    if (F == "-x" && I + 1 < Flags.size() && Flags[I + 1] == "c++") {
      Plan.BuildArgs.push_back("-x");
      Plan.BuildArgs.push_back("c++-header");
      ++I;
      continue;
    }
    Plan.BuildArgs.push_back(Flags[I]);
  }
  if (!Found)
    return std::nullopt;
  for (const std::string &D : Dirs) {
    SmallString<256> P(D);
    sys::path::append(P, "pkemu", "prelude.h");
    if (sys::fs::exists(P)) {
      Plan.Header = std::string(P);
      break;
    }
  }
  if (Plan.Header.empty())
    return std::nullopt;
  KeyHasher K("port-kernel prelude pch 1");
  K.compiler(Compiler);
  for (const std::string &F : Plan.BuildArgs)
    K.field(F);
  K.field(Plan.Header);
  Plan.Key = K.hex();
  return Plan;
}

std::string preludePchPath(StringRef CacheDir, StringRef Key) {
  return keyedPath(CacheDir, "pch", Key, ".pch");
}

bool preludePchValid(StringRef CacheDir, StringRef Key, FileHashes &Hashes) {
  std::string P = preludePchPath(CacheDir, Key);
  ErrorOr<std::unique_ptr<MemoryBuffer>> B = MemoryBuffer::getFile(P + ".deps");
  if (!B || !sys::fs::exists(P))
    return false;
  std::optional<StringRef> Body = checkedBody((*B)->getBuffer());
  if (!Body)
    return false;
  SmallVector<StringRef, 0> Lines;
  Body->split(Lines, '\n', -1, /*KeepEmpty=*/false);
  // The PCH's own hash comes first, then its inputs.
  if (Lines.size() < 2 || Hashes.hash(P) != Lines[0])
    return false;
  return filesMatch(ArrayRef<StringRef>(Lines).drop_front(), "", Hashes);
}

bool storePreludePch(StringRef CacheDir, StringRef Key, StringRef Built,
                     StringRef DepFile, ArrayRef<std::string> Flags) {
  std::vector<std::pair<std::string, std::string>> Inputs;
  if (!readInputs(DepFile, Flags, "", Inputs))
    return false;
  ErrorOr<std::unique_ptr<MemoryBuffer>> B = MemoryBuffer::getFile(
      Built, /*IsText=*/false, /*RequiresNullTerminator=*/false);
  if (!B)
    return false;
  std::string Body = sha256Hex((*B)->getBuffer()) + "\n";
  for (const auto &[Path, Hash] : Inputs) {
    if (StringRef(Path).contains('\n'))
      return false;
    Body += Hash + " " + Path + "\n";
  }
  std::string P = preludePchPath(CacheDir, Key);
  if (sys::fs::create_directories(sys::path::parent_path(P)))
    return false;
  // The PCH first: a .deps never names a PCH that is not there yet; one
  // replaced under a reader fails the reader's hash check.
  if (sys::fs::rename(Built, P))
    return false;
  return putAtomically(P + ".deps", sealed(Body));
}

} // namespace pk::validate
