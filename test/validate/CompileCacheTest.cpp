//===- CompileCacheTest.cpp - validate --cache-dir ------------------------===//
//
// The key of a compiled emulator object, the fixed names of the scratch and
// working directories, and storing and fetching objects.

#include "CompileCache.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"
#include "llvm/ADT/STLExtras.h"
#include "gtest/gtest.h"
#include <atomic>
#include <functional>
#include <optional>
#include <thread>

using namespace pk::validate;

namespace {

const char *Pre = "# 1 \"/scratch/one/saxpy/original/driver.cpp\"\n"
                  "# 1 \"<built-in>\" 1\n"
                  "int x;\n"
                  "# 7 \"/scratch/one/saxpy/original/prep/saxpy.cu\" 2\n"
                  "float y;\n";

std::string preIn(llvm::StringRef Work) {
  std::string S = Pre;
  for (size_t P = 0; (P = S.find("/scratch/one", P)) != std::string::npos;
       P += Work.size())
    S.replace(P, 12, Work.str());
  return S;
}

TEST(CompileCache, KeyIgnoresTheScratchDirectoryInFlagsAndLineMarkers) {
  std::vector<std::string> FlagsA = pathMapFlags("/scratch/one");
  FlagsA.push_back("-I/scratch/one/saxpy/original/prep");
  std::vector<std::string> FlagsB = pathMapFlags("/tmp/pk-validate-x");
  FlagsB.push_back("-I/tmp/pk-validate-x/saxpy/original/prep");
  std::string A = objectKey("/no/such/clang", FlagsA, preIn("/scratch/one"),
                            "/scratch/one");
  std::string B = objectKey("/no/such/clang", FlagsB,
                            preIn("/tmp/pk-validate-x"), "/tmp/pk-validate-x");
  EXPECT_EQ(A.size(), 64u);
  EXPECT_EQ(A, B);
}

TEST(CompileCache, KeyChangesWithSourceFlagsCompilerAndLayout) {
  std::vector<std::string> F = pathMapFlags("/w");
  std::string Base = objectKey("/c", F, preIn("/w"), "/w");
  // Another token of the source.
  std::string Src = preIn("/w");
  Src.replace(Src.find("int x"), 5, "int z");
  EXPECT_NE(objectKey("/c", F, Src, "/w"), Base);
  // Another flag.
  std::vector<std::string> F2 = F;
  F2.push_back("-DPKEMU_DEFAULT_WARP=64");
  EXPECT_NE(objectKey("/c", F2, preIn("/w"), "/w"), Base);
  // Another compiler.
  EXPECT_NE(objectKey("/c2", F, preIn("/w"), "/w"), Base);
  // Another file under the scratch directory (line markers name it).
  std::string Moved = preIn("/w");
  Moved.replace(Moved.find("saxpy/original/prep"), 5, "axpy2");
  EXPECT_NE(objectKey("/c", F, Moved, "/w"), Base);
}

TEST(CompileCache, ScratchPathInAStringLiteralIsPartOfTheKey) {
  // Only line markers are normalised: a literal naming the scratch
  // directory (where an object would read or write) must not be shared.
  std::vector<std::string> FA = pathMapFlags("/wa"), FB = pathMapFlags("/wb");
  std::string A = "const char *p = \"/wa/out.bin\";\n";
  std::string B = "const char *p = \"/wb/out.bin\";\n";
  EXPECT_NE(objectKey("/c", FA, A, "/wa"), objectKey("/c", FB, B, "/wb"));
}

TEST(CompileCache, UnmapPutsTheDirectoriesBack) {
  std::string Report =
      std::string("pkemu: error: out-of-bounds: kernel 'k' at ") +
      MappedWork.str() + "/saxpy/hip/saxpy.hip:12 and " + MappedCwd.str() +
      "/corpus/saxpy/saxpy.cu:3\n";
  EXPECT_EQ(
      unmapBuildPaths(Report, "/tmp/w", "/home/u"),
      "pkemu: error: out-of-bounds: kernel 'k' at "
      "/tmp/w/saxpy/hip/saxpy.hip:12 and /home/u/corpus/saxpy/saxpy.cu:3\n");
  EXPECT_EQ(unmapBuildPaths("no mapped path\n", "/tmp/w", "/h"),
            "no mapped path\n");
}

/// The map of one cell: scratch \p W, the cell W/c/<variant>, sources \p S.
PathMap cellMap(llvm::StringRef W, llvm::StringRef S) {
  PathMap M(W);
  M.add((W + "/c/original").str(), MappedCell);
  M.add(S, MappedSrc);
  return M;
}

TEST(CompileCache, PathMapReplacesTheInnermostDirectoryFirst) {
  PathMap M = cellMap("/tmp/w", "/home/u/case");
  EXPECT_EQ(M.map("/tmp/w/c/original/prep/k.cu /tmp/w/pkv_rt.h "
                  "/home/u/case/ref.cpp /home/u/other.h"),
            "/@pk-cell@/prep/k.cu /@pk-work@/pkv_rt.h /@pk-src@/ref.cpp "
            "/home/u/other.h");
  EXPECT_EQ(M.unmap("at /@pk-cell@/prep/k.cu:3 and /@pk-src@/ref.cpp:9 in "
                    "/@pk-cwd@/x",
                    "/cwd"),
            "at /tmp/w/c/original/prep/k.cu:3 and /home/u/case/ref.cpp:9 in "
            "/cwd/x");
  // clang's debug-info map tries the last -ffile-prefix-map first: the
  // cell's directory must come after the scratch directory holding it.
  std::vector<std::string> F = M.flags();
  auto At = [&](llvm::StringRef S) {
    return std::find(F.begin(), F.end(), S.str()) - F.begin();
  };
  EXPECT_LT(At("-ffile-prefix-map=/tmp/w=/@pk-work@"),
            At("-ffile-prefix-map=/tmp/w/c/original=/@pk-cell@"));
  EXPECT_EQ(F.back(), "-fdebug-compilation-dir=/@pk-cwd@");
  // Sources inside the scratch directory, and the root, which would map
  // every path.
  PathMap In = cellMap("/tmp/w", "/tmp/w/src");
  EXPECT_EQ(In.map("/tmp/w/src/k.cu /tmp/w/x"), "/@pk-src@/k.cu /@pk-work@/x");
  PathMap Root = cellMap("/tmp/w", "/");
  EXPECT_EQ(Root.map("/usr/include/x.h"), "/usr/include/x.h");
}

TEST(CompileCache, KeyIgnoresTheSourceAndCellDirectories) {
  // The same case from two directories, in two variants' directories: one
  // key. A string literal naming the source directory still separates them.
  auto Pre = [](llvm::StringRef W, llvm::StringRef S, llvm::StringRef Lit) {
    return ("# 1 \"" + W + "/c/original/driver.cpp\"\n# 1 \"" + W +
            "/c/original/prep/k.cu\" 1\nint x;\n# 1 \"" + S +
            "/ref.cpp\" 1\nconst char *p = \"" + Lit + "\";\n")
        .str();
  };
  PathMap A = cellMap("/wa", "/home/a/case"), B = cellMap("/wb", "/srv/case");
  std::vector<std::string> FA = A.flags(), FB = B.flags();
  FA.push_back("-I/home/a/case/include");
  FB.push_back("-I/srv/case/include");
  std::vector<std::pair<std::string, std::string>> IA{
      {"/home/a/case/ref.cpp", std::string(64, 'a')}},
      IB{{"/srv/case/ref.cpp", std::string(64, 'a')}};
  EXPECT_EQ(objectKey("/c", FA, Pre("/wa", "/home/a/case", "x"), A, IA),
            objectKey("/c", FB, Pre("/wb", "/srv/case", "x"), B, IB));
  EXPECT_NE(objectKey("/c", FA, Pre("/wa", "/home/a/case", "/home/a/case/d"),
                      A, IA),
            objectKey("/c", FB, Pre("/wb", "/srv/case", "/srv/case/d"), B,
                      IB));
  // Another content of the reference source: another key.
  IB[0].second = std::string(64, 'b');
  EXPECT_NE(objectKey("/c", FA, Pre("/wa", "/home/a/case", "x"), A, IA),
            objectKey("/c", FB, Pre("/wb", "/srv/case", "x"), B, IB));
}

TEST(CompileCache, KeysInFlightHoldOneBuilderPerKey) {
  // The second acquirer of a key returns only after the first released it;
  // another key is never held up.
  KeysInFlight F;
  std::atomic<bool> Released{false}, SawRelease{false};
  std::optional<KeysInFlight::Hold> First(F.acquire("k"));
  std::thread T([&] {
    KeysInFlight::Hold H = F.acquire("k");
    SawRelease = Released.load();
  });
  { KeysInFlight::Hold Other = F.acquire("other"); }
  { KeysInFlight::Hold None = F.acquire(""); }
  Released = true;
  First.reset();
  T.join();
  EXPECT_TRUE(SawRelease);
  // Released by the thread: free again.
  { KeysInFlight::Hold Again = F.acquire("k"); }
}

TEST(CompileCache, StoreThenFetch) {
  llvm::SmallString<128> Dir;
  ASSERT_FALSE(llvm::sys::fs::createUniqueDirectory("pk-cache-test", Dir));
  std::string Cache = (Dir + "/cache").str(), Obj = (Dir + "/a.o").str(),
              Got = (Dir + "/b.o").str();
  {
    std::error_code EC;
    llvm::raw_fd_ostream O(Obj, EC);
    ASSERT_FALSE(EC);
    O << "object bytes";
  }
  std::string Key(64, 'a');
  EXPECT_EQ(fetchObject(Cache, Key, Got).K, CacheFetch::Miss);
  EXPECT_FALSE(llvm::sys::fs::exists(Got));
  storeObject(Cache, Key, Obj);
  ASSERT_TRUE(fetchObject(Cache, Key, Got));
  auto B = llvm::MemoryBuffer::getFile(Got);
  ASSERT_TRUE(!!B);
  EXPECT_EQ((*B)->getBuffer(), "object bytes");
  // No temporary file is left beside the stored object and its hash.
  std::error_code EC;
  std::vector<std::string> Files;
  for (llvm::sys::fs::recursive_directory_iterator I(Cache, EC), E;
       I != E && !EC; I.increment(EC))
    if (I->type() == llvm::sys::fs::file_type::regular_file)
      Files.push_back(llvm::sys::path::filename(I->path()).str());
  llvm::sort(Files);
  EXPECT_EQ(Files, (std::vector<std::string>{Key + ".o", Key + ".o.sha256"}));
  llvm::sys::fs::remove_directories(Dir);
}

void writeText(const std::string &P, llvm::StringRef Text) {
  std::error_code EC;
  llvm::raw_fd_ostream O(P, EC);
  ASSERT_FALSE(EC) << P;
  O << Text;
}

std::string readText(const std::string &P) {
  auto B = llvm::MemoryBuffer::getFile(P);
  return B ? (*B)->getBuffer().str() : std::string("<missing>");
}

// Each way an entry can be damaged is detected on use; the entry is removed
// and the next store replaces it.
TEST(CompileCache, DamagedEntryIsRemovedAndReplaced) {
  llvm::SmallString<128> Dir;
  ASSERT_FALSE(llvm::sys::fs::createUniqueDirectory("pk-cache-test", Dir));
  std::string Cache = (Dir + "/cache").str(), Obj = (Dir + "/a.o").str(),
              Got = (Dir + "/b.o").str();
  writeText(Obj, "object bytes of a good build");
  std::string Key(64, 'b');
  std::string Stored = Cache + "/bb/" + Key + ".o";
  struct Damage {
    const char *What;
    std::function<void()> Do;
  } Damages[] = {
      {"truncated", [&] { writeText(Stored, "object by"); }},
      {"altered, same size",
       [&] { writeText(Stored, "object bytes of a BAD! build"); }},
      {"empty", [&] { writeText(Stored, ""); }},
      {"hash missing", [&] { llvm::sys::fs::remove(Stored + ".sha256"); }},
      {"hash altered", [&] { writeText(Stored + ".sha256", "00\n"); }},
      {"object missing", [&] { llvm::sys::fs::remove(Stored); }},
  };
  for (const Damage &D : Damages) {
    storeObject(Cache, Key, Obj);
    ASSERT_TRUE(fetchObject(Cache, Key, Got)) << D.What;
    D.Do();
    llvm::sys::fs::remove(Got);
    CacheFetch F = fetchObject(Cache, Key, Got);
    EXPECT_EQ(F.K, CacheFetch::Damaged) << D.What;
    EXPECT_FALSE(F.Why.empty()) << D.What;
    EXPECT_FALSE(llvm::sys::fs::exists(Got)) << D.What;
    EXPECT_FALSE(llvm::sys::fs::exists(Stored)) << D.What;
    EXPECT_FALSE(llvm::sys::fs::exists(Stored + ".sha256")) << D.What;
    // Rebuilt: the next store gives a good entry again.
    storeObject(Cache, Key, Obj);
    ASSERT_TRUE(fetchObject(Cache, Key, Got)) << D.What;
    EXPECT_EQ(readText(Got), "object bytes of a good build") << D.What;
  }
  llvm::sys::fs::remove_directories(Dir);
}

// Every file of the dependency output, and every file a flag names, is in
// the key by content: changing one (an ignore list, which the preprocessed
// text does not show) changes the key.
TEST(CompileCache, KeyCoversTheContentOfEveryFileTheBuildReads) {
  llvm::SmallString<128> Dir;
  ASSERT_FALSE(llvm::sys::fs::createUniqueDirectory("pk-cache-test", Dir));
  std::string D(Dir);
  writeText(D + "/a b.h", "int a;\n");
  writeText(D + "/ignore.txt", "fun:foo\n");
  writeText(D + "/x.d", "x.o: " + D + "/a\\ b.h \\\n  " + D + "/x.cpp\n");
  writeText(D + "/x.cpp", "#include \"a b.h\"\n");
  std::vector<std::string> Flags{"-fsanitize-ignorelist=" + D + "/ignore.txt",
                                 "-O1"};
  auto Key = [&] {
    std::vector<std::pair<std::string, std::string>> In;
    EXPECT_TRUE(readInputs(D + "/x.d", Flags, "/scratch", In));
    std::vector<std::string> Names;
    for (auto &[P, H] : In)
      Names.push_back(llvm::sys::path::filename(P).str());
    EXPECT_EQ(Names,
              (std::vector<std::string>{"a b.h", "x.cpp", "ignore.txt"}));
    return objectKey("/usr/bin/true", Flags, "int a;\n", "/scratch", In);
  };
  std::string K0 = Key();
  EXPECT_EQ(Key(), K0);
  writeText(D + "/ignore.txt", "fun:bar\n");
  std::string K1 = Key();
  EXPECT_NE(K1, K0);
  writeText(D + "/a b.h", "int a; \n");
  EXPECT_NE(Key(), K1);
  // A file that cannot be read: no key (the build is not cached).
  llvm::sys::fs::remove(D + "/a b.h");
  std::vector<std::pair<std::string, std::string>> In;
  EXPECT_FALSE(readInputs(D + "/x.d", Flags, "/scratch", In));
  llvm::sys::fs::remove_directories(Dir);
}

// The assembler reads .incbin (and .include) files behind the
// preprocessor's back: such sources are not cached, however the directive
// is spelled; ordinary asm labels of system headers are.
TEST(CompileCache, InlineAssemblyThatReadsFilesIsNotCached) {
  for (const char *Src : {
           "asm(\".incbin \\\"blob.bin\\\"\");",
           "__asm__(\".INCBIN \\\"blob.bin\\\"\");",
           "asm(\".inc\" \"bin \\\"blob.bin\\\"\");",
           "asm(\"\\x2eincbin \\\"b\\\"\");",
           "asm(\"\\056inc\\142in \\\"b\\\"\");",
           "asm(R\"x(.incbin \"b\")x\");",
           "asm(\".include \\\"defs.s\\\"\");",
           "asm(\".irp d,bin\\n.inc\\\\d \\\"b\\\"\\n.endr\");",
           "asm(\".macro m x\\n.inc\\\\x \\\"b\\\"\\n.endm\\nm bin\");",
       })
    EXPECT_FALSE(uncacheableReason(Src).empty()) << Src;
  for (const char *Src : {
           "extern int sscanf(const char *, const char *, ...) "
           "__asm__(\"\" \"__isoc99_sscanf\");",
           "const char *s = \"include\"; char c = '\"';",
           "# 1 \"/src/incbin/x.h\"\nint x;",
       })
    EXPECT_EQ(uncacheableReason(Src), "") << Src;
}

} // namespace

namespace cachedirect {

struct TempDir {
  llvm::SmallString<128> Path;
  TempDir() { (void)llvm::sys::fs::createUniqueDirectory("pk-cache-direct", Path); }
  ~TempDir() { llvm::sys::fs::remove_directories(Path); }
  std::string put(llvm::StringRef Name, llvm::StringRef Text) const {
    std::string P = (Path + "/" + Name).str();
    (void)llvm::sys::fs::create_directories(llvm::sys::path::parent_path(P));
    std::error_code EC;
    llvm::raw_fd_ostream O(P, EC);
    O << Text;
    return P;
  }
};

} // namespace cachedirect

TEST(CompileCache, ManifestFindsTheObjectWhileEveryFileItReadIsUnchanged) {
  cachedirect::TempDir T;
  std::string Cache = (T.Path + "/cache").str();
  // Two scratch directories and one header outside them.
  std::string WA = (T.Path + "/wa").str(), WB = (T.Path + "/wb").str();
  std::string Hdr = T.put("inc/k.h", "int k;\n");
  std::string MainA = T.put("wa/c/driver.cpp", "#include \"" + Hdr + "\"\n// " + WA + "\n");
  std::string MainB = T.put("wb/c/driver.cpp", "#include \"" + Hdr + "\"\n// " + WB + "\n");
  std::vector<std::string> FA = pathMapFlags(WA), FB = pathMapFlags(WB);
  FileHashes HA(WA), HB(WB);
  std::string MA = manifestKey("/c", FA, MainA, WA, HA);
  std::string MB = manifestKey("/c", FB, MainB, WB, HB);
  ASSERT_EQ(MA.size(), 64u);
  // The scratch directory counts as /@pk-work@ in flags, path and content.
  EXPECT_EQ(MA, MB);
  EXPECT_EQ(lookupManifest(Cache, MA, WA, HA), "");
  std::vector<std::pair<std::string, std::string>> In = {
      {MainA, HA.hash(MainA)}, {Hdr, HA.hash(Hdr)}};
  std::string Obj(64, 'b');
  recordManifest(Cache, MA, WA, In, Obj);
  // Found from the other scratch directory.
  EXPECT_EQ(lookupManifest(Cache, MB, WB, HB), Obj);
  // A header that changed (same size, later time) is not served stale; a
  // fresh FileHashes, as in a new run.
  T.put("inc/k.h", "int j;\n");
  FileHashes HC(WB);
  EXPECT_EQ(lookupManifest(Cache, MB, WB, HC), "");
  // The entry of the new content is added beside the old one.
  std::string Obj2(64, 'c');
  FileHashes HA2(WA);
  recordManifest(Cache, MA, WA,
                 {{MainA, HA2.hash(MainA)}, {Hdr, HA2.hash(Hdr)}}, Obj2);
  FileHashes HD(WB);
  EXPECT_EQ(lookupManifest(Cache, MB, WB, HD), Obj2);
  T.put("inc/k.h", "int k;\n");
  FileHashes HE(WB);
  EXPECT_EQ(lookupManifest(Cache, MB, WB, HE), Obj);
  // A missing header: no entry matches.
  llvm::sys::fs::remove(Hdr);
  FileHashes HF(WB);
  EXPECT_EQ(lookupManifest(Cache, MB, WB, HF), "");
}

TEST(CompileCache, DamagedManifestIsIgnoredAndReplaced) {
  cachedirect::TempDir T;
  std::string Cache = (T.Path + "/cache").str(), W = (T.Path + "/w").str();
  std::string Main = T.put("w/driver.cpp", "int main() {}\n");
  FileHashes H(W);
  std::string M = manifestKey("/c", {}, Main, W, H);
  std::string Obj(64, 'd');
  recordManifest(Cache, M, W, {{Main, H.hash(Main)}}, Obj);
  ASSERT_EQ(lookupManifest(Cache, M, W, H), Obj);
  std::string File;
  std::error_code EC;
  for (llvm::sys::fs::recursive_directory_iterator I(Cache + "/manifest", EC), E;
       I != E && !EC; I.increment(EC))
    if (llvm::StringRef(I->path()).ends_with(".txt"))
      File = I->path();
  ASSERT_FALSE(File.empty());
  auto B = llvm::MemoryBuffer::getFile(File);
  ASSERT_TRUE(!!B);
  std::string Text = (*B)->getBuffer().str();
  // Another object key at the same length: the seal no longer matches.
  std::string Altered = Text;
  Altered[Altered.find("object ") + 7] = 'e';
  for (const std::string &Bad : {Text.substr(0, Text.size() / 2), Altered,
                                 std::string()}) {
    {
      llvm::raw_fd_ostream O(File, EC);
      O << Bad;
    }
    EXPECT_EQ(lookupManifest(Cache, M, W, H), "") << Bad;
    recordManifest(Cache, M, W, {{Main, H.hash(Main)}}, Obj);
    EXPECT_EQ(lookupManifest(Cache, M, W, H), Obj);
  }
}

TEST(CompileCache, ProgramKeyCoversTheObjectFlagsAndLinkedLibraries) {
  cachedirect::TempDir T;
  std::string W = (T.Path + "/w").str();
  std::string Lib = T.put("lib/libpkemu.a", "archive one");
  FileHashes H(W);
  std::vector<std::string> L = {"-o", W + "/c/driver", W + "/c/driver.o",
                                "-x", "none", Lib, "-lpthread"};
  std::string Obj(64, 'a');
  std::string K = programKey(Obj, L, W, H);
  ASSERT_EQ(K.size(), 64u);
  // Another scratch directory: the same program.
  std::string W2 = (T.Path + "/w2").str();
  std::vector<std::string> L2 = {"-o", W2 + "/c/driver", W2 + "/c/driver.o",
                                 "-x", "none", Lib, "-lpthread"};
  FileHashes H2(W2);
  EXPECT_EQ(programKey(Obj, L2, W2, H2), K);
  EXPECT_NE(programKey(std::string(64, 'b'), L, W, H), K);
  std::vector<std::string> L3 = L;
  L3.push_back("-ldl");
  EXPECT_NE(programKey(Obj, L3, W, H), K);
  // The runtime library rebuilt with other content.
  T.put("lib/libpkemu.a", "archive two!");
  FileHashes H3(W);
  EXPECT_NE(programKey(Obj, L, W, H3), K);
}

TEST(CompileCache, PreludeIsPrecompiledOnlyForFlagsItCanKeep) {
  cachedirect::TempDir T;
  std::string Shim = (T.Path + "/shim").str();
  T.put("shim/pkemu/prelude.h", "#pragma once\n");
  std::vector<std::string> F = {"-std=c++17", "-O2", "-x", "c++",
                                "-I" + Shim, "-include", "pkemu/prelude.h",
                                "-DPKEMU_LANG_HIP"};
  std::optional<PreludePlan> P = planPrelude("/c", F, "/scratch");
  ASSERT_TRUE(P.has_value());
  EXPECT_EQ(P->IncludeAt, 5u);
  EXPECT_EQ(P->Header, Shim + "/pkemu/prelude.h");
  // Built as a header, without the forced include of itself.
  EXPECT_TRUE(llvm::is_contained(P->BuildArgs, "c++-header"));
  EXPECT_FALSE(llvm::is_contained(P->BuildArgs, "pkemu/prelude.h"));
  EXPECT_TRUE(llvm::is_contained(P->BuildArgs, "-DPKEMU_LANG_HIP"));
  // Other flags, another PCH.
  std::vector<std::string> F2 = F;
  F2.back() = "-DPKEMU_LANG_CUDA";
  ASSERT_TRUE(planPrelude("/c", F2, "/scratch").has_value());
  EXPECT_NE(planPrelude("/c", F2, "/scratch")->Key, P->Key);
  // A flag naming the scratch directory (a user's -I into the prepared
  // tree could shadow a header the prelude includes): no PCH.
  std::vector<std::string> F3 = F;
  F3.push_back("-I/scratch/case/prep");
  EXPECT_FALSE(planPrelude("/c", F3, "/scratch").has_value());
  // No forced prelude, or it is not on the include path: no PCH.
  std::vector<std::string> F4 = {"-x", "c++", "-I" + Shim};
  EXPECT_FALSE(planPrelude("/c", F4, "/scratch").has_value());
  std::vector<std::string> F5 = F;
  F5[4] = "-I" + (T.Path + "/none").str();
  EXPECT_FALSE(planPrelude("/c", F5, "/scratch").has_value());
}

TEST(CompileCache, PrecompiledPreludeIsStaleWhenAFileItWasBuiltFromChanges) {
  cachedirect::TempDir T;
  std::string Cache = (T.Path + "/cache").str();
  std::string Hdr = T.put("shim/pkemu/prelude.h", "#pragma once\nint a;\n");
  std::string Built = T.put("work/prelude.pch", "pch bytes");
  std::string Dep = T.put("work/prelude.pch.d", "prelude.pch: " + Hdr + "\n");
  std::string Key(64, 'f');
  FileHashes H("");
  EXPECT_FALSE(preludePchValid(Cache, Key, H));
  ASSERT_TRUE(storePreludePch(Cache, Key, Built, Dep, {}));
  EXPECT_TRUE(preludePchValid(Cache, Key, H));
  T.put("shim/pkemu/prelude.h", "#pragma once\nint b;\n");
  FileHashes H2("");
  EXPECT_FALSE(preludePchValid(Cache, Key, H2));
  T.put("shim/pkemu/prelude.h", "#pragma once\nint a;\n");
  FileHashes H3("");
  EXPECT_TRUE(preludePchValid(Cache, Key, H3));
  // The PCH itself altered.
  {
    std::error_code EC;
    llvm::raw_fd_ostream O(preludePchPath(Cache, Key), EC);
    O << "pch bytes, altered";
  }
  FileHashes H4("");
  EXPECT_FALSE(preludePchValid(Cache, Key, H4));
}
