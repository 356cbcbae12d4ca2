#!/usr/bin/env bash
# Builds the libFuzzer targets (test/fuzz) with clang-19, AddressSanitizer and
# UndefinedBehaviorSanitizer in their own build directory, and fuzzes.
#
#   scripts/fuzz.sh [TARGET|all] [SECONDS]
#
# TARGET: rules (the rule-file loader), compdb (the compilation-database
# reader), reports (the JSON/SARIF report readers), escape (the escaping
# layer), port (the whole pipeline on a source), or all (default: those
# five), each for SECONDS (default 600), one process at a time, at nice 19.
# port-lite: the port target against an ordinary build (FUZZ_LITE_BUILD_DIR,
# default build-fuzz-lite, configured with -DPK_FUZZ_LITE=ON and the default
# compiler): only the harness is instrumented, so libFuzzer mutates the seeds
# without coverage feedback and without sanitizers; it finds crashes, hangs
# and memory blow-ups where the instrumented build is too costly to make.
# New inputs go to BUILD/test/fuzz/corpus-TARGET (kept between runs); the
# seed corpus test/fuzz/corpus/TARGET and the inputs that crashed once,
# test/fuzz/regressions/TARGET, are only read.
# A crash leaves its input as BUILD/test/fuzz/crash-* (libFuzzer's
# artifact prefix) and the script exits non-zero.
# Every run is bounded: -rss_limit_mb=4096 and -timeout per input: 60 s, 300 s
# for port and port-lite (four translations of an input, 3-7 s on an idle core
# under ASan; at nice 19 next to a build or the test suite several times that).
# Environment: FUZZ_BUILD_DIR (default build-fuzz), FUZZ_LITE_BUILD_DIR,
# JOBS (build jobs).
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
BUILD_DIR="${FUZZ_BUILD_DIR:-$ROOT/build-fuzz}"
WHICH="${1:-all}"
SECONDS_EACH="${2:-600}"
case "$WHICH" in
  all) TARGETS=(rules compdb reports escape port) ;;
  rules|compdb|reports|escape|port|port-lite) TARGETS=("$WHICH") ;;
  *) echo "usage: scripts/fuzz.sh [rules|compdb|reports|escape|port|port-lite|all] [SECONDS]" >&2; exit 2 ;;
esac
if ! ls /usr/lib/llvm-19/lib/clang/19/lib/linux/libclang_rt.fuzzer-x86_64.a >/dev/null 2>&1; then
  echo "fuzz: libFuzzer missing: run scripts/setup.sh (libclang-rt-19-dev)" >&2
  exit 2
fi
if [ "$WHICH" = port-lite ]; then
  BUILD_DIR="${FUZZ_LITE_BUILD_DIR:-$ROOT/build-fuzz-lite}"
  if [ ! -f "$BUILD_DIR/build.ninja" ]; then
    cmake -S "$ROOT" -B "$BUILD_DIR" -G Ninja -DCMAKE_BUILD_TYPE=Release -DPK_FUZZ_LITE=ON >/dev/null
  else
    cmake -DPK_FUZZ_LITE=ON "$BUILD_DIR" >/dev/null
  fi
elif [ ! -f "$BUILD_DIR/build.ninja" ]; then
  cmake -S "$ROOT" -B "$BUILD_DIR" -G Ninja -DCMAKE_BUILD_TYPE=Release \
    -DCMAKE_C_COMPILER=clang-19 -DCMAKE_CXX_COMPILER=clang++-19 -DPK_FUZZ=ON >/dev/null
fi
NINJA_TARGETS=()
for t in "${TARGETS[@]}"; do NINJA_TARGETS+=("pk-fuzz-$t"); done
ninja -C "$BUILD_DIR" -j "${JOBS:-$(nproc)}" "${NINJA_TARGETS[@]}"
status=0
for t in "${TARGETS[@]}"; do
  out="$BUILD_DIR/test/fuzz"
  seeds="${t%-lite}"
  mkdir -p "$out/corpus-$t"
  limit=60
  [ "$seeds" = port ] && limit=300
  echo "fuzz: $t for ${SECONDS_EACH}s"
  rc=0
  ( cd "$out" && ASAN_OPTIONS=detect_leaks=0 nice -n 19 "$BUILD_DIR/bin/pk-fuzz-$t" \
      -max_total_time="$SECONDS_EACH" -timeout="$limit" -rss_limit_mb=4096 \
      -print_final_stats=1 -artifact_prefix="$out/crash-$t-" \
      "$out/corpus-$t" "$ROOT/test/fuzz/corpus/$seeds" \
      $( [ -d "$ROOT/test/fuzz/regressions/$seeds" ] && echo "$ROOT/test/fuzz/regressions/$seeds" ) \
    ) >"$out/fuzz-$t.log" 2>&1 || rc=$?
  grep -aE '^#[0-9]+ +(INITED|DONE)|^stat::number_of_executed_units|ERROR|artifact' "$out/fuzz-$t.log" || true
  if [ "$rc" -ne 0 ]; then
    echo "fuzz: $t found a problem (exit $rc; log: $out/fuzz-$t.log)" >&2
    status=1
  fi
done
exit $status
