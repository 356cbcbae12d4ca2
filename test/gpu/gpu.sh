#!/usr/bin/env bash
# Tests of `validate --gpu` and `--gpu-bundle` on a machine without a GPU.
# Usage: gpu.sh skip|bundle|fake|fake_program|kprof_nvcc|bundle_nvcc PORT_KERNEL ROOT   (77: skipped)
set -euo pipefail
what="$1"; PK="$2"; ROOT="$3"
WORK="$(mktemp -d "${TMPDIR:-/tmp}/pk-gpu-test.XXXXXX")"
trap 'rm -rf "$WORK"' EXIT
fail() { echo "FAIL: $*" >&2; exit 1; }

NVCC="${NVCC:-$(command -v nvcc || true)}"
[ -n "$NVCC" ] || { [ -x /usr/local/cuda/bin/nvcc ] && NVCC=/usr/local/cuda/bin/nvcc; } || true
have_gpu() { command -v nvidia-smi >/dev/null 2>&1 && nvidia-smi -L >/dev/null 2>&1; }

case "$what" in
skip)
  # No nvcc: every cell skipped, exit 0, the reason in the table and JSON.
  set +e
  "$PK" validate --gpu --nvcc "$WORK/no-such-nvcc" "$ROOT/corpus/saxpy" "$ROOT/corpus/layernorm" >"$WORK/out" 2>"$WORK/err"
  rc=$?
  set -e
  cat "$WORK/out" "$WORK/err"
  [ "$rc" = 0 ] || fail "exit status $rc without nvcc (want 0)"
  grep -q "^GPU: skipped: no nvcc: $WORK/no-such-nvcc is not an executable" "$WORK/out" || fail "no skip reason"
  grep -Eq '^saxpy +SKIP +SKIP *$' "$WORK/out" || fail "saxpy row is not SKIP SKIP"
  grep -q "^0 passed, 0 failed, 4 skipped (2 cases x 2 variants)" "$WORK/out" || fail "summary"
  "$PK" validate --gpu --json --nvcc "$WORK/no-such-nvcc" "$ROOT/corpus/saxpy" >"$WORK/json" 2>/dev/null \
    || fail "--json exit status"
  python3 - "$WORK/json" <<'EOF' || fail "JSON document"
import json, sys
d = json.load(open(sys.argv[1]))
assert d["mode"] == "gpu" and d["skipped"] is True, d
assert d["reason"].startswith("no nvcc"), d["reason"]
assert d["summary"] == {"passed": 0, "failed": 0, "skipped": 2}, d["summary"]
assert d["ok"] is True
c = d["cases"][0]
assert c["name"] == "saxpy" and c["status"] == "skip"
assert [r["variant"] for r in c["results"]] == ["original", "cuda"]
assert all(r["status"] == "skip" for r in c["results"])
EOF
  # nvcc but no GPU: skipped too, saying so.
  if [ -n "$NVCC" ] && ! have_gpu; then
    "$PK" validate --gpu --nvcc "$NVCC" "$ROOT/corpus/saxpy" >"$WORK/out2" 2>&1 || fail "exit status without a GPU"
    cat "$WORK/out2"
    grep -q "^GPU: skipped: no NVIDIA GPU: " "$WORK/out2" || fail "no 'no NVIDIA GPU' reason"
    grep -Eq '^saxpy +SKIP +SKIP *$' "$WORK/out2" || fail "saxpy row without a GPU"
  fi
  # Usage errors: --gpu runs CUDA ports only; a program that does not exist.
  set +e
  "$PK" validate --gpu --to hip "$ROOT/corpus/saxpy" >/dev/null 2>"$WORK/err3"; rc=$?
  set -e
  [ "$rc" = 2 ] && grep -q -- "--to must be cuda or none" "$WORK/err3" || fail "--gpu --to hip: exit $rc"
  echo PASS
  ;;
bundle)
  # A bundle of two CUDA cases (one with a header outside its directory)
  # and of every HIP-written corpus case.
  mapfile -t HIPS < <(cd "$ROOT/corpus" && ls -1 */*.hip 2>/dev/null | xargs -r -n1 dirname | sort -u)
  CASES=("$ROOT/corpus/saxpy" "$ROOT/corpus/layernorm")
  for h in "${HIPS[@]}"; do CASES+=("$ROOT/corpus/$h"); done
  B="$WORK/bundle"
  "$PK" validate --gpu-bundle "$B" "${CASES[@]}" >"$WORK/out" 2>"$WORK/err" || { cat "$WORK/out" "$WORK/err"; fail "bundle exit status"; }
  cat "$WORK/out"
  grep -q "^wrote $B: ${#CASES[@]} cases" "$WORK/out" || fail "summary line"
  for f in run.sh run.py manifest.json pkv_rt.h pkv_gpu.h \
           cases/saxpy/original.cu cases/saxpy/cuda.cu cases/saxpy/launch.h \
           cases/saxpy/original/saxpy.cu cases/saxpy/cuda/saxpy.cu cases/saxpy/ref/ref.cpp \
           cases/layernorm/original/layernorm/layernorm.cu cases/layernorm/original/common/warp_reduce.cuh \
           cases/layernorm/cuda/layernorm/layernorm.cu cases/layernorm/cuda/common/warp_reduce.cuh; do
    [ -f "$B/$f" ] || fail "missing $f"
  done
  [ -x "$B/run.sh" ] || fail "run.sh is not executable"
  grep -q '^#define PKV_GPU_ARG_BYTES {12000, 12000, 0, 0}$' "$B/cases/saxpy/launch.h" || fail "saxpy buffer sizes"
  grep -q '#include "cuda/saxpy.cu"' "$B/cases/saxpy/cuda.cu" || fail "driver does not include the port"
  grep -q '#include "ref/ref.cpp"' "$B/cases/saxpy/cuda.cu" || fail "driver does not include the reference"
  # Nothing of the build machine: no absolute paths in what nvcc reads.
  if grep -rl "$ROOT" "$B/cases" >/dev/null; then fail "absolute paths in the bundle: $(grep -rl "$ROOT" "$B/cases")"; fi
  size="$(du -sk "$B" | cut -f1)"
  [ "$size" -lt 4096 ] || fail "bundle is $size KB"
  python3 - "$B/manifest.json" "${HIPS[@]}" <<'EOF' || fail "manifest"
import json, sys
m = json.load(open(sys.argv[1]))
hips = set(sys.argv[2:])
assert m["pk_gpu_bundle"] == 1 and m["mode"] == "kernel"
assert m["variants"] == ["original", "cuda"]
for e in m["entries"]:
    v = {x["variant"]: x for x in e["variants"]}
    if e["name"] in hips:
        assert v["original"]["status"] == "skip", e
        assert "HIP source" in v["original"]["reason"]
    else:
        assert v["original"]["driver"] == "cases/%s/original.cu" % e["name"], e
    assert v["cuda"].get("driver") == "cases/%s/cuda.cu" % e["name"], e
EOF
  # A second bundle replaces the first; a directory that is not a bundle
  # is refused.
  "$PK" validate --gpu-bundle "$B" "$ROOT/corpus/saxpy" >/dev/null 2>&1 || fail "replacing a bundle"
  [ ! -d "$B/cases/layernorm" ] || fail "old bundle contents kept"
  mkdir "$WORK/other" && echo x >"$WORK/other/file"
  set +e
  "$PK" validate --gpu-bundle "$WORK/other" "$ROOT/corpus/saxpy" >/dev/null 2>"$WORK/err2"; rc=$?
  set -e
  [ "$rc" = 2 ] && grep -q "exists and is not a GPU bundle" "$WORK/err2" || fail "non-bundle directory: exit $rc"
  [ "$(ls "$WORK/other")" = file ] || fail "non-bundle directory changed"
  ls "$WORK" | grep -q '\.tmp' && fail "staging directory left behind"
  # run.sh without a GPU: a clean refusal (exit 3), nothing built.
  if [ -n "$NVCC" ] && ! have_gpu; then
    set +e
    bash "$B/run.sh" --nvcc "$NVCC" >"$WORK/run.out" 2>"$WORK/run.err"; rc=$?
    set -e
    cat "$WORK/run.err"
    [ "$rc" = 3 ] || fail "run.sh exit status $rc without a GPU (want 3)"
    grep -q "^run.sh: error: no NVIDIA GPU: " "$WORK/run.err" || fail "run.sh does not say 'no NVIDIA GPU'"
    [ ! -f "$B/results.json" ] || fail "results.json written without a GPU"
  fi
  set +e
  bash "$B/run.sh" --nvcc "$WORK/none" >/dev/null 2>"$WORK/run2.err"; rc=$?
  set -e
  [ "$rc" = 3 ] && grep -q "no nvcc" "$WORK/run2.err" || fail "run.sh without nvcc: exit $rc"
  echo PASS
  ;;
fake)
  # The --gpu run path end to end with a stand-in nvcc whose programs print
  # what drivers print on a GPU: a device query that finds one; the pair
  # runner (pkv_pair.cu), which "loads" the drivers given as NAME=LIBRARY,
  # prints their timing lines, the pair's ratio (1.25 original / port, in
  # either order), then their result lines; layernorm's port reports a
  # mismatch.  Every driver must be built as a -shared -DPKV_GPU_PAIR library.
  cat >"$WORK/nvcc" <<'NVCC'
#!/usr/bin/env bash
out=""; src=""; shared=0; pair=0
while (($#)); do
  case "$1" in
    --version) echo "Cuda compilation tools, release 13.0, V13.0.88"; exit 0 ;;
    -o) out="$2"; shift 2 ;;
    -shared) shared=1; shift ;;
    -DPKV_GPU_PAIR) pair=1; shift ;;
    -*) shift ;;
    *) src="$1"; shift ;;
  esac
done
case "$src" in
  *probe.cu) echo 'echo "{\"ok\":true,\"name\":\"Stand-in GPU\",\"major\":9,\"minor\":0,\"count\":1,\"runtime\":13000,\"driver_api\":13000,\"memory_mib\":1}"' ;;
  *pkv_pair.cu)
    grep -q 'dlopen' "$src" || { echo "pkv_pair.cu: no dlopen" >&2; exit 1; }
    cat <<'PAIR'
rc=0; last=""
for a in "$@"; do sh "${a#*=}" timing "${a%%=*}"; last="${a%%=*}"; done
if [ "$#" -gt 1 ]; then
  if [ "${1%%=*}" = original ]; then r=1.25; else r=0.8; fi
  echo "{\"pkv_gpu_pair\":1,\"first\":\"${1%%=*}\",\"last\":\"$last\",\"ratio\":$r,\"min\":$r,\"max\":$r,\"rounds\":3,\"batch\":10}"
fi
for a in "$@"; do sh "${a#*=}" result "${a%%=*}" || rc=1; done
exit $rc
PAIR
    ;;
  *)
    [ "$shared$pair" = 11 ] || { echo "$src: not built as a pair library" >&2; exit 1; }
    status=pass; bad=0; first=-1
    [[ "$src" == */layernorm/cuda.cu ]] && { status=mismatch; bad=2; first=3; }
    echo 'if [ "$1" = timing ]; then'
    echo "echo '{\"pkv_gpu\":1,\"variant\":\"'\"\$2\"'\",\"ms\":0.002,\"min\":0.002,\"max\":0.003,\"warmup\":5,\"repeats\":21,\"batch\":10,\"regs\":8,\"local_bytes\":0,\"static_shared_bytes\":0}'"
    echo 'exit 0; fi'
    echo "echo '{\"pkv\":1,\"case\":\"c\",\"variant\":\"'\"\$2\"'\",\"status\":\"$status\",\"outputs\":[{\"name\":\"y\",\"count\":8,\"mismatches\":$bad,\"nan_mismatches\":0,\"max_abs\":0.5,\"max_rel\":0.25,\"first_bad\":$first,\"got\":1,\"want\":2}]}'"
    [ "$status" = pass ] || echo "exit 1" ;;
esac >"$out.body"
{ echo '#!/bin/sh'; cat "$out.body"; } >"$out"; rm -f "$out.body"; chmod +x "$out"
NVCC
  chmod +x "$WORK/nvcc"
  set +e
  "$PK" validate --gpu --nvcc "$WORK/nvcc" --gpu-repeats 3 "$ROOT/corpus/saxpy" "$ROOT/corpus/layernorm" >"$WORK/out" 2>"$WORK/err"
  rc=$?
  set -e
  cat "$WORK/out"
  [ "$rc" = 1 ] || { cat "$WORK/err"; fail "exit status $rc with a mismatch (want 1)"; }
  grep -q "^GPU: Stand-in GPU (sm_90)" "$WORK/out" || fail "GPU line"
  grep -Eq '^saxpy +PASS 5.0e-01/2.5e-01 +PASS 5.0e-01/2.5e-01 +0.0020 +0.0020  1.25 =$' "$WORK/out" || fail "saxpy row (speed from the in-process pair)"
  grep -Eq '^layernorm +PASS 5.0e-01/2.5e-01 +FAIL mismatch +0.0020 +- +n/a$' "$WORK/out" || fail "layernorm row"
  grep -q "^results: " "$WORK/out" && fail "names a results file that was removed"
  grep -q 'layernorm \[cuda\]: mismatch: y\[3\] = 1 (want 2); 2 of 8 differ' "$WORK/out" || fail "mismatch reason"
  grep -q "^3 passed, 1 failed (2 cases x 2 variants)" "$WORK/out" || fail "summary"
  set +e
  "$PK" validate --gpu --json --keep-work --work-dir "$WORK/w" --nvcc "$WORK/nvcc" "$ROOT/corpus/saxpy" >"$WORK/json" 2>/dev/null
  rc=$?
  set -e
  [ "$rc" = 0 ] || fail "--json exit status $rc"
  python3 - "$WORK/json" "$WORK/w" <<'EOF' || fail "JSON document"
import json, sys
d = json.load(open(sys.argv[1]))
assert d["mode"] == "gpu" and d["ok"] is True, d
assert d["work_dir"] == sys.argv[2], d.get("work_dir")
assert d["gpu"]["name"] == "Stand-in GPU" and d["gpu"]["arch"] == "sm_90"
c = d["cases"][0]
assert c["name"] == "saxpy" and c["speed_ratio"] == 1.25 and c["same_source"] is True
assert c["speed_method"] == "in-process interleaved", c
assert c["speed_ratios"] == [1.25, 1.25, 1.25], c["speed_ratios"]
assert [r["variant"] for r in c["results"]] == ["original", "cuda"]
assert all(r["status"] == "pass" and r["ms"] == 0.002 for r in c["results"])
assert d["summary"] == {"passed": 2, "failed": 0, "skipped": 0}
EOF
  [ -f "$WORK/w/bundle/manifest.json" ] && [ -f "$WORK/w/bundle/results.json" ] || fail "work directory contents"
  echo PASS
  ;;
fake_program)
  # validate --gpu --program with a stand-in nvcc: the program must be built
  # with -cudart shared, the kernel profiler (pkv_kprof.cu) as a shared
  # library; the program's first run carries it in LD_PRELOAD and writes
  # the per-kernel lines a real profiler writes at exit.  Checks the
  # per-kernel table and JSON (original ms, port ms, ratio by kernel name).
  cat >"$WORK/nvcc" <<'NVCC'
#!/usr/bin/env bash
out=""; src=""; shared=0; cudart=""
while (($#)); do
  case "$1" in
    --version) echo "Cuda compilation tools, release 13.0, V13.0.88"; exit 0 ;;
    -o) out="$2"; shift 2 ;;
    -cudart) cudart="$2"; shift 2 ;;
    -shared) shared=1; shift ;;
    -*) shift ;;
    *) src="$1"; shift ;;
  esac
done
case "$src" in
  *probe.cu) echo 'echo "{\"ok\":true,\"name\":\"Stand-in GPU\",\"major\":9,\"minor\":0,\"count\":1,\"runtime\":13000,\"driver_api\":13000,\"memory_mib\":1}"' ;;
  *pkv_kprof.cu)
    grep -q 'cudaLaunchKernel' "$src" && grep -q 'PKV_KPROF_OUT' "$src" || { echo "pkv_kprof.cu: no launch wrapper" >&2; exit 1; }
    [ "$shared$cudart" = 1shared ] || { echo "pkv_kprof.cu: not a shared library on the shared runtime" >&2; exit 1; }
    echo 'exit 0' ;;
  *)
    [ "$cudart" = shared ] || { echo "$src: not built with -cudart shared" >&2; exit 1; }
    case "$src" in */original/*) v=original; t=0.010; x=1 ;; *) v=cuda; t=0.008; x=0 ;; esac
    echo 'case "$LD_PRELOAD" in *pkv_kprof.so*) echo prof >>"$0.runs" ;; *) echo plain >>"$0.runs" ;; esac'
    echo 'if [ -n "$PKV_KPROF_OUT" ] && [ -z "$FAKE_NO_KPROF" ]; then'
    echo "echo '{\"pkv_kprof\":1,\"kernel\":\"transpose(float const*, float*, int, int)\",\"launches\":3,\"timed\":3,\"total_ms\":0.03,\"median_ms\":$t,\"min_ms\":$t,\"max_ms\":$t}' >>\"\$PKV_KPROF_OUT\""
    [ "$x" = 1 ] && echo "echo '{\"pkv_kprof\":1,\"kernel\":\"only_original\",\"launches\":2,\"timed\":2,\"total_ms\":0.1,\"median_ms\":0.05,\"min_ms\":0.05,\"max_ms\":0.05}' >>\"\$PKV_KPROF_OUT\""
    echo 'fi'
    echo 'echo PASS' ;;
esac >"$out.body"
{ echo '#!/bin/sh'; cat "$out.body"; } >"$out"; rm -f "$out.body"; chmod +x "$out"
NVCC
  chmod +x "$WORK/nvcc"
  P="$ROOT/test/programs/transpose_shared/main.cu"
  set +e
  "$PK" validate --gpu --nvcc "$WORK/nvcc" --keep-work --work-dir "$WORK/w" --program "$P" >"$WORK/out" 2>"$WORK/err"
  rc=$?
  set -e
  cat "$WORK/out"
  [ "$rc" = 0 ] || { cat "$WORK/err"; fail "exit status $rc (want 0)"; }
  grep -q "^kernels of main.cu (CUDA events, first run of each variant; median ms over the program's launches):" "$WORK/out" || fail "no per-kernel table"
  grep -Eq '^  kernel +launches +original ms +cuda ms +ratio$' "$WORK/out" || fail "per-kernel header"
  grep -Eq '^  transpose\(float const\*, float\*, int, int\) +3/3 +0\.0100 +0\.0080 +1\.25$' "$WORK/out" || fail "transpose row"
  grep -Eq '^  only_original +2/- +0\.0500 +- +n/a$' "$WORK/out" || fail "row of a kernel only the original launches"
  grep -Eq '^main\.cu +PASS +PASS +[0-9.]+ +[0-9.]+  [0-9.]+$' "$WORK/out" || fail "whole-run row (wall time kept)"
  R="$WORK/w/bundle/build/main.cu"
  for v in original cuda; do
    [ "$(tr '\n' ' ' <"$R/$v.runs")" = "prof plain plain plain plain plain " ] \
      || fail "$v runs: $(tr '\n' ' ' <"$R/$v.runs") (want the profiled warm-up run, then 5 plain)"
  done
  "$PK" validate --gpu --json --nvcc "$WORK/nvcc" --program "$P" >"$WORK/json" 2>/dev/null || fail "--json exit status"
  python3 - "$WORK/json" <<'EOF' || fail "JSON document"
import json, sys
d = json.load(open(sys.argv[1]))
assert d["mode"] == "gpu-program" and d["ok"] is True, d
assert "kernels" in d["timing"] and d["timing"]["warmup_runs"] == 1, d["timing"]
p = d["programs"][0]
assert p["speed_method"] == "separate processes" and p["speed_ratio"] > 0, p
ks = {k["kernel"]: k for k in p["kernels"]}
t = ks["transpose(float const*, float*, int, int)"]
assert t["ratio"] == 1.25, t
assert t["original"]["median_ms"] == 0.01 and t["cuda"]["median_ms"] == 0.008, t
assert t["original"]["launches"] == 3 and t["cuda"]["timed"] == 3, t
o = ks["only_original"]
assert o["cuda"] is None and o["ratio"] is None and o["original"]["launches"] == 2, o
r = {x["variant"]: x for x in p["results"]}
assert len(r["original"]["kernels"]) == 2 and len(r["cuda"]["kernels"]) == 1, r
assert r["original"]["timing"]["what"] == "whole program (wall clock)"
EOF
  # A profiler that wrote nothing (not loaded): said so, the program passes.
  FAKE_NO_KPROF=1 "$PK" validate --gpu --nvcc "$WORK/nvcc" --program "$P" >"$WORK/out2" 2>&1 || fail "exit status without a profile"
  grep -q "^kernels of main.cu: not timed: the profiler was not loaded (no cuda.kprof; a program linked with the static CUDA runtime cannot be profiled)" "$WORK/out2" \
    || grep -q "^kernels of main.cu: not timed: the profiler was not loaded (no original.kprof; " "$WORK/out2" || { cat "$WORK/out2"; fail "no 'not timed' line"; }
  echo PASS
  ;;
kprof_nvcc)
  # The kernel profiler of program mode compiles with nvcc -arch=sm_90 as
  # run.py builds it, exports the wrapped launch functions, and a program
  # built with -cudart shared calls cudaLaunchKernel through the dynamic
  # linker (so that LD_PRELOAD reaches it).
  [ -n "$NVCC" ] || { echo "SKIP: no nvcc (NVCC, PATH, /usr/local/cuda/bin)"; exit 77; }
  RT="$ROOT/lib/Validate/runtime"
  PYTHONDONTWRITEBYTECODE=1 python3 - "$RT" "$NVCC" "$WORK" <<'EOF' || fail "the profiler does not build"
import sys, types
sys.path.insert(0, sys.argv[1])
import pkv_gpu_run as r
a = types.SimpleNamespace(build_dir=sys.argv[3] + "/build", timeout=300)
lib, err = r.build_kprof(a, sys.argv[2], "sm_90")
if not lib:
    print(err)
    print(open(sys.argv[3] + "/build/pkv_kprof.so.log").read())
    sys.exit(1)
EOF
  syms="$(nm -D --defined-only "$WORK/build/pkv_kprof.so")"
  for s in cudaLaunchKernel cudaLaunchKernel_ptsz cudaLaunchKernelExC cudaDeviceReset \
           __cudaLaunchKernel __cudaLaunchKernel_ptsz; do
    grep -Eq " T $s\$" <<<"$syms" || fail "pkv_kprof.so does not export $s"
  done
  cat >"$WORK/p.cu" <<'CU'
__global__ void k(float *x) { x[threadIdx.x] += 1; }
int main() { float *d; cudaMalloc(&d, 128); k<<<1, 32>>>(d); return cudaDeviceSynchronize() != cudaSuccess; }
CU
  "$NVCC" -O3 -std=c++17 -arch=sm_90 -cudart shared -o "$WORK/p" "$WORK/p.cu" || fail "test program"
  # <<<>>> calls cudaLaunchKernel (CUDA 12) or __cudaLaunchKernel (13): the
  # profiler must export the one this nvcc's programs import.
  imp="$(nm -D --undefined-only "$WORK/p" | grep -Eo ' U _*cudaLaunchKernel(_ptsz)?(@|$)' | tr -d ' U@' | head -1)"
  [ -n "$imp" ] || fail "the program imports no launch function: $(nm -D --undefined-only "$WORK/p" | grep -i launch)"
  grep -Eq " T $imp\$" <<<"$syms" || fail "the program launches through $imp, which the profiler does not wrap"
  echo PASS
  ;;
bundle_nvcc)
  [ -n "$NVCC" ] || { echo "SKIP: no nvcc (NVCC, PATH, /usr/local/cuda/bin)"; exit 77; }
  B="$WORK/bundle"
  "$PK" validate --gpu-bundle "$B" "$ROOT/corpus" || fail "bundle of the corpus"
  du -sh "$B"
  # Every CUDA output is compiled by nvcc.corpus; here the drivers around them,
  # for one case of each kind (plain, template, WMMA, HIP-written) unless
  # PK_GPU_BUNDLE_CASES=all asks for the whole corpus.
  CASES="${PK_GPU_BUNDLE_CASES:-saxpy inclusive_scan wmma_hgemm hip_ballot_compact}"
  [ "$CASES" = all ] && CASES=
  # shellcheck disable=SC2086
  bash "$B/run.sh" --nvcc "$NVCC" --compile-only --arch sm_90 --jobs "${PK_NVCC_JOBS:-2}" --build-dir "$WORK/build" $CASES || fail "some drivers do not compile"
  [ -x "$WORK/build/pkv_pair" ] || fail "no pair runner"
  # The pair runner loads the original's and the port's driver into one
  # process: each must keep its own hook context (no symbol of one library,
  # not even an STB_GNU_UNIQUE one, may bind to the other's).
  if [ -f "$WORK/build/saxpy/original.so" ] && command -v c++ >/dev/null; then
    cat >"$WORK/two.cpp" <<'CPP'
#include <cstdio>
#include <dlfcn.h>
int main(int argc, char **argv) {
  void *Ctx[2] = {&argc, &argv};
  void *(*Get[2])();
  for (int I = 0; I < 2; ++I) {
    void *L = dlopen(argv[1 + I], RTLD_NOW | RTLD_LOCAL);
    if (!L) { std::printf("dlopen: %s\n", dlerror()); return 1; }
    auto Set = (void (*)(void *, void *))dlsym(L, "pkv_gpu_set_hook");
    Get[I] = (void *(*)())dlsym(L, "pkv_gpu_hook_ctx");
    if (!Set || !Get[I] || !dlsym(L, "main")) { std::printf("symbols\n"); return 1; }
    Set(nullptr, Ctx[I]);
  }
  if (Get[0]() != Ctx[0] || Get[1]() != Ctx[1]) { std::printf("shared hook context\n"); return 1; }
  std::printf("separate\n");
  return 0;
}
CPP
    c++ -o "$WORK/two" "$WORK/two.cpp" -ldl || fail "cannot build the two-library check"
    "$WORK/two" "$WORK/build/saxpy/original.so" "$WORK/build/saxpy/cuda.so" || fail "the two drivers of a pair share state"
  fi
  echo PASS
  ;;
*) fail "unknown test $what" ;;
esac
