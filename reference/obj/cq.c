/* Completion queues: the device-level hooks, invariants and references (PRM §7.12; D-OBJ-1). */
#include <stdlib.h>

#include "cmd/ctl_dev.h"
#include "obj/obj_walk.h"

void cq_dev_reset(struct nicref_dev *dev)
{
	struct cq_dev *d = &dev->eqd.cq;
	void *o;
	/* Every CQ goes (TEARDOWN_HCA, reset); the work queues that named them went first. The
	 * references the CQs hold are dropped so the EQs and UARs can go next. */
	for (int64_t h = objtab_next(&dev->obj[OBJ_CQ], 0, &o); h >= 0;
	     h = objtab_next(&dev->obj[OBJ_CQ], (uint32_t)h + 1, &o)) {
		struct cq *cq = objtab_remove(&dev->obj[OBJ_CQ], (uint32_t)h);
		struct obj_hdr *eq = obj_get(dev, OBJ_EQ, cq->c_eqn);
		struct obj_hdr *uar = obj_get(dev, OBJ_UAR, cq->uar);
		if (eq && eq->refs)
			eq->refs--;
		if (uar && uar->refs)
			uar->refs--;
		qbuf_free(dev, &cq->buf);
		dev_free(dev, cq);
	}
	d->timers = NULL;
	d->ntimers = 0;
}

void cq_obj_refs(const void *o, obj_ref_visit visit, void *ctx)
{
	/* A CQ names its EQ (T76 c_eqn) and its UAR (T76 uar_page). */
	const struct cq *cq = o;
	visit(ctx, OBJ_EQ, cq->c_eqn);
	visit(ctx, OBJ_UAR, cq->uar);
	if (cq->buf_umem) /* D-UMEM-5: the UMEMs its buffer and record live in */
		visit(ctx, OBJ_UMEM, cq->buf_umem);
	if (cq->dbr_umem)
		visit(ctx, OBJ_UMEM, cq->dbr_umem);
}

void cq_dev_refs(const struct nicref_dev *dev, obj_ref_visit visit, void *ctx)
{
	obj_table_refs(dev, OBJ_CQ, cq_obj_refs, visit, ctx);
}

static uint64_t cq_pages(const struct cq *cq)
{
	uint64_t page = 4096ull << cq->buf.log_page_size;
	uint64_t bytes = (uint64_t)(cq->cqe_sz ? 128u : 64u) << cq->log_size;
	return (bytes + page - 1) / page;
}

int cq_obj_check(const struct nicref_dev *dev, uint32_t h, const void *o, struct obj_walk *w)
{
	(void)dev;
	const struct cq *cq = o;
	if (cq->hdr.handle != h)
		return -150;
	if (cq->st != CQ_ST_FIRED && cq->st != CQ_ST_ARMED && cq->st != CQ_ST_SOL_ARMED)
		return -151; /* T76 st */
	if (cq->status != CQ_STATUS_OK && cq->status != CQ_STATUS_OVERFLOW &&
	    cq->status != CQ_STATUS_WRITE_FAIL)
		return -152; /* T76 status */
	if (cq->sn > 3 || cq->cqe_sz > 1 || cq->period_mode > 1)
		return -153;
	if (cq->pc > CQ_COUNTER_MASK || cq->cc_seen > CQ_COUNTER_MASK ||
	    cq->last_notified > CQ_COUNTER_MASK || cq->last_solicit > CQ_COUNTER_MASK)
		return -154;
	if (cq->buf.npas != cq_pages(cq) || cq->log_size > 22)
		return -155;
	/* A held event exists only while armed; it waits on the timer list iff a period can
	 * release it (§7.13.14). */
	if (cq->pending && cq->st == CQ_ST_FIRED)
		return -156;
	if (cq->on_timers != (cq->pending && cq->cq_period != 0))
		return -157;
	w->cq_timers += cq->on_timers;
	return 0;
}

/* The timer list against the CQs marked on it (counted by cq_obj_check). */
int cq_check_end(const struct nicref_dev *dev, const struct obj_walk *w)
{
	const struct cq_dev *d = &dev->eqd.cq;
	uint32_t listed = 0;
	for (const struct cq *t = d->timers; t; t = t->tnext) {
		if (!t->on_timers || (t->tnext && t->tnext->tprev != t) || ++listed > w->cq_timers)
			return -158;
	}
	if (listed != w->cq_timers || d->ntimers != w->cq_timers)
		return -159;
	return 0;
}

