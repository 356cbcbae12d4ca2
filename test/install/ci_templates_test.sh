#!/usr/bin/env bash
# ci.templates: the GitLab CI template's job script and the pre-commit hook,
# run as GitLab and pre-commit run them, on a temporary repository:
#   - GitLab, merge request: only the changed CUDA files (a name with spaces
#     and one starting with '-') are checked, SARIF and the Markdown report
#     written, exit 1 for findings; a clean merge request exits 0;
#   - GitLab, mode all in 2 shards: each writes its SARIF, and
#     merge-reports of both equals an unsharded check;
#   - pre-commit: the hook's entry with the staged file names exits 1 on a
#     hazard and 0 on a clean file; its `files` pattern takes .cu, not .txt.
#
#   ci_templates_test.sh PORT_KERNEL SOURCE_DIR
set -u
pk=$(cd "$(dirname "$1")" && pwd)/$(basename "$1") src=$(cd "$2" && pwd)
PY=/usr/bin/python3
T=$(mktemp -d /tmp/pk-citpl.XXXXXX)
trap 'rm -rf "$T"' EXIT
fails=0
fail() { echo "FAIL: $*"; fails=$((fails + 1)); }
mkdir -p "$T/bin" && ln -s "$(cd "$(dirname "$pk")" && pwd)/$(basename "$pk")" "$T/bin/port-kernel"

# The job's script, as GitLab joins it (one shell, each line in turn).
$PY - "$src/ci/gitlab/port-kernel.gitlab-ci.yml" "$T/job.sh" "$T/vars.sh" <<'PYEOF' || { echo "FAIL: the GitLab template"; exit 1; }
import sys, yaml, shlex
t = yaml.safe_load(open(sys.argv[1]))
job = t[".port-kernel"]
assert job["image"] == "debian:12"
assert any("gl-port-kernel-*.sarif" in p for p in job["artifacts"]["paths"])
open(sys.argv[2], "w").write("set -e\n" + "\n".join(job["script"]) + "\n")
open(sys.argv[3], "w").write("".join(f'[ -n "${{{k}+x}}" ] || export {k}={shlex.quote(str(v))}\n' for k, v in t["variables"].items()))
PYEOF

hazard() {
  printf '%s\n' '__global__ void k(float *o) {' '  int lane = threadIdx.x % 32;' \
    '  float v = __shfl_down_sync(0xffffffff, o[threadIdx.x], 16);' \
    '  if (lane == 0) o[0] = v;' '}'
}
R="$T/repo"
mkdir -p "$R/src/a b"
cd "$R" && git init -q -b main . && git config user.email t@example.com && git config user.name t
hazard >"src/old.cu"; echo x >notes.txt
git add -A && git commit -qm base && base=$(git rev-parse HEAD)
hazard >"src/a b/new one.cu"; hazard >"src/-lead.cu"; echo y >>notes.txt
git add -A && git commit -qm mr

gl() {  # gl NAME VAR=VALUE...: the job script in a fresh job environment
  local name=$1; shift
  rm -rf "${T:?}/${name:?}"; mkdir -p "$T/$name"
  git -C "$R" clean -qfdx >/dev/null 2>&1
  (cd "$R" && env -i PATH="$T/bin:/usr/bin:/bin" HOME="$T" CI=true "$@" \
     bash -c 'source "$1"; shift; exec bash "$@"' _ "$T/vars.sh" "$T/job.sh") >"$T/$name/log" 2>&1
}
sarif_files() {
  $PY -c 'import json,sys
r=json.load(open(sys.argv[1]))["runs"][0]["results"]
print("\n".join(sorted({x["locations"][0]["physicalLocation"]["artifactLocation"]["uri"] for x in r})))' "$1"
}

gl mr CI_MERGE_REQUEST_DIFF_BASE_SHA="$base"; rc=$?
[ $rc -eq 1 ] || { cat "$T/mr/log"; fail "gitlab mr: exit $rc, want 1"; }
if [ -f "$R/gl-port-kernel-1.sarif" ]; then
  got=$(sarif_files "$R/gl-port-kernel-1.sarif")
  grep -qx "src/a%20b/new%20one.cu" <<<"$got" && grep -qx "src/-lead.cu" <<<"$got" || fail "gitlab mr: changed files not reported: $got"
  grep -q old <<<"$got" && fail "gitlab mr: an unchanged file was checked: $got"
else
  fail "gitlab mr: no gl-port-kernel-1.sarif"
fi
[ -s "$R/port-kernel-report.md" ] || fail "gitlab mr: no port-kernel-report.md"

gl clean CI_MERGE_REQUEST_DIFF_BASE_SHA="$(git -C "$R" rev-parse HEAD)"; rc=$?
[ $rc -eq 0 ] && grep -q "no CUDA file changed" "$T/clean/log" || fail "gitlab, no CUDA change: exit $rc: $(cat "$T/clean/log")"

for k in 1 2; do
  gl "s$k" PORT_KERNEL_MODE=all PORT_KERNEL_PATHS=src CI_NODE_INDEX=$k CI_NODE_TOTAL=2; rc=$?
  [ $rc -le 1 ] || { cat "$T/s$k/log"; fail "gitlab shard $k: exit $rc"; }
  [ -f "$R/gl-port-kernel-$k.sarif" ] && cp "$R/gl-port-kernel-$k.sarif" "$T/s$k.sarif" || fail "gitlab shard $k: no SARIF"
done
if [ -f "$T/s1.sarif" ] && [ -f "$T/s2.sarif" ]; then
  "$pk" merge-reports "$T/merged.sarif" "$T/s1.sarif" "$T/s2.sarif" || fail "merge-reports"
  (cd "$R" && "$pk" check -q --to hip --format sarif --output "$T/whole.sarif" src) 
  [ "$(sarif_files "$T/merged.sarif")" = "$(sarif_files "$T/whole.sarif")" ] \
    && [ -n "$(sarif_files "$T/whole.sarif")" ] || fail "gitlab shards: merged files differ from an unsharded check"
fi

# pre-commit: entry + the file names, as pre-commit runs a `language: system` hook.
$PY - "$src/.pre-commit-hooks.yaml" "$T/hook.sh" <<'PYEOF' || { echo "FAIL: .pre-commit-hooks.yaml"; exit 1; }
import sys, yaml, re, shlex
hooks = yaml.safe_load(open(sys.argv[1]))
h = [h for h in hooks if h["id"] == "port-kernel-check"][0]
assert h["language"] == "system"
f = re.compile(h["files"])
assert f.search("src/a b/k.cu") and f.search("x.cuh") and f.search("y.hip")
assert not f.search("notes.txt") and not f.search("a.cu.txt")
argv = shlex.split(h["entry"])
assert argv[0] == "port-kernel"
open(sys.argv[2], "w").write('exec ' + " ".join(shlex.quote(a) for a in argv) + ' "$@"\n')
PYEOF
(cd "$R" && PATH="$T/bin:$PATH" bash "$T/hook.sh" "src/a b/new one.cu" >/dev/null 2>&1); rc=$?
[ $rc -eq 1 ] || fail "pre-commit hook on a hazard: exit $rc, want 1"
printf '%s\n' '__global__ void add(float *o, int n) {' '  int i = blockIdx.x * blockDim.x + threadIdx.x;' '  if (i < n) o[i] += 1.0f;' '}' >"$R/clean.cu"
(cd "$R" && PATH="$T/bin:$PATH" bash "$T/hook.sh" clean.cu >/dev/null 2>&1); rc=$?
[ $rc -eq 0 ] || fail "pre-commit hook on a clean file: exit $rc, want 0"

[ "$fails" -eq 0 ] || { echo "FAIL: $fails check(s) failed"; exit 1; }
echo "PASS: ci.templates"
