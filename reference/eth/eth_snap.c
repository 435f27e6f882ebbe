/* The Ethernet data path's part of a snapshot (nicref/snapshot.h; its row, eth/eth_subsys.c):
 * the send and receive counters, and the LRO session table (eth/lro.h).
 *
 * A snapshot is refused while an LRO session is open (a session holds a WQE of an RQ, which
 * the control plane's part does not capture yet). The table is copied whole at the snapshot
 * but copied back only when a session was opened since (the `opened` count moved), or when the
 * device comes from elsewhere than this snapshot (dev_core.snap_continues): the free
 * list's order and each slot's generation decide which slot the next session takes, which the
 * trace shows, so they come back exactly; an input that used no LRO costs a comparison. */
#include <stdlib.h>
#include <string.h>

#include "eth/eth.h"
#include "eth/lro.h"
#include "eth/rx.h"
#include "nicref/snapshot.h"

struct eth_blob {
	uint64_t wqes, frames, discards;
	uint64_t frames_in, cqes, drops;
	struct lro_state lro; /* its words; the arrays below */
	struct lro_session *s;
	uint32_t *bucket;
};

void eth_snap_free(void *blob)
{
	struct eth_blob *b = blob;
	if (!b)
		return;
	free(b->s);
	free(b->bucket);
	free(b);
}

int eth_snap_save(struct nicref_dev *dev, const void *state, void **blob)
{
	(void)dev;
	const struct eth_state *es = state;
	const struct rx_state *rs = es->rx_state;
	const struct lro_state *ls = rs->lro;
	if (ls->nopen != 0)
		return NICREF_SNAP_UNSUPPORTED_STATE;
	struct eth_blob *b = calloc(1, sizeof *b);
	*blob = b;
	if (!b || !(b->s = malloc((ls->max ? ls->max : 1) * sizeof *b->s)) ||
	    !(b->bucket = malloc(ls->nbucket * sizeof *b->bucket)))
		return -1;
	b->wqes = es->wqes;
	b->frames = es->frames;
	b->discards = es->discards;
	b->frames_in = rs->frames_in;
	b->cqes = rs->cqes;
	b->drops = rs->drops;
	b->lro = *ls;
	memcpy(b->s, ls->s, ls->max * sizeof *b->s);
	memcpy(b->bucket, ls->bucket, ls->nbucket * sizeof *b->bucket);
	return 0;
}

void eth_snap_restore(struct nicref_dev *dev, void *state, const void *blob)
{
	struct eth_state *es = state;
	struct rx_state *rs = es->rx_state;
	struct lro_state *ls = rs->lro;
	const struct eth_blob *b = blob;
	es->wqes = b->wqes;
	es->frames = b->frames;
	es->discards = b->discards;
	rs->frames_in = b->frames_in;
	rs->cqes = b->cqes;
	rs->drops = b->drops;
	if (dev->core.snap_continues && ls->opened == b->lro.opened)
		return; /* no session opened since this snapshot: the table is as it was */
	memcpy(ls->s, b->s, ls->max * sizeof *ls->s);
	memcpy(ls->bucket, b->bucket, ls->nbucket * sizeof *ls->bucket);
	ls->top = b->lro.top;
	ls->free = b->lro.free;
	ls->head = b->lro.head;
	ls->tail = b->lro.tail;
	ls->nopen = b->lro.nopen;
	ls->opened = b->lro.opened;
	ls->ended = b->lro.ended;
	ls->merged = b->lro.merged;
}
