/* Reading a fuzz input front to back: every target's ops take their operands through this.
 * Past the end every read is 0, so a short input is a valid input (its missing operands are
 * zeros) and no target needs a length check of its own. */
#ifndef NICREF_FUZZ_READER_H
#define NICREF_FUZZ_READER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "fuzz_target.h"

struct reader {
	const uint8_t *p;
	size_t n;
};

static inline uint8_t rd8(struct reader *r)
{
	if (!r->n)
		return 0;
	r->n--;
	return *r->p++;
}

/* `bytes` bytes, big-endian (at most 8). */
static inline uint64_t rdn(struct reader *r, unsigned bytes)
{
	uint64_t v = 0;
	for (unsigned i = 0; i < bytes; i++)
		v = v << 8 | rd8(r);
	return v;
}

/* The next op of an op stream into *op: op bytes from first_reserved up are reserved (the op
 * byte alone, nothing happens) and passed over; the op found is traced by its name in names[]
 * ("op NAME"). False when the input is exhausted. */
static inline bool rd_op(struct reader *r, unsigned first_reserved, const char *const *names,
			 uint8_t *op)
{
	while (r->n) {
		*op = rd8(r);
		if (*op < first_reserved) {
			fuzz_trace("op %s", names[*op]);
			return true;
		}
	}
	return false;
}

#endif
