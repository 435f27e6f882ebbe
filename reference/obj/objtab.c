/* Object tables: see objtab.h. */
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "obj/objtab.h"

enum { OBJTAB_REC_ALLOC, OBJTAB_REC_REMOVE, OBJTAB_REC_RANGE };

static void log_rec(struct objtab *t, struct objtab_rec r)
{
	if (!t->undo_on || t->undo_lost)
		return;
	if (t->nundo == t->undo_cap) {
		uint32_t cap = t->undo_cap ? 2 * t->undo_cap : 16;
		struct objtab_rec *n = realloc(t->undo, cap * sizeof *n);
		if (!n) {
			t->undo_lost = true;
			return;
		}
		t->undo = n;
		t->undo_cap = cap;
	}
	t->undo[t->nundo++] = r;
}

/* A new chunk: the spare when there is one (it is empty: every handle removed). */
static struct objtab_chunk *chunk_new(struct objtab *t)
{
	struct objtab_chunk *k = t->spare;
	if (k) {
		t->spare = NULL;
		return k;
	}
	return malloc(sizeof *k); /* objtab_alloc zeroes what is read before a slot is set */
}

static void chunk_drop(struct objtab *t, struct objtab_chunk *k)
{
	if (t->undo_on && !t->spare) {
		t->spare = k;
	} else {
		free(k);
	}
}

static uint32_t chunk_of(uint32_t h)
{
	return h >> OBJTAB_CHUNK_LOG;
}

static void notfull_set(struct objtab *t, uint32_t c, bool on)
{
	uint64_t *w = &t->notfull[c / 64];
	if (on)
		*w |= 1ull << (c % 64);
	else
		*w &= ~(1ull << (c % 64));
	if (*w)
		t->summary |= 1ull << (c / 64);
	else
		t->summary &= ~(1ull << (c / 64));
}

/* Handles of chunk c inside [base, limit). */
static uint32_t chunk_room(const struct objtab *t, uint32_t c)
{
	uint64_t lo = (uint64_t)c * OBJTAB_CHUNK, hi = lo + OBJTAB_CHUNK;
	if (lo < t->base)
		lo = t->base;
	if (hi > t->limit)
		hi = t->limit;
	return hi > lo ? (uint32_t)(hi - lo) : 0;
}

int objtab_init(struct objtab *t, uint32_t capacity)
{
	memset(t, 0, sizeof *t);
	if (capacity == 0 || (capacity & (capacity - 1)) || capacity > (1u << OBJTAB_MAX_LOG))
		return -1;
	t->capacity = capacity;
	t->nchunks = capacity > OBJTAB_CHUNK ? capacity / OBJTAB_CHUNK : 1;
	t->dir = calloc(t->nchunks, sizeof *t->dir);
	t->notfull = calloc((t->nchunks + 63) / 64, sizeof *t->notfull);
	if (!t->dir || !t->notfull) {
		objtab_fini(t);
		return -1;
	}
	objtab_reset(t, 0, capacity, NULL, NULL);
	return 0;
}

void objtab_fini(struct objtab *t)
{
	if (t->dir)
		for (uint32_t c = 0; c < t->nchunks; c++)
			free(t->dir[c]);
	free(t->dir);
	free(t->notfull);
	free(t->undo);
	free(t->spare);
	memset(t, 0, sizeof *t);
}

void objtab_reset(struct objtab *t, uint32_t base, uint32_t limit,
		  void (*dtor)(void *ctx, void *obj), void *ctx)
{
	bool had = t->nlive != 0;
	if (had) {
		/* Chunks exist only below top; the live handles of each by its bitmap's set bits,
		 * in handle order (a reset costs the live chunks and objects, not the capacity). */
		for (uint32_t c = 0; c < t->top; c++) {
			struct objtab_chunk *k = t->dir[c];
			if (!k)
				continue;
			for (uint32_t w = 0; (dtor || t->undo_on) && w < OBJTAB_CHUNK / 64; w++)
				for (uint64_t bits = k->used[w]; bits; bits &= bits - 1) {
					uint32_t i = w * 64 + (uint32_t)__builtin_ctzll(bits);
					log_rec(t, (struct objtab_rec){ .op = OBJTAB_REC_REMOVE,
									.h = c * OBJTAB_CHUNK + i,
									.obj = k->obj[i] });
					if (dtor)
						dtor(ctx, k->obj[i]);
				}
			chunk_drop(t, k);
			t->dir[c] = NULL;
		}
		t->nlive = 0;
		t->top = 0;
	}
	if (limit > t->capacity)
		limit = t->capacity;
	if (base > limit)
		base = limit;
	if (had || t->base != base || t->limit != limit)
		log_rec(t, (struct objtab_rec){ .op = OBJTAB_REC_RANGE, .base = t->base,
						.limit = t->limit });
	if (!had && t->base == base && t->limit == limit && t->summary)
		return; /* already so: keeps a device reset cheap */
	t->base = base;
	t->limit = limit;
	memset(t->notfull, 0, (t->nchunks + 63) / 64 * sizeof *t->notfull);
	t->summary = 0;
	/* Every chunk with room in [base, limit) has a free handle: chunks first..end-1, set a
	 * word of the bitmap at a time. */
	uint32_t first = chunk_of(base), end = first;
	if (limit > base) {
		end = (uint32_t)(((uint64_t)limit + OBJTAB_CHUNK - 1) / OBJTAB_CHUNK);
		if (end > t->nchunks)
			end = t->nchunks;
	}
	for (uint32_t c = first; c < end;) {
		uint32_t w = c / 64, lo = c % 64, n = end - c < 64 - lo ? end - c : 64 - lo;
		t->notfull[w] |= (n == 64 ? ~0ull : ((1ull << n) - 1)) << lo;
		t->summary |= 1ull << w;
		c += n;
	}
}

int64_t objtab_alloc(struct objtab *t, void *obj)
{
	if (!t->summary)
		return -1;
	uint32_t w = (uint32_t)__builtin_ctzll(t->summary);
	uint32_t c = w * 64 + (uint32_t)__builtin_ctzll(t->notfull[w]);
	struct objtab_chunk *k = t->dir[c];
	if (!k) {
		/* Only the count and the bitmaps start zeroed (below): a slot of obj[] is read only
		 * while its bit is set, and zeroing all 32 KiB of it cost a chunk's every page on its
		 * first object (each input's first object of a type, once a snapshot frees them). */
		k = chunk_new(t);
		if (!k)
			return -2;
		memset(k, 0, offsetof(struct objtab_chunk, obj));
		t->dir[c] = k;
		if (c >= t->top)
			t->top = c + 1;
	}
	/* The lowest free handle of the chunk at or above base. */
	uint32_t first = c * OBJTAB_CHUNK, lo = t->base > first ? t->base - first : 0;
	for (uint32_t i = lo / 64; i < OBJTAB_CHUNK / 64; i++) {
		uint64_t free_bits = ~k->used[i];
		if (i == lo / 64 && lo % 64)
			free_bits &= ~0ull << (lo % 64);
		if (!free_bits)
			continue;
		uint32_t idx = i * 64 + (uint32_t)__builtin_ctzll(free_bits);
		uint32_t h = first + idx;
		if (h >= t->limit)
			break;
		k->used[i] |= 1ull << (idx % 64);
		k->words |= 1ull << i;
		k->obj[idx] = obj;
		k->nlive++;
		t->nlive++;
		if (k->nlive == chunk_room(t, c))
			notfull_set(t, c, false);
		log_rec(t, (struct objtab_rec){ .op = OBJTAB_REC_ALLOC, .h = h });
		return h;
	}
	/* notfull said there was room: a model bug. */
	__builtin_trap();
}

void *objtab_remove(struct objtab *t, uint32_t h)
{
	void *obj = objtab_get(t, h);
	if (!obj)
		return NULL;
	uint32_t c = chunk_of(h), i = h % OBJTAB_CHUNK;
	struct objtab_chunk *k = t->dir[c];
	k->used[i / 64] &= ~(1ull << (i % 64));
	if (!k->used[i / 64])
		k->words &= ~(1ull << (i / 64));
	k->obj[i] = NULL;
	t->nlive--;
	if (--k->nlive == 0) {
		/* memory follows the live objects */
		chunk_drop(t, k);
		t->dir[c] = NULL;
		while (t->top && !t->dir[t->top - 1])
			t->top--;
	}
	notfull_set(t, c, true);
	log_rec(t, (struct objtab_rec){ .op = OBJTAB_REC_REMOVE, .h = h, .obj = obj });
	return obj;
}

int objtab_put(struct objtab *t, uint32_t h, void *obj)
{
	uint32_t c = chunk_of(h), i = h % OBJTAB_CHUNK;
	struct objtab_chunk *k = t->dir[c];
	if (!k) {
		if (!(k = chunk_new(t)))
			return -1;
		memset(k, 0, offsetof(struct objtab_chunk, obj));
		t->dir[c] = k;
		if (c >= t->top)
			t->top = c + 1;
	}
	k->used[i / 64] |= 1ull << (i % 64);
	k->words |= 1ull << (i / 64);
	k->obj[i] = obj;
	k->nlive++;
	t->nlive++;
	if (k->nlive == chunk_room(t, c))
		notfull_set(t, c, false);
	log_rec(t, (struct objtab_rec){ .op = OBJTAB_REC_ALLOC, .h = h });
	return 0;
}

void objtab_undo_start(struct objtab *t)
{
	t->undo_on = true;
	t->undo_lost = false;
	t->nundo = 0;
}

bool objtab_undo_complete(const struct objtab *t)
{
	return t->undo_on && !t->undo_lost;
}

int objtab_undo(struct objtab *t)
{
	int rc = 0;
	t->undo_lost = true; /* what the undo does is not logged (the spare is kept: still on) */
	while (t->nundo) {
		const struct objtab_rec *r = &t->undo[--t->nundo];
		if (r->op == OBJTAB_REC_ALLOC)
			(void)objtab_remove(t, r->h);
		else if (r->op == OBJTAB_REC_REMOVE)
			rc |= objtab_put(t, r->h, r->obj);
		else
			objtab_reset(t, r->base, r->limit, NULL, NULL);
	}
	objtab_undo_start(t);
	return rc;
}

int64_t objtab_next(const struct objtab *t, uint32_t h, void **obj)
{
	if (h < t->base)
		h = t->base;
	/* Chunks exist exactly while they hold a live handle; none at or above top. Within a
	 * chunk, the word of h, then the next non-empty word from the chunk's summary: the
	 * invariants walk every table after every fuzz op, so this is a hot loop. */
	while (h < t->limit && chunk_of(h) < t->top) {
		uint32_t c = chunk_of(h);
		const struct objtab_chunk *k = t->dir[c];
		if (k) {
			uint32_t w = h % OBJTAB_CHUNK / 64;
			uint64_t bits = k->used[w] & ~0ull << (h % 64);
			if (!bits && w + 1 < OBJTAB_CHUNK / 64) {
				uint64_t rest = k->words & ~0ull << (w + 1);
				if (rest) {
					w = (uint32_t)__builtin_ctzll(rest);
					bits = k->used[w];
				}
			}
			if (bits) {
				uint32_t i = w * 64 + (uint32_t)__builtin_ctzll(bits);
				if (obj)
					*obj = k->obj[i];
				return (int64_t)c * OBJTAB_CHUNK + i;
			}
		}
		h = (c + 1) * OBJTAB_CHUNK;
	}
	return -1;
}

uint64_t objtab_bytes(const struct objtab *t)
{
	uint64_t n = sizeof *t + (uint64_t)t->nchunks * sizeof *t->dir +
		     (t->nchunks + 63) / 64 * sizeof *t->notfull;
	for (uint32_t c = 0; c < t->nchunks; c++)
		if (t->dir[c])
			n += sizeof *t->dir[c];
	return n;
}
