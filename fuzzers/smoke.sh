#!/usr/bin/env bash
# One short fuzz run of one target, for fuzzers/fuzz.mk (smoke and afl-start).
#
#   fuzzers/smoke.sh libfuzzer <target> <seconds>   build/fuzz/<target>_fuzz
#   fuzzers/smoke.sh afl <target> <seconds>         build/afl/<target>_fuzz under afl-fuzz
#
# The run works on a temporary copy of corpora/<target>/, so the committed corpus is never
# written. The output is buffered and printed in one piece at the end, so runs side by side
# do not interleave. Any crash, sanitizer report, leak or timeout fails (exit 1); the work
# directory with the reproducer is then kept and named. Run from the repository root.
#
# FUZZ_SEED (default 1) is libFuzzer's -seed. It narrows the runs, but does not make them
# repeat: measured on ctrl, two runs of 150,000 inputs from the same seed and corpus (also with
# -reload=0, also without address randomisation) ended at cov 1116 and 1115, ft 5284 and 5431,
# so a smoke can find on one machine what it misses on another. A finding is a bug either way:
# its reproducer replays (build/replay/<t>_fuzz FILE) and goes to corpora/<t>/ with the fix.
# FUZZ_SEED=0 lets libFuzzer choose one (it prints it). Finding new bugs is the campaigns' job
# (`make campaign`, docs/fuzzing.md), which run unseeded.
set -uo pipefail

mode=${1:?mode}
t=${2:?target}
secs=${3:?seconds}
seed=${FUZZ_SEED:-1}

work=$(mktemp -d "${TMPDIR:-/tmp}/nicref-$mode-$t.XXXXXX")
mkdir -p "$work/corpus" "$work/artifacts"
if [ -d "corpora/$t" ]; then
	cp -R "corpora/$t/." "$work/corpus/"
fi
log=$work/log
# The dictionary is optional; libFuzzer and afl-fuzz refuse an empty one.
dict=() xdict=()
if [ -s "fuzzers/$t.dict" ]; then
	dict=(-dict="fuzzers/$t.dict")
	xdict=(-x "fuzzers/$t.dict")
fi

stat_of() { sed -n "s/^stat::$1: *//p" "$log" | tail -n 1; }

fail() {
	echo "=== $mode $t: FAILED: $1 (FUZZ_SEED=${seed:-})"
	tail -n 80 "$log"
	echo "=== $mode $t: log, corpus and reproducers kept in $work"
	ls -l "$work/artifacts" 2>/dev/null | sed 1d
	exit 1
}

start=$(date +%s)
case $mode in
libfuzzer)
	"build/fuzz/${t}_fuzz" -max_total_time="$secs" -timeout=5 -rss_limit_mb=2048 \
		-seed="$seed" -print_final_stats=1 "${dict[@]}" -artifact_prefix="$work/artifacts/" \
		"$work/corpus" >"$log" 2>&1
	rc=$?
	took=$(($(date +%s) - start))
	[ "$rc" -eq 0 ] || fail "exit status $rc after $took s"
	if grep -qE 'ERROR: (AddressSanitizer|LeakSanitizer|UndefinedBehaviorSanitizer|libFuzzer)|runtime error:|SUMMARY: ' "$log"; then
		fail "sanitizer or libFuzzer report"
	fi
	[ -z "$(ls -A "$work/artifacts")" ] || fail "artifacts written"
	last=$(grep -E '^#[0-9]+' "$log" | grep -E 'cov: ' | tail -n 1)
	cov=$(sed -nE 's/.* cov: ([0-9]+).*/\1/p' <<<"$last")
	ft=$(sed -nE 's/.* ft: ([0-9]+).*/\1/p' <<<"$last")
	corp=$(sed -nE 's/.* corp: ([0-9]+\/[0-9]+[a-zA-Z]*).*/\1/p' <<<"$last")
	seeds=$(find "corpora/$t" -type f 2>/dev/null | wc -l)
	echo "=== libfuzzer $t: ok, $took s, seed $seed: $(stat_of number_of_executed_units) runs," \
		"$(stat_of average_exec_per_sec) exec/s, cov $cov, ft $ft, corpus $seeds seeds ->" \
		"$corp, new units $(stat_of new_units_added), peak rss $(stat_of peak_rss_mb) MB"
	;;
afl)
	# afl-fuzz needs at least one input.
	[ -n "$(ls -A "$work/corpus")" ] || printf '\0' >"$work/corpus/empty"
	AFL_NO_UI=1 AFL_SKIP_CPUFREQ=1 AFL_I_DONT_CARE_ABOUT_MISSING_CRASHES=1 \
		AFL_TRY_AFFINITY=1 \
		afl-fuzz -i "$work/corpus" -o "$work/out" "${xdict[@]}" -V "$secs" \
		-- "build/afl/${t}_fuzz" >"$log" 2>&1
	rc=$?
	took=$(($(date +%s) - start))
	stats=$work/out/default/fuzzer_stats
	[ "$rc" -eq 0 ] || fail "afl-fuzz exit status $rc after $took s"
	[ -f "$stats" ] || fail "no fuzzer_stats: afl-fuzz did not start"
	st() { sed -nE "s/^$1 *: *//p" "$stats"; }
	execs=$(st execs_done)
	[ "${execs:-0}" -gt 0 ] || fail "no executions"
	crashes=$(st saved_crashes)
	hangs=$(st saved_hangs)
	if [ "${crashes:-0}" -gt 0 ] || [ "${hangs:-0}" -gt 0 ]; then
		cp -R "$work/out/default/crashes" "$work/out/default/hangs" "$work/artifacts/" \
			2>/dev/null
		fail "$crashes crash(es), $hangs hang(s) in $work/out/default"
	fi
	echo "=== afl $t: started and ran $took s: $execs execs, $(st execs_per_sec) exec/s," \
		"corpus $(st corpus_count), bitmap $(st bitmap_cvg), crashes 0, hangs 0"
	;;
*)
	echo "usage: $0 libfuzzer|afl <target> <seconds>" >&2
	exit 2
	;;
esac
rm -rf "$work"
