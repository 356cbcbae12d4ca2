//===- shared_memory.cpp - per-block shared memory and its limits ---------===//
// Rules: none (emulator runtime)
//
// Each worker owns one arena for the shared memory of the block it runs:
// dynamic shared memory at offset 0, static __shared__ objects placed in the
// order threads reach their declarations, each followed by a red zone. The
// state bytes set here (undeclared / declared / initialised) are what the
// memory hooks (hooks.cpp) check every shared-memory access against.
//
//===----------------------------------------------------------------------===//
#include <sys/mman.h>

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <string>

#include "internal.h"

namespace pkemu {
namespace detail {

namespace {
constexpr std::size_t kArenaCap =
    512 * 1024; // bytes of shared memory per block (max)
constexpr std::size_t kRedzone = 64;
constexpr std::size_t kStaticLimit =
    48 * 1024; // static __shared__ per block (CUDA limit)
} // namespace

// The arena, its state bytes and its race-detection shadows (per word and per
// byte), mapped once per worker (the shadows without reserve: only the pages
// of words that are accessed get memory).
void setup_worker_arena(Worker &w) {
  if (w.arena)
    return;
  w.arena = static_cast<char *>(mmap(nullptr, kArenaCap, PROT_READ | PROT_WRITE,
                                     MAP_PRIVATE | MAP_ANONYMOUS, -1, 0));
  w.sstate = static_cast<std::uint8_t *>(
      mmap(nullptr, kArenaCap, PROT_READ | PROT_WRITE,
           MAP_PRIVATE | MAP_ANONYMOUS, -1, 0));
  w.wcells = static_cast<Cell *>(
      mmap(nullptr, kArenaCap / 4 * sizeof(Cell), PROT_READ | PROT_WRITE,
           MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0));
  w.cells = static_cast<Cell *>(
      mmap(nullptr, kArenaCap * sizeof(Cell), PROT_READ | PROT_WRITE,
           MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0));
  if (w.arena == MAP_FAILED || w.sstate == MAP_FAILED ||
      w.wcells == MAP_FAILED || w.cells == MAP_FAILED) {
    std::fprintf(stderr,
                 "pkemu: error: cannot allocate the shared-memory arena\n");
    die_now();
  }
  w.arena_cap = kArenaCap;
}

// Start of a block: poison what the previous block used, declare the dynamic
// part. Clearing the state bytes also joins every split word.
void reset_arena(Worker &w, std::size_t dyn) {
  std::size_t used = std::max({w.hwm, dyn + kRedzone, w.split_hi});
  if (used > kArenaCap)
    used = kArenaCap;
  std::memset(w.sstate, 0, used);
  std::memset(w.arena, 0xff, used); // poison: uninitialised floats read as NaN
  std::memset(w.sstate, 1, dyn);
  w.dyn_size = dyn;
  w.split_hi = 0;
  w.hwm = dyn + kRedzone;
  w.static_top = (dyn + kRedzone + 15) & ~std::size_t(15);
  w.static_bytes = 0;
  w.decls.clear();
}

void *shared_alloc(const SharedDecl *d) {
  Worker *wp = t_worker;
  if (!wp || !wp->cur) {
    std::fprintf(stderr,
                 "pkemu: error: __shared__ variable '%s' (%s:%d) used outside "
                 "a kernel\n",
                 d->name, d->file, d->line);
    die_now();
  }
  Worker &w = *wp;
  for (auto &s : w.decls)
    if (s.d == d)
      return w.arena + s.off;
  std::size_t al = std::max<std::size_t>(d->align, 16);
  std::size_t off = (w.static_top + al - 1) & ~(al - 1);
  if (off + d->size + kRedzone > kArenaCap)
    fatal_here(w, "shared memory exhausted",
               std::string("static __shared__ '") + d->name +
                   "' does not fit in the emulated shared memory",
               d->file, d->line);
  w.static_bytes += d->size;
  if (w.static_bytes > kStaticLimit) {
    std::string t =
        "kernel declares " + std::to_string(w.static_bytes) +
        " bytes of static shared memory, more than the 48 KiB per-block limit";
    error("shared memory limit exceeded", t.c_str(), d->file, d->line);
  }
  std::memset(w.sstate + off, 1, d->size);
  w.static_top = off + d->size + kRedzone;
  w.hwm = std::max(w.hwm, w.static_top);
  w.decls.push_back(DeclSlot{d, off});
  return w.arena + off;
}

} // namespace detail
} // namespace pkemu
