#!/usr/bin/env bash
# make cflite-check: ci/cflite_build.sh run as ClusterFuzzLite runs it, with $CC, $CXX, $CFLAGS,
# $LIB_FUZZING_ENGINE and $OUT set (OSS-Fuzz's libFuzzer + ASan values; no container), then
# proof that it honoured them and built every target:
#   - every compile went through $CC with $CFLAGS (a logging $CC wrapper: one line per
#     source, each carrying a marker definition put in $CFLAGS), every link through $CXX;
#   - for each fuzzers/<t>_fuzz.c: $OUT/<t>_fuzz runs (-runs=2) under libFuzzer and carries
#     ASan (from $CFLAGS); <t>_fuzz_seed_corpus.zip holds exactly the files of corpora/<t>/;
#     <t>_fuzz.dict is fuzzers/<t>.dict; <t>_fuzz.options is a [libfuzzer] section whose dict
#     exists in $OUT.
# Usage: ci/cflite_check.sh [BUILD_DIR]   (default build/cflite; emptied first)
set -uo pipefail
cd "$(dirname "$0")/.."
dir=${1:-build/cflite}
rm -rf "$dir"
mkdir -p "$dir/bin"
dir=$(cd "$dir" && pwd)
log=$dir/cc.log

# The compilers ClusterFuzzLite would run, logged.
for c in cc:clang cxx:clang++; do
	cat >"$dir/bin/${c%%:*}" <<-EOF
	#!/bin/sh
	echo "${c%%:*} \$*" >>"$log"
	exec ${c#*:} "\$@"
	EOF
	chmod +x "$dir/bin/${c%%:*}"
done
marker=-DNICREF_CFLITE_CHECK=1
start=$(date +%s)
CC=$dir/bin/cc CXX=$dir/bin/cxx OUT=$dir/out WORK=$dir/work \
	CFLAGS="-O1 -fno-omit-frame-pointer -gline-tables-only -fsanitize=address -fsanitize-address-use-after-scope -fsanitize=fuzzer-no-link $marker" \
	LIB_FUZZING_ENGINE=-fsanitize=fuzzer ci/cflite_build.sh >"$dir/build.log" 2>&1
rc=$?
took=$(($(date +%s) - start))
if [ $rc -ne 0 ]; then
	tail -n 40 "$dir/build.log"
	echo "cflite-check: ci/cflite_build.sh failed (exit $rc)" >&2
	exit 1
fi

fail=0
bad() { echo "cflite-check: $*" >&2; fail=1; }
out=$dir/out
targets=$(ls fuzzers/*_fuzz.c | sed 's|fuzzers/\(.*\)_fuzz.c|\1|')
ncc=$(grep -c '^cc .* -c ' "$log")
ncc_marked=$(grep '^cc .* -c ' "$log" | grep -c -- "$marker")
nlink=$(grep -c '^cxx .*-fsanitize=fuzzer .*-o ' "$log")
[ "$ncc" -gt 0 ] && [ "$ncc" -eq "$ncc_marked" ] || bad "$ncc compiles, $ncc_marked with \$CFLAGS"
n=0
for t in $targets; do
	n=$((n + 1))
	bin=$out/${t}_fuzz
	[ -x "$bin" ] || { bad "$t: no $bin"; continue; }
	grep -q -- "-o $bin " "$log" || grep -q -- "-o $bin\$" "$log" || bad "$t: not linked by \$CXX"
	nm "$bin" 2>/dev/null | grep ' T __asan_init$' >/dev/null || bad "$t: no ASan in $bin (\$CFLAGS ignored?)"
	if ! "$bin" -runs=2 -seed=1 >"$dir/$t.run.log" 2>&1; then
		tail -n 20 "$dir/$t.run.log" >&2
		bad "$t: $bin -runs=2 failed"
	fi
	nfiles=$(find "corpora/$t" -type f ! -name '.*' 2>/dev/null | wc -l)
	if [ "$nfiles" -gt 0 ]; then
		zip=$out/${t}_fuzz_seed_corpus.zip
		nzip=$(python3 -c 'import sys, zipfile; print(len(zipfile.ZipFile(sys.argv[1]).namelist()))' "$zip" 2>/dev/null || echo 0)
		[ "$nzip" -eq "$nfiles" ] || bad "$t: $zip holds $nzip files, corpora/$t/ $nfiles"
	fi
	if [ -s "fuzzers/$t.dict" ]; then
		cmp -s "fuzzers/$t.dict" "$out/${t}_fuzz.dict" || bad "$t: ${t}_fuzz.dict is not fuzzers/$t.dict"
	fi
	opt=$out/${t}_fuzz.options
	if [ ! -f "$opt" ] || [ "$(head -n 1 "$opt")" != "[libfuzzer]" ]; then
		bad "$t: $opt missing or without its [libfuzzer] section"
	else
		d=$(sed -n 's/^dict *= *//p' "$opt")
		[ -z "$d" ] || [ -f "$out/$d" ] || bad "$t: $opt names $d, not in \$OUT"
	fi
done
extra=$(cd "$out" && ls | grep -v -E '_fuzz(_seed_corpus\.zip|\.dict|\.options)?$')
[ -z "$extra" ] || bad "unexpected files in \$OUT: $extra"
[ "$nlink" -eq "$n" ] || bad "$nlink links through \$CXX, $n targets"
[ $fail -eq 0 ] || exit 1
echo "cflite-check: ci/cflite_build.sh built $n targets in ${took}s ($ncc compiles through \$CC" \
	"with \$CFLAGS, $nlink links through \$CXX with \$LIB_FUZZING_ENGINE), each runs;" \
	"seed corpora, dictionaries and options in \$OUT"
