/* Handle spaces: lowest free handle first (D-OBJ-2), O(levels) per operation. Handles outside
 * [base, limit) are marked used, so the search never returns them. */
#include <stdlib.h>
#include <string.h>

#include "obj/handles.h"

int handle_space_init(struct handle_space *hs, uint32_t capacity)
{
	memset(hs, 0, sizeof *hs);
	hs->capacity = capacity;
	hs->limit = 1; /* differs from any reset range below, so the first reset fills the maps */
	uint32_t n = capacity ? capacity : 1;
	do {
		if (hs->levels == HANDLE_LEVELS)
			return -1; /* beyond 2^24 handles: not a PRM handle space */
		uint32_t w = (n + 63) / 64;
		hs->bits[hs->levels] = calloc(w, sizeof(uint64_t));
		if (!hs->bits[hs->levels])
			return -1;
		hs->words[hs->levels++] = w;
		n = w;
	} while (n > 1);
	handle_space_reset(hs, 0, capacity);
	return 0;
}

void handle_space_fini(struct handle_space *hs)
{
	for (unsigned k = 0; k < HANDLE_LEVELS; k++)
		free(hs->bits[k]);
	memset(hs, 0, sizeof *hs);
}

static void set_bit(uint64_t *w, uint64_t i)
{
	w[i / 64] |= 1ull << (i % 64);
}

void handle_space_reset(struct handle_space *hs, uint32_t base, uint32_t limit)
{
	if (limit > hs->capacity)
		limit = hs->capacity;
	if (base > limit)
		base = limit;
	if (hs->nlive == 0 && hs->base == base && hs->limit == limit)
		return; /* already so: keeps a device reset cheap */
	hs->base = base;
	hs->limit = limit;
	hs->nlive = 0;
	uint64_t span = (uint64_t)hs->words[0] * 64;
	memset(hs->bits[0], 0, hs->words[0] * sizeof(uint64_t));
	for (uint64_t h = 0; h < base; h++)
		set_bit(hs->bits[0], h);
	for (uint64_t h = limit; h < span; h++) {
		if (h % 64 == 0) {
			/* whole words past the limit at once */
			for (uint64_t w = h / 64; w < hs->words[0]; w++)
				hs->bits[0][w] = ~0ull;
			break;
		}
		set_bit(hs->bits[0], h);
	}
	for (unsigned k = 1; k < hs->levels; k++) {
		uint64_t below = hs->words[k - 1];
		memset(hs->bits[k], 0, hs->words[k] * sizeof(uint64_t));
		for (uint64_t i = 0; i < (uint64_t)hs->words[k] * 64; i++)
			if (i >= below || hs->bits[k - 1][i] == ~0ull)
				set_bit(hs->bits[k], i);
	}
}

int64_t handle_alloc(struct handle_space *hs)
{
	unsigned top = hs->levels - 1u;
	if (hs->bits[top][0] == ~0ull)
		return -1;
	uint64_t idx = 0;
	for (int k = (int)top; k >= 0; k--)
		idx = idx * 64 + (uint64_t)__builtin_ctzll(~hs->bits[k][idx]);
	/* mark used; a word that fills up marks its bit one level up */
	uint64_t i = idx;
	for (unsigned k = 0; k < hs->levels; k++) {
		set_bit(hs->bits[k], i);
		if (hs->bits[k][i / 64] != ~0ull)
			break;
		i /= 64;
	}
	hs->nlive++;
	return (int64_t)idx;
}

bool handle_live(const struct handle_space *hs, uint32_t h)
{
	return h >= hs->base && h < hs->limit && (hs->bits[0][h / 64] >> (h % 64)) & 1;
}

int handle_free(struct handle_space *hs, uint32_t h)
{
	if (!handle_live(hs, h))
		return -1;
	uint64_t i = h;
	for (unsigned k = 0; k < hs->levels; k++) {
		bool was_full = hs->bits[k][i / 64] == ~0ull;
		hs->bits[k][i / 64] &= ~(1ull << (i % 64));
		if (!was_full)
			break;
		i /= 64;
	}
	hs->nlive--;
	return 0;
}
