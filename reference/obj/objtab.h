/* Private to libnicref: an object table maps the handles of one object type (PRM handles are
 * 24-bit: cqn, sqn, rqn, mkey_index, ...) to the objects, with
 *  - the lowest free handle of [base, limit) handed out first (D-OBJ-2),
 *  - lookup by handle in O(1): a directory of chunks of OBJTAB_CHUNK handles,
 *  - memory proportional to the live objects: a chunk exists only while it holds one, so a
 *    table of 2^24 handles with none live costs its directory (16 KB) and two small bitmaps,
 *  - allocation in O(1): a bitmap of chunks with a free handle under a one-word summary, then
 *    the chunk's own bitmap.
 * The table stores pointers; the objects belong to their type's code, which frees them. */
#ifndef NICREF_OBJ_OBJTAB_H
#define NICREF_OBJ_OBJTAB_H

#include <stdbool.h>
#include <stdint.h>

#define OBJTAB_CHUNK_LOG 12
#define OBJTAB_CHUNK (1u << OBJTAB_CHUNK_LOG)
#define OBJTAB_MAX_LOG 24 /* the widest PRM handle */

struct objtab_chunk {
	uint32_t nlive;
	uint64_t used[OBJTAB_CHUNK / 64];
	void *obj[OBJTAB_CHUNK];
};

struct objtab {
	uint32_t base, limit; /* handles [base, limit) may be live */
	uint32_t capacity;    /* the largest limit (a power of two <= 2^24) */
	uint32_t nlive;
	uint32_t nchunks;     /* capacity / OBJTAB_CHUNK, at least 1 */
	uint32_t top;         /* one past the highest chunk that exists: iteration stops there */
	struct objtab_chunk **dir;
	uint64_t *notfull;    /* bit c: chunk c has a free handle in [base, limit) */
	uint64_t summary;     /* bit w: notfull word w is non-zero (nchunks <= 4096) */
};

/* 0, or -1 when out of memory or capacity is not a power of two in [1, 2^24]. The range is
 * [0, capacity) until objtab_reset. */
int objtab_init(struct objtab *t, uint32_t capacity);
/* Frees the chunks (not the objects: free them first, e.g. with objtab_reset). */
void objtab_fini(struct objtab *t);
/* Removes every object, calling dtor(ctx, obj) on each (in handle order), and sets the range
 * (limit clamped to capacity). Cost: the live chunks, not the capacity. */
void objtab_reset(struct objtab *t, uint32_t base, uint32_t limit,
		  void (*dtor)(void *ctx, void *obj), void *ctx);
/* Stores obj under the lowest free handle and returns it; -1 when the range is full, -2 when
 * out of memory. */
int64_t objtab_alloc(struct objtab *t, void *obj);
/* The object of handle h, or NULL when h is not live. */
static inline void *objtab_get(const struct objtab *t, uint32_t h)
{
	/* inline: a received frame looks up a dozen objects (TIR, RQT, RQ, CQ, MKey, ...) */
	if (h < t->base || h >= t->limit)
		return NULL;
	const struct objtab_chunk *k = t->dir[h >> OBJTAB_CHUNK_LOG];
	/* The used bitmap decides: a new chunk's obj[] slots are not zeroed (objtab_alloc), so a
	 * slot is read only while its bit is set. */
	uint32_t i = h % OBJTAB_CHUNK;
	return k && (k->used[i / 64] >> (i % 64) & 1) ? k->obj[i] : NULL;
}
/* Removes handle h and returns its object, or NULL when h is not live. */
void *objtab_remove(struct objtab *t, uint32_t h);
/* The first live handle >= h (its object in *obj), or -1. For iteration and invariants: the
 * cost is the live chunks below the next handle, not the capacity. */
int64_t objtab_next(const struct objtab *t, uint32_t h, void **obj);
/* Bytes the table itself holds (directory, bitmaps, chunks), for the benchmarks. */
uint64_t objtab_bytes(const struct objtab *t);

#endif
