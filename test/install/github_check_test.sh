#!/usr/bin/env bash
# ci.github_check: scripts/ci/github-check.sh (the GitHub action's logic) with
# the environment GitHub sets, on a temporary repository with a pull request:
#   - mode changed checks exactly the changed CUDA files (names with spaces,
#     a leading '-', '$(...)' and quotes included; none of them evaluated),
#     writes SARIF, the job summary with the Markdown report, and the outputs;
#     exit 1 for new findings;
#   - a baseline with every finding: exit 0, findings=0;
#   - mode all with a shard; a pull request without CUDA changes; errors
#     (no event, a bad shard, a missing path) exit 2 with a reason.
#
#   github_check_test.sh PORT_KERNEL SOURCE_DIR
set -u
pk=$(cd "$(dirname "$1")" && pwd)/$(basename "$1") src=$(cd "$2" && pwd)
script="$src/scripts/ci/github-check.sh"
T=$(mktemp -d /tmp/pk-ghcheck.XXXXXX)
trap 'rm -rf "$T"' EXIT
fails=0
fail() { echo "FAIL: $*"; fails=$((fails + 1)); }

R="$T/repo"
mkdir -p "$R/src/dir with space"
cd "$R" || exit 1
git init -q -b main . && git config user.email t@example.com && git config user.name t
# A kernel with a wave-64 hazard (lane = threadIdx.x % 32).
hazard() {
  cat <<'CU'
__global__ void k(float *o) {
  int lane = threadIdx.x % 32;
  float v = o[threadIdx.x];
  v += __shfl_down_sync(0xffffffff, v, 16);
  if (lane == 0) o[threadIdx.x / 32] = v;
}
CU
}
clean() {
  cat <<'CU'
__global__ void add(float *o, const float *a, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) o[i] += a[i];
}
CU
}
hazard >"src/old hazard.cu"          # on main, unchanged by the pull request
clean >"src/changed.cu"
echo "int x;" >README.txt
git add -A && git commit -qm base
base=$(git rev-parse HEAD)
git checkout -qb feature
hazard >"src/dir with space/new kernel.cu"
hazard >"src/-dash.cu"
hazard >'src/$(touch pwned) it'\''s.cu'
hazard >>"src/changed.cu"
echo "int y;" >>README.txt
git add -A && git commit -qm change
head=$(git rev-parse HEAD)
cat >"$T/event.json" <<JSON
{"pull_request": {"number": 7, "base": {"ref": "main", "sha": "$base"}, "head": {"ref": "feature", "sha": "$head"}}}
JSON

run() {  # run NAME [VAR=VALUE...]: the script in a fresh runner environment
  local name=$1; shift
  rm -rf "${T:?}/${name:?}"; mkdir -p "$T/$name/tmp"
  : >"$T/$name/output"; : >"$T/$name/summary"
  env -i PATH="$(dirname "$pk"):/usr/bin:/bin" HOME="$T" \
    PK_BIN="$pk" GITHUB_WORKSPACE="$R" GITHUB_EVENT_NAME=pull_request \
    GITHUB_EVENT_PATH="$T/event.json" GITHUB_BASE_REF=main \
    GITHUB_STEP_SUMMARY="$T/$name/summary" GITHUB_OUTPUT="$T/$name/output" \
    RUNNER_TEMP="$T/$name/tmp" "$@" bash "$script" >"$T/$name/log" 2>&1
}
out() { sed -n "s/^$2=//p" "$T/$1/output" | tail -1; }
sarif_files() {
  python3 -c 'import json,sys
r=json.load(open(sys.argv[1]))["runs"][0]["results"]
print("\n".join(sorted({x["locations"][0]["physicalLocation"]["artifactLocation"]["uri"] for x in r})))' "$1"
}

# --- a pull request: the changed files only ----------------------------------------
run pr; rc=$?
[ $rc -eq 1 ] || { cat "$T/pr/log"; fail "pr: exit $rc, want 1 (new findings)"; }
sarif=$(out pr sarif)
[ "$sarif" = "$T/pr/tmp/port-kernel.sarif" ] && [ -f "$sarif" ] || fail "pr: sarif output '$sarif'"
[ "$(out pr files)" = 4 ] || fail "pr: files=$(out pr files), want 4 (the .cu files changed)"
n=$(out pr findings)
[[ $n =~ ^[0-9]+$ ]] && [ "$n" -ge 3 ] || fail "pr: findings=$n, want at least 3"
if [ -f "$sarif" ]; then
  got=$(sarif_files "$sarif")
  for f in "src/dir%20with%20space/new%20kernel.cu" "src/-dash.cu" "src/changed.cu"; do
    grep -qxF "$f" <<<"$got" || fail "pr: no finding in $f (SARIF has: $got)"
  done
  grep -q "it" <<<"$(grep touch <<<"$got")" || fail "pr: no finding in the file named \$(touch pwned) it's.cu (SARIF has: $got)"
  grep -q "old" <<<"$got" && fail "pr: a file the pull request did not change was checked: $got"
  python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); assert d["version"]=="2.1.0"' "$sarif" || fail "pr: not SARIF 2.1.0"
fi
[ ! -e "$R/pwned" ] && [ ! -e "$T/pwned" ] && [ ! -e "$R/src/pwned" ] || fail "pr: a file name was evaluated (pwned exists)"
grep -q "^## port-kernel check --to hip" "$T/pr/summary" || fail "pr: no summary heading"
grep -q "4 file(s) checked (changed): \*\*$n new finding(s)\*\*" "$T/pr/summary" || fail "pr: summary line: $(cat "$T/pr/summary" | head -5)"
md=$(out pr markdown)
[ -n "$md" ] && [ -s "$md" ] || fail "pr: no Markdown report ($md)"
[ -n "$md" ] && [ -f "$md" ] && ! grep -qF -f <(head -3 "$md") "$T/pr/summary" && fail "pr: the Markdown report is not in the summary"

# --- every finding in the baseline: nothing new -------------------------------------
( cd "$R" && "$pk" check -q --to hip --baseline "$T/baseline.json" --update-baseline src >/dev/null 2>&1 ) \
  || fail "could not record a baseline"
run base PK_BASELINE="$T/baseline.json"; rc=$?
[ $rc -eq 0 ] || { cat "$T/base/log"; fail "baseline: exit $rc, want 0"; }
[ "$(out base findings)" = 0 ] || fail "baseline: findings=$(out base findings), want 0"

# --- findings reported, not failing ----------------------------------------------------
run nofail PK_FAIL_ON_FINDINGS=false PK_REPORT=false; rc=$?
[ $rc -eq 0 ] || fail "fail-on-findings false: exit $rc"
[ -z "$(out nofail markdown)" ] || fail "report false: a markdown output"

# --- mode all, one shard of one ----------------------------------------------------------
run all PK_MODE=all PK_PATHS=src PK_SHARD=1/1; rc=$?
[ $rc -eq 1 ] || { cat "$T/all/log"; fail "all: exit $rc, want 1"; }
[ -f "$(out all sarif)" ] && sarif_files "$(out all sarif)" | grep -q "old%20hazard.cu" || fail "all: the unchanged file was not checked"

# --- a pull request without CUDA changes ---------------------------------------------
cat >"$T/event2.json" <<JSON
{"pull_request": {"base": {"sha": "$head"}, "head": {"sha": "$head"}}}
JSON
run none GITHUB_EVENT_PATH="$T/event2.json"; rc=$?
[ $rc -eq 0 ] || fail "no CUDA change: exit $rc"
[ "$(out none files)" = 0 ] && [ -z "$(out none sarif)" ] || fail "no CUDA change: outputs $(cat "$T/none/output")"
grep -q "nothing to check" "$T/none/summary" || fail "no CUDA change: summary"

# --- the base from GITHUB_BASE_REF when the event's commit is missing -------------------
git -C "$R" update-ref refs/remotes/origin/main "$base"
cat >"$T/event3.json" <<JSON
{"pull_request": {"base": {"sha": "0000000000000000000000000000000000000000"}}}
JSON
run baseref GITHUB_EVENT_PATH="$T/event3.json"; rc=$?
[ $rc -eq 1 ] && [ "$(out baseref files)" = 4 ] || { cat "$T/baseref/log"; fail "GITHUB_BASE_REF: exit $rc, files=$(out baseref files)"; }

# --- errors -------------------------------------------------------------------------------
run e1 GITHUB_EVENT_PATH="$T/missing.json"; rc=$?
[ $rc -eq 2 ] && grep -q "GITHUB_EVENT_PATH" "$T/e1/log" || fail "no event: exit $rc: $(cat "$T/e1/log")"
run e2 PK_MODE=all PK_SHARD=2; rc=$?
[ $rc -eq 2 ] && grep -q "shard: '2' is not K/N" "$T/e2/log" || fail "bad shard: exit $rc: $(cat "$T/e2/log")"
run e3 PK_MODE=all PK_PATHS="nope"; rc=$?
[ $rc -eq 2 ] && grep -q "nope does not exist" "$T/e3/log" || fail "missing path: exit $rc: $(cat "$T/e3/log")"
run e4 PK_TO='hip;touch x'; rc=$?
[ $rc -eq 2 ] && [ ! -e "$R/x" ] || fail "bad targets: exit $rc"
run e5 PK_BIN="$T/no-such-port-kernel"; rc=$?
[ $rc -eq 2 ] && grep -q "not found" "$T/e5/log" || fail "no port-kernel: exit $rc"

# --- the install step's refusals (scripts/ci/github-install.sh) ------------------------
inst="$src/scripts/ci/github-install.sh"
o=$(env -i PATH=/usr/bin:/bin PK_DEB=a.deb PK_RELEASE_URL=https://x/y.deb bash "$inst" 2>&1); rc=$?
[ $rc -eq 2 ] && grep -q "not both" <<<"$o" || fail "install: deb and release-url: exit $rc: $o"
o=$(env -i PATH=/usr/bin:/bin PK_DEB="$T/none.deb" bash "$inst" 2>&1); rc=$?
[ $rc -eq 2 ] && grep -q "is not a file" <<<"$o" || fail "install: a missing deb: exit $rc: $o"
o=$(env -i PATH=/usr/bin:/bin PK_RELEASE_URL=http://example.com/p.deb bash "$inst" 2>&1); rc=$?
[ $rc -eq 2 ] && grep -q "only https" <<<"$o" || fail "install: an http URL: exit $rc: $o"
o=$(env -i PATH="$(dirname "$pk"):/usr/bin:/bin" bash "$inst" 2>&1); rc=$?
[ $rc -eq 0 ] && grep -q "^port-kernel " <<<"$o" || fail "install: port-kernel already on PATH: exit $rc: $o"

[ "$fails" -eq 0 ] || { echo "FAIL: $fails check(s) failed"; exit 1; }
echo "PASS: ci.github_check"
