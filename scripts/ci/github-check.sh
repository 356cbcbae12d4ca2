#!/usr/bin/env bash
# The logic of the GitHub action (action.yml): `port-kernel check` with SARIF
# on the files a pull request changes (or on whole paths, one shard of them),
# the Markdown report (`port-kernel report --markdown`) in the job summary,
# and the step's outputs.  Runs anywhere with the environment GitHub sets
# (test ci.github_check runs it on a temporary repository).
#
# Environment (the action's inputs; every one optional):
#   PK_BIN        port-kernel to run (default: port-kernel on PATH)
#   PK_TO         targets, comma separated (default hip)
#   PK_MODE       changed | all | auto (default auto: changed for pull_request
#                 events, all otherwise)
#   PK_PATHS      mode all: the paths to check, one per line (default .)
#   PK_EXTENSIONS mode changed: file extensions checked, space separated
#                 (default "cu cuh hip")
#   PK_SHARD      mode all: K/N, this job's shard of the files
#   PK_BASELINE   a baseline file: only findings it lacks are new
#   PK_REPORT     true | false: the Markdown report in the job summary (default
#                 true; not with PK_SHARD)
#   PK_FAIL_ON_FINDINGS  true | false (default true): exit 1 for new findings
# From GitHub: GITHUB_WORKSPACE, GITHUB_EVENT_NAME, GITHUB_EVENT_PATH,
#   GITHUB_BASE_REF, GITHUB_STEP_SUMMARY, GITHUB_OUTPUT, RUNNER_TEMP.
# Outputs (GITHUB_OUTPUT): sarif (path, empty when nothing was checked),
#   findings (new findings, notes and suppressed ones left out), files (how
#   many files were checked), markdown (the report's path, or empty).
# Exit: 0; 1 new findings (with PK_FAIL_ON_FINDINGS=true); 2 an error, with
# its reason on stderr.
#
# File names are passed as array elements from NUL-separated lists: no word
# splitting, no globbing, no eval; names starting with '-' are given as ./NAME.
set -euo pipefail
set -f

die() { echo "port-kernel action: error: $*" >&2; exit 2; }

PK_BIN=${PK_BIN:-port-kernel}
PK_TO=${PK_TO:-hip}
PK_MODE=${PK_MODE:-auto}
PK_PATHS=${PK_PATHS:-.}
PK_EXTENSIONS=${PK_EXTENSIONS:-cu cuh hip}
PK_SHARD=${PK_SHARD:-}
PK_BASELINE=${PK_BASELINE:-}
PK_REPORT=${PK_REPORT:-true}
PK_FAIL_ON_FINDINGS=${PK_FAIL_ON_FINDINGS:-true}
WORKSPACE=${GITHUB_WORKSPACE:-$PWD}
TMP=${RUNNER_TEMP:-${TMPDIR:-/tmp}}
OUTPUT=${GITHUB_OUTPUT:-/dev/null}
SUMMARY=${GITHUB_STEP_SUMMARY:-/dev/null}

command -v "$PK_BIN" >/dev/null 2>&1 || die "port-kernel not found ($PK_BIN); install the package first"
command -v python3 >/dev/null 2>&1 || die "python3 is needed to read the event and the SARIF"
[ -d "$WORKSPACE" ] || die "GITHUB_WORKSPACE $WORKSPACE is not a directory"
[[ $PK_TO =~ ^[a-z0-9,]+$ ]] || die "to: '$PK_TO' is not a comma separated list of targets"
[[ -z $PK_SHARD || $PK_SHARD =~ ^[0-9]+/[0-9]+$ ]] || die "shard: '$PK_SHARD' is not K/N"
for b in PK_REPORT PK_FAIL_ON_FINDINGS; do
  [[ ${!b} == true || ${!b} == false ]] || die "${b#PK_}: '${!b}' is not true or false"
done
cd "$WORKSPACE"

if [ "$PK_MODE" = auto ]; then
  if [ "${GITHUB_EVENT_NAME:-}" = pull_request ] || [ "${GITHUB_EVENT_NAME:-}" = pull_request_target ]; then
    PK_MODE=changed
  else
    PK_MODE=all
  fi
fi

# An argument that is a file name, never an option.
arg() { case $1 in -*) printf '%s' "./$1" ;; *) printf '%s' "$1" ;; esac; }

files=()
case $PK_MODE in
  changed)
    [ -z "$PK_SHARD" ] || die "shard: only with mode all (a pull request's files are checked by one job)"
    [ -n "${GITHUB_EVENT_PATH:-}" ] && [ -f "$GITHUB_EVENT_PATH" ] \
      || die "mode changed needs GITHUB_EVENT_PATH (a pull_request event)"
    base=$(python3 -c 'import json,sys
e=json.load(open(sys.argv[1]))
print(((e.get("pull_request") or {}).get("base") or {}).get("sha") or "")' "$GITHUB_EVENT_PATH") \
      || die "cannot read the event $GITHUB_EVENT_PATH"
    # The merge base of the pull request and its base branch: the event's
    # base commit, or origin/GITHUB_BASE_REF (fetched if missing).
    if [ -z "$base" ] || ! git cat-file -e "$base^{commit}" 2>/dev/null; then
      [ -n "${GITHUB_BASE_REF:-}" ] || die "the event names no base commit present here, and GITHUB_BASE_REF is not set"
      if ! git rev-parse -q --verify "refs/remotes/origin/$GITHUB_BASE_REF" >/dev/null; then
        git fetch -q --no-tags origin "+refs/heads/$GITHUB_BASE_REF:refs/remotes/origin/$GITHUB_BASE_REF" 2>/dev/null \
          || die "cannot fetch the base branch $GITHUB_BASE_REF (check out with fetch-depth: 0)"
      fi
      base=refs/remotes/origin/$GITHUB_BASE_REF
    fi
    mb=$(git merge-base "$base" HEAD 2>/dev/null) \
      || die "no merge base of $base and HEAD (check out with fetch-depth: 0)"
    exts=()
    read -r -a exts <<<"$PK_EXTENSIONS"
    while IFS= read -r -d '' f; do
      for e in "${exts[@]}"; do
        if [[ $f == *."$e" ]]; then files+=("$(arg "$f")"); break; fi
      done
    done < <(git -c core.quotePath=false diff -z --name-only --no-renames --diff-filter=ACMR "$mb" HEAD --)
    ;;
  all)
    while IFS= read -r p; do
      [ -n "$p" ] || continue
      [ -e "$p" ] || die "paths: $p does not exist"
      files+=("$(arg "$p")")
    done <<<"$PK_PATHS"
    ((${#files[@]})) || die "paths: none given"
    ;;
  *) die "mode: '$PK_MODE' is not changed, all or auto" ;;
esac

SARIF="$TMP/port-kernel.sarif"
MD="$TMP/port-kernel-report.md"
rm -f "$SARIF" "$MD"
{
  echo "files=${#files[@]}"
} >>"$OUTPUT"
if ((${#files[@]} == 0)); then
  {
    echo "sarif="
    echo "findings=0"
    echo "markdown="
  } >>"$OUTPUT"
  printf '## port-kernel\n\nNo file with extension %s changed: nothing to check.\n' "$PK_EXTENSIONS" >>"$SUMMARY"
  echo "port-kernel action: no file to check"
  exit 0
fi

opts=(--to "$PK_TO" --format sarif --output "$SARIF" --src-root "$WORKSPACE")
[ -z "$PK_SHARD" ] || opts+=(--shard "$PK_SHARD")
[ -z "$PK_BASELINE" ] || opts+=(--baseline "$PK_BASELINE")
rc=0
"$PK_BIN" check "${opts[@]}" "${files[@]}" || rc=$?
if [ "$rc" -gt 1 ]; then
  die "port-kernel check failed (exit $rc)"
fi
[ -f "$SARIF" ] || die "port-kernel check wrote no SARIF"
# New findings: not suppressed, not notes, not recorded in the baseline.
findings=$(python3 -c 'import json,sys
r=json.load(open(sys.argv[1]))["runs"][0].get("results",[])
print(sum(1 for x in r if not x.get("suppressions") and x.get("level")!="note"
          and x.get("baselineState","new")!="unchanged"))' "$SARIF") \
  || die "cannot read the SARIF $SARIF"
{
  echo "sarif=$SARIF"
  echo "findings=$findings"
} >>"$OUTPUT"

{
  echo "## port-kernel check --to $PK_TO"
  echo
  echo "${#files[@]} file(s) checked ($PK_MODE${PK_SHARD:+, shard $PK_SHARD}): **$findings new finding(s)**."
  echo
} >>"$SUMMARY"
if [ "$PK_REPORT" = true ] && [ -n "$PK_SHARD" ]; then
  # `report` has no shards: each shard would report every file.
  echo "markdown=" >>"$OUTPUT"
  echo "_The port report is written by unsharded runs (shard $PK_SHARD)._" >>"$SUMMARY"
elif [ "$PK_REPORT" = true ]; then
  rrc=0
  ropts=(--to "$PK_TO" -o "$TMP/port-kernel-report.html" --markdown "$MD")
  "$PK_BIN" report "${ropts[@]}" "${files[@]}" >"$TMP/port-kernel-report.log" 2>&1 || rrc=$?
  if [ "$rrc" -eq 0 ] && [ -f "$MD" ]; then
    cat "$MD" >>"$SUMMARY"
    echo "markdown=$MD" >>"$OUTPUT"
  else
    echo "markdown=" >>"$OUTPUT"
    echo "port-kernel action: warning: report failed (exit $rrc):" >&2
    cat "$TMP/port-kernel-report.log" >&2
    echo "_The port report could not be written (exit $rrc)._" >>"$SUMMARY"
  fi
else
  echo "markdown=" >>"$OUTPUT"
fi
echo "port-kernel action: ${#files[@]} file(s), $findings new finding(s), SARIF $SARIF"
if [ "$findings" -gt 0 ] && [ "$PK_FAIL_ON_FINDINGS" = true ]; then
  exit 1
fi
exit 0
