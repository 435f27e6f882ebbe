#!/usr/bin/env bash
# A clone has no ../shared: the README, the docs, the code and the vectors cite the
# specifications by title, revision and section (docs/references.md), never by a path outside
# the repository.
set -euo pipefail
cd "$(dirname "$0")/.."
# Every file git tracks (outside a git checkout, every file but build/ and .git/), this script
# excepted.
hits() {
	if git rev-parse --is-inside-work-tree > /dev/null 2>&1; then
		git grep -nI "$@" -- . ':!ci/check_standalone_docs.sh'
	else
		grep -rnI --exclude-dir=build --exclude-dir=.git "$@" . \
			| grep -v '^\./ci/check_standalone_docs.sh:'
	fi
}
if hits -e '\.\./shared' -e 'shared/seeds' -e 'shared/spec-map' -e 'shared/tools' -e '/work/'; then
	echo "check_standalone_docs: the lines above name a path outside the repository" >&2
	exit 1
fi
# The design notes beside the checkout (spec-map) are not shipped either, so nothing in the
# repository may cite them: every file git tracks (README, docs, reference, harness, fuzzers,
# vectors and their generators, ci, corpora, Makefile, ...) except this script cites the PRM
# section or table, or the repository's own decision ID (docs/decisions.md and the pages it
# links).
if hits -e 'spec-map'; then
	echo "check_standalone_docs: the lines above cite the spec-map, which a clone does not have" >&2
	exit 1
fi
for f in LICENSE CONTRIBUTING.md docs/references.md; do
	[ -s "$f" ] || { echo "check_standalone_docs: $f is missing" >&2; exit 1; }
done
echo "check_standalone_docs: no path outside the repository, no citation of the spec-map"
