/* Which objects are live, in a snapshot (cmd/ctl_snap.c): each table's range and its live
 * handles with their objects.
 *
 * Restore takes one of two ways:
 *  - the device continues from this snapshot (it was last taken into or restored from it:
 *    dev_core.snap_continues) and every table's undo log holds every change since: each log
 *    is undone, the latest change first (obj/objtab.h). Cost: the creations and destructions
 *    since, not the tables;
 *  - otherwise (another snapshot came between, a reset, a log that could not grow): every
 *    table is emptied and refilled from the saved list. Cost: the live objects.
 * Either way the tables then hold the snapshot's handles and pointers, and an empty table over
 * the same range hands out the same handles (the lowest free first, D-OBJ-2), so the next
 * create gets the number it got after the snapshot. The objects' bytes are the allocator's to
 * bring back (core/devmem.h), after this. */
#include <stdlib.h>
#include <string.h>

#include "cmd/ctl_dev.h"

struct obj_live_entry {
	uint32_t h;
	void *obj;
};

struct obj_live {
	uint32_t base[OBJ_TYPE_COUNT], limit[OBJ_TYPE_COUNT];
	uint32_t first[OBJ_TYPE_COUNT + 1]; /* type t's entries: [first[t], first[t + 1]) */
	struct obj_live_entry *e;
};

void obj_live_free(struct obj_live *w)
{
	if (!w)
		return;
	free(w->e);
	free(w);
}

struct obj_live *obj_live_save(struct nicref_dev *dev)
{
	struct obj_live *w = calloc(1, sizeof *w);
	size_t n = 0;
	for (unsigned t = 0; t < OBJ_TYPE_COUNT; t++)
		n += dev->obj[t].nlive;
	if (!w || !(w->e = malloc((n ? n : 1) * sizeof *w->e))) {
		obj_live_free(w);
		return NULL;
	}
	uint32_t k = 0;
	for (unsigned t = 0; t < OBJ_TYPE_COUNT; t++) {
		struct objtab *tab = &dev->obj[t];
		w->base[t] = tab->base;
		w->limit[t] = tab->limit;
		w->first[t] = k;
		void *o;
		for (int64_t h = objtab_next(tab, 0, &o); h >= 0;
		     h = objtab_next(tab, (uint32_t)h + 1, &o))
			w->e[k++] = (struct obj_live_entry){ (uint32_t)h, o };
		objtab_undo_start(tab);
	}
	w->first[OBJ_TYPE_COUNT] = k;
	return w;
}

static void refill(struct objtab *tab, const struct obj_live *w, unsigned t)
{
	objtab_reset(tab, 0, 0, NULL, NULL); /* the objects are the allocator's: not freed */
	objtab_reset(tab, w->base[t], w->limit[t], NULL, NULL);
	for (uint32_t i = w->first[t]; i < w->first[t + 1]; i++)
		NICREF_ASSERT(objtab_put(tab, w->e[i].h, w->e[i].obj) == 0);
}

void obj_live_restore(struct nicref_dev *dev, const struct obj_live *w)
{
	bool logs = dev->core.snap_continues;
	for (unsigned t = 0; t < OBJ_TYPE_COUNT && logs; t++)
		logs = objtab_undo_complete(&dev->obj[t]);
	for (unsigned t = 0; t < OBJ_TYPE_COUNT; t++) {
		struct objtab *tab = &dev->obj[t];
		if (!logs)
			refill(tab, w, t);
		else if (tab->nundo)
			NICREF_ASSERT(objtab_undo(tab) == 0);
		objtab_undo_start(tab);
	}
}
