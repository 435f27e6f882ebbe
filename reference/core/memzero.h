/* Zeroing a small block of constant size on the per-frame path. */
#ifndef NICREF_CORE_MEMZERO_H
#define NICREF_CORE_MEMZERO_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

/* memset(p, 0, n) for a constant n, in pieces of at most 64 bytes: gcc (-O2, x86-64) stores
 * those with vector moves, where a single memset of more than 64 bytes becomes `rep stos`,
 * which has a start-up cost of its own and whose stores the loads that follow at once (the
 * fields set into the block just zeroed) cannot take forwarded: they wait for the string
 * store to finish. The bytes are the same either way. */
static inline void memzero_small(void *p, size_t n)
{
	uint8_t *b = (uint8_t *)p;
	for (; n >= 64; n -= 64, b += 64)
		memset(b, 0, 64);
	memset(b, 0, n);
}

#endif
