#!/usr/bin/env bash
# CI fuzz smoke: every fuzz target for N seconds (default 60) under libFuzzer + ASan + UBSan on a
# temporary copy of its seed corpus, two targets at a time (FUZZ_JOBS, one per core), then the
# committed corpora replayed through the gcc build. Wall time: ceil(targets / 2) * N seconds plus
# the build (17 targets: 9 rounds, ~9.5 min at 60 s). Fails on any crash, sanitizer report, leak
# or timeout.
# Usage: ci/fuzz_smoke.sh [seconds]
set -euo pipefail
cd "$(dirname "$0")/.."
exec make --no-print-directory -f fuzzers/fuzz.mk smoke FUZZ_SECONDS="${1:-60}"
