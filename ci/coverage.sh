#!/usr/bin/env bash
# make coverage: line and branch coverage of the model (reference/, its tests excluded) by the
# golden vectors, the unit tests and each fuzz target's corpora, one gcovr HTML report per slice
# and one merged, with an index (build/cov/index.html) that lists them all.
#
#   ci/coverage.sh BUILD [STORE]
#     BUILD  the gcc --coverage build of nicref and the unit tests (the Makefile makes
#            build/cov/nicref and build/cov/tests/unit_tests before calling this)
#     STORE  a campaign's corpus store (default build/campaign/corpus): its <t>/ replayed after
#            corpora/<t>/ when it exists
#
# Slices: unit (the Criterion tests), vectors (nicref vectors vectors/), one per fuzz target
# (corpora/<t>/ and STORE/<t>/ replayed by the gcc --coverage build of the target linked with
# fuzzers/standalone_main.c, built by ci/cflite_build.sh with LIB_FUZZING_ENGINE set to that
# driver), then "vectors+corpora" (every fuzz slice and the vectors) and "all" (everything).
# Each slice's counters are taken (gcovr --json) and cleared before the next runs, so a slice
# counts only what it ran; the merged reports add the JSON files (gcovr --add-tracefile).
set -euo pipefail
cd "$(dirname "$0")/.."
build=${1:?usage: ci/coverage.sh BUILD [STORE]}
store=${2:-build/campaign/corpus}
fuzzdir=$build/fuzz
json=$build/json
html=$build/html
rm -rf "$fuzzdir" "$json" "$html"
mkdir -p "$json" "$html"
GCOVR=(gcovr --root . --filter 'reference/' --exclude 'reference/tests/')

clear_counters() { find "$build" -name '*.gcda' -delete; }
take() { # take SLICE SEARCH_DIR: the counters of what just ran, as SLICE.json
	"${GCOVR[@]}" --json "$json/$1.json" "$2" >/dev/null
	clear_counters
}

# The fuzz targets under gcc --coverage, replaying files (fuzzers/standalone_main.c).
mkdir -p "$fuzzdir/driver"
gcc -O0 -g -std=c11 -D_POSIX_C_SOURCE=200809L -c fuzzers/standalone_main.c \
	-o "$fuzzdir/driver/standalone_main.o"
CC=gcc CXX=gcc CFLAGS="-O0 -g --coverage" LIB_FUZZING_ENGINE="$PWD/$fuzzdir/driver/standalone_main.o" \
	OUT="$PWD/$fuzzdir/bin" WORK="$PWD/$fuzzdir/objects" NICREF_BUILD_JOBS=2 \
	ci/cflite_build.sh >"$fuzzdir/build.log" 2>&1 || { tail -n 30 "$fuzzdir/build.log"; exit 1; }
targets=$(ls fuzzers/*_fuzz.c | sed 's|fuzzers/\(.*\)_fuzz.c|\1|')

clear_counters
echo "coverage: unit tests"
"$build/tests/unit_tests" --jobs 1 >/dev/null 2>&1
take unit "$build/reference"
echo "coverage: vectors"
"$build/nicref" vectors vectors/ >/dev/null
take vectors "$build/reference"
for t in $targets; do
	dirs=()
	[ -d "corpora/$t" ] && dirs+=("corpora/$t")
	[ -d "$store/$t" ] && dirs+=("$store/$t")
	echo "coverage: $t (${dirs[*]:-no corpus})"
	if [ ${#dirs[@]} -gt 0 ]; then
		NICREF_REPLAY_TIMEOUT=60 "$fuzzdir/bin/${t}_fuzz" "${dirs[@]}" >"$fuzzdir/$t.log" 2>&1 || {
			tail -n 20 "$fuzzdir/$t.log"
			echo "coverage: replaying the corpora of $t failed (above)" >&2
			exit 1
		}
	fi
	take "$t" "$fuzzdir/objects/nicref-obj/reference"
done

# The reports: one per slice, the merged ones, each with a JSON summary for the index.
report() { # report NAME TITLE JSON...
	local name=$1 title=$2
	shift 2
	local adds=()
	for j in "$@"; do adds+=(--add-tracefile "$j"); done
	mkdir -p "$html/$name"
	"${GCOVR[@]}" "${adds[@]}" --html-details "$html/$name/index.html" \
		--html-title "nicref coverage: $title" --json-summary "$html/$name/summary.json" \
		>/dev/null
}
slices="unit vectors $targets"
for s in $slices; do report "$s" "$s" "$json/$s.json"; done
fuzz_json=()
for t in $targets; do fuzz_json+=("$json/$t.json"); done
report corpora "every fuzz target's corpora" "${fuzz_json[@]}"
report vectors+corpora "the vectors and every fuzz target's corpora" "$json/vectors.json" "${fuzz_json[@]}"
report all "the vectors, the unit tests and every fuzz target's corpora" "$json"/*.json

# The index: a table of every slice, and the same table on stdout.
/usr/bin/python3 - "$html" all vectors+corpora corpora unit vectors $targets <<'EOF'
import html, json, os, sys
out, names = sys.argv[1], sys.argv[2:]
rows = []
for n in names:
    with open(os.path.join(out, n, "summary.json")) as f:
        s = json.load(f)
    rows.append((n, s["line_covered"], s["line_total"], s["line_percent"],
                 s["branch_covered"], s["branch_total"], s["branch_percent"]))
print("%-16s %18s %18s" % ("slice", "lines", "branches"))
for n, lc, lt, lp, bc, bt, bp in rows:
    print("%-16s %8d/%-6d %5.1f%% %8d/%-6d %5.1f%%" % (n, lc, lt, lp, bc, bt, bp))
with open(os.path.join(out, "..", "index.html"), "w") as f:
    f.write('<!doctype html><meta charset="utf-8"><title>nicref coverage</title>'
            '<style>body{font-family:sans-serif;margin:1.5em}table{border-collapse:collapse}'
            'td,th{border:1px solid #ccc;padding:3px 8px;text-align:right}'
            'td:first-child{text-align:left}</style><h1>nicref coverage of reference/</h1>'
            '<p>gcovr, gcc --coverage -O0. Merged: <b>all</b> (unit tests, vectors, corpora), '
            '<b>vectors+corpora</b>, <b>corpora</b> (every fuzz target); then each slice.</p>'
            '<table><tr><th>slice</th><th>lines</th><th>%</th><th>branches</th><th>%</th></tr>')
    for n, lc, lt, lp, bc, bt, bp in rows:
        f.write('<tr><td><a href="html/%s/index.html">%s</a></td><td>%d / %d</td><td>%.1f</td>'
                '<td>%d / %d</td><td>%.1f</td></tr>' % (html.escape(n), html.escape(n), lc, lt,
                                                       lp, bc, bt, bp))
    f.write('</table>')
EOF
echo "coverage report: $build/index.html (merged: $html/all/index.html)"
