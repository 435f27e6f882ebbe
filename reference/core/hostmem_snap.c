/* Snapshots of the built-in host memory (core/hostmem.h): a copy of every page at the
 * snapshot, and while the snapshot is the one tracked, the list of its pages written since.
 * A restore drops the pages handed out since (the latest first, hostmem_truncate) and copies
 * back the written ones: its cost is the change, not the memory. Each page enters the list
 * once per generation (gen[i] == cur_gen), and a restore starts a new generation, so nothing is
 * cleared and nothing allocated per restore. */
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "core/hostmem.h"

struct hostmem_track {
	size_t npages;   /* pages at the snapshot, in hand-out order */
	uint8_t *copy;   /* their bytes */
	uint64_t *pfn;   /* their page numbers */
	uint32_t *dirty; /* pages below npages written since the snapshot or the last restore */
	size_t ndirty;
	uint32_t *gen;
	uint32_t cur_gen;
	bool cleared; /* a clear since: every page comes back */
	struct hostmem_fault fault[HOSTMEM_MAX_FAULTS];
	unsigned nfault;
};

void hostmem_touch(struct hostmem *hm, size_t i)
{
	struct hostmem_track *t = hm->track;
	if (i == SIZE_MAX) {
		t->cleared = true;
		return;
	}
	if (i >= t->npages || t->gen[i] == t->cur_gen)
		return;
	t->gen[i] = t->cur_gen;
	t->dirty[t->ndirty++] = (uint32_t)i;
}

static void new_generation(struct hostmem_track *t)
{
	t->ndirty = 0;
	t->cleared = false;
	if (++t->cur_gen == 0) { /* after 2^32 restores: start the count again */
		memset(t->gen, 0, t->npages * sizeof *t->gen);
		t->cur_gen = 1;
	}
}

struct hostmem_track *hostmem_snap_take(struct hostmem *hm)
{
	struct hostmem_track *t = calloc(1, sizeof *t);
	size_t n = hm->used, k = n ? n : 1;
	if (!t || !(t->copy = malloc(k * HOSTMEM_PAGE)) || !(t->pfn = malloc(k * sizeof *t->pfn)) ||
	    !(t->dirty = malloc(k * sizeof *t->dirty)) || !(t->gen = calloc(k, sizeof *t->gen))) {
		hostmem_snap_free(hm, t);
		return NULL;
	}
	t->npages = n;
	for (size_t i = 0; i < n; i++)
		memcpy(t->copy + i * HOSTMEM_PAGE, hostmem_page(hm, i, &t->pfn[i]), HOSTMEM_PAGE);
	memcpy(t->fault, hm->fault, sizeof t->fault);
	t->nfault = hm->nfault;
	t->cur_gen = 1;
	hm->track = t;
	return t;
}

/* Every page of t written again in hand-out order, so each gets its place back. */
static int restore_all(struct hostmem *hm, struct hostmem_track *t)
{
	hm->track = NULL;
	hostmem_clear(hm);
	for (size_t i = 0; i < t->npages; i++)
		if (hostmem_write(hm, t->pfn[i] * HOSTMEM_PAGE, t->copy + i * HOSTMEM_PAGE,
				  HOSTMEM_PAGE) != 0)
			return -1;
	return 0;
}

int hostmem_snap_restore(struct hostmem *hm, struct hostmem_track *t)
{
	if (hm->track != t || t->cleared || hm->used < t->npages) {
		if (restore_all(hm, t) != 0)
			return -1;
	} else {
		hostmem_truncate(hm, t->npages);
		for (size_t k = 0; k < t->ndirty; k++) {
			uint64_t pfn;
			size_t i = t->dirty[k];
			memcpy(hostmem_page(hm, i, &pfn), t->copy + i * HOSTMEM_PAGE, HOSTMEM_PAGE);
		}
	}
	memcpy(hm->fault, t->fault, sizeof hm->fault);
	hm->nfault = t->nfault;
	new_generation(t);
	hm->track = t;
	return 0;
}

void hostmem_snap_free(struct hostmem *hm, struct hostmem_track *t)
{
	if (!t)
		return;
	if (hm && hm->track == t)
		hm->track = NULL;
	free(t->copy);
	free(t->pfn);
	free(t->dirty);
	free(t->gen);
	free(t);
}
