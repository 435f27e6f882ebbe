/* Byte loops the targets run to build frames and payloads, kept out of line and out of the
 * coverage instrumentation (fuzzers/coverage_ignore.txt): inlined into a target they paid a
 * comparison hook and an edge counter per byte (a 1,600-byte TCP payload per lro SEG op), and
 * their branches say nothing about the device. */
#ifndef NICREF_FUZZ_BYTES_H
#define NICREF_FUZZ_BYTES_H

#include <stddef.h>
#include <stdint.h>

/* p[i] = (uint8_t)(start + i) for i in [0, n). */
void fuzz_fill_counting(uint8_t *p, size_t n, uint32_t start);

#endif
