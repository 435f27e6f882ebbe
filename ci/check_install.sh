#!/usr/bin/env bash
# An install staged by `make install DESTDIR=STAGE PREFIX=PREFIX` is complete and usable: the
# shared library with its SONAME and symlinks, the static library, the public headers (each
# compiles on its own), nicref.pc, the tool and its man page; a program built through
# `pkg-config --cflags --libs nicref` against the stage links libnicref.so.MAJOR and runs.
# Usage: CC=gcc ci/check_install.sh STAGE PREFIX VERSION   (from the repository root)
set -euo pipefail
stage=$1
prefix=$2
version=$3
major=${version%%.*}
cc=${CC:-cc}
root=$stage$prefix
out=$stage.test
rm -rf "$out"
mkdir -p "$out"
fail() {
  echo "install-check: FAIL: $*"
  exit 1
}

for f in bin/nicref lib/libnicref.a "lib/libnicref.so.$version" lib/pkgconfig/nicref.pc \
  share/man/man1/nicref.1 include/nicref/nicref.h include/nicref/api.h include/nicref/version.h; do
  [ -f "$root/$f" ] || fail "$prefix/$f not installed"
done
[ "$(readlink "$root/lib/libnicref.so.$major")" = "libnicref.so.$version" ] ||
  fail "libnicref.so.$major is not a link to libnicref.so.$version"
[ "$(readlink "$root/lib/libnicref.so")" = "libnicref.so.$major" ] ||
  fail "libnicref.so is not a link to libnicref.so.$major"
readelf -d "$root/lib/libnicref.so.$version" | grep -q "Library soname: \[libnicref.so.$major\]" ||
  fail "the SONAME of libnicref.so.$version is not libnicref.so.$major"
for h in reference/include/nicref/*.h; do
  [ -f "$root/include/nicref/$(basename "$h")" ] || fail "$h not installed"
  # Each public header stands alone (C11, the project's warnings).
  printf '#include <nicref/%s>\n' "$(basename "$h")" |
    $cc -std=c11 -Wall -Wextra -Werror -I"$root/include" -x c -fsyntax-only - ||
    fail "installed nicref/$(basename "$h") does not compile on its own"
done
"$root/bin/nicref" --version | grep -qx "nicref $version" || fail "installed nicref --version"

# pkg-config sees only the stage; the sysroot makes its paths point into it.
export PKG_CONFIG_PATH= PKG_CONFIG_LIBDIR="$root/lib/pkgconfig" PKG_CONFIG_SYSROOT_DIR="$stage"
export PKG_CONFIG_ALLOW_SYSTEM_CFLAGS=1 PKG_CONFIG_ALLOW_SYSTEM_LIBS=1
[ "$(pkg-config --modversion nicref)" = "$version" ] || fail "pkg-config --modversion nicref"
grep -qx "prefix=$prefix" "$root/lib/pkgconfig/nicref.pc" || fail "nicref.pc: prefix is not $prefix"
cflags=$(pkg-config --cflags nicref)
libs=$(pkg-config --libs nicref)
# shellcheck disable=SC2086
$cc -std=c11 -Wall -Wextra -Werror $cflags harness/tests/pkgconfig/use_nicref.c $libs \
  -o "$out/use_nicref" || fail "cannot build against the stage with: $cflags $libs"
readelf -d "$out/use_nicref" | grep -q "Shared library: \[libnicref.so.$major\]" ||
  fail "the program does not need libnicref.so.$major"
got=$(LD_LIBRARY_PATH="$root/lib" "$out/use_nicref")
want="libnicref $version (headers $version): fw_rev 12.0.0, cmd_interface_rev 5"
[ "$got" = "$want" ] || fail "the program printed '$got', not '$want'"
# The static library alone is enough too.
# shellcheck disable=SC2086
$cc -std=c11 $cflags harness/tests/pkgconfig/use_nicref.c "$root/lib/libnicref.a" \
  -o "$out/use_nicref_static" || fail "cannot link the static library"
[ "$("$out/use_nicref_static")" = "$want" ] || fail "the statically linked program"
echo "install-check: staged under $stage: built with '$cflags $libs' and ran: $got"
