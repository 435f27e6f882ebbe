#!/usr/bin/env bash
# The ClusterFuzzLite / OSS-Fuzz build of every fuzz target (.clusterfuzzlite/build.sh runs it
# in the builder image; `make cflite-check` runs it here, no container).
#
#   CC=clang CFLAGS="-O1 -fsanitize=address -fsanitize=fuzzer-no-link ..." \
#   LIB_FUZZING_ENGINE=-fsanitize=fuzzer OUT=/out ci/cflite_build.sh
#
# Honours what the builder sets: $CC and $CFLAGS compile every source (after them the
# project's standard, definitions and warnings, which stay on), $CXX (or $CC when unset) links
# with $CFLAGS $LIB_FUZZING_ENGINE (-fsanitize=fuzzer, or the AFL++/honggfuzz driver library),
# $OUT receives, for each fuzzers/<t>_fuzz.c:
#   <t>_fuzz                 the target
#   <t>_fuzz_seed_corpus.zip corpora/<t>/ (when it holds inputs)
#   <t>_fuzz.dict            fuzzers/<t>.dict (when there is one)
#   <t>_fuzz.options         the libFuzzer options ClusterFuzz runs it with (timeout, memory,
#                            dictionary); fuzzers/<t>.options instead when it exists
# $WORK (default: a temporary directory) holds the objects; NICREF_BUILD_JOBS compiles in
# parallel (default: the number of cores). The source list, include paths and link wraps come
# from fuzzers/fuzz.mk (ci/cflite_vars.mk), so this build and `make fuzz` compile the same files.
set -euo pipefail

: "${CC:?set CC (e.g. clang)}"
: "${OUT:?set OUT (the directory the targets are written to)}"
: "${LIB_FUZZING_ENGINE:?set LIB_FUZZING_ENGINE (e.g. -fsanitize=fuzzer)}"
CFLAGS=${CFLAGS:-}
LINK=${CXX:-$CC}
cd "$(dirname "$0")/.."

tmpwork=
if [ -z "${WORK:-}" ]; then
	tmpwork=$(mktemp -d "${TMPDIR:-/tmp}/nicref-cflite.XXXXXX")
	WORK=$tmpwork
fi
trap '[ -z "$tmpwork" ] || rm -rf "$tmpwork"' EXIT
OBJ=$WORK/nicref-obj
mkdir -p "$OUT" "$OBJ"

vars=$(make -s --no-print-directory -f fuzzers/fuzz.mk -f ci/cflite_vars.mk cflite-vars)
var() { sed -n "s/^$1=//p" <<<"$vars"; }
read -r -a srcs <<<"$(var LIB_SRC)"
read -r -a targets <<<"$(var TARGETS)"
read -r -a inc <<<"$(var INC)"
read -r -a base <<<"$(var BASE)"
read -r -a wrap <<<"$(var WRAP)"
[ ${#srcs[@]} -gt 0 ] && [ ${#targets[@]} -gt 0 ] || {
	echo "cflite_build: no sources or no targets from fuzzers/fuzz.mk" >&2
	exit 1
}

# One compile command for every source (target files included); xargs runs them side by side.
compile_one() {
	local src=$1 obj
	obj=$OBJ/${src%.c}.o
	mkdir -p "$(dirname "$obj")"
	# shellcheck disable=SC2086 # CFLAGS is a list of words, as in every OSS-Fuzz build
	$CC $CFLAGS "${base[@]}" "${inc[@]}" -c "$src" -o "$obj"
}
export -f compile_one
export CC CFLAGS OBJ
export BASE_WORDS="${base[*]}" INC_WORDS="${inc[*]}"
jobs=${NICREF_BUILD_JOBS:-$(nproc 2>/dev/null || echo 2)}
printf '%s\n' "${srcs[@]}" "${targets[@]/%/_fuzz.c}" | sed 's|^\([a-z0-9_]*_fuzz\.c\)$|fuzzers/\1|' |
	xargs -P "$jobs" -I{} bash -c 'read -r -a base <<<"$BASE_WORDS"; read -r -a inc <<<"$INC_WORDS"; compile_one "$1"' _ {}

lib_objs=()
for s in "${srcs[@]}"; do lib_objs+=("$OBJ/${s%.c}.o"); done

zip_dir() { # zip_dir DIR ZIP: the files of DIR, flat, hidden files left out
	rm -f "$2"
	if command -v zip >/dev/null 2>&1; then
		(cd "$1" && find . -type f ! -name '.*' -print | sort | zip -q -X -j "$2" -@)
	else
		python3 - "$1" "$2" <<-'EOF'
		import os, sys, zipfile
		d, out = sys.argv[1], sys.argv[2]
		with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as z:
		    for dp, _, fs in sorted(os.walk(d)):
		        for f in sorted(fs):
		            if not f.startswith("."):
		                z.write(os.path.join(dp, f), f)
		EOF
	fi
}

for t in "${targets[@]}"; do
	name=${t}_fuzz
	# shellcheck disable=SC2086
	$LINK $CFLAGS $LIB_FUZZING_ENGINE "${wrap[@]}" -o "$OUT/$name" \
		"$OBJ/fuzzers/$name.o" "${lib_objs[@]}" -ldl
	if [ -d "corpora/$t" ] && [ -n "$(find "corpora/$t" -type f ! -name '.*' -print -quit)" ]; then
		zip_dir "$PWD/corpora/$t" "$OUT/${name}_seed_corpus.zip"
	fi
	dict=
	if [ -s "fuzzers/$t.dict" ]; then
		cp "fuzzers/$t.dict" "$OUT/$name.dict"
		dict=$name.dict
	fi
	if [ -f "fuzzers/$t.options" ]; then
		cp "fuzzers/$t.options" "$OUT/$name.options"
	else
		# The limits of the smoke and the campaign: a model step never takes seconds, and the
		# op streams need no more memory than ClusterFuzz's default.
		{
			echo "[libfuzzer]"
			echo "timeout = 25"
			echo "rss_limit_mb = 2560"
			[ -z "$dict" ] || echo "dict = $dict"
		} >"$OUT/$name.options"
	fi
done
echo "cflite_build: ${#targets[@]} targets in $OUT: ${targets[*]}"
