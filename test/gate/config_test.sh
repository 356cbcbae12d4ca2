#!/usr/bin/env bash
# config_test.sh CASE PK GATE_DIR PYTHON: one test of configuration files
# (.port-kernel.yaml), --config, --config-file, --checks,
# --warnings-as-errors and --dump-config (docs/configuration.md) on a copy
# of test/gate/tree.  Prints PASS/FAIL lines; exits non-zero on the first
# failure.
set -u
case_=$1 pk=$2 gate=$3 py=$4
rules=$gate/../rules/lit
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
    echo "--- stdout:"; head -20 out.txt
    echo "--- stderr:"; head -20 err.txt
    fail "exit $rc, expected $want: $*"
  fi
}
has() { grep -qF -- "$1" "${2:-err.txt}" || { echo "--- ${2:-err.txt}:"; head -30 "${2:-err.txt}"; fail "no '$1' in ${2:-err.txt}"; }; }
hasnt() { ! grep -qF -- "$1" "${2:-err.txt}" || { echo "--- ${2:-err.txt}:"; head -30 "${2:-err.txt}"; fail "'$1' in ${2:-err.txt}"; }; }
# rules FILE.json: "FILE RULE SEVERITY" per finding of a check JSON report.
rules_of() {
  "$py" -c 'import json,sys
for f in json.load(open(sys.argv[1]))["findings"]:
    print(f["file"], f["rule"], f["severity"], "promoted" if f.get("promoted") else "", f.get("suppressed", ""))' "$1"
}

case $case_ in
tree)
  # Nested configurations: the nearest one wins; InheritParentConfig merges
  # it onto its parent's; each file gets its own Checks.
  printf "Checks: '-*,PK21*'\n" > src/.port-kernel.yaml
  printf "InheritParentConfig: true\nChecks: -PK2101\n" > src/sub/.port-kernel.yaml
  expect 1 "$pk" check -q --to hip --format json --output r.json src
  rules_of r.json > got.txt
  hasnt PK2000 got.txt                      # -* at the top
  has "a.cu PK2103 warning" got.txt         # PK21* at the top
  has "b.cu PK2101 warning" got.txt
  has "common.cuh PK2106 warning" got.txt
  hasnt "sub/d.cu PK2101" got.txt           # -PK2101 in sub/, inherited -*
  hasnt "sub/e.cu" got.txt
  # Without inheriting, sub/ has only its own file: PK2000 notes are back.
  printf "Checks: -PK2101\n" > src/sub/.port-kernel.yaml
  expect 1 "$pk" check -q --to hip --format json --output r2.json src
  rules_of r2.json > got2.txt
  has "sub/d.cu PK2000 note" got2.txt
  hasnt "sub/d.cu PK2101" got2.txt
  hasnt "a.cu PK2000" got2.txt
  # --config replaces the files found; with InheritParentConfig it goes on
  # top of them.
  expect 1 "$pk" check -q --to hip --config '{Checks: "-*,PK2106"}' --format json --output r3.json src
  rules_of r3.json > got3.txt
  [ "$(cut -d' ' -f2 got3.txt | sort -u)" = PK2106 ] || fail "--config did not replace the files: $(cat got3.txt)"
  expect 1 "$pk" check -q --to hip --config '{InheritParentConfig: true, Checks: "-PK2103"}' --format json --output r4.json src
  rules_of r4.json > got4.txt
  has "sub/d.cu PK2000 note" got4.txt       # sub/'s file still applies
  hasnt "a.cu PK2103" got4.txt
  has "b.cu PK2101" got4.txt
  # Everything a file's configuration disables: no finding, exit 0.
  printf "Checks: '-*'\n" > src/sub/.port-kernel.yaml
  expect 0 "$pk" check --to hip src/sub
  has "port-kernel: 0 finding(s)"
  pass "nearest configuration wins, InheritParentConfig merges, per-file Checks"
  ;;

dump)
  printf "Checks: '-*,PK2*'\nWave64: logical32\n" > src/.port-kernel.yaml
  printf "InheritParentConfig: true\nChecks: -PK2010\n" > src/sub/.port-kernel.yaml
  expect 0 "$pk" check --dump-config src/sub/d.cu --checks=PK2010 --to hip,cuda
  has "# port-kernel configuration of $W/src/sub/d.cu" out.txt
  has "Checks: '*,-*,PK2*,-PK2010,PK2010'   # default '*', $W/src/.port-kernel.yaml:1, $W/src/sub/.port-kernel.yaml:2, --checks" out.txt
  has "Wave64: 'logical32'   # $W/src/.port-kernel.yaml:2" out.txt
  has "To: 'hip,cuda'   # --to" out.txt
  has "MfmaShape: 'auto'   # default" out.txt
  has "RocmVersion: 6   # default" out.txt
  has "WarningsAsErrors: ''   # default" out.txt
  [ -s err.txt ] && fail "dump-config wrote to stderr: $(cat err.txt)"
  # The dump is a configuration: used as one, it gives the same findings.
  cp out.txt dumped.yaml
  expect 1 "$pk" check -q --config-file dumped.yaml --format json --output b.json src/sub
  expect 1 "$pk" check -q --to hip,cuda --checks=PK2010 --format json --output c.json src/sub
  cmp -s b.json c.json || fail "the dumped configuration gives other findings"
  # Files without a configuration: the defaults.
  expect 0 "$pk" check --dump-config /
  has "# configuration files: none" out.txt
  has "Checks: '*'   # default '*'" out.txt
  # A broken configuration: no dump, exit 2.
  printf "Wave64: wide\n" > src/sub/.port-kernel.yaml
  expect 2 "$pk" check --dump-config src/sub/d.cu
  has "$W/src/sub/.port-kernel.yaml:1:9: error: Wave64: 'wide' is not one of auto, logical32, native"
  [ -s out.txt ] && fail "a dump despite the error"
  pass "--dump-config: values with their origins; a dump is a configuration"
  ;;

errors)
  # Bad configurations: file:line:col, what and why; exit 2; nothing written.
  printf "Checks: '-*,PK21*'\nChekcs: PK2010\n" > src/.port-kernel.yaml
  expect 2 "$pk" check --to hip --format json --output r.json src
  has "$W/src/.port-kernel.yaml:2:1: error: unknown key 'Chekcs' (keys: Checks,"
  [ -e r.json ] && fail "a report despite the error"
  expect 2 "$pk" port --to hip -o out src
  has "unknown key 'Chekcs'"
  [ -e out ] && fail "port wrote outputs despite the error"
  printf "To: hip,rocm\n" > src/.port-kernel.yaml
  expect 2 "$pk" check src
  has "$W/src/.port-kernel.yaml:1:5: error: To: unknown target 'rocm' (targets: cuda, hip, nki)"
  printf "RocmVersion: seven\n" > src/.port-kernel.yaml
  expect 2 "$pk" check src
  has "$W/src/.port-kernel.yaml:1:14: error: RocmVersion: 'seven' is not one of 5, 6"
  printf "Checks: [PK2010]\n" > src/.port-kernel.yaml
  expect 2 "$pk" check src
  has "$W/src/.port-kernel.yaml:1:10: error: a list or mapping where one value belongs"
  # A directory, a link loop, a dangling link where the file would be.
  rm src/.port-kernel.yaml
  mkdir src/.port-kernel.yaml
  expect 2 "$pk" check src
  has "$W/src/.port-kernel.yaml: error: cannot read the configuration file: it is a directory"
  rmdir src/.port-kernel.yaml
  ln -s .port-kernel.yaml src/.port-kernel.yaml
  expect 2 "$pk" check src
  has "$W/src/.port-kernel.yaml: error: cannot read the configuration file:"
  rm src/.port-kernel.yaml
  ln -s nowhere.yaml src/.port-kernel.yaml
  expect 2 "$pk" check src
  has "$W/src/.port-kernel.yaml: error: cannot read the configuration file:"
  rm src/.port-kernel.yaml
  # A FIFO is refused, not waited on; a file larger than 1 MiB is not read.
  mkfifo src/.port-kernel.yaml
  expect 2 timeout 60 "$pk" check src
  has "$W/src/.port-kernel.yaml: error: cannot read the configuration file: it is not a regular file"
  rm src/.port-kernel.yaml
  head -c 2000000 /dev/zero | tr '\0' '#' > src/.port-kernel.yaml
  expect 2 "$pk" check src
  has "$W/src/.port-kernel.yaml: error: a configuration file is 2000000 bytes, more than the 1048576 bytes"
  rm src/.port-kernel.yaml
  # --config text: errors name it.
  expect 2 "$pk" check --config '{Checks: "*", Foo: 1}' src
  has "--config:1:"
  has "unknown key 'Foo'"
  expect 2 "$pk" check --config-file nowhere.yaml src
  has "nowhere.yaml: error: cannot read the configuration file"
  expect 2 "$pk" check --config '{}' --config-file x.yaml src
  has "--config and --config-file exclude each other"
  for o in --checks= --warnings-as-errors= --config= --config-file= --dump-config=; do
    expect 2 "$pk" check $o src
    has "needs a value (it was given empty)"
  done
  pass "bad configurations: file:line:col, what and why, exit 2, nothing written"
  ;;

checks)
  # --checks: clang-tidy globs, later wins; disabled findings are not
  # reported in any format nor counted.
  expect 1 "$pk" check -q --to hip --checks='-*,PK21*,-PK2101' --format json --output r.json src
  rules_of r.json > got.txt
  hasnt PK2000 got.txt
  hasnt PK2101 got.txt
  has "a.cu PK2103" got.txt
  expect 1 "$pk" check -q --to hip --checks='-*,PK21*,-PK2101' --format sarif --output r.sarif src
  hasnt '"ruleId": "PK2101"' r.sarif
  hasnt '"ruleId": "PK2000"' r.sarif
  expect 1 "$pk" check --to hip --checks='-*,PK21*,-PK2101' src
  hasnt "[PK2101]"
  has "port-kernel: 3 finding(s)"
  # Only what the checks let through counts for the exit status.
  expect 0 "$pk" check --to hip --checks='-*,PK2000' src
  has "[PK2000]"
  # '*' alone: everything, as without it.
  expect 1 "$pk" check -q --to hip --checks='*' --format json --output all.json src
  expect 1 "$pk" check -q --to hip --format json --output none.json src
  cmp -s all.json none.json || fail "--checks='*' differs from no --checks"
  # The command line goes after the file's patterns: it wins.
  printf "Checks: '-PK2103'\n" > src/.port-kernel.yaml
  expect 1 "$pk" check -q --to hip --checks=PK2103 --format json --output o.json src
  rules_of o.json > got.txt
  has "a.cu PK2103" got.txt
  # A pattern that matches no rule: a warning, the run goes on.
  expect 1 "$pk" check -q --to hip --checks='-PK2O10' src
  has "--checks: warning: Checks: '-PK2O10' matches no rule"
  printf "Checks: 'PK77*,-PK2103'\n" > src/.port-kernel.yaml
  expect 1 "$pk" check -q --to hip src
  has "$W/src/.port-kernel.yaml:1: warning: Checks: 'PK77*' matches no rule"
  [ "$(grep -c "matches no rule" err.txt)" = 1 ] || fail "warned more than once"
  # A NOPK comment naming a disabled rule is not stale.
  rm src/.port-kernel.yaml
  sed -i 's|^  h += __shfl_down_sync(0x0000ffff, h, 1, 16);$|&  // NOPK(PK2101)|' src/b.cu
  grep -q 'NOPK(PK2101)' src/b.cu || fail "test setup: no NOPK in b.cu"
  expect 1 "$pk" check --to hip --checks=-PK2101 src/b.cu
  hasnt PK9005
  expect 0 "$pk" check --to hip --checks=-PK21* src/b.cu
  hasnt PK9005
  pass "--checks: globs, later wins, all formats, exit status, NOPK"
  ;;

promote)
  # --warnings-as-errors / WarningsAsErrors: warnings of the rules become
  # errors, in every format, for check and port.
  expect 1 "$pk" check --to hip --warnings-as-errors='PK2101' src
  has "b.cu:4:25: error: __shfl_down_sync: mask 0x0000ffff"
  has "[PK2101,-warnings-as-errors]"
  has "common.cuh:4:3: warning:"            # PK2106 stays a warning
  expect 1 "$pk" check -q --to hip --warnings-as-errors='PK21*' --format json --output r.json src
  rules_of r.json > got.txt
  has "b.cu PK2101 error promoted" got.txt
  has "a.cu PK2000 note" got.txt            # notes are not promoted
  expect 1 "$pk" check -q --to hip --warnings-as-errors='PK21*' --format sarif --output r.sarif src
  has '"promoted": true' r.sarif
  # merge-reports keeps it.
  expect 0 "$pk" merge-reports m.sarif r.sarif
  has '"promoted": true' m.sarif
  expect 0 "$pk" merge-reports m.json r.json
  has '"promoted": true' m.json
  # A promoted warning can still be suppressed where it is.
  sed -i 's|^  h += __shfl_down_sync(0x0000ffff, h, 1, 16);$|&  // NOPK(PK2101)|' src/b.cu
  expect 1 "$pk" check -q --to hip --warnings-as-errors='PK2101' --format json --output s.json src/b.cu
  rules_of s.json > got.txt
  has "b.cu PK2101 warning  inSource" got.txt
  hasnt PK9005 got.txt
  # port: a promoted warning is an error diagnostic: exit 3.
  expect 0 "$pk" port -q --to hip -o out0 src
  printf "WarningsAsErrors: PK2010\n" > src/.port-kernel.yaml
  expect 3 "$pk" port --to hip -o out --report rep.json src
  has "error: __shfl_down_sync: mask 0x0000ffff is not the full warp"
  has "[PK2010,-warnings-as-errors]"
  grep -q "port-kernel: error: .*\[PK2010\]" out/hip/b.hip || fail "no error comment in the output"
  has '"promoted": true' rep.json
  pass "warnings as errors: check text/json/sarif, NOPK, port exit 3"
  ;;

port)
  # port: disabled findings are not on stderr, in the outputs' comments or
  # in the report; the edits are the same.
  expect 0 "$pk" port --to hip -o out0 --report r0.json src
  has "[PK2000]"
  printf "Checks: '-PK2000,-PK2010'\n" > src/.port-kernel.yaml
  expect 0 "$pk" port --to hip -o out --report r.json src
  hasnt "[PK2000]"
  hasnt "[PK2010]"
  ! grep -rq "PK2000\|PK2010" out || fail "disabled findings in the outputs"
  hasnt '"rule": "PK2000"' r.json
  # Same code: the outputs differ only by the comments.
  for f in a b sub/d sub/e; do
    diff <(grep -v "// port-kernel: " out0/hip/$f.hip) <(grep -v "// port-kernel: " out/hip/$f.hip) \
      || fail "$f.hip: code differs when findings are disabled"
  done
  pass "port: disabled findings leave the outputs' code alone"
  ;;

rewrite)
  # A rewrite or rename rule cannot be disabled by name: its warnings say
  # where the output is wrong.  Wildcards leave its warnings on.
  cp "$rules/PK1015.cu" k.cu
  expect 2 "$pk" check --to hip --checks=-PK1015 k.cu
  has "--checks: error: Checks: '-PK1015' disables PK1015, a rewrite rule"
  has "silently wrong output"
  expect 2 "$pk" port --to hip -o out --checks=-PK1015 k.cu
  has "disables PK1015, a rewrite rule"
  [ -e out ] && fail "port wrote outputs despite the refusal"
  printf "Checks: '-PK1001'\n" > .port-kernel.yaml
  expect 2 "$pk" check --to hip k.cu
  has "$W/.port-kernel.yaml:1: error: Checks: '-PK1001' disables PK1001, a rename rule"
  rm .port-kernel.yaml
  # -*: the notes go, the warnings of the rewrite stay.
  expect 1 "$pk" check --to hip --checks='-*' k.cu
  hasnt "note:"
  has "warning: normcdff() is __host__ __device__ in CUDA but device-only in HIP"
  has "port-kernel: 2 finding(s)"
  pass "rewrite and rename rules cannot be disabled; -* keeps their warnings"
  ;;

run)
  # Settings of the whole run: from the configuration, overridden by the
  # command line; inputs whose configurations disagree are refused.
  printf "To: nki\n" > src/sub/.port-kernel.yaml
  expect 1 "$pk" check --format json src/sub
  "$py" -c 'import json,sys; t={f["target"] for f in json.load(open("out.txt"))["findings"]}; sys.exit(0 if t=={"nki"} else 1)' \
    || fail "To: nki not used"
  expect 1 "$pk" check --format json --to hip src/sub
  has '"target": "hip"' out.txt
  expect 2 "$pk" check src
  has "port-kernel: error: the configurations of the inputs disagree on To, which applies to the whole run"
  has "from $W/src/sub/.port-kernel.yaml:1"
  has "from the default"
  has "give --to on the command line"
  expect 1 "$pk" check --to hip src
  expect 2 "$pk" port -o out src
  has "disagree on To"
  [ -e out ] && fail "port wrote outputs despite the disagreement"
  # Per-file keys may differ.
  printf "Checks: '-PK2101'\n" > src/sub/.port-kernel.yaml
  expect 1 "$pk" check --to hip src
  # Paths in a configuration are relative to its directory.
  printf "Baseline: ../base.json\nSrcRoot: ..\n" > src/.port-kernel.yaml
  printf "InheritParentConfig: true\n" > src/sub/.port-kernel.yaml
  expect 0 "$pk" check --to hip --update-baseline src
  [ -s base.json ] || fail "Baseline of the configuration not written"
  expect 0 "$pk" check --to hip src
  has "0 new (not in the baseline $W/base.json)"
  pass "per-run settings: configured, overridden, disagreement refused"
  ;;

outputs)
  # Configuration files are read files: no output may replace one, and the
  # depfile names them.  A configuration in the output directory is not
  # read.
  printf "Checks: '-PK2000'\n" > src/.port-kernel.yaml
  cp src/.port-kernel.yaml before.yaml
  expect 2 "$pk" check --to hip --format json --output src/.port-kernel.yaml src
  has "which this run reads"
  cmp -s before.yaml src/.port-kernel.yaml || fail "the configuration was changed"
  cp before.yaml cfg.yaml
  expect 2 "$pk" check --to hip --format json --output cfg.yaml --config-file cfg.yaml src
  has "which this run reads"
  mkdir out
  printf "Chekcs: broken\n" > out/.port-kernel.yaml
  expect 0 "$pk" port --to hip -o out --depfile out.d src
  cmp -s out/.port-kernel.yaml <(printf "Chekcs: broken\n") || fail "the output directory's file was changed"
  has "$W/src/.port-kernel.yaml" out.d
  [ -e out/hip/.port-kernel.yaml ] && fail "port copied the configuration into its output"
  hasnt "out/.port-kernel.yaml" out.d
  expect 1 "$pk" check --to hip --format json --output r.json --depfile r.d src
  has "$W/src/.port-kernel.yaml" r.d
  pass "configuration files are inputs of the run and of its depfile"
  ;;

*)
  fail "unknown case $case_"
  ;;
esac
