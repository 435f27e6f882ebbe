/* Private to libnicref: an object table maps the handles of one object type (PRM handles are
 * 24-bit: cqn, sqn, rqn, mkey_index, ...) to the objects, with
 *  - the lowest free handle of [base, limit) handed out first (D-OBJ-2),
 *  - lookup by handle in O(1): a directory of chunks of OBJTAB_CHUNK handles,
 *  - memory proportional to the live objects: a chunk exists only while it holds one, so a
 *    table of 2^24 handles with none live costs its directory (16 KB) and two small bitmaps,
 *  - allocation in O(1): a bitmap of chunks with a free handle under a one-word summary, then
 *    the chunk's own bitmap.
 * The table stores pointers; the objects belong to their type's code, which frees them.
 *
 * While its undo log is on (a snapshot is armed, cmd/ctl_snap.c), a table records every change
 * of which handles are live and of its range, so objtab_undo takes it back to where the log
 * started in time proportional to the changes; the objects themselves are the allocator's
 * (core/devmem.h). */
#ifndef NICREF_OBJ_OBJTAB_H
#define NICREF_OBJ_OBJTAB_H

#include <stdbool.h>
#include <stdint.h>

#define OBJTAB_CHUNK_LOG 12
#define OBJTAB_CHUNK (1u << OBJTAB_CHUNK_LOG)
#define OBJTAB_MAX_LOG 24 /* the widest PRM handle */

struct objtab_chunk {
	uint32_t nlive;
	uint64_t words; /* bit w: used[w] != 0, so objtab_next finds the next word in O(1) */
	uint64_t used[OBJTAB_CHUNK / 64];
	void *obj[OBJTAB_CHUNK];
};

/* One change, as the undo log holds it. */
struct objtab_rec {
	uint8_t op; /* OBJTAB_REC_* (objtab.c) */
	uint32_t h, base, limit;
	void *obj;
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
	/* The undo log: on, the changes since it started, lost when it could not grow. An empty
	 * chunk is kept as the spare while the log is on, so undoing needs no allocation. */
	bool undo_on, undo_lost;
	uint32_t nundo, undo_cap;
	struct objtab_rec *undo;
	struct objtab_chunk *spare;
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

/* Stores obj under handle h, which must be free and in range: 0, or -1 out of memory. */
int objtab_put(struct objtab *t, uint32_t h, void *obj);
/* The undo log: (re)started empty; whether it holds every change since; every change since
 * taken back, the latest first (0, or -1 out of memory: the table is then partly back), the
 * log restarted. */
void objtab_undo_start(struct objtab *t);
bool objtab_undo_complete(const struct objtab *t);
int objtab_undo(struct objtab *t);
/* Bytes the table itself holds (directory, bitmaps, chunks), for the benchmarks. */
uint64_t objtab_bytes(const struct objtab *t);

/* The same walk, inline, for the invariants (nicref_dev_check), which walk every table several
 * times after every fuzz op: objtab_first then objtab_then return the live handles in handle
 * order, each object in *obj, then -1 — the handles objtab_next(t, 0, ...) and
 * objtab_next(t, h + 1, ...) return, those outside [base, limit) skipped as it skips them. An
 * empty table costs one test; a step, the next set bit of the word or of the chunk's summary,
 * not a search from the handle. The table must not change while walked. */
struct objtab_iter {
	const struct objtab *t;
	const struct objtab_chunk *k; /* chunk c, NULL past the end */
	uint32_t c, w;                /* the chunk and its word being walked */
	uint64_t bits;                /* word w's live bits not yet returned */
};

/* From chunk c on: the first chunk that exists (below top) and its first non-empty word. */
static inline __attribute__((always_inline)) void objtab_iter_chunk(struct objtab_iter *it)
{
	const struct objtab *t = it->t;
	it->k = NULL;
	for (; it->c < t->top && !(it->k = t->dir[it->c]); it->c++)
		;
	if (!it->k)
		return;
	uint64_t words = it->k->words;
	it->w = words ? (uint32_t)__builtin_ctzll(words) : OBJTAB_CHUNK / 64 - 1;
	it->bits = words ? it->k->used[it->w] : 0;
}

static inline __attribute__((always_inline)) int64_t objtab_then(struct objtab_iter *it, void **obj)
{
	const struct objtab *t = it->t;
	while (it->k) {
		while (it->bits) {
			uint32_t i = it->w * 64 + (uint32_t)__builtin_ctzll(it->bits);
			it->bits &= it->bits - 1;
			int64_t h = (int64_t)it->c * OBJTAB_CHUNK + i;
			if (h >= t->limit) {
				it->k = NULL; /* objtab_next stops at limit */
				return -1;
			}
			if (h < t->base)
				continue; /* objtab_next starts at base */
			*obj = it->k->obj[i];
			return h;
		}
		/* The chunk's next non-empty word, else the next chunk that exists. */
		uint64_t rest = it->w + 1 < OBJTAB_CHUNK / 64 ? it->k->words & ~0ull << (it->w + 1) : 0;
		if (rest) {
			it->w = (uint32_t)__builtin_ctzll(rest);
			it->bits = it->k->used[it->w];
		} else {
			it->c++;
			objtab_iter_chunk(it);
		}
	}
	return -1;
}

static inline __attribute__((always_inline)) int64_t objtab_first(struct objtab_iter *it, const struct objtab *t, void **obj)
{
	*it = (struct objtab_iter){ .t = t };
	objtab_iter_chunk(it);
	return objtab_then(it, obj);
}

#endif
