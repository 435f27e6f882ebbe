/* nicref_snapshot_* (nicref/snapshot.h): core's part of a snapshot, then each row's through
 * its hooks (core/subsys.h), so core names no layer above it.
 *
 * Core's part: the clock, the PRNG, the trace position and the counters (a few words), the
 * current capabilities (SET_HCA_CAP may change them), the page pool (the pages the driver gave:
 * a handful), the blocks the objects hold (core/devmem.c: those made since freed, those freed
 * since put back, the bytes of all copied back), and the host memory, tracked per page
 * (core/hostmem_snap.c). The rows are restored first, with events muted (each puts back its
 * own state and which objects are live), then the objects' blocks, and the host memory last,
 * so whatever a row's restore writes is undone with the rest. */
#include <stdlib.h>
#include <string.h>

#include "core/dev.h"
#include "nicref/snapshot.h"

struct nicref_snapshot {
	struct nicref_dev *dev;
	uint64_t id; /* dev_core.snap_ids */
	uint64_t now_ns, prng, trace_seq;
	bool halted; /* D-H-2 */
	struct nicref_stats stats;
	uint8_t (*caps_cur)[CAP_BYTES];
	bool caps_changed;
	uint64_t *pages;
	uint32_t npages;
	struct hostmem_track *hm;
	struct mem_snap *mem; /* what the objects hold (core/devmem.h) */
	void **blob; /* one per row */
};

void nicref_snapshot_free(struct nicref_snapshot *s)
{
	if (!s)
		return;
	struct dev_core *c = dev_core(s->dev);
	for (unsigned i = 0; s->blob && i < c->nsubsys; i++)
		if (s->blob[i] && c->subsys[i]->snap_free)
			c->subsys[i]->snap_free(s->blob[i]);
	hostmem_snap_free(&c->hostmem, s->hm);
	dev_mem_snap_free(s->mem);
	free(s->blob);
	free(s->pages);
	free(s->caps_cur);
	free(s);
}

static int take_core(struct nicref_snapshot *s, struct dev_core *c)
{
	s->now_ns = c->now_ns;
	s->prng = c->prng;
	s->trace_seq = c->trace_seq;
	s->halted = c->halted;
	s->stats = c->stats;
	s->caps_changed = c->caps.cur_changed;
	s->npages = c->pages.count;
	if (!(s->caps_cur = malloc(sizeof c->caps.cur)) ||
	    !(s->pages = malloc((s->npages ? s->npages : 1) * sizeof *s->pages)) ||
	    !(s->blob = calloc(c->nsubsys ? c->nsubsys : 1, sizeof *s->blob)))
		return -1;
	memcpy(s->caps_cur, c->caps.cur, sizeof c->caps.cur);
	memcpy(s->pages, c->pages.addr, s->npages * sizeof *s->pages);
	return 0;
}

struct nicref_snapshot *nicref_snapshot_take(struct nicref_dev *dev, int *why)
{
	struct dev_core *c = dev_core(dev);
	struct nicref_snapshot *s = NULL;
	int rc = NICREF_SNAP_NOT_ENABLED;
	if (!c->mem.tracked) /* D-SNAP-3: nicref_config.snapshots */
		goto fail;
	rc = NICREF_SNAP_NO_MEMORY;
	if (!(s = calloc(1, sizeof *s)))
		goto fail;
	s->dev = dev;
	s->id = ++c->snap_ids;
	if (take_core(s, c) != 0)
		goto fail;
	for (unsigned i = 0; i < c->nsubsys; i++) {
		int r = c->subsys[i]->snap_save ? c->subsys[i]->snap_save(dev, c->state[i],
									 &s->blob[i])
						: 0;
		if (r != 0) {
			rc = r < 0 ? NICREF_SNAP_NO_MEMORY : r;
			goto fail;
		}
	}
	if (!(s->mem = dev_mem_snap_take(&c->mem)))
		goto fail;
	/* Last: from here on the host memory tracks its writes for this snapshot. */
	if (!(s->hm = hostmem_snap_take(&c->hostmem)))
		goto fail;
	c->snap_last = s->id;
	c->caps.cur_written = false;
	if (why)
		*why = NICREF_SNAP_OK;
	return s;
fail:
	/* A row that saved its part before another refused has started its tracking afresh (the
	 * object tables' undo logs, the doorbell pages' dirty marks): the snapshot the device
	 * continued from no longer knows everything that changed since it, so its next restore
	 * is a whole one (snap_continues false). */
	c->snap_last = 0;
	nicref_snapshot_free(s);
	if (why)
		*why = rc;
	return NULL;
}

/* The page pool as it was: untouched when it holds the same pages (the usual case: the input
 * gave or took none), else cleared and refilled (a handful of pages). */
static void restore_pages(struct page_pool *p, const uint64_t *pages, uint32_t n)
{
	if (p->count == n && memcmp(p->addr, pages, n * sizeof *pages) == 0)
		return;
	page_pool_clear(p);
	for (uint32_t i = 0; i < n; i++)
		NICREF_ASSERT(page_pool_add(p, pages[i]) == 0);
}

int nicref_snapshot_restore(struct nicref_dev *dev, struct nicref_snapshot *s)
{
	struct dev_core *c = dev_core(dev);
	if (!s || s->dev != dev)
		return -1;
	c->snap_continues = c->snap_last == s->id;
	for (unsigned i = 0; i < c->nsubsys; i++)
		if (c->subsys[i]->snap_restorable &&
		    !c->subsys[i]->snap_restorable(dev, c->state[i], s->blob[i]))
			return 1;
	c->quiet = true;
	for (unsigned i = 0; i < c->nsubsys; i++)
		if (c->subsys[i]->snap_restore)
			c->subsys[i]->snap_restore(dev, c->state[i], s->blob[i]);
	c->quiet = false;
	/* The rows have put back which objects are live (their tables); now their bytes. */
	dev_mem_snap_restore(&c->mem, s->mem, c->snap_continues);
	c->now_ns = s->now_ns;
	c->prng = s->prng;
	c->trace_seq = s->trace_seq;
	c->halted = s->halted;
	c->stats = s->stats;
	/* The current capabilities (12 KB) are copied back only when written since this snapshot
	 * was taken or last restored (SET_HCA_CAP, a reset undoing one: cur_written), or when the
	 * device comes from elsewhere. */
	if (!c->snap_continues || c->caps.cur_written)
		memcpy(c->caps.cur, s->caps_cur, sizeof c->caps.cur);
	c->caps.cur_changed = s->caps_changed;
	c->caps.cur_written = false;
	restore_pages(&c->pages, s->pages, s->npages);
	/* Cannot fail when the memory is the snapshot's tracked one (no page is added). */
	NICREF_ASSERT(hostmem_snap_restore(&c->hostmem, s->hm) == 0);
	c->snap_last = s->id;
	return 0;
}
