//===- FakePortService.h - a stand-in translator for harness tests --------===//
//
// portFiles copies sources (CUDA target) and emuPrepare applies the two
// textual rewrites the emulator needs (launch syntax and __shared__
// declarations) with simple pattern matching.  Good enough for the corpus;
// not a translator.
//
//===----------------------------------------------------------------------===//
#ifndef PK_TEST_FAKEPORTSERVICE_H
#define PK_TEST_FAKEPORTSERVICE_H

#include "pk/PortService.h"
#include "llvm/ADT/SmallString.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"
#include <map>
#include <regex>
#include <set>
#include <string>
#include <vector>

namespace pk {
namespace test {

/// Rewrites `k<<<g, b[, s[, st]]>>>(args)` to `pkemu::launch(k, g, b, s, st, args)`.
inline std::string rewriteLaunches(const std::string &In) {
  std::string Out;
  size_t Pos = 0;
  while (true) {
    size_t L = In.find("<<<", Pos);
    if (L == std::string::npos)
      break;
    // The kernel expression: identifiers, '::' and balanced template args.
    size_t B = L;
    while (B > 0) {
      char C = In[B - 1];
      if (C == '>') { // template arguments: skip to the matching '<'
        int D = 0;
        size_t Q = B;
        while (Q > 0) {
          char X = In[--Q];
          if (X == '>')
            ++D;
          else if (X == '<' && --D == 0)
            break;
        }
        B = Q;
        continue;
      }
      if (std::isalnum((unsigned char)C) || C == '_' || C == ':') {
        --B;
        continue;
      }
      break;
    }
    size_t R = In.find(">>>", L);
    if (R == std::string::npos)
      break;
    std::string Kernel = In.substr(B, L - B);
    std::string Cfg = In.substr(L + 3, R - L - 3);
    std::vector<std::string> Parts;
    {
      int D = 0;
      std::string Cur;
      for (char C : Cfg) {
        if (C == '(' || C == '[' || C == '{') ++D;
        if (C == ')' || C == ']' || C == '}') --D;
        if (C == ',' && D == 0) { Parts.push_back(llvm::StringRef(Cur).trim().str()); Cur.clear(); continue; }
        Cur += C;
      }
      Parts.push_back(llvm::StringRef(Cur).trim().str());
    }
    while (Parts.size() < 4)
      Parts.push_back("0");
    size_t P = R + 3;
    while (P < In.size() && std::isspace((unsigned char)In[P]))
      ++P;
    if (P >= In.size() || In[P] != '(')
      break;
    int D = 0;
    size_t E = P;
    for (; E < In.size(); ++E) {
      if (In[E] == '(') ++D;
      if (In[E] == ')' && --D == 0) break;
    }
    std::string Args = llvm::StringRef(In.substr(P + 1, E - P - 1)).trim().str();
    Out += In.substr(Pos, B - Pos);
    Out += "pkemu::launch(" + Kernel;
    for (auto &Pa : Parts)
      Out += ", " + Pa;
    if (!Args.empty())
      Out += ", " + Args;
    Out += ")";
    Pos = E + 1;
  }
  Out += In.substr(Pos);
  return Out;
}

/// Rewrites function-local __shared__ declarations to the PKEMU_* macros.
inline std::string rewriteShared(const std::string &In) {
  static const std::regex Dynamic(
      R"(extern\s+__shared__\s+(?:__align__\(\s*\d+\s*\)\s+)?([A-Za-z_][\w:]*(?:\s+[A-Za-z_][\w:]*)*?)\s+(\w+)\s*\[\s*\]\s*;)");
  static const std::regex Static(
      R"(__shared__\s+(?:__align__\(\s*\d+\s*\)\s+)?([A-Za-z_][\w:]*(?:\s+[A-Za-z_][\w:]*)*?)\s+(\w+)\s*((?:\[[^\]]+\]\s*)+);)");
  static const std::regex Scalar(
      R"(__shared__\s+(?:__align__\(\s*\d+\s*\)\s+)?([A-Za-z_][\w:]*(?:\s+[A-Za-z_][\w:]*)*?)\s+(\w+)\s*;)");
  std::string S = std::regex_replace(In, Dynamic, "PKEMU_DYNAMIC_SHARED($2, $1);");
  S = std::regex_replace(S, Static, "PKEMU_SHARED($2, $1$3);");
  S = std::regex_replace(S, Scalar, "PKEMU_SHARED($2, $1);");
  return S;
}

class FakePortService : public PortService {
public:
  /// When set, ported HIP output is the CUDA source unchanged (tests only).
  bool AllowHip = false;
  /// Appended to each CUDA output (a port that differs from its source).
  std::string CudaPortSuffix;
  /// A file the CUDA port writes beside its outputs without naming it.
  bool CudaPortExtraFile = false;

  llvm::Error portFiles(llvm::ArrayRef<std::string> Inputs, Target T,
                        llvm::StringRef OutDir,
                        std::vector<std::string> &OutPaths) override {
    if (T == Target::HIP && !AllowHip)
      return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                     "error: this stand-in does not port to hip");
    for (const std::string &In : Inputs) {
      auto Out = copyTree(In, OutDir, T == Target::HIP ? ".hip" : ".cu", false);
      if (!Out)
        return Out.takeError();
      if (T == Target::CUDA && !CudaPortSuffix.empty()) {
        std::error_code EC;
        llvm::raw_fd_ostream OS(*Out, EC, llvm::sys::fs::OF_Append);
        OS << CudaPortSuffix;
      }
      if (T == Target::CUDA && CudaPortExtraFile) {
        llvm::SmallString<256> X(llvm::sys::path::parent_path(*Out));
        llvm::sys::path::append(X, "pk_extra.h");
        std::error_code EC;
        llvm::raw_fd_ostream OS(X, EC);
        OS << "// written by the port\n";
      }
      OutPaths.push_back(*Out);
    }
    return llvm::Error::success();
  }

  /// The prepared main file starts with `#line 1 "<the file prepared>"`, as
  /// the real preparation writes (reports and __FILE__ name the input).
  bool LineDirectives = false;

  llvm::Expected<std::string> emuPrepare(llvm::StringRef MainFile, bool,
                                         llvm::StringRef OutDir) override {
    llvm::Expected<std::string> Out = copyTree(MainFile.str(), OutDir, "", true);
    if (!Out || !LineDirectives)
      return Out;
    auto B = llvm::MemoryBuffer::getFile(*Out);
    if (!B)
      return llvm::createStringError(B.getError(), "cannot read " + *Out);
    llvm::SmallString<256> Abs(MainFile);
    llvm::sys::fs::make_absolute(Abs);
    std::string Text = "#line 1 \"" + std::string(Abs) + "\"\n" +
                       (*B)->getBuffer().str();
    std::error_code EC;
    llvm::raw_fd_ostream OS(*Out, EC);
    OS << Text;
    return Out;
  }

  /// HIP corpus cases (.hip) run as HIP at 64 lanes.
  bool isHipSource(llvm::StringRef File) const override {
    return File.ends_with(".hip");
  }

private:
  static std::vector<std::string> localIncludes(llvm::StringRef Text) {
    static const std::regex Inc(R"(^[ \t]*#[ \t]*include[ \t]*\"([^\"]+)\")");
    std::vector<std::string> R;
    llvm::SmallVector<llvm::StringRef, 128> Lines;
    Text.split(Lines, '\n');
    for (llvm::StringRef L : Lines) {
      std::smatch M;
      std::string S = L.str();
      if (std::regex_search(S, M, Inc))
        R.push_back(M[1]);
    }
    return R;
  }

  /// Copies \p Main and the local headers it reaches into \p OutDir, keeping
  /// their layout relative to their common parent directory.
  static llvm::Expected<std::string> copyTree(const std::string &Main, llvm::StringRef OutDir,
                                              llvm::StringRef NewExt, bool Rewrite) {
    llvm::SmallString<256> AbsMain(Main);
    llvm::sys::fs::make_absolute(AbsMain);
    llvm::sys::path::remove_dots(AbsMain, true);
    std::map<std::string, std::string> Files; // path -> text
    std::vector<std::string> Work{std::string(AbsMain)};
    while (!Work.empty()) {
      std::string F = Work.back();
      Work.pop_back();
      if (Files.count(F))
        continue;
      auto B = llvm::MemoryBuffer::getFile(F);
      if (!B) {
        if (F == std::string(AbsMain))
          return llvm::createStringError(B.getError(), "cannot read " + F);
        continue;
      }
      Files[F] = (*B)->getBuffer().str();
      for (const std::string &I : localIncludes(Files[F])) {
        llvm::SmallString<256> P(llvm::sys::path::parent_path(F));
        llvm::sys::path::append(P, I);
        llvm::sys::path::remove_dots(P, true);
        if (llvm::sys::fs::exists(P))
          Work.push_back(std::string(P));
      }
    }
    // Common parent directory.
    std::string Root = llvm::sys::path::parent_path(AbsMain).str();
    for (auto &KV : Files)
      while (!llvm::StringRef(KV.first).starts_with(Root + "/"))
        Root = llvm::sys::path::parent_path(Root).str();
    std::string MainOut;
    for (auto &KV : Files) {
      llvm::SmallString<256> Out(OutDir);
      llvm::sys::path::append(Out, llvm::StringRef(KV.first).drop_front(Root.size() + 1));
      if (KV.first == std::string(AbsMain) && !NewExt.empty())
        llvm::sys::path::replace_extension(Out, NewExt);
      llvm::sys::fs::create_directories(llvm::sys::path::parent_path(Out));
      std::error_code EC;
      llvm::raw_fd_ostream OS(Out, EC);
      if (EC)
        return llvm::createStringError(EC, "cannot write " + Out);
      OS << (Rewrite ? rewriteShared(rewriteLaunches(KV.second)) : KV.second);
      if (KV.first == std::string(AbsMain))
        MainOut = std::string(Out);
    }
    return MainOut;
  }
};

} // namespace test
} // namespace pk

#endif
