//===- StandaloneMain.cpp - a fuzz target without libFuzzer ----------------===//
//
// Runs a libFuzzer target (LLVMFuzzerTestOneInput) in an ordinary build:
// every file of the given files and directories, then ROUNDS mutations of
// each (byte flips, insertions of the target's dictionary words, cuts,
// duplications) from a fixed seed, so the run is the same every time.  The
// ctests fuzz.escape-replay and fuzz.reports-replay run it briefly in every
// build; scripts/fuzz.sh runs the instrumented targets for long campaigns.
//   TARGET [--rounds N] [--dict WORD | --dict-hex HEXBYTES]... FILE|DIR...
//
//===----------------------------------------------------------------------===//
#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <dirent.h>
#include <fstream>
#include <random>
#include <sstream>
#include <string>
#include <sys/stat.h>
#include <vector>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *Data, size_t Size);

static void collect(const std::string &P, std::vector<std::string> &Out) {
  struct stat St;
  if (stat(P.c_str(), &St) != 0)
    return;
  if (S_ISDIR(St.st_mode)) {
    if (DIR *D = opendir(P.c_str())) {
      std::vector<std::string> Names;
      while (dirent *E = readdir(D))
        if (E->d_name[0] != '.')
          Names.push_back(P + "/" + E->d_name);
      closedir(D);
      std::sort(Names.begin(), Names.end());
      for (const std::string &N : Names)
        collect(N, Out);
    }
    return;
  }
  std::ifstream F(P, std::ios::binary);
  std::stringstream S;
  S << F.rdbuf();
  Out.push_back(S.str());
}

static void runOne(const std::string &S) {
  // A copy of its own: the target may not read past the end.
  std::vector<uint8_t> Buf(S.begin(), S.end());
  LLVMFuzzerTestOneInput(Buf.data(), Buf.size());
}

int main(int argc, char **argv) {
  unsigned Rounds = 200;
  std::vector<std::string> Dict, Inputs;
  for (int I = 1; I < argc; ++I) {
    if (!std::strcmp(argv[I], "--rounds") && I + 1 < argc)
      Rounds = std::atoi(argv[++I]);
    else if (!std::strcmp(argv[I], "--dict") && I + 1 < argc)
      Dict.push_back(argv[++I]);
    else if (!std::strcmp(argv[I], "--dict-hex") && I + 1 < argc) {
      std::string H = argv[++I], W;
      for (size_t J = 0; J + 1 < H.size(); J += 2)
        W += char(std::strtol(H.substr(J, 2).c_str(), nullptr, 16));
      Dict.push_back(W);
    }
    else
      collect(argv[I], Inputs);
  }
  if (Inputs.empty()) {
    std::fprintf(stderr, "no inputs\n");
    return 2;
  }
  std::mt19937 Gen(1234567);
  size_t Runs = 0;
  for (const std::string &In : Inputs) {
    runOne(In);
    ++Runs;
    std::string M = In;
    for (unsigned R = 0; R < Rounds; ++R) {
      switch (Gen() % 5) {
      case 0: // flip a byte
        if (!M.empty())
          M[Gen() % M.size()] ^= uint8_t(1u << (Gen() % 8));
        break;
      case 1: // insert a dictionary word or a byte
        if (!Dict.empty())
          M.insert(M.empty() ? 0 : Gen() % M.size(), Dict[Gen() % Dict.size()]);
        else
          M.insert(M.begin() + (M.empty() ? 0 : Gen() % M.size()),
                   char(Gen() % 256));
        break;
      case 2: // cut
        if (M.size() > 1) {
          size_t A = Gen() % M.size();
          M.erase(A, 1 + Gen() % std::min<size_t>(8, M.size() - A));
        }
        break;
      case 3: // duplicate a slice
        if (!M.empty() && M.size() < 4096) {
          size_t A = Gen() % M.size();
          M.insert(A, M.substr(A, 1 + Gen() % 16));
        }
        break;
      default: // back to the seed now and then
        M = In;
      }
      runOne(M);
      ++Runs;
    }
  }
  std::printf("%zu inputs, %zu runs, no property violated\n", Inputs.size(),
              Runs);
  return 0;
}
