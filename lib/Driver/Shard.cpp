//===- Shard.cpp - which translation units one shard of a run reads -------===//
// Rules: none (input selection)
#include "pk/Shard.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/MD5.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include <map>

using namespace pk;
namespace fs = llvm::sys::fs;
namespace path = llvm::sys::path;

llvm::Expected<ShardSpec> pk::parseShard(llvm::StringRef S) {
  auto Bad = [&](const char *Why) {
    return llvm::createStringError(
        llvm::inconvertibleErrorCode(),
        llvm::formatv("port-kernel: error: --shard '{0}': {1} (expected K/N "
                      "with 1 <= K <= N, e.g. --shard 2/4)",
                      S, Why)
            .str());
  };
  auto [KS, NS] = S.split('/');
  ShardSpec R;
  if (NS.empty() || KS.getAsInteger(10, R.K) || NS.getAsInteger(10, R.N))
    return Bad("not two numbers K/N");
  if (R.N == 0)
    return Bad("N must be at least 1");
  if (R.K < 1 || R.K > R.N)
    return Bad("K must be between 1 and N");
  return R;
}

unsigned pk::shardOf(llvm::StringRef RelPath, unsigned N) {
  llvm::MD5 H;
  H.update(RelPath);
  llvm::MD5::MD5Result Res;
  H.final(Res);
  return unsigned(Res.low() % N) + 1;
}

std::string pk::shardKey(const InputFile &F) {
  llvm::StringRef P = F.Path;
  std::string Root = F.Root;
  if (!Root.empty() && P.starts_with(Root) && P.size() > Root.size()) {
    P = P.drop_front(Root.size());
    P.consume_front("/");
  } else {
    P = path::filename(P);
  }
  return path::convert_to_slash(P);
}

std::set<std::string> pk::selectShard(const std::vector<InputFile> &Inputs,
                                      const std::set<std::string> &TUs,
                                      llvm::ArrayRef<std::string> IncludeDirs,
                                      ShardSpec S) {
  std::set<std::string> Keep;
  // Everything each file includes, directly or not (memoised scans).
  std::map<std::string, std::vector<std::string>> Direct;
  auto Closure = [&](const std::string &From, std::set<std::string> &Seen) {
    std::vector<std::string> Work{From};
    while (!Work.empty()) {
      std::string F = std::move(Work.back());
      Work.pop_back();
      auto It = Direct.find(F);
      if (It == Direct.end())
        It = Direct.emplace(F, scanIncludes(F, IncludeDirs)).first;
      for (const std::string &I : It->second)
        if (Seen.insert(I).second)
          Work.push_back(I);
    }
  };
  std::set<std::string> ReachedByAny, ReachedByMine;
  for (const InputFile &F : Inputs) {
    if (!TUs.count(F.Path))
      continue;
    bool Mine = shardOf(shardKey(F), S.N) == S.K;
    if (Mine)
      Keep.insert(F.Path);
    Closure(F.Path, Mine ? ReachedByMine : ReachedByAny);
  }
  ReachedByAny.insert(ReachedByMine.begin(), ReachedByMine.end());
  for (const InputFile &F : Inputs) {
    if (TUs.count(F.Path))
      continue;
    if (ReachedByAny.count(F.Path)) {
      if (ReachedByMine.count(F.Path))
        Keep.insert(F.Path);
    } else if (shardOf(shardKey(F), S.N) == S.K) {
      Keep.insert(F.Path);
    }
  }
  return Keep;
}
