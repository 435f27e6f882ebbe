#!/usr/bin/env bash
# libnicref.so exports its interface and nothing else: every defined dynamic symbol starts with
# nicref_, every function the public headers declare (with NICREF_API) is exported, and the
# library's SONAME is the one the Makefile derives from nicref/version.h.
# Usage: ci/check_exports.sh LIBNICREF_SO SONAME HEADER...   (from the repository root)
set -euo pipefail
so=$1
soname=$2
shift 2
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fails=0

nm -D --defined-only "$so" | awk '{ print $NF }' | sort -u >"$tmp/exported"
# Functions the headers declare: the headers preprocessed (no comments), every nicref_NAME(.
printf '#include "%s"\n' "$@" | ${CC:-cc} -std=c11 -E -P -Ireference/include -x c - |
  grep -oE '\bnicref_[a-z0-9_]+[[:space:]]*\(' | sed 's/[[:space:](]*$//' | sort -u >"$tmp/declared"

others=$(grep -v '^nicref_' "$tmp/exported" || true)
if [ -n "$others" ]; then
  echo "exports-check: FAIL: $so exports $(echo "$others" | wc -l) names outside nicref_*:"
  echo "$others" | head -n 20 | sed 's/^/  /'
  fails=1
fi
missing=$(comm -23 "$tmp/declared" "$tmp/exported")
if [ -n "$missing" ]; then
  echo "exports-check: FAIL: declared in the public headers but not exported (NICREF_API?):"
  echo "$missing" | sed 's/^/  /'
  fails=1
fi
grep -qx 'nicref_dev_create' "$tmp/exported" || { echo "exports-check: FAIL: no nicref_dev_create"; fails=1; }
got=$(readelf -d "$so" | sed -n 's/.*Library soname: \[\(.*\)\]/\1/p')
if [ "$got" != "$soname" ]; then
  echo "exports-check: FAIL: SONAME of $so is '$got', not '$soname'"
  fails=1
fi
[ "$fails" -eq 0 ] || exit 1
echo "exports-check: $so ($soname) exports $(wc -l <"$tmp/exported") symbols, all nicref_*, every one the headers declare ($(wc -l <"$tmp/declared"))"
