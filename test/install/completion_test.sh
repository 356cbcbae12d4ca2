#!/usr/bin/env bash
# install.completion: the generated bash completion completes commands,
# options, enumerated values and file names (with spaces); the zsh
# completion and the man page are well formed.  (gate.docs_man, docs_bash,
# docs_zsh check that the files are what the binary generates.)
#
#   completion_test.sh SOURCE_DIR
set -u
src=$1
T=$(mktemp -d /tmp/pk-compl.XXXXXX)
trap 'rm -rf "$T"' EXIT
fails=0
fail() { echo "FAIL: $*"; fails=$((fails + 1)); }

bash_reply() {  # bash_reply WORD... : COMPREPLY for the last word, one a line
  ( cd "$T" && source "$src/completions/port-kernel.bash" || exit 9
    COMP_WORDS=("$@"); COMP_CWORD=$(($# - 1))
    _port_kernel port-kernel "${COMP_WORDS[COMP_CWORD]}" "${COMP_WORDS[COMP_CWORD-1]}"
    printf '%s\n' "${COMPREPLY[@]}" )
}
complete -p 2>/dev/null >/dev/null
r=$(bash_reply port-kernel "")
for c in port check validate report explain rules merge-reports; do
  grep -qx "$c" <<<"$r" || fail "bash: command $c not completed (got: $(tr '\n' ' ' <<<"$r"))"
done
r=$(bash_reply port-kernel check --for)
[ "$r" = "--format=" ] || fail "bash: check --for -> '$r', want --format="
r=$(bash_reply port-kernel check --format = s)
[ "$r" = sarif ] || fail "bash: check --format=s -> '$r', want sarif"
r=$(bash_reply port-kernel check --format =)
grep -qx json <<<"$r" && grep -qx text <<<"$r" || fail "bash: check --format= -> '$r'"
r=$(bash_reply port-kernel port --valid)
[ -z "$r" ] || fail "bash: port --valid -> '$r' (validate is not an option of port)"
mkdir -p "$T/dir with space"
r=$(bash_reply port-kernel port -o "dir w")
[ "$r" = "dir with space" ] || fail "bash: port -o 'dir w' -> '$r'"
r=$(bash_reply port-kernel check --to=hip "dir")
[ "$r" = "dir with space" ] || fail "bash: a file argument -> '$r'"

if command -v zsh >/dev/null; then
  zsh -n "$src/completions/_port-kernel" || fail "zsh: _port-kernel does not parse"
  head -1 "$src/completions/_port-kernel" | grep -qx '#compdef port-kernel' || fail "zsh: no #compdef line"
  for c in port check validate report; do
    grep -q "^_port_kernel_$c()" "$src/completions/_port-kernel" || fail "zsh: no function for $c"
  done
else
  echo "note: zsh not installed (scripts/setup.sh installs it): the zsh file is only compared"
fi

if command -v groff >/dev/null; then
  w=$(groff -man -Tutf8 -ww -z "$src/docs/man/port-kernel.1" 2>&1)
  [ -z "$w" ] || fail "man: groff warnings: $w"
  txt=$(groff -man -Tutf8 "$src/docs/man/port-kernel.1" 2>/dev/null | sed 's/.\x08//g')
  for s in "NAME" "SYNOPSIS" "EXIT STATUS" "port-kernel check" "--baseline" "PORT_KERNEL_DATA_DIR"; do
    grep -qF -- "$s" <<<"$txt" || fail "man: '$s' missing in the rendered page"
  done
else
  fail "groff is not installed (scripts/setup.sh installs groff-base)"
fi

[ "$fails" -eq 0 ] || { echo "FAIL: $fails check(s) failed"; exit 1; }
echo "PASS: install.completion"
