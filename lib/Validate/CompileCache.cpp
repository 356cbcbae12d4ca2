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

std::string objectPath(StringRef CacheDir, StringRef Key) {
  SmallString<256> P(CacheDir);
  sys::path::append(P, Key.take_front(2), Key.str() + ".o");
  return std::string(P);
}

std::string hashPath(StringRef CacheDir, StringRef Key) {
  return objectPath(CacheDir, Key) + ".sha256";
}

std::string sha256Hex(StringRef Bytes) {
  return toHex(SHA256::hash(arrayRefFromStringRef(Bytes)), /*LowerCase=*/true);
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

std::vector<std::string> pathMapFlags(StringRef Work) {
  return {("-ffile-prefix-map=" + Work + "=" + MappedWork).str(),
          ("-fdebug-compilation-dir=" + MappedCwd).str()};
}

std::string unmapBuildPaths(StringRef Text, StringRef Work, StringRef Cwd) {
  if (!Text.contains("/@pk-"))
    return Text.str();
  return replaceAll(replaceAll(Text, MappedWork, Work), MappedCwd, Cwd);
}

std::string objectKey(StringRef Compiler, ArrayRef<std::string> Flags,
                      StringRef Preprocessed, StringRef Work,
                      ArrayRef<std::pair<std::string, std::string>> Inputs) {
  SHA256 H;
  auto Field = [&](StringRef S) {
    H.update(S);
    H.update(StringRef("\0", 1));
  };
  Field("port-kernel emulator object 2");
  Field(Compiler);
  sys::fs::file_status St;
  if (!sys::fs::status(Compiler, St)) {
    Field(std::to_string(St.getSize()));
    Field(std::to_string(
        St.getLastModificationTime().time_since_epoch().count()));
  }
  for (const std::string &F : Flags)
    Field(replaceAll(F, Work, MappedWork));
  Field("inputs");
  for (const auto &[Path, Hash] : Inputs) {
    Field(replaceAll(Path, Work, MappedWork));
    Field(Hash);
  }
  Field("-E");
  while (!Preprocessed.empty()) {
    auto [L, Rest] = Preprocessed.split('\n');
    if (isLineMarker(L) && L.contains(Work))
      H.update(replaceAll(L, Work, MappedWork));
    else
      H.update(L);
    H.update("\n");
    Preprocessed = Rest;
  }
  return toHex(H.final(), /*LowerCase=*/true);
}

bool readInputs(StringRef DepFile, ArrayRef<std::string> Flags,
                StringRef Work,
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
    // name it; as in the preprocessed text, it counts as /@pk-work@.
    StringRef Content = (*B)->getBuffer();
    Inputs.push_back({P, sha256Hex(Work.empty() || !Content.contains(Work)
                                       ? Content.str()
                                       : replaceAll(Content, Work, MappedWork))});
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

CacheFetch fetchObject(StringRef CacheDir, StringRef Key, StringRef Obj) {
  CacheFetch R;
  std::string P = objectPath(CacheDir, Key), HP = hashPath(CacheDir, Key);
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

void storeObject(StringRef CacheDir, StringRef Key, StringRef Obj) {
  std::string P = objectPath(CacheDir, Key), HP = hashPath(CacheDir, Key);
  StringRef Parent = sys::path::parent_path(P);
  if (sys::fs::create_directories(Parent))
    return;
  ErrorOr<std::unique_ptr<MemoryBuffer>> B = MemoryBuffer::getFile(
      Obj, /*IsText=*/false, /*RequiresNullTerminator=*/false);
  if (!B)
    return;
  StringRef Bytes = (*B)->getBuffer();
  // Writes \p Content to a temporary file in Parent renamed to \p To.
  auto Put = [&](StringRef Content, StringRef To) {
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
  };
  if (Put(sha256Hex(Bytes) + "\n", HP))
    (void)Put(Bytes, P);
}

} // namespace pk::validate
