#!/usr/bin/env bash
# Byte identity of two nicref builds (a speed change must change no observable byte): runs
# OLD and NEW on the same inputs and compares, byte for byte,
#   - `replay` (summary on stdout with the CPU time and rate taken out, stderr, exit status,
#     --jsonl, --pcap-dir) on the bench setup and the three shipped examples, over the bench
#     captures found in BUILD_DIR (replay_bench_100000.pcap, replay_bench_1000000.pcap: make
#     bench writes them), the examples' captures and every capture under corpora/captures,
#     each as is, with --no-repost and with --no-pad;
#   - `vectors --trace` over vectors/ (the canonical trace of every golden vector, and the
#     results).
# Large outputs are compared by their SHA-256 (the --jsonl of the million frames takes ~700 MB
# in TMPDIR for a moment). Prints one line per difference and a count;
# exit 0 when everything is the same, 1 otherwise.
#
# usage: harness/bench/replay_same.sh OLD_NICREF NEW_NICREF [BUILD_DIR]   (from the repository root)
set -uo pipefail
old=${1:?usage: replay_same.sh OLD_NICREF NEW_NICREF [BUILD_DIR]}
new=${2:?usage: replay_same.sh OLD_NICREF NEW_NICREF [BUILD_DIR]}
build=${3:-build/gcc}
work=$(mktemp -d "${TMPDIR:-/tmp}/replay_same.XXXXXX")
trap 'rm -rf "$work"' EXIT
runs=0
diffs=0

# One replay by one binary into $work/$tag: out, err, rc, the jsonl's hash, the pcaps' hashes.
one() {
	local bin=$1 tag=$2
	shift 2
	local d="$work/$tag"
	mkdir -p "$d/pcaps"
	"$bin" replay --no-progress --jsonl "$d/jsonl" --pcap-dir "$d/pcaps" "$@" >"$d/out" 2>"$d/err"
	echo $? >"$d/rc"
	if [ -f "$d/jsonl" ]; then sha256sum <"$d/jsonl"; else echo "(none)"; fi >"$d/jsonl.sha"
	rm -f "$d/jsonl"
	sed -i -E 's/replayed in [0-9.]+ s of CPU \([0-9]+ frames\/s\)/replayed in (cpu)/' "$d/out"
	(cd "$d/pcaps" && sha256sum -- * 2>/dev/null) >"$d/pcaps.sha"
	rm -rf "$d/pcaps"
}

compare() {
	local name=$1
	shift
	runs=$((runs + 1))
	one "$old" a "$@"
	one "$new" b "$@"
	for f in out err rc jsonl.sha pcaps.sha; do
		if ! cmp -s "$work/a/$f" "$work/b/$f"; then
			echo "DIFFERS: $name: $f"
			diff "$work/a/$f" "$work/b/$f" | head -n 6
			diffs=$((diffs + 1))
		fi
	done
	rm -rf "$work/a" "$work/b"
}

setups=(harness/bench/replay_bench.json examples/replay/one_rq.json examples/replay/rss8.json
	examples/replay/vlan_port.json)
captures=()
for c in "$build"/replay_bench_100000.pcap "$build"/replay_bench_1000000.pcap; do
	[ -f "$c" ] && captures+=("$c")
done
captures+=(examples/replay/*.pcap corpora/captures/*.pcap corpora/captures/*.pcapng)
for s in "${setups[@]}"; do
	for c in "${captures[@]}"; do
		# the million-frame capture once, on the bench setup (its jsonl is ~700 MB to hash)
		case $c in *1000000*) [ "$s" = "${setups[0]}" ] || continue ;; esac
		for opt in "" --no-repost --no-pad; do
			compare "$(basename "$s") $(basename "$c") ${opt:-(default)}" $opt "$s" "$c"
		done
	done
done

runs=$((runs + 1))
"$old" vectors --trace "$work/a.trace" vectors/ >"$work/a.vout" 2>&1
"$new" vectors --trace "$work/b.trace" vectors/ >"$work/b.vout" 2>&1
sed -i -E 's/[0-9.]+ ?(s|ms)\b/(time)/g' "$work/a.vout" "$work/b.vout"
cmp -s "$work/a.trace" "$work/b.trace" || { echo "DIFFERS: vectors --trace"; diffs=$((diffs + 1)); }
cmp -s "$work/a.vout" "$work/b.vout" || {
	echo "DIFFERS: vectors output"
	diff "$work/a.vout" "$work/b.vout" | head -n 6
	diffs=$((diffs + 1))
}
echo "replay_same: $runs runs, $(wc -l <"$work/a.trace") trace events; $diffs differences"
[ "$diffs" -eq 0 ]
