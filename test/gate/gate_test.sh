#!/usr/bin/env bash
# gate_test.sh CASE PK GATE_DIR PYTHON NINJA [CMAKE]: one test of `check` as a
# CI gate (docs/ci.md) on a copy of test/gate/tree (test/gate/vtree: cases
# for --validate).  Prints PASS/FAIL lines; exits non-zero on the first
# failure.
set -u
case_=$1 pk=$2 gate=$3 py=$4 ninja=${5:-} cmake=${6:-}
table=$gate/../../lib/Core/include/pk/RuleTable.def
W=$(mktemp -d)
trap 'rm -rf "$W"' EXIT
cp -r "$gate/tree/src" "$W/src"
cd "$W"

fail() { echo "FAIL: $*"; exit 1; }
pass() { echo "PASS: $*"; }
# expect RC CMD...: runs CMD (stdout > out.txt, stderr > err.txt), checks $?.
expect() {
  local want=$1; shift
  "$@" >out.txt 2>err.txt
  local rc=$?
  if [ "$rc" != "$want" ]; then
    echo "--- stderr:"; head -20 err.txt
    fail "exit $rc, expected $want: $*"
  fi
}
gc() { "$py" "$gate/gate_check.py" "$@" || exit 1; }

case $case_ in
sarif)
  expect 1 "$pk" check -q --to hip --format sarif src
  cp out.txt out.sarif
  gc sarif out.sarif "$table"
  grep -q '"uri": "src/common.cuh"' out.sarif || fail "no finding in the shared header"
  expect 1 "$pk" check -q --to hip --format sarif --output o2.sarif src
  [ -s out.txt ] && fail "--output also wrote to stdout"
  cmp -s out.sarif o2.sarif || fail "--output differs from stdout"
  ls -a | grep -q pk-tmp && fail "temporary file left behind"
  # Both targets: one result per target, told apart by properties.target.
  expect 1 "$pk" check -q --to hip,cuda --format sarif src/sub/d.cu
  cp out.txt both.sarif
  gc sarif both.sarif "$table"
  # Rule help URIs only from --rules-uri-base (none is invented without it).
  base=https://example.org/pk/docs/rules
  expect 1 "$pk" check -q --to hip --format sarif --rules-uri-base $base src
  cp out.txt u.sarif
  gc sarif u.sarif "$table" $base
  expect 0 "$pk" merge-reports --rules-uri-base $base/ m.sarif out.sarif
  gc sarif m.sarif "$table" $base
  expect 2 "$pk" check -q --to hip --format sarif --rules-uri-base docs/rules src
  grep -q "not an absolute URI" err.txt || fail "relative --rules-uri-base: $(cat err.txt)"
  pass "SARIF structure; helpUri/informationUri only with --rules-uri-base"
  ;;

validate)
  # check --validate: the cases of the checked files run on the emulator;
  # a failed kernel and target is a finding; files with kernels outside
  # any case directory are counted as not validated.
  cp -r "$gate/vtree" v
  expect 1 "$pk" check --validate --wave64 native --to hip --format json --output v.json --src-root v v/cases v/plain
  gc validation v.json PK9220 hip cases/lanes/lanes.cu 4
  grep -q "validation: 2 case(s), 3 of 4 run(s) passed" err.txt || fail "summary: $(cat err.txt)"
  grep -q "1 file(s) with kernels not validated" err.txt || fail "not-validated count: $(cat err.txt)"
  # SARIF: the finding under its rule, at the kernel, with the rule's help.
  expect 1 "$pk" check -q --validate --wave64 native --to hip --format sarif --src-root v v/cases/lanes
  cp out.txt v.sarif
  gc sarif v.sarif "$table"
  "$py" - v.sarif <<'PY' || fail "SARIF lacks the validation result"
import json, sys
run = json.load(open(sys.argv[1]))["runs"][0]
r = [x for x in run["results"] if x["ruleId"].startswith("PK922")]
assert len(r) == 1 and r[0]["ruleId"] == "PK9220" and r[0]["level"] == "error", r
assert r[0]["locations"][0]["physicalLocation"]["region"]["startLine"] == 4
assert r[0]["properties"]["target"] == "hip"
PY
  pass "check --validate: one finding for the failed port, summary counts"
  ;;

validate_ci)
  # Validation findings through baselines, shards and merge-reports.
  cp -r "$gate/vtree" v
  expect 0 "$pk" check -q --validate --wave64 native --to hip --baseline base.json --update-baseline --src-root v v/cases/lanes
  grep -q PK9220 base.json || fail "the baseline does not record the validation finding"
  expect 0 "$pk" check --validate --wave64 native --to hip --baseline base.json --src-root v v/cases/lanes
  grep -q "0 new" err.txt || fail "recorded validation failure counted as new: $(cat err.txt)"
  # The kernel's line changes: its failure is a new finding.
  sed -i 's/^__global__ void warp_width(int \*out) {$/__global__ void warp_width(int *__restrict__ out) {/' v/cases/lanes/lanes.cu
  expect 1 "$pk" check --validate --wave64 native --to hip --baseline base.json --src-root v v/cases/lanes
  grep -q "lanes.cu:4:.*error: kernel warp_width (case lanes) fails validation as hip" err.txt || fail "edited kernel not new: $(cat err.txt)"
  cp "$gate/vtree/cases/lanes/lanes.cu" v/cases/lanes/
  expect 1 "$pk" check -q --validate --wave64 native --to hip --format json --output full.json --src-root v v/cases v/plain
  for k in 1 2; do
    "$pk" check -q --validate --wave64 native --to hip --format json --shard $k/2 --output s$k.json --src-root v v/cases v/plain 2>err.txt
    [ $? -le 1 ] || fail "shard $k/2: $(cat err.txt)"
  done
  expect 0 "$pk" merge-reports merged.json s1.json s2.json
  gc same full.json merged.json
  gc validation merged.json PK9220 hip cases/lanes/lanes.cu 4
  pass "validation findings: baseline, shards, merge-reports"
  ;;

depfile)
  # A per-file build action with a depfile: editing an included header
  # regenerates the outputs; nothing changed, nothing runs (docs/ci.md).
  [ -n "$ninja" ] || fail "ninja not found"
  [ -n "$cmake" ] || fail "cmake not found"
  mkdir -p proj/src
  cp src/a.cu src/common.cuh proj/src/
  sed "s|@PK@|$pk|" >proj/CMakeLists.txt <<'CMAKE'
cmake_minimum_required(VERSION 3.20)
project(pkdep NONE)
set(PK "@PK@")
set(out ${CMAKE_BINARY_DIR}/pk)
add_custom_command(
  OUTPUT ${out}/a/hip/a.hip
  COMMAND ${PK} port -q --to hip -o ${out}/a --depfile ${out}/a.d
          ${CMAKE_SOURCE_DIR}/src/a.cu
  DEPENDS ${CMAKE_SOURCE_DIR}/src/a.cu
  DEPFILE ${out}/a.d
  VERBATIM)
add_custom_command(
  OUTPUT ${out}/a.sarif
  COMMAND ${PK} check -q --to hip --format sarif --src-root ${CMAKE_SOURCE_DIR}
          --output ${out}/a.sarif --depfile ${out}/a.sarif.d
          ${CMAKE_SOURCE_DIR}/src/a.cu || test $$? -le 1
  DEPENDS ${CMAKE_SOURCE_DIR}/src/a.cu
  DEPFILE ${out}/a.sarif.d)
add_custom_target(ported ALL DEPENDS ${out}/a/hip/a.hip ${out}/a.sarif)
CMAKE
  "$cmake" -S proj -B pb -G Ninja -DCMAKE_MAKE_PROGRAM="$ninja" >cmake.log 2>&1 || { cat cmake.log; fail "cmake configure"; }
  "$ninja" -C pb >b1.log 2>&1 || { cat b1.log; fail "first build"; }
  [ -s pb/pk/a/hip/a.hip ] && [ -s pb/pk/a/hip/common.hpp ] || fail "no outputs: $(ls -R pb/pk)"
  [ -s pb/pk/a.sarif ] || fail "no report"
  "$pk" port -q --to hip -o ref proj/src/a.cu && cmp ref/hip/a.hip pb/pk/a/hip/a.hip || fail "the build action's output differs from a plain port"
  "$ninja" -C pb >b2.log 2>&1
  grep -q "no work to do" b2.log || fail "rebuilt although nothing changed: $(cat b2.log)"
  sleep 1
  echo '// edited' >>proj/src/common.cuh
  "$ninja" -C pb -v >b3.log 2>&1 || { cat b3.log; fail "rebuild"; }
  grep -q "port -q" b3.log && grep -q "check -q" b3.log || fail "editing the included header did not rerun both actions: $(cat b3.log)"
  grep -q "// edited" pb/pk/a/hip/common.hpp || fail "the header's output was not regenerated"
  "$ninja" -C pb >b4.log 2>&1
  grep -q "no work to do" b4.log || fail "rebuilt twice: $(cat b4.log)"
  # The depfile itself: every file read, Makefile syntax.
  expect 0 "$pk" port -q --to hip -o o2 --depfile o2.d src/a.cu
  grep -q "^$PWD/o2/hip/a.hip" o2.d || fail "depfile target: $(cat o2.d)"
  for f in src/a.cu src/common.cuh; do
    grep -q "^  $PWD/$f" o2.d || fail "depfile lacks $f: $(cat o2.d)"
  done
  grep -q "rules/cuda2hip/.*\.yaml" o2.d || fail "depfile lacks the rule tables: $(cat o2.d)"
  expect 2 "$pk" check -q --to hip --depfile x.d src/a.cu
  grep -q "depfile needs" err.txt || fail "$(cat err.txt)"
  expect 2 "$pk" port -q --to hip --in-place --depfile x.d src/a.cu
  # Plain ninja: depfile with deps = gcc.
  mkdir nj && cp -r proj/src nj/src
  printf 'rule pkcheck\n  command = %s check -q --to hip --format sarif --output $out --depfile $out.d $in; test $$? -le 1\n  depfile = $out.d\n  deps = gcc\nbuild rep/a.sarif: pkcheck src/a.cu\n' "$pk" >nj/build.ninja
  "$ninja" -C nj >n1.log 2>&1 || { cat n1.log; fail "ninja"; }
  "$ninja" -C nj >n2.log 2>&1
  grep -q "no work to do" n2.log || fail "ninja rebuilt: $(cat n2.log)"
  sleep 1
  touch nj/src/common.cuh
  "$ninja" -C nj >n3.log 2>&1
  grep -q "port-kernel check" n3.log || fail "ninja: header edit not rebuilt: $(cat n3.log)"
  pass "depfiles: cmake (DEPFILE) and ninja (deps = gcc) rerun on a header edit, not otherwise"
  ;;

baseline)
  expect 0 "$pk" check -q --to hip --baseline base.json --update-baseline src
  [ -s base.json ] || fail "--update-baseline wrote no baseline"
  expect 0 "$pk" check --to hip --baseline base.json src
  grep -q "0 new" err.txt || fail "summary does not say 0 new: $(cat err.txt)"
  grep -q "warning:" err.txt && fail "recorded findings printed"
  expect 1 "$pk" check -q --to hip --format json src
  cp out.txt before.json
  # Unrelated lines above the findings: the fingerprints stay.
  for f in src/b.cu src/common.cuh src/sub/d.cu; do
    sed -i '1i // An unrelated comment.\n\n// And another one.' "$f"
  done
  sed -i 's/^__global__ void segD(float \*x) {$/&\n  float unused = 0.0f;\n  (void)unused;/' src/sub/d.cu
  expect 1 "$pk" check -q --to hip --format json src
  cp out.txt after.json
  "$py" "$gate/gate_check.py" same before.json after.json >/dev/null &&
    fail "the edits did not move the findings (test is vacuous)"
  gc fingerprints before.json after.json
  expect 0 "$pk" check -q --to hip --baseline base.json src
  pass "fingerprints survive unrelated edits; baseline still clean"
  # A new hazard, and a second copy of a recorded line (its occurrence index
  # is new): exactly those two are new.
  sed -i 's/^__global__ void scale(float \*x, float a) { x\[threadIdx.x\] \*= a; }$/__global__ void scale(float *x, float a) {\n  x[threadIdx.x] = __shfl_down_sync(0x0000ffff, x[threadIdx.x], 1, 16) * a;\n}/' src/c.cu
  sed -i 's/^  h += __shfl_down_sync(0x0000ffff, h, 2, 16);$/&\n  h += __shfl_down_sync(0x0000ffff, h, 1, 16);/' src/sub/d.cu
  expect 1 "$pk" check --to hip --baseline base.json src
  n=$(grep -c "warning:" err.txt)
  [ "$n" = 2 ] || fail "expected 2 new findings, got $n: $(cat err.txt)"
  grep -q "c.cu:2:" err.txt || fail "the new finding in c.cu is not reported"
  grep -q "d.cu:10:" err.txt || fail "the repeated line in d.cu is not reported"
  grep -q "2 new" err.txt || fail "summary does not say 2 new"
  expect 1 "$pk" check -q --to hip --format sarif --baseline base.json src
  n=$("$py" -c 'import json,sys; print(sum(1 for r in json.load(open(sys.argv[1]))["runs"][0]["results"] if r.get("baselineState") == "new" and r["level"] != "note"))' out.txt)
  [ "$n" = 2 ] || fail "SARIF: $n new warnings, expected 2"
  grep -q '"baselineState": "unchanged"' out.txt || fail "no unchanged results"
  pass "new findings found, recorded ones not"
  # The baseline may not be an input; a bad baseline is an input error.
  cp src/c.cu c.before
  expect 2 "$pk" check -q --to hip --baseline src/c.cu --update-baseline src
  grep -q "would overwrite the input" err.txt || fail "no reason given: $(cat err.txt)"
  cmp -s src/c.cu c.before || fail "an input was overwritten"
  expect 2 "$pk" check -q --to hip --baseline missing.json src
  grep -q "missing.json: error: cannot read" err.txt || fail "$(cat err.txt)"
  echo '{"tool": "port-kernel", "format": "check-report/1", "findings": [{"rule": "PK2101"}]}' >bad.json
  expect 2 "$pk" check -q --to hip --baseline bad.json src
  grep -q "bad.json: error: finding 1 lacks" err.txt || fail "$(cat err.txt)"
  echo '{"findings": []}' >bad.json
  expect 2 "$pk" check -q --to hip --baseline bad.json src
  grep -q 'bad.json: error: not a port-kernel check report' err.txt || fail "$(cat err.txt)"
  # A baseline of another layout would silently match nothing: refused.
  echo '{"tool": "port-kernel", "format": "check-report/2", "findings": []}' >bad.json
  expect 2 "$pk" check -q --to hip --baseline bad.json src
  grep -q "bad.json: error: a check report of format 'check-report/2'; this version reads 'check-report/1'" err.txt || fail "$(cat err.txt)"
  echo 'not json' >bad.json
  expect 2 "$pk" check -q --to hip --baseline bad.json src
  grep -q "bad.json: error: not JSON" err.txt || fail "$(cat err.txt)"
  pass "baseline errors"
  ;;

exit_codes)
  expect 0 "$pk" check -q --to hip src/c.cu
  expect 1 "$pk" check -q --to hip src/a.cu
  expect 2 "$pk" check --no-such-option src/a.cu
  expect 2 "$pk" check --format xml src/a.cu
  for s in 0/2 3/2 x 1/0 2; do
    expect 2 "$pk" check --shard "$s" src
    grep -q "error: --shard" err.txt || fail "--shard $s: $(cat err.txt)"
  done
  expect 2 "$pk" check --to hip src/nope.cu
  printf '__global__ void k( {\n' >bad.cu
  expect 2 "$pk" check -q --to hip --format json bad.cu src/a.cu
  [ -s out.txt ] && fail "a report was written although an input does not parse"
  grep -q "bad.cu:1:" err.txt || fail "no file:line for the bad input"
  expect 2 "$pk" check -q --to hip --format json --output r.json bad.cu src/a.cu
  [ -e r.json ] && fail "--output written although an input does not parse"
  expect 2 "$pk" check -q --to hip --update-baseline src
  expect 2 "$pk" check -q --to hip --output r.json src
  expect 2 "$pk" merge-reports only.json
  expect 1 "$pk" check -q --to hip --format json --output r.json src/a.cu
  expect 1 "$pk" check -q --to hip --format sarif --output r.sarif src/a.cu
  expect 2 "$pk" merge-reports m.json r.json r.sarif
  grep -q "merge reports of one format" err.txt || fail "$(cat err.txt)"
  expect 2 "$pk" merge-reports m.json src/a.cu
  [ -e m.json ] && fail "merge-reports wrote output after an error"
  pass "exit codes 0, 1, 2"
  ;;

shards)
  for fmt in json sarif; do
    expect 1 "$pk" check -q --to hip --format $fmt --output full.$fmt src
    for n in 2 3; do
      files=()
      for k in $(seq 1 $n); do
        "$pk" check -q --to hip --format $fmt --shard $k/$n --output s$k.$fmt src
        [ $? -le 1 ] || fail "shard $k/$n failed"
        files+=(s$k.$fmt)
      done
      gc disjoint_tus "${files[@]}"
      expect 0 "$pk" merge-reports merged.$fmt "${files[@]}"
      gc same full.$fmt merged.$fmt
    done
  done
  # port: the shards' outputs together are the unsharded output.
  expect 0 "$pk" port -q --to hip -o full src
  mkdir union
  for k in 1 2 3; do
    expect 0 "$pk" port -q --to hip --shard $k/3 -o p$k src
    [ -d p$k ] && cp -r p$k/. union/
  done
  diff -r full union || fail "union of port shards differs from the full port"
  nt=$(cd full && find . -name '*.hip' -o -name '*.txt' | sort)
  ns=$(for k in 1 2 3; do [ -d p$k ] && (cd p$k && find . -name '*.hip' -o -name '*.txt'); done | sort)
  [ "$nt" = "$ns" ] || fail "a translation unit was written by two shards (or none): $ns"
  pass "shards: disjoint, union == unsharded (check json, sarif; port)"
  ;;

merge)
  expect 1 "$pk" check -q --to hip --format json --output a.json src/a.cu
  expect 1 "$pk" check -q --to hip --format json --output b.json src/b.cu
  expect 0 "$pk" merge-reports ab.json a.json b.json
  expect 0 "$pk" merge-reports ba.json b.json a.json
  cmp -s ab.json ba.json || fail "merge order changes the output"
  expect 0 "$pk" merge-reports aa.json a.json a.json
  gc same a.json aa.json
  # The shared header's findings appear in both inputs, once in the merge.
  na=$(grep -c '"file": "src/common.cuh"' a.json)
  nb=$(grep -c '"file": "src/common.cuh"' b.json)
  n=$(grep -c '"file": "src/common.cuh"' ab.json)
  [ "$na" -gt 0 ] && [ "$na" = "$nb" ] || fail "common.cuh findings: a $na, b $nb"
  [ "$n" = "$na" ] || fail "common.cuh findings: $n in the merge, expected $na"
  expect 0 "$pk" merge-reports - a.json
  grep -q '"findings"' out.txt || fail "merge-reports - did not print"
  pass "merge-reports dedupes, stable order"
  ;;

per_file)
  [ -n "$ninja" ] || fail "ninja not found"
  expect 0 "$pk" port -q --to hip -o full src
  expect 1 "$pk" check -q --to hip --format sarif --output full.sarif src
  # One build edge per file: port and check it alone (docs/ci.md).
  {
    echo "pk = $pk"
    echo 'rule port'
    echo '  command = $pk port -q --to hip -o $outdir $in'
    echo 'rule check'
    echo '  command = $pk check -q --to hip --format sarif --output $out $in; test $$? -le 1'
    echo 'rule merge'
    echo '  command = $pk merge-reports $out $in'
    reports=""
    for f in a b c sub/d sub/e; do
      n=$(basename $f)
      echo "build out/$n/hip/$n.hip: port src/$f.cu | src/common.cuh"
      echo "  outdir = out/$n"
      echo "build rep/$n.sarif: check src/$f.cu | src/common.cuh"
      reports="$reports rep/$n.sarif"
    done
    echo "build out/lone/hip/lone.hpp: port src/lone.cuh"
    echo "  outdir = out/lone"
    echo "build rep/lone.sarif: check src/lone.cuh"
    echo "build all.sarif: merge$reports rep/lone.sarif"
  } >build.ninja
  "$ninja" -j2 >ninja.log 2>&1 || { cat ninja.log; fail "ninja failed"; }
  for f in a b c sub/d sub/e; do
    n=$(basename $f)
    cmp out/$n/hip/$n.hip full/hip/$f.hip || fail "$f: per-file output differs"
  done
  cmp out/lone/hip/lone.hpp full/hip/lone.hpp || fail "lone.cuh: per-file output differs"
  gc same full.sarif all.sarif
  "$ninja" >ninja2.log 2>&1
  grep -q "no work to do" ninja2.log || fail "second ninja run did work: $(cat ninja2.log)"
  touch src/c.cu
  "$ninja" -n >ninja3.log 2>&1
  grep -q "src/c.cu" ninja3.log || fail "c.cu change not rebuilt: $(cat ninja3.log)"
  grep -q "src/a.cu" ninja3.log && fail "a.cu rebuilt for a change of c.cu"
  pass "per-file build actions (ninja) == whole-tree run"
  ;;

progress)
  expect 1 "$pk" check --to hip src
  grep -q '\[1/' err.txt && fail "progress printed although stderr is a file"
  grep -q $'\r' err.txt && fail "carriage return in non-terminal stderr"
  expect 0 "$pk" port --to hip -o o src
  grep -q '\[1/' err.txt && fail "port: progress printed although stderr is a file"
  if command -v script >/dev/null; then
    script -qec "$pk check -q --to hip src" /dev/null >tty.txt 2>&1
    grep -q '\[1/5\] .*\.cu' tty.txt || fail "no progress on a terminal: $(cat -v tty.txt | head -5)"
    grep -q '\[6/6\]' tty.txt || fail "progress does not reach the end: $(cat -v tty.txt | tail -3)"
    pass "progress on a terminal (script), silent otherwise"
  else
    pass "progress silent when stderr is not a terminal (no script(1) for the tty case)"
  fi
  ;;

*)
  fail "unknown case $case_"
  ;;
esac
