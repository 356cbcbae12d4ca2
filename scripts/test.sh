#!/usr/bin/env bash
# Installs, builds and runs every test through ctest.
#
#   scripts/test.sh [CTEST ARGS...]        the release build (build/), every test
#   scripts/test.sh --sanitize [ARGS...]   AddressSanitizer + UndefinedBehaviorSanitizer
#       build (clang-19, build-sanitize/ or SANITIZE_BUILD_DIR, e.g. build-fuzz: a
#       PK_FUZZ build is sanitized too): by default the unit, reliability and
#       focused rule tests but not label slow (-R '^(unit|reliability|rule|rules)[.]'
#       -LE slow); ctest ARGS replace that selection (e.g. --sanitize -R '.*')
#   scripts/test.sh --fuzz [ARGS...]       the libFuzzer targets' short runs
#       (build-fuzz/, label fuzz, 20 s each; scripts/fuzz.sh for long runs)
# See docs/reliability.md.
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
MODE=release
case "${1:-}" in
  --sanitize) MODE=sanitize; shift ;;
  --fuzz) MODE=fuzz; shift ;;
esac
"$ROOT/scripts/setup.sh"
if [ "$MODE" = release ]; then
  BUILD_DIR="${BUILD_DIR:-$ROOT/build}"
  cd "$BUILD_DIR"
  # Emulator objects compiled by one validate test are reused by the others
  # (docs/validate.md, "Compile cache"); what no run used for 3 days goes.
  export PORT_KERNEL_CACHE_DIR="${PORT_KERNEL_CACHE_DIR:-$BUILD_DIR/validate-cache}"
  if [ -d "$PORT_KERNEL_CACHE_DIR" ]; then
    find "$PORT_KERNEL_CACHE_DIR" \( -name '*.o' -o -name '*.o.sha256' \) -mtime +3 -delete 2>/dev/null || true
  fi
  exec ctest --output-on-failure --timeout 900 -j "${JOBS:-$(nproc)}" "$@"
fi

if [ "$MODE" = sanitize ]; then
  BUILD_DIR="${SANITIZE_BUILD_DIR:-$ROOT/build-sanitize}"
  FLAG=-DPK_SANITIZE=ON
  # Label slow (reliability.crash-deep-macros-10000: 3.6 GB uninstrumented)
  # is left out: under AddressSanitizer it would need several times that.
  DEFAULT=(-R '^(unit|reliability|rule|rules)[.]' -LE slow)
else
  BUILD_DIR="${FUZZ_BUILD_DIR:-$ROOT/build-fuzz}"
  FLAG=-DPK_FUZZ=ON
  DEFAULT=(-L fuzz)
fi
if [ ! -f "$BUILD_DIR/build.ninja" ]; then
  cmake -S "$ROOT" -B "$BUILD_DIR" -G Ninja -DCMAKE_BUILD_TYPE=Release \
    -DCMAKE_C_COMPILER=clang-19 -DCMAKE_CXX_COMPILER=clang++-19 "$FLAG" >/dev/null
fi
LOG="$BUILD_DIR/build.log"
if ! ninja -C "$BUILD_DIR" -j "${JOBS:-$(nproc)}" >"$LOG" 2>&1; then
  grep -vE '^\[[0-9]+/[0-9]+\] ' "$LOG" | tail -n 60
  echo "test: $MODE build failed (full log: $LOG)" >&2
  exit 1
fi
cd "$BUILD_DIR"
# Leaks: clang and LLVM keep some allocations for the process's lifetime, and
# a recovered crash (PK9001) abandons what the crashed work held.
export ASAN_OPTIONS="${ASAN_OPTIONS:-detect_leaks=0:abort_on_error=1}"
export UBSAN_OPTIONS="${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}"
if (($#)); then
  exec ctest --output-on-failure --timeout 1800 -j "${JOBS:-$(nproc)}" "$@"
fi
exec ctest --output-on-failure --timeout 1800 -j "${JOBS:-$(nproc)}" "${DEFAULT[@]}"
