#!/usr/bin/env bash
# The security suite: port-kernel attacked as a hostile user and a hostile
# pull request would (docs/security.md).  Every subcommand and every flag
# that names a path or carries text into an output.  One ctest per group,
# reliability.attack-<group>; each case asserts the exact outcome (exit
# status, the message, the files the run read unchanged, nothing left
# behind) and the script prints how many cases it ran.
#   attack.sh BIN SRC_ROOT GROUP
# Groups: overlap links same-path empty-values merge baseline depfile escape
#         bundle contract readers targets
. "$(dirname "${BASH_SOURCE[0]}")/common.sh"
GROUP="$TEST"
BIN="$(cd "$(dirname "$BIN")" && pwd)/$(basename "$BIN")"
SRC="$(cd "$SRC" && pwd)"; GOLD="$SRC/test/golden"
N=0
CASE=""
fail() { echo "FAIL [$GROUP/$CASE]: $*" >&2; exit 1; }
KERNEL="$GOLD/launch/input.cu"

# begin NAME: a fresh case directory $C holding a small project:
#   src/k.cu (includes h.cuh), src/h.cuh, rules.yaml, db/compile_commands.json
begin() {
  CASE="$1"; N=$((N + 1)); C="$TMP/case$N"
  mkdir -p "$C/src" "$C/db"
  {
    echo '#include "h.cuh"'
    cat "$KERNEL"
  } > "$C/src/k.cu"
  printf '#pragma once\n#define PK_SCALE 2\n' > "$C/src/h.cuh"
  # A kernel with wave-64 findings (check reports need some).
  printf '__global__ void w(int *o) {\n  o[threadIdx.x] = __shfl_xor(o[0], 1);\n}\n' > "$C/src/w.cu"
  printf 'rule: PK8001\ntitle: t\nentries:\n  - { cuda: cudaFooBar, hip: hipFooBar, kind: function }\n' > "$C/rules.yaml"
  printf '[{"directory":"%s","command":"nvcc -c k.cu","file":"%s"}]\n' \
    "$C/src" "$C/src/k.cu" > "$C/db/compile_commands.json"
}
# The state of the whole case directory (every file the run may read).
snap() { BEFORE=$(snapshot "$C"); }
unchanged() { [ "$(snapshot "$C")" = "$BEFORE" ] || fail "files changed: $(diff <(echo "$BEFORE") <(snapshot "$C") | head -5)"; }
no_leftovers() {
  local l; l=$(find "$C" -name '*.pk-tmp-*' -o -name '.pk-tmp-*' -o -name '.pk-bak-*' 2>/dev/null)
  [ -z "$l" ] || fail "leftover temporary files: $l"
}
# A refused run: status 2, each message, every file as it was.
refused() { # MESSAGE... (after run)
  expect_rc 2
  for m in "$@"; do expect_err "$m"; done
  unchanged; no_leftovers
}
baseline() { "$BIN" check -q --to hip --baseline "$1" --update-baseline "${@:2}" 2>/dev/null; }
shard_reports() { # DIR FORMAT: s1 and s2 of the case's tree
  "$BIN" check -q --to hip --format "$2" --shard 1/2 --output "$1/s1.$2" "$C/src" 2>/dev/null
  "$BIN" check -q --to hip --format "$2" --shard 2/2 --output "$1/s2.$2" "$C/src" 2>/dev/null
  [ -s "$1/s1.$2" ] && [ -s "$1/s2.$2" ] || fail "shard reports not written"
}

# ---- every output flag onto every file the run reads -------------------------
# The output flags, each as "SUBCOMMAND ARGS" with @OUT@ for the path.
OUT_FLAGS=(
  "port --to hip -o @O@ --report @OUT@"
  "port --to hip -o @O@ --depfile @OUT@"
  "check --to hip --format json --output @OUT@"
  "check --to hip --format sarif --output @O@/r.sarif --depfile @OUT@"
  "check --to hip --update-baseline --baseline @OUT@"
  "report --to hip -o @OUT@"
  "report --to hip -o @O@/r.html --markdown @OUT@"
)
# Files read, each "ROLE-IN-MESSAGE|PATH|EXTRA ARGS".
read_roles() {
  READS=(
    "the input|$C/src/k.cu|"
    "the header|$C/src/h.cuh|"
    "the --rules file|$C/rules.yaml|--rules $C/rules.yaml"
    "the compilation database|$C/db/compile_commands.json|-p $C/db"
  )
}
group_overlap() {
  local i=0
  for flags in "${OUT_FLAGS[@]}"; do
    i=$((i + 1))
    begin "overlap-$i"; read_roles
    for r in "${READS[@]}"; do
      IFS='|' read -r role path extra <<<"$r"
      CASE="overlap: $flags onto $role"; N=$((N + 1)); snap
      local f=${flags//@OUT@/$path}; f=${f//@O@/$C/o}
      # shellcheck disable=SC2086
      run $f $extra "$C/src/k.cu"
      local opt; opt=$(echo "$flags" | grep -oE -- '(-o|--[a-z-]+) @OUT@' | cut -d' ' -f1)
      refused "would overwrite $role $path, which this run reads" "$opt"
      [ ! -e "$C/o" ] || fail "outputs written: $(find "$C/o" | head -3)"
    done
    N=$((N - 1))
  done
  # The baseline check reads: --output onto the --baseline.
  begin overlap-output-on-baseline; baseline "$C/base.json" "$C/src"; snap
  run check --to hip --format json --baseline "$C/base.json" --output "$C/base.json" "$C/src"
  refused "--output would overwrite the --baseline file $C/base.json"
  begin overlap-depfile-on-baseline; baseline "$C/base.json" "$C/src"; snap
  run check --to hip --format json --baseline "$C/base.json" --output "$C/r.json" --depfile "$C/base.json" "$C/src"
  refused "--depfile would overwrite the --baseline file"
  [ ! -e "$C/r.json" ] || fail "the report was written though the depfile was refused"
  # report -o onto a case file of --validate is covered by contract.
  # merge-reports: OUT onto an input report.
  begin overlap-merge-out-is-input; shard_reports "$C" json; snap
  run merge-reports "$C/s2.json" "$C/s1.json" "$C/s2.json"
  refused "OUT (the merged report) would overwrite input report 2 $C/s2.json"
  begin overlap-merge-out-via-dotdot; shard_reports "$C" json; snap
  run merge-reports "$C/src/../s1.json" "$C/s1.json" "$C/s2.json"
  expect_rc 2; unchanged
}

# ---- outputs that are symbolic links ----------------------------------------
group_links() {
  local i=0
  for flags in "${OUT_FLAGS[@]}" "merge-reports @OUT@ @S1@ @S2@"; do
    i=$((i + 1))
    begin "link-$i"; mkdir -p "$C/elsewhere"; echo precious > "$C/elsewhere/target"
    ln -s "$C/elsewhere/target" "$C/link"
    [[ "$flags" == merge* ]] && shard_reports "$C/elsewhere" json
    snap
    CASE="link: $flags"
    local f=${flags//@OUT@/$C/link}; f=${f//@O@/$C/o}
    f=${f//@S1@/$C/elsewhere/s1.json}; f=${f//@S2@/$C/elsewhere/s2.json}
    if [[ "$flags" == merge* ]]; then run $f; else run $f "$C/src"; fi
    refused "is a symbolic link (to $C/elsewhere/target); writing would replace the link"
    [ -L "$C/link" ] || fail "the link was replaced"
  done
  # A link to a directory named as an output file.
  begin link-to-directory; mkdir -p "$C/d"; ln -s "$C/d" "$C/dl"; snap
  run report --to hip -o "$C/dl" "$C/src"
  refused "is a symbolic link"
  # A dangling link: writing through it would create a file elsewhere.
  begin link-dangling; ln -s "$C/nowhere/x.json" "$C/dangling"; snap
  run check --to hip --format json --output "$C/dangling" "$C/src"
  refused "is a symbolic link"
  [ ! -e "$C/nowhere" ] || fail "wrote through a dangling link"
  # A symlinked output directory (-o DIR that is a link) is fine: only the
  # file named by a flag must not be a link.
  begin link-output-dir-is-fine; mkdir -p "$C/real"; ln -s "$C/real" "$C/o"
  run port -q --to hip -o "$C/o" "$C/src"; expect_rc 0
  [ -f "$C/real/hip/k.hip" ] || fail "no output through the linked directory"
}

# ---- two outputs of one run on one path -------------------------------------
group_same_path() {
  begin same-report-depfile; snap
  run port --to hip -o "$C/o" --report "$C/x" --depfile "$C/x" "$C/src"
  refused "--report and --depfile name the same file"
  begin same-output-depfile; snap
  run check --to hip --format json --output "$C/x" --depfile "$C/x" "$C/src"
  refused "--output and --depfile name the same file"
  begin same-html-markdown; snap
  run report --to hip -o "$C/x" --markdown "$C/x" "$C/src"
  refused "-o and --markdown name the same file"
  begin same-html-patch; snap
  run report --to hip -o "$C/p/hip.patch" --patch-dir "$C/p" "$C/src"
  refused "-o and --patch-dir name the same file"
  begin same-markdown-patch-via-link; mkdir -p "$C/p"; ln -s "$C/p" "$C/q"; snap
  run report --to hip -o "$C/r.html" --markdown "$C/q/hip.patch" --patch-dir "$C/p" "$C/src"
  refused "--markdown and --patch-dir name the same file"
  begin same-report-onto-port-output; snap
  run port --to hip -o "$C/o" --report "$C/o/hip/k.hip" "$C/src"
  refused "-o and --report name the same file"
  begin same-depfile-onto-port-output; snap
  run port --to hip -o "$C/o" --depfile "$C/o/hip/h.hpp" "$C/src"
  refused "-o and --depfile name the same file"
  begin same-baseline-output; baseline "$C/b.json" "$C/src"; snap
  run check --to hip --format json --baseline "$C/b.json" --output "$C/./b.json" "$C/src"
  refused "would overwrite the --baseline file"
}

# ---- options given an empty value --------------------------------------------
group_empty_values() {
  local args
  for args in "port --to hip -o= x" "port --to hip -o o --report= x" \
      "port --to hip -o o --depfile= x" "check --to hip --shard= x" \
      "port --to hip -o o --shard= x" "check --to hip --output= x" \
      "check --to hip --baseline= x" "check --to hip --src-root= x" \
      "check --to hip --rules-uri-base= x" "report --to hip -o= x" \
      "report --to hip -o r.html --markdown= x" \
      "report --to hip -o r.html --patch-dir= x" "port --to hip -o o -p= x" \
      "port --to hip -o o --rules= x" "validate --program= " \
      "validate --work-dir= x" "validate --gpu-bundle= x" \
      "check --to hip --cuda-path= x"; do
    begin "empty: $args"; snap
    # shellcheck disable=SC2086
    (cd "$C" && timeout 60 "$BIN" $args 2>"$TMP/err" >"$TMP/out"); rc=$?
    refused "needs a value (it was given empty)"
  done
}

# ---- merge-reports -------------------------------------------------------------
group_merge() {
  begin merge-forgotten-out; shard_reports "$C" json; snap
  run merge-reports "$C/s1.json" "$C/s2.json"
  refused "OUT is the report of a check run, not of a merge" "was OUT forgotten?"
  begin merge-rerun-replaces-merged; shard_reports "$C" json
  run merge-reports "$C/all.json" "$C/s1.json" "$C/s2.json"; expect_rc 0
  cp "$C/all.json" "$C/first.json"
  run merge-reports "$C/all.json" "$C/s1.json" "$C/s2.json"; expect_rc 0
  cmp -s "$C/all.json" "$C/first.json" || fail "a rerun changed the merged report"
  begin merge-different-trees; shard_reports "$C" json
  mkdir -p "$C/other/src"; cp "$C/src/"* "$C/other/src/"
  (cd "$C/other" && "$BIN" check -q --to hip --format json --output "$C/o2.json" src 2>/dev/null)
  (cd "$C" && "$BIN" check -q --to hip --format json --output "$C/o1.json" src 2>/dev/null); snap
  run merge-reports "$C/m.json" "$C/o1.json" "$C/o2.json"
  refused "reports of different trees cannot be merged" "$C/o2.json: error: its source root $C/other differs from $C"
  [ ! -e "$C/m.json" ] || fail "written"
  begin merge-mixed-formats; shard_reports "$C" json
  "$BIN" check -q --to hip --format sarif --output "$C/x.sarif" "$C/src" 2>/dev/null; snap
  run merge-reports "$C/m.json" "$C/s1.json" "$C/x.sarif"
  refused "merge reports of one format"
  begin merge-deep-json; python3 -c 'print("[" * 50000 + "]" * 50000)' > "$C/deep.json"; snap
  run merge-reports "$C/m.json" "$C/deep.json"
  refused "$C/deep.json: error: line 1: JSON nested deeper than 512 levels; not read"
  begin merge-deep-object; python3 -c 'print("{\"a\":" * 60000 + "1" + "}" * 60000)' > "$C/deep.json"; snap
  run merge-reports "$C/m.json" "$C/deep.json"
  refused "JSON nested deeper than 512 levels"
  begin merge-brackets-in-strings-not-nesting; shard_reports "$C" json
  python3 - "$C/s1.json" <<'EOF'
import json, sys
d = json.load(open(sys.argv[1]))
d["findings"].append({"target": "hip", "rule": "PK2001", "file": "x.cu", "line": 1, "col": 1,
                      "message": "[" * 5000 + "{" * 5000, "fingerprint": "f" * 32, "severity": "warning"})
json.dump(d, open(sys.argv[1], "w"))
EOF
  run merge-reports "$C/m.json" "$C/s1.json" "$C/s2.json"; expect_rc 0
  grep -q '"fingerprint": "ffff' "$C/m.json" || fail "the finding with brackets in its message was lost"
  begin merge-huge-input; truncate -s 70M "$C/huge.json"; snap
  run merge-reports "$C/m.json" "$C/huge.json"
  refused "$C/huge.json: error: input report 1 is 73400320 bytes, more than the 67108864 bytes this run reads of it"
  begin merge-input-is-directory; mkdir -p "$C/dir.json"; snap
  run merge-reports "$C/m.json" "$C/dir.json"
  refused "cannot read input report 1: is a directory"
  begin merge-missing-input; snap
  run merge-reports "$C/m.json" "$C/nope.json"
  refused "$C/nope.json: error: cannot read input report 1"
  begin merge-not-a-report; echo '{"hello": 1}' > "$C/x.json"; snap
  run merge-reports "$C/m.json" "$C/x.json"
  refused "not a port-kernel check report"
  begin merge-empty-out; shard_reports "$C" json; snap
  run merge-reports "" "$C/s1.json"
  refused "OUT is empty"
  begin merge-interrupted; shard_reports "$C" json; snap
  PK_TEST_INTERRUPT_AFTER=1 timeout 60 "$BIN" merge-reports "$C/m.json" "$C/s1.json" "$C/s2.json" 2>"$TMP/err"; rc=$?
  expect_rc 130; expect_err "interrupted; no output written"
  [ ! -e "$C/m.json" ] || fail "written"; unchanged; no_leftovers
  begin merge-sarif-uris-stable; mkdir -p "$C/src/my dir"; cp "$C/src/w.cu" "$C/src/my dir/a b.cu"
  cp "$C/src/h.cuh" "$C/src/my dir/"
  (cd "$C" && "$BIN" check -q --to hip --format sarif --output "$C/s.sarif" src 2>/dev/null)
  grep -q '"uri": "src/my%20dir/a%20b.cu"' "$C/s.sarif" || fail "SARIF uri not percent-encoded: $(grep -m1 'my' "$C/s.sarif")"
  ! grep -q '%0x' "$C/s.sarif" || fail "a malformed percent escape"
  run merge-reports "$C/m1.sarif" "$C/s.sarif"; expect_rc 0
  run merge-reports "$C/m2.sarif" "$C/m1.sarif"; expect_rc 0
  grep -q '"uri": "src/my%20dir/a%20b.cu"' "$C/m2.sarif" || fail "a merge re-encoded the uri"
}

# ---- baselines -------------------------------------------------------------------
group_baseline() {
  begin baseline-wrong-version; baseline "$C/b.json" "$C/src"
  sed -i 's|"check-report/1"|"check-report/9"|' "$C/b.json"; snap
  run check --to hip --baseline "$C/b.json" "$C/src"
  refused "a check report of format 'check-report/9'; this version reads 'check-report/1'"
  begin baseline-deep; python3 -c 'print("[" * 100000)' > "$C/b.json"; snap
  run check --to hip --baseline "$C/b.json" "$C/src"
  refused "JSON nested deeper than 512 levels"
  begin baseline-huge; truncate -s 100M "$C/b.json"; snap
  run check --to hip --baseline "$C/b.json" "$C/src"
  refused "more than the 67108864 bytes this run reads of it"
  begin baseline-non-utf8-names; mkdir -p "$C/t"; cp "$C/src/h.cuh" "$C/t/"
  cp "$C/src/k.cu" "$C/t/$(printf 'caf\xe9').cu"
  printf '__global__ void w(int *o){ o[threadIdx.x] = __shfl_xor(o[0], 1); }\n' > "$C/t/$(printf 'w\xff').cu"
  (cd "$C" && "$BIN" check -q --to hip --baseline b.json --update-baseline t 2>/dev/null); rc=$?
  expect_rc 0
  grep -q '"file_uri": "t/w%FF.cu"' "$C/b.json" || fail "non-UTF-8 name not kept: $(grep -m2 file "$C/b.json")"
  (cd "$C" && "$BIN" check --to hip --baseline b.json t 2>"$TMP/err"); rc=$?
  expect_rc 0; expect_err "0 new"
  begin baseline-sarif-as-baseline; snap
  "$BIN" check -q --to hip --format sarif --output "$C/b.sarif" "$C/src" 2>/dev/null
  run check --to hip --baseline "$C/b.sarif" "$C/src"; expect_rc 0; expect_err "0 new"
  begin baseline-not-json; echo 'not json' > "$C/b.json"; snap
  run check --to hip --baseline "$C/b.json" "$C/src"; refused "$C/b.json: error: not JSON"
  begin baseline-is-directory; mkdir "$C/b.json"; snap
  run check --to hip --baseline "$C/b.json" "$C/src"; refused "is a directory"
  begin baseline-update-failed-input-keeps-old; baseline "$C/b.json" "$C/src"
  printf 'this is not C++ {{{\n' > "$C/src/bad.cu"; snap
  run check --to hip --baseline "$C/b.json" --update-baseline "$C/src"
  expect_rc 2; expect_err "baseline not written"; unchanged; no_leftovers
  begin baseline-interrupted; baseline "$C/b.json" "$C/src"; snap
  PK_TEST_INTERRUPT_AFTER=1 timeout 120 "$BIN" check -q --to hip --baseline "$C/b.json" --update-baseline "$C/src" 2>"$TMP/err"; rc=$?
  expect_rc 130; unchanged; no_leftovers
}

# ---- depfiles ---------------------------------------------------------------------
make_reads() { # DEPFILE TARGET: make sees the dependencies as written
  printf 'include %s\n' "$1" > "$C/Makefile"
  make -f "$C/Makefile" -pn 2>/dev/null | grep -F -- "$2"
}
group_depfile() {
  local name
  for name in 'a:b' 'a#b' 'a$b' 'a b' "a'b" 'a&b' 'a(b)' 'a,b'; do
    begin "depfile-name: $name"; mkdir -p "$C/w"
    cp "$C/src/k.cu" "$C/w/$name.cu"; cp "$C/src/h.cuh" "$C/w/"
    run port -q --to hip -o "$C/o" --depfile "$C/d.d" "$C/w/$name.cu"; expect_rc 0
    # make reads back exactly the file name.
    make -pn -f "$C/d.d" >"$C/make.db" 2>/dev/null
    grep -qF -- "$C/w/$name.cu" "$C/make.db" ||
      fail "make does not read '$name' back: $(cat "$C/d.d")"
  done
  # What make reads as syntax wherever it stands: refused, nothing written.
  for name in 'a;b' 'a|b' 'a=b' 'a%b'; do
    begin "depfile-refused: $name"; mkdir -p "$C/w"; cp "$C/src/h.cuh" "$C/w/"
    cp "$C/src/k.cu" "$C/w/$name.cu"; snap
    run port -q --to hip -o "$C/o" --depfile "$C/d.d" "$C/w/$name.cu"
    refused "cannot be written in a depfile: the path holds '${name:1:1}', which make reads as rule syntax"
    [ ! -e "$C/o" ] || fail "outputs written without their depfile"
  done
  begin depfile-newline-refused; mkdir -p "$C/w"; cp "$C/src/h.cuh" "$C/w/"
  cp "$C/src/k.cu" "$C/w/a
b.cu"; snap
  run port -q --to hip -o "$C/o" --depfile "$C/d.d" "$C/w"
  refused "cannot be written in a depfile: the path holds a line end"
  [ ! -e "$C/o" ] || fail "outputs written without their depfile"
  begin depfile-check-output-fails-no-depfile; mkdir -p "$C/f"; echo x > "$C/blocker"; snap
  run check --to hip --format json --output "$C/blocker/r.json" --depfile "$C/d.d" "$C/src"
  expect_rc 2; [ ! -e "$C/d.d" ] || fail "the depfile was written though the report was not"
  unchanged; no_leftovers
  begin depfile-check-lists-baseline; baseline "$C/b.json" "$C/src"
  run check --to hip --format json --baseline "$C/b.json" --output "$C/r.json" --depfile "$C/d.d" "$C/src"
  expect_rc 0 1
  grep -qF "$C/src/h.cuh" "$C/d.d" || fail "the header is not a dependency"
  begin depfile-without-output; snap
  run check --to hip --depfile "$C/d.d" "$C/src"
  refused "--depfile needs a file to describe"
}

# ---- Markdown and HTML injection -------------------------------------------------
# cmark-gfm (installed by scripts/setup.sh) renders the PR comment as GitHub
# does; what it renders from user text must be text.
render_md() { cmark-gfm --unsafe --extension table --extension autolink --extension strikethrough --extension tagfilter "$1"; }
group_escape() {
  local names=(
    '![x](https__e.example_p.png)' '<img src=x onerror=alert(1)>' '[a](javascript:alert(1))'
    '`code` **bold**' '# heading' 'a|b|c' 'www.example.com' '@someone' '$x^2$'
    '&lt;b&gt;' '<script>alert(1)' '~~gone~~' '"quoted" &amp;'
  )
  local nm
  for nm in "${names[@]}"; do
    begin "escape: $nm"; mkdir -p "$C/w"
    local file="${nm//\//_}"
    cp "$C/src/h.cuh" "$C/w/"
    { echo '#include "h.cuh"'; echo "// $nm"; printf '__global__ void w(int *o){ o[threadIdx.x] = __shfl_xor(o[0], 1); }\n'; } > "$C/w/$file.cu"
    run report --to hip -o "$C/r.html" --markdown "$C/r.md" "$C/w"; expect_rc 0
    local html; html=$(render_md "$C/r.md")
    local bad='<img|<a |<h[1-6]>[^<]*(heading|pwned)|<script|<em>|<strong>bold|<del>|<math|<code>code</code>|<table>.*\|'
    ! grep -qiE "$bad" <<<"$html" || fail "markup from a file name: $(grep -iE "$bad" <<<"$html" | head -3)"
    # The rendered text shows the name as written.
    printf '%s' "$html" > "$C/rendered.html"
    python3 -c 'import html, re, sys
text = html.unescape(re.sub(r"<[^>]+>", "", open(sys.argv[2]).read())).replace("\u2060", "")
sys.exit(0 if sys.argv[1].replace("/", "_") in text else 1)' "$nm" "$C/rendered.html" ||
      fail "the name is not shown as written: $(grep -F 'w/' "$C/rendered.html" | head -3)"
    ! grep -qF "<img src=x" "$C/r.html" || fail "raw HTML from a file name in the HTML report"
    ! grep -q "<script>alert" "$C/r.html" || fail "a script from a file name in the HTML report"
  done
  begin escape-bidi-name; mkdir -p "$C/w"; cp "$C/src/h.cuh" "$C/w/"
  cp "$C/src/k.cu" "$C/w/$(printf 'a\xe2\x80\xaeb').cu"
  run report --to hip -o "$C/r.html" --markdown "$C/r.md" "$C/w"; expect_rc 0
  ! env LC_ALL=C grep -q -P '\xe2\x80\xae' "$C/r.html" "$C/r.md" || fail "a bidi control shown raw"
  grep -qF 'a&lt;U+202E&gt;b' "$C/r.html" || fail "the bidi control is not shown as <U+202E>"
  begin escape-html-csp
  run report --to hip -o "$C/r.html" "$C/src"; expect_rc 0
  grep -q "Content-Security-Policy\" content=\"default-src 'none'" "$C/r.html" || fail "no CSP"
  begin escape-newline-name-markdown; mkdir -p "$C/w"; cp "$C/src/h.cuh" "$C/w/"
  cp "$C/src/k.cu" "$C/w/a
## pwned.cu"
  run report --to hip -o "$C/r.html" --markdown "$C/r.md" "$C/w"; expect_rc 0
  ! render_md "$C/r.md" | grep -q '<h2>pwned' || fail "a heading from a newline in a file name"
}

# ---- GPU bundles: no shell sees a user's name ------------------------------------
# A stand-in nvcc that hands its arguments to a shell, as the real one does
# with its sub-tools: any name that reaches it unquoted runs.
fake_nvcc() {
  cat > "$C/nvcc" <<'EOF'
#!/bin/sh
for a in "$@"; do sh -c ": $a"; done
case " $* " in *" --version "*) echo "Cuda compilation tools, release 12.4, V12.4.0"; exit 0;; esac
exit 1
EOF
  chmod +x "$C/nvcc"
}
program_src() {
  printf '#include <cstdio>\n__global__ void k(int *x) { x[threadIdx.x] = threadIdx.x; }\nint main() { int *d; cudaMalloc(&d, 128); k<<<1,32>>>(d); cudaDeviceSynchronize(); printf("ok\\n"); return 0; }\n' > "$1"
}
group_bundle() {
  local nm
  for nm in 'p$(touch PWNED);q' 'p`touch PWNED`' "p';touch PWNED;'" 'p"$(touch PWNED)"' 'p q&touch PWNED' '-rf' '.hidden'; do
    begin "bundle-name: $nm"; mkdir -p "$C/w"; program_src "$C/w/$nm.cu"; fake_nvcc
    (cd "$C" && timeout 120 "$BIN" validate --gpu-bundle "$C/b" --program "w/$nm.cu" 2>"$TMP/err" >"$TMP/out"); rc=$?
    expect_rc 0
    local bad; bad=$(cd "$C/b" && find . | grep -vE '^[A-Za-z0-9._/-]+$' || true)
    [ -z "$bad" ] || fail "unsafe names in the bundle: $bad"
    grep -qF "\"name\": \"$(python3 -c 'import json,sys; print(json.dumps(sys.argv[1])[1:-1])' "$nm.cu")\"" "$C/b/manifest.json" ||
      fail "manifest.json does not map the safe name back"
    (cd "$C" && timeout 120 bash b/run.sh --nvcc "$C/nvcc" --compile-only >/dev/null 2>&1)
    [ -z "$(find "$C" -name 'PWNED*')" ] || fail "a file name ran a command through nvcc's shell"
  done
  begin bundle-define-value; mkdir -p "$C/w"; program_src "$C/w/p.cu"; fake_nvcc
  (cd "$C" && timeout 120 "$BIN" validate --gpu-bundle "$C/b" --program w/p.cu --extra-arg='-DNAME="$(touch PWNED)"' 2>"$TMP/err" >"$TMP/out"); rc=$?
  expect_rc 0
  grep -q 'define NAME "$(touch PWNED)"' "$C"/b/programs/*/defines.h || fail "the define is not in the header"
  ! grep -q 'PWNED' "$C/b/manifest.json" || fail "a define value on nvcc's command line"
  (cd "$C" && timeout 120 bash b/run.sh --nvcc "$C/nvcc" --compile-only >/dev/null 2>&1)
  [ -z "$(find "$C" -name 'PWNED*')" ] || fail "a define ran a command"
  begin bundle-case-name; mkdir -p "$C/cases"; cp -r "$SRC/corpus/saxpy" "$C/cases/s\$(touch PWNED)"; fake_nvcc
  (cd "$C" && timeout 300 "$BIN" validate --gpu-bundle "$C/b" cases 2>"$TMP/err" >"$TMP/out"); rc=$?
  expect_rc 0
  bad=$(cd "$C/b" && find . | grep -vE '^[A-Za-z0-9._/-]+$' || true)
  [ -z "$bad" ] || fail "unsafe names in the bundle: $bad"
  (cd "$C" && timeout 120 bash b/run.sh --nvcc "$C/nvcc" --compile-only >/dev/null 2>&1)
  [ -z "$(find "$C" -name 'PWNED*')" ] || fail "a case name ran a command"
  begin bundle-include-of-renamed-dir; mkdir -p "$C/w/in c"; program_src "$C/w/p.cu"
  printf '#pragma once\n' > "$C/w/in c/h.h"; printf '#include "in c/h.h"\n' | cat - "$C/w/p.cu" > "$C/w/q.cu"
  (cd "$C" && timeout 120 "$BIN" validate --gpu-bundle "$C/b" --program "w/q.cu" 2>"$TMP/err" >"$TMP/out"); rc=$?
  expect_rc 1 2
  expect_err "its #include names 'in c', a name the GPU bundle cannot pass to nvcc"
  begin bundle-interrupted; mkdir -p "$C/cases"; cp -r "$SRC/corpus/saxpy" "$C/cases/a"; cp -r "$SRC/corpus/saxpy" "$C/cases/b"; snap
  (cd "$C" && PK_TEST_INTERRUPT_AFTER=1 timeout 300 "$BIN" validate --gpu-bundle "$C/b" cases 2>"$TMP/err" >"$TMP/out"); rc=$?
  expect_rc 130; expect_err "interrupted; no bundle written"
  unchanged; [ -z "$(ls -A "$C" | grep -v '^cases$\|^src$\|^db$\|^rules.yaml$')" ] || fail "left behind: $(ls -A "$C")"
  begin bundle-tampered-manifest; mkdir -p "$C/w"; program_src "$C/w/p.cu"; fake_nvcc
  (cd "$C" && timeout 120 "$BIN" validate --gpu-bundle "$C/b" --program w/p.cu >/dev/null 2>&1)
  sed -i 's|"driver": "programs/p/original/p.cu"|"driver": "programs/p/original/p.cu;touch PWNED"|' "$C/b/manifest.json"
  (cd "$C" && timeout 120 bash b/run.sh --nvcc "$C/nvcc" --compile-only >/dev/null 2>&1)
  [ -z "$(find "$C" -name 'PWNED*')" ] || fail "a tampered manifest ran a command"
}

# ---- the contracts of each subcommand ------------------------------------------
group_contract() {
  begin report-input-does-not-parse; printf 'this is not C++ {{{\n' > "$C/src/bad.cu"; snap
  run report --to hip -o "$C/r.html" "$C/src"
  expect_rc 4; expect_err "bad.cu"; [ -s "$C/r.html" ] || fail "no report for the inputs that parse"
  begin report-no-input-parses; mkdir -p "$C/w"; printf 'not C++ {{{\n' > "$C/w/bad.cu"; snap
  run report --to hip -o "$C/r.html" "$C/w"
  refused "no input could be ported; no output written"
  [ ! -e "$C/r.html" ] || fail "written"
  begin report-no-empty-patch; snap
  printf '__global__ void n(float *x) { x[0] = 1.f; }\n' > "$C/src/plain.cu"
  run report --to cuda -o "$C/r.html" --patch-dir "$C/p" "$C/src/plain.cu"; expect_rc 0
  expect_err "the port changes no file; no cuda.patch written"
  [ ! -e "$C/p/cuda.patch" ] || fail "an empty patch was written"
  begin report-validate-source-file-is-its-case; mkdir -p "$C/c"; cp -r "$SRC/corpus/saxpy/." "$C/c/"
  run report --to hip --validate -o "$C/r.html" "$C/c/saxpy.cu"; expect_rc 0
  grep -q 'saxpy' "$C/r.html" || fail "the case of the file was not validated"
  begin report-validate-file-without-case; snap
  run report --to hip --validate -o "$C/r.html" "$C/src/k.cu"
  expect_rc 2; expect_err "not a case: give a case directory or its case.yaml"
  [ ! -e "$C/r.html" ] || fail "written"
  begin validate-source-file-without-case; snap
  run validate --to hip "$C/src/k.cu"
  refused "$C/src/k.cu: error: not a case"
  begin shard-malformed; snap
  for s in 0/2 3/2 1/0 a/b 1/2/3 -1/2; do
    run check --to hip --shard "$s" "$C/src"; expect_rc 2; unchanged
  done
  begin check-interrupted-leaves-nothing; snap
  PK_TEST_INTERRUPT_AFTER=1 timeout 120 "$BIN" check -q --to hip --format json --output "$C/r.json" --depfile "$C/d.d" "$C/src" 2>"$TMP/err"; rc=$?
  expect_rc 130; [ ! -e "$C/r.json" ] && [ ! -e "$C/d.d" ] || fail "written"; unchanged; no_leftovers
  begin report-interrupted-leaves-nothing; snap
  PK_TEST_INTERRUPT_AFTER=1 timeout 120 "$BIN" report --to hip -o "$C/r.html" --markdown "$C/r.md" "$C/src" 2>"$TMP/err"; rc=$?
  expect_rc 130; [ ! -e "$C/r.html" ] && [ ! -e "$C/r.md" ] || fail "written"; unchanged; no_leftovers
  begin validate-work-dir-inside-input; mkdir -p "$C/c"; cp -r "$SRC/corpus/saxpy/." "$C/c/"; snap
  run validate --to hip --work-dir "$C/c/scratch" "$C/c"
  refused "--work-dir is inside $C/c, which this run validates"
  # A missing input is reported as missing, not as a root holding the work
  # directory (its parent is not what the run validates); nothing is created.
  begin validate-missing-input-beside-work-dir; snap
  run validate --to hip --work-dir "$C/scratch" "$C/no-such-case"
  refused "$C/no-such-case: error: No such file or directory"
  ! grep -q "is inside" "$TMP/err" || fail "a missing input named as the work directory's root"
  [ ! -e "$C/scratch" ] || fail "work directory created"
  run validate --to hip --work-dir "$C/scratch" --program "$C/no-such.cu"
  refused "$C/no-such.cu: error: no such file"
  [ ! -e "$C/scratch" ] || fail "work directory created"
  begin validate-bundle-inside-input; mkdir -p "$C/c"; cp -r "$SRC/corpus/saxpy/." "$C/c/"; snap
  run validate --gpu-bundle "$C/c/b" "$C/c"
  refused "--gpu-bundle is inside $C/c, which this run validates"
  begin validate-work-dir-inside-program-dir; mkdir -p "$C/w"; snap
  run validate --to hip --work-dir "$C/src/tmp" --program "$C/src/k.cu"
  refused "--work-dir is inside $C/src"
}

# ---- readers of YAML and JSON inputs: bounded, never a crash ------------------
group_readers() {
  begin readers-case-yaml-deep-flow; mkdir -p "$C/c"; cp -r "$SRC/corpus/saxpy/." "$C/c/"
  python3 -c 'print("args: " + "[" * 100000)' >> "$C/c/case.yaml"; snap
  run validate --to hip "$C/c"
  expect_rc 1 2; expect_err "case.yaml:"; expect_err "YAML nested deeper than 256 levels; not read"
  unchanged
  begin readers-case-yaml-deep-block; mkdir -p "$C/c"; cp -r "$SRC/corpus/saxpy/." "$C/c/"
  python3 -c 'print("extra:\n" + "".join(" " * i + "k%d:\n" % i for i in range(1, 2000)))' >> "$C/c/case.yaml"; snap
  run validate --to hip "$C/c"
  expect_rc 1 2; expect_err "YAML nested deeper than 256 levels"; unchanged
  begin readers-rules-deep; python3 -c 'print("rule: PK8001\ntitle: t\nentries:\n  - { cuda: a, hip: " + "[" * 100000 + " }")' > "$C/rules.yaml"; snap
  run port --to hip -o "$C/o" --rules "$C/rules.yaml" "$C/src/k.cu"
  refused "$C/rules.yaml:4: error: YAML nested deeper than 256 levels"
  begin readers-rules-deep-dashes; python3 -c 'print("rule: PK8001\ntitle: t\nentries:\n" + "- " * 5000 + "x")' > "$C/rules.yaml"; snap
  run check --to hip --rules "$C/rules.yaml" "$C/src/k.cu"
  refused "YAML nested deeper than 256 levels"
  begin readers-compdb-deep; python3 -c 'print("[" * 100000 + "]" * 100000)' > "$C/db/compile_commands.json"; snap
  run port --to hip -o "$C/o" -p "$C/db" "$C/src/k.cu"
  refused "compile_commands.json" "JSON nested deeper than 512 levels"
  begin readers-compdb-huge; truncate -s 300M "$C/db/compile_commands.json"; snap
  run check --to hip -p "$C/db" "$C/src/k.cu"
  refused "compile_commands.json" "bytes this run reads of it"
}

# ---- translations a hostile source steers: flagged, never silently wrong -------
group_targets() {
  # NKI: a kernel and its parameters named like the output's modules,
  # builtins and temporaries; the output must still be a valid module that
  # binds the runtime's names.
  begin nki-names-shadowing; mkdir -p "$C/w"
  printf '__global__ void nl(const float *range, float *lo, int nki) {\n  int i = blockIdx.x * blockDim.x + threadIdx.x;\n  if (i < nki) lo[i] = 2.f * range[i];\n}\n' > "$C/w/k.cu"
  run port --to nki -o "$C/o" "$C/w/k.cu"; expect_rc 0 3
  python3 -m py_compile "$C/o/nki/k.py" || fail "the NKI output does not compile"
  ! grep -qE '^def (nl|range|nki)\(' "$C/o/nki/k.py" || fail "a kernel shadows a module or builtin: $(grep '^def' "$C/o/nki/k.py")"
  ! grep -qE '^import nki$|^import nki.language as nl$' "$C/o/nki/k.py" ||
    grep -qE '^def nl_\(' "$C/o/nki/k.py" || fail "the kernel was not renamed away from the module"
  # HIP -> CUDA: an offset that only a 64-lane wave has.
  begin cuda-wave64-offset; mkdir -p "$C/w"
  printf '#include <hip/hip_runtime.h>\n__global__ void h(float *x) {\n  float v = x[threadIdx.x];\n  x[threadIdx.x] = __shfl_xor(v, 32);\n}\n' > "$C/w/h.hip"
  run port --to cuda -o "$C/o" "$C/w/h.hip"; expect_rc 0 3
  expect_err "h.hip:4:"; expect_err "[PK6045]"
  grep -q "PK6045" "$C/o/cuda/h.cu" || fail "the CUDA output does not carry the finding"
  # ROCm 5: bfloat16 API it lacks is an error, not an output that does not compile.
  begin rocm5-bf16; mkdir -p "$C/w"
  printf '#include <cuda_bf16.h>\n__global__ void b(__nv_bfloat162 *o, float2 f) { o[0] = __float22bfloat162_rn(f); o[1] = __hmax2(o[0], o[1]); }\n' > "$C/w/b.cu"
  run port --to hip --rocm-version=5 -o "$C/o" "$C/w/b.cu"
  expect_rc 3; expect_err "[PK1019]"
  # A warp intrinsic spelled through ## in a macro: flagged at the use.
  begin macro-pasted-intrinsic; mkdir -p "$C/w"
  printf '#define VOTE(op, p) __##op##_sync(0xffffffffu, p)\n__global__ void v(int *o) { o[threadIdx.x] = VOTE(any, threadIdx.x > 3) + VOTE(all, threadIdx.x > 1); }\n' > "$C/w/v.cu"
  run port --to hip -o "$C/o" "$C/w/v.cu"; expect_rc 0 3
  ! grep -q "__pk_all32" "$C/o/hip/v.hip" || ! grep -q "define VOTE(op, p) __pk" "$C/o/hip/v.hip" ||
    fail "a pasted token was edited inside the macro: $(grep define "$C/o/hip/v.hip")"
  # A backslash in a file name: refused, never copied unported.
  begin backslash-name; mkdir -p "$C/w/a"; cp "$C/src/w.cu" "$C/w/a/b.cu"; cp "$C/src/w.cu" "$C/w/a\\b.cu"; snap
  run port --to hip -o "$C/o" "$C/w/a\\b.cu"
  expect_rc 2; expect_err "PK9001"; [ ! -e "$C/o" ] || fail "written"; unchanged
}

case "$GROUP" in
  overlap) group_overlap ;; links) group_links ;; same-path) group_same_path ;;
  empty-values) group_empty_values ;; merge) group_merge ;; baseline) group_baseline ;;
  depfile) group_depfile ;; escape) group_escape ;; bundle) group_bundle ;;
  contract) group_contract ;; readers) group_readers ;; targets) group_targets ;;
  *) echo "attack.sh: unknown group '$GROUP'" >&2; exit 2 ;;
esac
echo "attack-$GROUP: $N cases passed"
