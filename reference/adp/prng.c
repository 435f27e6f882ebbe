/* splitmix64: the generator of the device PRNG (core/dev.c nicref_prng_next calls it on the
 * device's state), exported so standalone ADP runs draw the initial timeout exactly as a
 * device seeded the same way would. */
#include "nicref/adp.h"

uint64_t nicref_splitmix64(uint64_t *state)
{
	/* The public-domain splitmix64 constants: full period 2^64, any seed is a valid state. */
	uint64_t z = (*state += 0x9E3779B97F4A7C15ull);
	z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
	z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
	return z ^ (z >> 31);
}
