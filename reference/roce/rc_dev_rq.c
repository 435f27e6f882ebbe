/* The responder's receive WQEs beyond what roce/roce.h offers (docs/roce.md "RC transport"): a
 * check that one is posted without taking it (the RNR check of [S004] L98 and IBTA §9.7.5.2.8
 * may run before the PSN check, D-ROCE-RC-10, so it must not consume), and the re-reading of a
 * WQE a SEND in progress took, by its index, for the message's later packets (the QP keeps the
 * index, not the scatter list: D-ROCE-3's budget). The layout is T40's scatter entry, read as
 * roce_rq_take reads it. (Candidates for roce/roce_wqe.c: rocewire's file.) */
#include <string.h>

#include "obj/obj.h"
#include "obj/qp.h"
#include "obj/wq.h"
#include "prm/layouts.h"
#include "roce/roce.h"

#define OCTWORD 16u

static uint32_t be32(const uint8_t *p)
{
	return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3];
}

bool rc_rq_avail(struct nicref_dev *dev, struct roce_qp *qp)
{
	uint16_t rec;
	if (qp->qp->holds & QP_HOLDS_RMP) {
		struct rmp *m = obj_get(dev, OBJ_RMP, qp->qp->rmpn);
		if (!m || m->state != WQ_RDY || wq_dbr_read(dev, &m->wq, false, &rec))
			return false;
		return m->wq.hw_counter != rec;
	}
	if (PRM_GET(qpc, rq_type, qp->qp->ctx, QP_CTX_BYTES) != 0)
		return false;
	if (roce_qp_dbr(dev, qp, false, &rec))
		return false;
	return (uint16_t)qp->rq_head != rec;
}

int rc_rq_at(struct nicref_dev *dev, struct roce_qp *qp, uint32_t index, bool rmp,
	     struct roce_rwqe *w)
{
	uint8_t b[ROCE_WQE_MAX_SGE * OCTWORD];
	struct wq own;
	roce_qp_wq(qp, false, &own);
	const struct wq *q = &own;
	size_t skip = 0;
	if (rmp) {
		struct rmp *m = obj_get(dev, OBJ_RMP, qp->qp->rmpn);
		if (!m)
			return -1;
		q = &m->wq;
		if (m->wq.type == 0)
			skip = OCTWORD; /* T42/T43: a linked-list WQE starts with its next segment */
	}
	size_t stride = (size_t)1 << q->log_stride;
	size_t n = stride < sizeof b ? stride : sizeof b;
	if (wq_read(dev, q, index, 0, b, n))
		return -1;
	memset(w, 0, sizeof *w);
	uint64_t total = 0;
	for (size_t o = skip; o + OCTWORD <= n && w->nsge < ROCE_WQE_MAX_SGE; o += OCTWORD) {
		const uint8_t *s = b + o;
		uint32_t key = be32(s + 4), bc = be32(s) & 0x7FFFFFFFu;
		if (key == 0x100u && bc == 0)
			break; /* the Null scatter entry (§7.4.1.2) */
		struct roce_sge *g = &w->sge[w->nsge++];
		g->len = bc;
		g->lkey = key;
		g->addr = (uint64_t)be32(s + 8) << 32 | be32(s + 12);
		total += bc;
	}
	w->length = total > UINT32_MAX ? UINT32_MAX : (uint32_t)total;
	w->index = index;
	w->from_rmp = rmp;
	return 0;
}
