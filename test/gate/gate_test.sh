#!/usr/bin/env bash
# gate_test.sh CASE PK GATE_DIR PYTHON NINJA: one test of `check` as a CI gate
# (docs/ci.md) on a copy of test/gate/tree.  Prints PASS/FAIL lines; exits
# non-zero on the first failure.
set -u
case_=$1 pk=$2 gate=$3 py=$4 ninja=${5:-}
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
  pass "SARIF structure"
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
  grep -q "is an input of this run" err.txt || fail "no reason given: $(cat err.txt)"
  cmp -s src/c.cu c.before || fail "an input was overwritten"
  expect 2 "$pk" check -q --to hip --baseline missing.json src
  grep -q "missing.json: error: cannot read" err.txt || fail "$(cat err.txt)"
  echo '{"findings": [{"rule": "PK2101"}]}' >bad.json
  expect 2 "$pk" check -q --to hip --baseline bad.json src
  grep -q "bad.json: error: finding 1 lacks" err.txt || fail "$(cat err.txt)"
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
