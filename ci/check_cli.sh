#!/usr/bin/env bash
# The command-line conventions of the nicref tool (harness/cli.h, docs/nicref.1), checked on the
# built tool: every command's --help and -h print its usage on stdout and exit 0; an unknown
# option, a missing argument or a wrong operand count prints one line naming the command, then
# that usage, on stderr, and exits 2; --opt=value is --opt value; --version; the man page is
# well-formed and documents every command and option.
# Usage: ci/check_cli.sh [TOOL] [MAN_PAGE]   (from the repository root)
set -uo pipefail
tool=${1:-build/gcc/nicref}
man=${2:-docs/nicref.1}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fails=0
fail() {
  echo "cli-check: FAIL: $*"
  fails=$((fails + 1))
}

# run ARGS...: exit status in $rc, stdout in $tmp/out, stderr in $tmp/err.
run() {
  "$tool" "$@" >"$tmp/out" 2>"$tmp/err"
  rc=$?
}

# Every command and subcommand. The overview must list exactly these (a new command is
# tested once it is added here).
commands=("vectors" "decode" "layouts" "conformance" "adp timeline" "adp check" "lro explain"
  "replay" "repro" "drive" "pcie link" "pcie check" "roce check" "help")
groups=("adp" "lro" "pcie" "roce")

run --help
[ "$rc" -eq 0 ] || fail "nicref --help exits $rc"
cp "$tmp/out" "$tmp/usage.overview"
listed=$(sed -n '/^commands:/,/^$/p' "$tmp/out" | awk 'NF && !/^commands:/ {
  if ($1 == "adp" || $1 == "lro" || $1 == "pcie" || $1 == "roce") print $1 " " $2; else print $1 }')
expected=$(printf '%s\n' "${commands[@]}")
[ "$listed" = "$expected" ] || fail "the overview lists commands '$(echo $listed)', the test knows '$(echo $expected)'"

# --help and -h of every command and group: usage on stdout, nothing on stderr, exit 0.
for c in "${commands[@]}" "${groups[@]}"; do
  read -r -a words <<<"$c"
  for h in --help -h; do
    run "${words[@]}" "$h"
    [ "$rc" -eq 0 ] || fail "nicref $c $h exits $rc"
    head -n 1 "$tmp/out" | grep -q "^usage: nicref $c" ||
      fail "nicref $c $h: stdout does not start with 'usage: nicref $c'"
    [ -s "$tmp/err" ] && fail "nicref $c $h writes to stderr: $(head -n 1 "$tmp/err")"
    cp "$tmp/out" "$tmp/usage.$h"
  done
  cmp -s "$tmp/usage.--help" "$tmp/usage.-h" || fail "nicref $c: --help and -h differ"
  cp "$tmp/usage.--help" "$tmp/usage.$c"
  # `nicref help CMD` prints the same text.
  run help "${words[@]}"
  [ "$rc" -eq 0 ] || fail "nicref help $c exits $rc"
  cmp -s "$tmp/out" "$tmp/usage.$c" || fail "nicref help $c differs from nicref $c --help"
done
for a in -h help; do
  run $a
  [ "$rc" -eq 0 ] || fail "nicref $a exits $rc"
  cmp -s "$tmp/out" "$tmp/usage.overview" || fail "nicref $a does not print the overview"
done
head -n 1 "$tmp/usage.overview" | grep -q '^usage: nicref \[' || fail "nicref --help: no usage line"

# usage_error WHAT LINE_PATTERN USAGE_OF ARGS...: exit 2, nothing on stdout, stderr is one
# line matching LINE_PATTERN then exactly the usage of USAGE_OF.
usage_error() {
  local what=$1 pattern=$2 usage_of=$3
  shift 3
  run "$@"
  [ "$rc" -eq 2 ] || { fail "$what: nicref $* exits $rc, not 2"; return; }
  [ -s "$tmp/out" ] && fail "$what: nicref $* writes to stdout"
  head -n 1 "$tmp/err" | grep -Eq -- "$pattern" ||
    fail "$what: nicref $*: first line '$(head -n 1 "$tmp/err")' does not match '$pattern'"
  tail -n +2 "$tmp/err" | cmp -s - "$tmp/usage.$usage_of" ||
    fail "$what: nicref $*: the line is not followed by the usage of '$usage_of'"
}

usage_error "unknown option" "^nicref vectors: unrecognized option '--jsno'$" vectors \
  vectors --jsno r.json vectors/
usage_error "unknown short option" "^nicref vectors: invalid option -- 'x'$" vectors \
  vectors -x vectors/
usage_error "missing argument" "^nicref vectors: option '--json' requires an argument$" vectors \
  vectors vectors/ --json
usage_error "argument not taken" "^nicref vectors: option '--summary' doesn't allow an argument$" \
  vectors vectors --summary=yes vectors/
usage_error "no operand" "^nicref vectors: " vectors vectors
usage_error "unknown option" "^nicref decode: unrecognized option '--bogus'$" decode \
  decode --bogus cmdq_entry 00
usage_error "operand count" "^nicref decode: .*2 operands" decode decode cmdq_entry
usage_error "operand count" "^nicref decode: .*2 operands" decode decode cmdq_entry 00 00
usage_error "unknown option" "^nicref layouts: unrecognized option '--tsb'$" layouts \
  layouts --tsb
usage_error "operand" "^nicref layouts: unexpected operand 'extra'$" layouts layouts extra
usage_error "unknown option" "^nicref conformance: unrecognized option '--bogus'$" conformance \
  conformance --bogus
usage_error "unknown option" "^nicref adp timeline: unrecognized option '--sed'$" \
  "adp timeline" adp timeline --classic --sed 1
usage_error "missing argument" "^nicref adp timeline: option '--seed' requires an argument$" \
  "adp timeline" adp timeline --classic --seed
usage_error "operand" "^nicref adp timeline: unexpected operand 'extra'$" "adp timeline" \
  adp timeline --classic extra
usage_error "unknown option" "^nicref adp check: unrecognized option '--tolerence-ns'$" \
  "adp check" adp check --classic --tolerence-ns 5 x.pcap
usage_error "no operand" "^nicref adp check: " "adp check" adp check --classic
usage_error "operand count" "^nicref adp check: unexpected operand 'b.pcap'$" "adp check" \
  adp check --classic a.pcap b.pcap
usage_error "unknown option" "^nicref lro explain: unrecognized option '--jsn'$" \
  "lro explain" lro explain --jsn x.pcap
usage_error "no operand" "^nicref lro explain: missing CAPTURE$" "lro explain" lro explain
usage_error "bad field" "^nicref lro explain: --tir-lro: no field 'mask'" "lro explain" \
  lro explain --tir-lro mask=3 x.pcap
usage_error "unknown option" "^nicref replay: unrecognized option '--jsnol'$" replay \
  replay --jsnol x s.json c.pcap
usage_error "operand count" "^nicref replay: expected SETUP and CAPTURE, got 1 operand$" replay \
  replay s.json
usage_error "option combination" "^nicref replay: --json, --junit and --ignore" replay \
  replay --json r.json s.json c.pcap
usage_error "no target" "^nicref repro: --target is needed" repro repro crash-1
usage_error "no operand" "^nicref repro: missing FILE" repro repro --target rx
usage_error "bad number" "^nicref repro: --max-runs: 'x' is not a number" repro \
  repro --target rx --max-runs x crash-1
usage_error "no program" "^nicref drive: no PROGRAM to run$" drive drive
usage_error "bad profile" "^nicref drive: --profile: no profile setting 'bogus'" drive \
  drive --profile bogus=1 -- /bin/true
usage_error "unknown option" "^nicref drive: unrecognized option '--bogus'$" drive \
  drive --bogus -- /bin/true
usage_error "no operand" "^nicref pcie check: a TRACE is needed$" "pcie check" pcie check
usage_error "operand count" "^nicref pcie check: one TRACE at a time$" "pcie check" \
  pcie check a.jsonl b.jsonl
usage_error "unknown option" "^nicref pcie check: unrecognized option '--jsn'$" "pcie check" \
  pcie check --jsn a.jsonl
usage_error "bad number" "^nicref pcie link: seed: 'x' is not a number" "pcie link" \
  pcie link --seed x
usage_error "operand" "^nicref pcie link: unexpected operand 'extra'$" "pcie link" \
  pcie link extra
usage_error "missing subcommand" "^nicref pcie: missing subcommand$" pcie pcie
usage_error "no operand" "^nicref roce check: no CAPTURE given$" "roce check" roce check
usage_error "operand count" "^nicref roce check: unexpected operand 'b.pcap'$" "roce check" \
  roce check a.pcap b.pcap
usage_error "unknown option" "^nicref roce check: unrecognized option '--jsn'$" "roce check" \
  roce check --jsn a.pcap
usage_error "QP without PROFILE" "^nicref roce check: the QP and OPTIONS" "roce check" \
  roce check --timeout 4 a.pcap
usage_error "missing subcommand" "^nicref adp: missing subcommand$" adp adp
usage_error "unknown subcommand" "^nicref adp: unknown subcommand 'plot'$" adp adp plot
usage_error "unknown option" "^nicref adp: unrecognized option '--bogus'$" adp adp --bogus
usage_error "unknown command" "^nicref help: no command 'bogus'$" help help bogus
usage_error "unknown command" "^nicref: unknown command 'bogus'$" overview bogus
usage_error "unknown option" "^nicref: unrecognized option '--bogus'$" overview --bogus
usage_error "missing command" "^nicref: missing command$" overview

# --opt=value is --opt value (the report lands in the named file either way), and options
# may follow the operands.
run vectors --json="$tmp/eq.json" vectors/cmdq/
[ "$rc" -eq 0 ] || fail "nicref vectors --json=FILE vectors/cmdq/ exits $rc"
run vectors vectors/cmdq/ --json "$tmp/sp.json"
[ "$rc" -eq 0 ] || fail "nicref vectors vectors/cmdq/ --json FILE exits $rc"
[ -s "$tmp/eq.json" ] || fail "--json=FILE wrote nothing"
[ -s "$tmp/sp.json" ] || fail "--json FILE wrote nothing"
run adp timeline --classic --timeout=3 --retry-cnt=2 --loss=0-9
[ "$rc" -eq 0 ] && grep -q 'QP timeout 3 .*retry_cnt 2' "$tmp/out" ||
  fail "adp timeline --timeout=3 --retry-cnt=2 not taken: $(head -n 1 "$tmp/out")"
run layouts --tsv
[ "$rc" -eq 0 ] && head -n 1 "$tmp/out" | grep -q $'\t' || fail "layouts --tsv is not TSV"
run decode cmdq_entry 07
[ "$rc" -eq 0 ] || fail "decode cmdq_entry 07 exits $rc"
# -- ends the options: what follows is an operand, even when it looks like an option.
usage_error "operand after --" "^nicref layouts: unexpected operand '--tsv'$" layouts \
  layouts -- --tsv

# --version: "nicref MAJOR.MINOR.PATCH", the version nicref/version.h says.
want=$(awk '$2 ~ /^NICREF_VERSION_(MAJOR|MINOR|PATCH)$/ { v = v (v == "" ? "" : ".") $3 }
  END { print v }' reference/include/nicref/version.h)
for v in --version -V; do
  run $v
  [ "$rc" -eq 0 ] || fail "nicref $v exits $rc"
  [ "$(cat "$tmp/out")" = "nicref $want" ] || fail "nicref $v prints '$(cat "$tmp/out")', not 'nicref $want'"
done

# The man page: groff finds nothing to warn about; it has the sections of a man page, a
# subsection per command, and every long option of every usage text.
if [ ! -f "$man" ]; then
  fail "no man page $man"
else
  if command -v groff >/dev/null 2>&1; then
    warnings=$(groff -man -ww -z "$man" 2>&1)
    [ -z "$warnings" ] || fail "groff warns about $man: $warnings"
  else
    echo "cli-check: groff not installed; the man page is checked for structure only"
  fi
  for sh in NAME SYNOPSIS DESCRIPTION COMMANDS "EXIT STATUS" FILES EXAMPLES "SEE ALSO"; do
    grep -q "^\.SH \"\?$sh\"\?\$" "$man" || fail "$man has no section $sh"
  done
  grep -q '^\.TH NICREF 1 ' "$man" || fail "$man has no .TH NICREF 1 line"
  for c in "${commands[@]}"; do
    grep -q "^\.SS \"\?$c\b" "$man" || fail "$man has no subsection for '$c'"
    for opt in $(grep -oE -- '--[a-z][a-z-]*' "$tmp/usage.$c" | sort -u); do
      grep -qF -- "${opt//-/\\-}" "$man" || fail "$man does not document $opt of '$c'"
    done
  done
fi

if [ "$fails" -ne 0 ]; then
  echo "cli-check: $fails failure(s)"
  exit 1
fi
echo "cli-check: ${#commands[@]} commands: --help/-h, usage errors, --opt=value, --version and the man page as documented"
