#!/usr/bin/env bash
# The model is deterministic: the golden vectors must produce byte-identical canonical traces
# under gcc -O0 and clang -O2 (and the same results). Run from the repository root.
set -euo pipefail
make -s -j2 BUILD=build/det-gcc-O0 CC=gcc OPT="-O0 -g" build/det-gcc-O0/nicref
make -s -j2 BUILD=build/det-clang-O2 CC=clang OPT="-O2" build/det-clang-O2/nicref
out=build/determinism
mkdir -p "$out"
build/det-gcc-O0/nicref vectors --trace "$out/gcc-O0.trace" vectors/ >"$out/gcc-O0.out" || true
build/det-clang-O2/nicref vectors --trace "$out/clang-O2.trace" vectors/ >"$out/clang-O2.out" || true
if ! cmp -s "$out/gcc-O0.trace" "$out/clang-O2.trace"; then
  echo "determinism: traces differ between gcc -O0 and clang -O2:"
  diff "$out/gcc-O0.trace" "$out/clang-O2.trace" | head -n 20
  exit 1
fi
if ! cmp -s "$out/gcc-O0.out" "$out/clang-O2.out"; then
  echo "determinism: results differ between gcc -O0 and clang -O2"
  diff "$out/gcc-O0.out" "$out/clang-O2.out" | head -n 20
  exit 1
fi
echo "determinism: $(wc -l <"$out/gcc-O0.trace") trace events identical under gcc -O0 and clang -O2 ($(sha256sum "$out/gcc-O0.trace" | cut -c1-16))"
