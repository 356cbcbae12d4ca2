#!/usr/bin/env bash
# Micro-benchmark of the pkemu SIMT emulator: ns per thread per __syncthreads and per warp
# shuffle, at warp widths 32 (CUDA spelling) and 64 (HIP spelling).
# Assumes ${BUILD_DIR:-build} already contains a built libpkemu.a (target `pkemu`).
# Usage: scripts/bench-emulator.sh [threads_per_block] [iterations] [blocks] [repetitions]
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
BUILD_DIR="${BUILD_DIR:-build}"
case "$BUILD_DIR" in /*) ;; *) BUILD_DIR="$ROOT/$BUILD_DIR" ;; esac
CXX="${PK_CLANGXX:-/usr/lib/llvm-19/bin/clang++}"
LIB="$(find "$BUILD_DIR" -name libpkemu.a -print -quit 2>/dev/null || true)"
if [[ -z "$LIB" ]]; then
  echo "bench-emulator: libpkemu.a not found under $BUILD_DIR (build target 'pkemu' first)" >&2
  exit 1
fi
THREADS="${1:-256}"
ITERS="${2:-4000}"
BLOCKS="${3:-8}"
REPS="${4:-5}"
SHIM="$ROOT/lib/Emu/shim"
INC="$ROOT/lib/Emu/include"
# Same flags as PKEMU_COMPILE_FLAGS / PKEMU_LINK_FLAGS in lib/Emu/CMakeLists.txt.
CFLAGS=(-std=c++17 -O2 -gline-tables-only -x c++ -I"$SHIM" -I"$INC" -include pkemu/prelude.h
        -fsanitize=thread -fno-sanitize-thread-func-entry-exit -fno-sanitize-thread-atomics
        -fno-sanitize-link-runtime -mllvm -tsan-distinguish-volatile=1 -fno-finite-loops)
LFLAGS=(-x none "$LIB" -lboost_context -lpthread)
TMP="$(mktemp -d)"
trap 'rm -rf "$TMP"' EXIT
SRC="$ROOT/test/emu/programs/bench.cpp"
"$CXX" "${CFLAGS[@]}" -DPKEMU_LANG_CUDA -DPKEMU_DEFAULT_WARP=32 "$SRC" -o "$TMP/bench32" "${LFLAGS[@]}"
"$CXX" "${CFLAGS[@]}" -DPKEMU_LANG_HIP -DPKEMU_DEFAULT_WARP=64 "$SRC" -o "$TMP/bench64" "${LFLAGS[@]}"

echo "pkemu benchmark: $THREADS threads/block, $BLOCKS blocks, $ITERS iterations, best of $REPS"
echo "cores: $(nproc)  cpu: $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2- | sed 's/^ *//')"
printf '%-8s %-10s %22s %22s\n' "warp" "workers" "ns/thread/barrier" "ns/thread/shuffle"
for W in 32 64; do
  for WORKERS in "$(nproc)" 1; do
    OUT="$(PKEMU_WORKERS=$WORKERS "$TMP/bench$W" "$THREADS" "$ITERS" "$BLOCKS" "$REPS")"
    B="$(sed -n 's/^barrier_ns_per_thread=//p' <<<"$OUT")"
    S="$(sed -n 's/^shuffle_ns_per_thread=//p' <<<"$OUT")"
    printf '%-8s %-10s %22s %22s\n' "$W" "$WORKERS" "$B" "$S"
  done
done
