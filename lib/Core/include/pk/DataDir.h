//===- DataDir.h - where port-kernel's data files are ---------------------===//
// Rules: none (shared infrastructure)
//
// The bundled CUDA declarations, the shims, the rename tables, the emulator's
// headers and runtime library and the NKI simulator are data files, found at
// run time relative to the executable: <prefix>/bin/port-kernel reads
// <prefix>/share/port-kernel.  A build tree has the same layout
// (build/share/port-kernel, links into the source tree, made at configure
// time), so the built binary and the installed one look in the same place.
// $PORT_KERNEL_DATA_DIR, when set, names the directory instead.
//
// Every user of a data file asks dataPath(); nothing else names a data path.
//
//===----------------------------------------------------------------------===//
#ifndef PK_DATADIR_H
#define PK_DATADIR_H

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"
#include <string>

namespace pk {

/// The file every data directory holds (its contents: the version that
/// installed it).
inline constexpr const char *DataDirMarker = "port-kernel-data";

/// The data directory: $PORT_KERNEL_DATA_DIR if set and not empty, else
/// <directory of the running executable>/../share/port-kernel.  Computed
/// once.
const std::string &dataDir();

/// dataDir()/\p Rel (Rel uses '/').
std::string dataPath(llvm::StringRef Rel);

/// An error naming the directory and how to fix it when dataDir() has no
/// marker file (a binary copied away from its data, or a wrong
/// $PORT_KERNEL_DATA_DIR).
llvm::Error checkDataDir();

} // namespace pk
#endif
