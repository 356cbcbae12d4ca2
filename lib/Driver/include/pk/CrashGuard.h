//===- CrashGuard.h - one translation unit's work, isolated ---------------===//
// Rules: PK9001
//
// Each translation unit is parsed and ported on a thread of its own with a
// large stack, under llvm::CrashRecoveryContext: a crash inside clang or a
// pass (a signal such as SIGSEGV or SIGABRT, a stack overflow included)
// becomes an error for that file instead of ending the process.
//
//===----------------------------------------------------------------------===//
#ifndef PK_DRIVER_CRASHGUARD_H
#define PK_DRIVER_CRASHGUARD_H

#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/ADT/StringRef.h"
#include <string>

namespace pk {

/// Stack of the thread each translation unit runs on (bytes).  Deeply
/// nested code (10^5 terms in one expression, deeply nested macro
/// arguments) recurses in clang's parser and semantic checks.
constexpr unsigned TUStackBytes = 1024u << 20;

/// Runs \p Fn on a thread with a TUStackBytes stack under crash recovery.
/// Returns false when it crashed; \p Why then names the signal.  Memory the
/// crashed work held is not freed.
bool runWithCrashRecovery(llvm::function_ref<void()> Fn, std::string &Why);

/// Gives the memory that freed allocations leave in the allocator's arenas
/// back to the system (glibc; nothing elsewhere).  Each translation unit
/// runs on a thread of its own, whose arena keeps what the unit freed (its
/// AST: hundreds of MB for a large file) where no later allocation of
/// another thread reuses it: the run's peak would be the sum of arenas.
void returnFreedMemory();

/// Test hook (docs/reliability.md): true when PK_TEST_CRASH_IN names the
/// file name of \p Path; the caller then crashes on purpose.
bool testCrashRequested(llvm::StringRef Path);

/// A real invalid memory access (SIGSEGV), for the test hook.
[[noreturn]] void crashForTest();

/// Test hook: PK_TEST_SIGTERM_IN=NAME sends this process a real SIGTERM when
/// the parse of the input file named NAME starts (docs/reliability.md): a
/// termination during parsing, at a place no scheduling can move.
void signalForTestIfRequested(llvm::StringRef Path);

} // namespace pk
#endif
