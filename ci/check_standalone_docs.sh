#!/usr/bin/env bash
# A clone has no ../shared: the README, the docs, the code and the vectors cite the
# specifications by title, revision and section (docs/references.md), never by a path outside
# the repository.
set -euo pipefail
cd "$(dirname "$0")/.."
if grep -rnI --exclude-dir=build -e '\.\./shared' -e 'shared/seeds' -e 'shared/spec-map' -e 'shared/tools' \
	README.md CONTRIBUTING.md docs/ reference/ harness/ fuzzers/ vectors/ ci/ Makefile \
	| grep -v '^ci/check_standalone_docs.sh:'; then
	echo "check_standalone_docs: the lines above name a path outside the repository" >&2
	exit 1
fi
# The design notes beside the checkout (spec-map) are not shipped either: the docs cite the PRM.
# (Code comments and vectors still name it in places: docs first.)
if grep -rnI -e 'spec-map' README.md docs/; then
	echo "check_standalone_docs: the lines above cite the spec-map, which a clone does not have" >&2
	exit 1
fi
for f in LICENSE CONTRIBUTING.md docs/references.md; do
	[ -s "$f" ] || { echo "check_standalone_docs: $f is missing" >&2; exit 1; }
done
echo "check_standalone_docs: no path outside the repository"
