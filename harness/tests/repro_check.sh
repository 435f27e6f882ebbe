#!/usr/bin/env bash
# The proof that `nicref repro` turns a finding into evidence (docs/repro.md): a deliberately
# wrong DUT build (a mutant of make dut-check, harness/tests/mutants/) is found by a short
# differential fuzz run (NICREF_DUT, -seed=1, the committed corpus, at most RUNS runs), and
# `nicref repro` turns the saved input into a draft vector that passes against the model, fails
# against that DUT (nicref vectors --dut) and shows no difference against the unmodified DUT,
# and, for the packet target, into a pcap tshark reads without a malformed packet. Then a
# finding without a DUT (fuzzers/tests/broken_target.c), an input with no finding (exit 1) and
# bad input (exit 2).
# Usage: harness/tests/repro_check.sh TOOL DUT_SO MUTANT_DIR FUZZ_DIR REPLAY_DIR   (from the root)
set -uo pipefail
tool=$1 dut=$2 mutants=$3 fuzz=$4 replay=$5
RUNS=${REPRO_CHECK_RUNS:-700}
MIN_RUNS=${REPRO_CHECK_MIN_RUNS:-40}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fails=0
start=$SECONDS
fail() { echo "repro-check: FAIL: $*"; fails=$((fails + 1)); }

# $1 mutant, $2 target, $3 packet target (1: a pcap is expected)
seeded() {
  local m=$1 t=$2 packets=$3
  local so=$mutants/libnicref_dut_$m.so out=$tmp/$m
  mkdir -p "$tmp/new-$m"
  NICREF_DUT=$so "$fuzz/${t}_fuzz" -seed=1 -runs="$RUNS" -artifact_prefix="$tmp/new-$m/" \
    "$tmp/new-$m" "corpora/$t" >"$tmp/fuzz-$m.log" 2>&1
  local crash
  crash=$(ls "$tmp/new-$m"/crash-* 2>/dev/null | head -n 1)
  if [ -z "$crash" ] || ! grep -q 'property DUT_DIVERGENCE broken' "$tmp/fuzz-$m.log"; then
    fail "mutant $m: ${t}_fuzz -seed=1 -runs=$RUNS found no divergence to reproduce"
    return
  fi
  "$tool" repro --target "$t" --dut "$so" --fuzzer "$replay/${t}_fuzz" --max-runs "$MIN_RUNS" \
    --context 5 -o "$out" --json "$out.summary.json" "$crash" >"$tmp/repro-$m.out" 2>&1
  local rc=$?
  if [ $rc -ne 0 ]; then
    fail "mutant $m: nicref repro exits $rc (want 0)"
    tail -n 8 "$tmp/repro-$m.out"
    return
  fi
  # The vector, checked here on its own: the schema, a DRAFT label, the model, the DUTs.
  /usr/bin/python3 ci/validate_vectors.py "$out.json" >"$tmp/schema.out" 2>&1 ||
    fail "mutant $m: $out.json is refused by the schema: $(tail -n 2 "$tmp/schema.out")"
  grep -q '"flags": \["DRAFT"\]' "$out.json" || fail "mutant $m: the vector is not labelled DRAFT"
  "$tool" vectors "$out.json" >"$tmp/v.out" 2>&1
  rc=$?
  [ $rc -eq 0 ] || fail "mutant $m: the vector fails against the model (exit $rc): $(grep -m1 FAIL "$tmp/v.out")"
  "$tool" vectors --dut "$so" "$out.json" >"$tmp/v.out" 2>&1
  rc=$?
  if [ $rc -ne 1 ] || ! grep -q 'DUT differs' "$tmp/v.out"; then
    fail "mutant $m: the vector does not fail against the mutant (exit $rc, want 1 with 'DUT differs')"
  fi
  local first
  first=$(grep -m1 'DUT differs' "$tmp/v.out" | cut -c1-200)
  "$tool" vectors --dut "$dut" "$out.json" >"$tmp/v.out" 2>&1
  rc=$?
  [ $rc -eq 0 ] || fail "mutant $m: the vector differs against the unmodified DUT (exit $rc)"
  local steps bytes
  steps=$(/usr/bin/python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["steps"])' "$out.summary.json")
  bytes=$(/usr/bin/python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); print("%d -> %d" % (d["input_bytes"], d["minimised_bytes"]))' "$out.summary.json")
  if [ "$packets" = 1 ]; then
    if [ ! -s "$out.pcap" ]; then
      fail "mutant $m: no pcap of the frames"
    elif command -v tshark >/dev/null 2>&1; then
      local n
      n=$(tshark -r "$out.pcap" 2>/dev/null | wc -l)
      if [ "$n" -lt 1 ] || tshark -r "$out.pcap" -V 2>/dev/null | grep -q 'Malformed Packet'; then
        fail "mutant $m: tshark reads $n frames of $out.pcap, or a malformed packet"
      else
        echo "repro-check: mutant $m: tshark reads $n frame(s) of the pcap"
      fi
    else
      echo "repro-check: tshark not installed: the pcap is not read"
    fi
  fi
  echo "repro-check: mutant $m: ${t}_fuzz found it, repro minimised $bytes bytes; the vector's $steps steps pass against the model, fail against the mutant ($first), pass against the unmodified DUT"
}

seeded cqe_byte_cnt_misplaced rx 1
seeded rqt_pow2_unchecked ctrl 0

# A finding without a DUT: broken_target's property check ('c'), after a bring-up.
printf c >"$tmp/c.in"
"$tool" repro --target broken --fuzzer "$replay/tests/broken_target" --max-runs 10 --context 3 \
  -o "$tmp/broken" "$tmp/c.in" >"$tmp/b.out" 2>&1
rc=$?
if [ $rc -ne 0 ] || ! grep -q '^finding: fuzz check failed at fuzzers/tests/broken_target.c' "$tmp/b.out"; then
  fail "broken_target 'c': nicref repro exits $rc (want 0, the check named): $(head -n 2 "$tmp/b.out")"
elif ! "$tool" vectors "$tmp/broken.json" >/dev/null 2>&1; then
  fail "broken_target 'c': its vector fails against the model"
else
  echo "repro-check: a finding without a DUT: $(grep '^vector:' "$tmp/b.out" | cut -c1-120)"
fi

# No finding: exit 1. Bad input: exit 2.
seed=$(ls corpora/rx | head -n 1)
"$tool" repro --target rx --fuzzer "$replay/rx_fuzz" -o "$tmp/none" "corpora/rx/$seed" >"$tmp/n.out" 2>&1
rc=$?
[ $rc -eq 1 ] && grep -q 'no finding' "$tmp/n.out" ||
  fail "an input with no finding: exit $rc (want 1, 'no finding')"
"$tool" repro --target rx --fuzzer "$replay/rx_fuzz" "$tmp/absent" >/dev/null 2>"$tmp/e.out"
rc=$?
[ $rc -eq 2 ] && grep -q "$tmp/absent" "$tmp/e.out" || fail "a missing input: exit $rc (want 2, named)"
"$tool" repro --target nosuch "corpora/rx/$seed" >/dev/null 2>"$tmp/e.out"
rc=$?
[ $rc -eq 2 ] && grep -q 'build/replay/nosuch_fuzz' "$tmp/e.out" ||
  fail "an unknown target: exit $rc (want 2, the program named)"
"$tool" repro --target rx --dut "$tmp/absent.so" --fuzzer "$replay/rx_fuzz" "corpora/rx/$seed" \
  >/dev/null 2>"$tmp/e.out"
rc=$?
[ $rc -eq 2 ] || fail "a DUT that is not there: exit $rc (want 2)"
echo "repro-check: no finding exits 1, bad input exits 2"

echo "repro-check: $fails failure(s), $((SECONDS - start)) s"
[ $fails -eq 0 ]
