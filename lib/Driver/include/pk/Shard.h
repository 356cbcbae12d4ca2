//===- Shard.h - which translation units one shard of a run reads ---------===//
// Rules: none (input selection)
#ifndef PK_SHARD_H
#define PK_SHARD_H

#include "pk/Inputs.h"
#include "llvm/ADT/ArrayRef.h"
#include "llvm/Support/Error.h"
#include <set>
#include <string>
#include <vector>

namespace pk {

/// `--shard K/N`: shard K (1-based) of N.  N == 0: no sharding.
struct ShardSpec {
  unsigned K = 0, N = 0;
  bool enabled() const { return N != 0; }
};

/// Parses "K/N" (1 <= K <= N); errors say what is wrong.
llvm::Expected<ShardSpec> parseShard(llvm::StringRef S);

/// The shard (1..N) of a file, from a stable hash (MD5) of its path
/// relative to the directory its input was given as.
unsigned shardOf(llvm::StringRef RelPath, unsigned N);

/// The path of \p F that shardOf hashes: relative to F.Root, '/'-separated.
std::string shardKey(const InputFile &F);

/// The inputs shard \p S reads.  A translation unit belongs to the shard of
/// its path.  A header (or a source another file includes) that some
/// translation unit of the tree includes, directly or through other
/// headers, goes with every translation unit that includes it; one that no
/// translation unit includes is checked on its own by the shard of its own
/// path; any other input likewise.  Includes are found by a scan of
/// `#include "..."` / `<...>` lines resolved next to the including file,
/// then in \p IncludeDirs.
std::set<std::string> selectShard(const std::vector<InputFile> &Inputs,
                                  const std::set<std::string> &TUs,
                                  llvm::ArrayRef<std::string> IncludeDirs,
                                  ShardSpec S);

} // namespace pk
#endif
