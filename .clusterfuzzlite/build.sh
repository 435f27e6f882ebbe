#!/bin/bash -eu
# Run by ClusterFuzzLite (and OSS-Fuzz) in the builder image, with $CC, $CFLAGS,
# $LIB_FUZZING_ENGINE and $OUT set: every fuzzers/<t>_fuzz.c as $OUT/<t>_fuzz, with its seed
# corpus, dictionary and options (ci/cflite_build.sh, docs/fuzzing.md; `make cflite-check`
# runs the same script outside the container).
cd "$SRC/nicref"
ci/cflite_build.sh
