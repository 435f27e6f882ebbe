#!/bin/sh
# Inputs per second of each fuzz target on one core, under the libFuzzer + ASan + UBSan build
# (build/fuzz/, fuzzers/fuzz.mk), with the device snapshot (fuzzers/fuzz_snap.h) and without it
# (NICREF_FUZZ_SNAPSHOT=0: the configuration rebuilt for every input, as before snapshots).
#
#   ci/fuzz_speed.sh [-s SECONDS] [-e] [-o] [-b DIR] [TARGET...]   (default: 10 s, every target)
#
# -o: the snapshot run only (the rebuild column reads -). -b DIR: run DIR/<t>_fuzz instead of
# build/fuzz/<t>_fuzz, without building it (an old binary kept aside, to compare old and new
# side by side: run the two alternately, the machine is shared).
#
# Each run mutates a temporary copy of corpora/<t>/ with the target's dictionary, seed 1, one
# process (no -jobs/-fork). Two figures: inputs per second of wall time (libFuzzer's
# stat::average_exec_per_sec), and inputs per second of the CPU time the process got (user +
# system), which is what one core would give when the machine is shared; the verdict uses the
# latter. The goals are
# issue 19's: cmd 50,000/s, ctrl 20,000/s, the packet targets (rx, tx, steer, lro, roce_rx)
# 100,000/s; other targets have none. -e: exit 1 when a target with a goal misses it.
set -u
secs=10
enforce=0
only=0
bin=
while getopts s:eob: o; do
	case $o in
	s) secs=$OPTARG ;;
	e) enforce=1 ;;
	o) only=1 ;;
	b) bin=$OPTARG ;;
	*) echo "usage: $0 [-s SECONDS] [-e] [-o] [-b DIR] [TARGET...]" >&2; exit 2 ;;
	esac
done
shift $((OPTIND - 1))
cd "$(dirname "$0")/.." || exit 2
targets=${*:-$(ls fuzzers/*_fuzz.c | sed 's|fuzzers/\(.*\)_fuzz.c|\1|')}
if [ -z "$bin" ]; then
	bin=build/fuzz
	make --no-print-directory -s -f fuzzers/fuzz.mk $(for t in $targets; do printf 'build/fuzz/%s_fuzz ' "$t"; done) || exit 2
fi

goal() {
	case $1 in
	cmd) echo 50000 ;;
	ctrl) echo 20000 ;;
	rx | tx | steer | lro | roce_rx) echo 100000 ;;
	*) echo - ;;
	esac
}

# rate TARGET SNAPSHOT(0|1): average execs/s of one run
rate() {
	tmp=$(mktemp -d)
	mkdir -p "$tmp/corpus"
	[ -d "corpora/$1" ] && cp -r "corpora/$1/." "$tmp/corpus/" 2>/dev/null
	dict=""
	[ -f "fuzzers/$1.dict" ] && dict="-dict=fuzzers/$1.dict"
	NICREF_FUZZ_SNAPSHOT=$2 /usr/bin/time -f 'cpu %U %S' -o "$tmp/cpu" "$bin/$1_fuzz" \
		-seed=1 -max_total_time="$secs" -print_final_stats=1 -timeout=10 \
		-rss_limit_mb=2048 $dict "$tmp/corpus" >"$tmp/log" 2>&1
	r=$(sed -n 's/^stat::average_exec_per_sec: *//p' "$tmp/log")
	n=$(sed -n 's/^stat::number_of_executed_units: *//p' "$tmp/log")
	if [ -z "$r" ] || [ -z "$n" ]; then
		echo "fuzz_speed: $1 (snapshot=$2) stopped early:" >&2
		tail -n 20 "$tmp/log" >&2
		r=0 n=0
	fi
	cpu=$(awk -v n="$n" '/^cpu/ { t = $2 + $3; printf "%d", (t > 0 ? n / t : 0) }' "$tmp/cpu")
	rm -rf "$tmp"
	echo "$r/${cpu:-0}"
}

fail=0
echo "inputs/s as wall/cpu (per second of wall time / per CPU second of the process)"
printf '%-10s %16s %16s %8s %s\n' target rebuild snapshot goal verdict
for t in $targets; do
	before=-
	[ $only = 1 ] || before=$(rate "$t" 0)
	after=$(rate "$t" 1)
	g=$(goal "$t")
	v=-
	if [ "$g" != - ]; then
		if [ "${after#*/}" -ge "$g" ]; then v=met; else v=missed; fail=1; fi
	fi
	printf '%-10s %16s %16s %8s %s\n' "$t" "$before" "$after" "$g" "$v"
done
[ $enforce = 1 ] && [ $fail = 1 ] && exit 1
exit 0
