#!/usr/bin/env bash
# CPPFLAGS, CFLAGS and LDFLAGS from the environment or the make command line are added to the
# project's flags: they appear in every compile (and link) line, before -std=c11 and the
# warnings, which stay on whatever the user's flags say. Checked on `make -n`, nothing built.
# Usage: ci/check_flags.sh   (from the repository root)
set -euo pipefail
b=build/flags-check
goals=("$b/reference/core/dev.o" "$b/harness/main.o" "$b/libnicref.so" "$b/nicref")
fails=0
check() { # what, dry-run output
  local what=$1 out=$2 line
  line=$(grep -- ' -c reference/core/dev.c ' <<<"$out") || { echo "flags-check: FAIL: $what: no compile line"; fails=1; return; }
  for want in -DNICREF_USER_CPPFLAG -DNICREF_USER_CFLAG -std=c11 -Werror -Wall -fvisibility=hidden; do
    grep -q -- " $want\b" <<<"$line" || { echo "flags-check: FAIL: $what: '$want' missing from: $line"; fails=1; }
  done
  # -std=c11 and -Werror come after the user's -std=gnu89 -Wno-error, so they win.
  grep -Eq -- '-std=gnu89 .*-std=c11' <<<"$line" || { echo "flags-check: FAIL: $what: the user's -std overrides -std=c11: $line"; fails=1; }
  grep -Eq -- '-Wno-error .*-Werror' <<<"$line" || { echo "flags-check: FAIL: $what: the user's -Wno-error overrides -Werror: $line"; fails=1; }
  grep -q -- ' -DNICREF_USER_CFLAG' <<<"$(grep -- ' -c harness/main.c ' <<<"$out")" || { echo "flags-check: FAIL: $what: CFLAGS missing from the harness"; fails=1; }
  for l in "-shared" "-o $b/nicref"; do
    grep -- "$l" <<<"$out" | grep -q -- '-L/nicref-user-ldflag' || { echo "flags-check: FAIL: $what: LDFLAGS missing from the link ($l)"; fails=1; }
  done
}
user_cflags="-DNICREF_USER_CFLAG -std=gnu89 -Wno-error"
env=$(CPPFLAGS=-DNICREF_USER_CPPFLAG CFLAGS="$user_cflags" LDFLAGS=-L/nicref-user-ldflag \
  make -n -B --no-print-directory BUILD=$b "${goals[@]}")
check "from the environment" "$env"
cmd=$(make -n -B --no-print-directory BUILD=$b CPPFLAGS=-DNICREF_USER_CPPFLAG \
  CFLAGS="$user_cflags" LDFLAGS=-L/nicref-user-ldflag "${goals[@]}")
check "on the command line" "$cmd"
[ "$fails" -eq 0 ] || exit 1
echo "flags-check: CPPFLAGS, CFLAGS and LDFLAGS from the environment and the command line are added; -std=c11 and the warnings stay on"
