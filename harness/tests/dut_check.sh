#!/usr/bin/env bash
# The proof that the differential runs catch bugs (docs/dut.md, "Mutants"): the unmodified
# libnicref_dut.so shows zero differences, through every golden vector and through a short
# differential fuzz run of each target below; each mutant DUT (harness/tests/mutants/NAME.patch)
# fails `nicref vectors --dut` and is a finding of a short differential fuzz run of the target
# named for it. Fuzz runs are fixed: -seed=1, the committed corpus and at most RUNS runs.
# Usage: harness/tests/dut_check.sh TOOL DUT_SO MUTANT_DIR FUZZ_DIR     (from the repository root)
set -uo pipefail
tool=$1 dut=$2 mutants=$3 fuzz=$4
RUNS=${DUT_CHECK_RUNS:-700}
# The target whose committed corpus reaches each mutant's bug.
declare -A target=(
  [csum_bit_flip]=tx
  [rss_index_off_by_one]=rx
  [cqe_byte_cnt_misplaced]=rx
  [rqt_pow2_unchecked]=ctrl
  [irq_vector_off_by_one]=tx
)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fails=0
start=$SECONDS
fail() { echo "dut-check: FAIL: $*"; fails=$((fails + 1)); }

# $1 DUT library, $2 target: runs it; rc and log in $tmp/fuzz.{rc,log}.
fuzz_run() {
  rm -rf "$tmp/new" && mkdir -p "$tmp/new"
  NICREF_DUT=$1 "$fuzz/$2_fuzz" -seed=1 -runs="$RUNS" -artifact_prefix="$tmp/new/" \
    "$tmp/new" "corpora/$2" >"$tmp/fuzz.log" 2>&1
  echo $? >"$tmp/fuzz.rc"
}

# The loader: what is not a DUT of this ABI is refused (exit 2) naming the library and why.
declare -A want=(
  [1]="DUT ABI version $((1 + 1)), this nicref speaks version 1"
  [2]="DUT entry table of 24 bytes"
  [3]="DUT entry point create is NULL"
  [4]="nicref_dut_entry() returned NULL"
)
for n in 1 2 3 4; do
  so=$tmp/bad$n.so
  ${CC:-cc} -std=c11 -shared -fPIC -fvisibility=hidden -Ireference/include -DBAD=$n \
    harness/tests/dut_bad.c -o "$so" || { fail "cannot build $so"; continue; }
done
check_refused() { # LIB EXPECTED-TEXT
  "$tool" vectors --dut "$1" vectors/cmdq >"$tmp/out" 2>"$tmp/err"
  local rc=$?
  if [ $rc -ne 2 ] || ! grep -qF "$1: $2" "$tmp/err" || [ -s "$tmp/out" ]; then
    fail "--dut $1: exit $rc (want 2), stderr '$(cat "$tmp/err")' (want '$1: $2')"
  fi
}
for n in 1 2 3 4; do check_refused "$tmp/bad$n.so" "${want[$n]}"; done
check_refused "$tmp/none.so" "cannot load the DUT library"
check_refused "${dut%_dut.so}.so" "not a DUT library: no symbol nicref_dut_entry"
echo "dut-check: the loader refuses 6 broken libraries with exit 2, naming each"

# A hostile DUT (harness/tests/dut_hostile.c, over the unmodified one): a crash, a hang, a
# frame_in that says 0 for a port the device lacks, a create that refuses, a difference in the
# setup of nicref replay. Each is reported naming the DUT, the test and the stimulus, exit 1.
for m in 1 3 4 5 7; do
  ${CC:-cc} -std=c11 -D_GNU_SOURCE -shared -fPIC -fvisibility=hidden -Ireference/include \
    -DMODE=$m harness/tests/dut_hostile.c -o "$tmp/hostile$m.so" -ldl || fail "cannot build hostile$m.so"
done
ex=examples/replay/rss8
# $1 what, $2 want-in-stdout+stderr (grep -E), then the command: exit 1 and the text wanted.
check_hostile() {
  local what=$1 want=$2
  shift 2
  REAL_DUT=$dut timeout 30 "$@" >"$tmp/h.out" 2>&1
  local rc=$?
  if [ $rc -ne 1 ] || ! grep -qE "$want" "$tmp/h.out"; then
    fail "hostile DUT, $what: exit $rc (want 1), want /$want/: $(head -c 600 "$tmp/h.out")"
  else
    echo "dut-check: hostile DUT, $what: $(grep -m1 -E "$want" "$tmp/h.out" | cut -c1-170)"
  fi
}
check_hostile "crash in vectors" \
  '^FAIL vectors/cmdq/[a-z_]+\.json#[0-9]+: .*DUT differs: the DUT crashed \(signal 11, SIGSEGV\).*\[stimulus [0-9]+ of the test: bar_write32' \
  "$tool" vectors --dut "$tmp/hostile1.so" vectors/cmdq
grep -q '^nicref: the DUT hostile (.*hostile1.so) crashed (signal 11, SIGSEGV) in bar_write32' "$tmp/h.out" ||
  fail "hostile DUT, crash: no line naming the DUT and the stimulus"
check_hostile "crash in replay" 'DUT differs: the DUT crashed \(signal 11' \
  "$tool" replay --dut "$tmp/hostile1.so" $ex.json $ex.pcap
check_hostile "hang (--dut-timeout 0.5)" \
  '^FAIL vectors/cmdq/.*DUT differs: the DUT hung: did not return within 500 ms' \
  "$tool" vectors --dut "$tmp/hostile4.so" --dut-timeout 0.5 vectors/cmdq
check_hostile "frame_in's return" \
  'DUT differs: frame_in on port 200 returned 0, the model -1' \
  "$tool" vectors --dut "$tmp/hostile3.so" harness/tests/dut_vectors
check_hostile "create refused" 'DUT differs: .*refused to create the device.*\[stimulus 0 of the test: create\]' \
  "$tool" vectors --dut "$tmp/hostile5.so" vectors/cmdq
check_hostile "create refused, replay" '^DUT hostile .*: 0 records replayed .*, 1 divergence \(in the setup\)' \
  "$tool" replay --dut "$tmp/hostile5.so" $ex.json $ex.pcap
check_hostile "differs in the replay's setup" '^DUT hostile .*: 0 records replayed .*, 1 divergence \(in the setup\)' \
  "$tool" replay --dut "$tmp/hostile7.so" $ex.json $ex.pcap

# The unmodified DUT: no difference anywhere.
"$tool" vectors --dut "$dut" vectors/ harness/tests/dut_vectors >"$tmp/clean.out" 2>&1
rc=$?
line=$(grep '^DUT ' "$tmp/clean.out")
if [ $rc -ne 0 ] || ! grep -q ' 0 with differences' <<<"$line"; then
  fail "the unmodified DUT $dut: exit $rc (want 0): ${line:-no DUT line}"
  grep 'DUT differs' "$tmp/clean.out" | head -n 5
else
  echo "dut-check: unmodified $dut: ${line#*: }"
fi
for t in $(printf '%s\n' "${target[@]}" | sort -u); do
  fuzz_run "$dut" "$t"
  if [ "$(cat "$tmp/fuzz.rc")" -ne 0 ] || grep -q DUT_DIVERGENCE "$tmp/fuzz.log"; then
    fail "the unmodified DUT differs in a fuzz run of $t (exit $(cat "$tmp/fuzz.rc")):"
    grep -E 'DUT_DIVERGENCE|NICREF_DUT|ERROR' "$tmp/fuzz.log" | head -n 5
  else
    echo "dut-check: unmodified DUT, ${t}_fuzz -seed=1 -runs=$RUNS: no divergence"
  fi
done

# nicref replay --dut: the unmodified DUT agrees on every frame of an example, a mutant does not.
"$tool" replay --dut "$dut" $ex.json $ex.pcap >"$tmp/r.out" 2>"$tmp/r.err"
rc=$?
if [ $rc -ne 0 ] || ! grep -q ', 0 divergences$' "$tmp/r.out"; then
  fail "replay --dut $dut $ex: exit $rc (want 0): $(tail -n 1 "$tmp/r.out") $(head -n 3 "$tmp/r.err")"
else
  echo "dut-check: replay --dut, unmodified: $(grep '^DUT ' "$tmp/r.out" | sed 's/.*: //')"
fi
"$tool" replay --dut "$mutants/libnicref_dut_rss_index_off_by_one.so" $ex.json $ex.pcap \
  >"$tmp/r.out" 2>"$tmp/r.err"
rc=$?
if [ $rc -ne 1 ] || ! grep -q '^FAIL .*: frame [0-9]*: DUT differs' "$tmp/r.err"; then
  fail "replay --dut rss_index_off_by_one $ex: exit $rc (want 1), no 'frame N: DUT differs' line"
else
  echo "dut-check: replay --dut, rss_index_off_by_one: $(head -n 1 "$tmp/r.err" | cut -c1-160)"
fi

# Every mutant: caught by the vectors and by its fuzz run.
n=0
for patch in harness/tests/mutants/*.patch; do
  m=$(basename "$patch" .patch)
  so=$mutants/libnicref_dut_$m.so
  n=$((n + 1))
  t=${target[$m]:-}
  [ -n "$t" ] || { fail "mutant $m: no fuzz target named for it in $0"; continue; }
  "$tool" vectors --dut "$so" vectors/ >"$tmp/m.out" 2>&1
  rc=$?
  ndiff=$(grep -c 'DUT differs' "$tmp/m.out")
  line=$(grep '^DUT ' "$tmp/m.out")
  if [ $rc -ne 1 ] || [ "$ndiff" -eq 0 ]; then
    fail "mutant $m not caught by the vectors: exit $rc (want 1), $ndiff differences"
    tail -n 3 "$tmp/m.out"
    continue
  fi
  first=$(grep -m1 'DUT differs' "$tmp/m.out" | cut -c1-220)
  fuzz_run "$so" "$t"
  frc=$(cat "$tmp/fuzz.rc")
  if [ "$frc" -eq 0 ] || ! grep -q 'property DUT_DIVERGENCE broken' "$tmp/fuzz.log" ||
     ! ls "$tmp/new"/crash-* >/dev/null 2>&1; then
    fail "mutant $m not caught by ${t}_fuzz -seed=1 -runs=$RUNS (exit $frc, no DUT_DIVERGENCE finding and reproducer)"
    grep -E 'DUT|ERROR' "$tmp/fuzz.log" | head -n 5
    continue
  fi
  op=$(grep -o 'at op [0-9]*' "$tmp/fuzz.log" | head -n 1)
  echo "dut-check: mutant $m: vectors: ${line#*: } (first: ${first#FAIL })"
  echo "dut-check: mutant $m: ${t}_fuzz: DUT_DIVERGENCE $op, reproducer saved"
done
echo "dut-check: $n mutants, $fails failure(s), $((SECONDS - start)) s"
[ $fails -eq 0 ]
