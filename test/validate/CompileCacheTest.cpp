//===- CompileCacheTest.cpp - validate --cache-dir ------------------------===//
//
// The key of a compiled emulator object, the fixed names of the scratch and
// working directories, and storing and fetching objects.

#include "CompileCache.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"
#include "gtest/gtest.h"

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
  EXPECT_FALSE(fetchObject(Cache, Key, Got));
  EXPECT_FALSE(llvm::sys::fs::exists(Got));
  storeObject(Cache, Key, Obj);
  ASSERT_TRUE(fetchObject(Cache, Key, Got));
  auto B = llvm::MemoryBuffer::getFile(Got);
  ASSERT_TRUE(!!B);
  EXPECT_EQ((*B)->getBuffer(), "object bytes");
  // No temporary file is left beside the stored object.
  std::error_code EC;
  unsigned Files = 0;
  for (llvm::sys::fs::recursive_directory_iterator I(Cache, EC), E;
       I != E && !EC; I.increment(EC))
    Files += I->type() == llvm::sys::fs::file_type::regular_file;
  EXPECT_EQ(Files, 1u);
  llvm::sys::fs::remove_directories(Dir);
}

} // namespace
