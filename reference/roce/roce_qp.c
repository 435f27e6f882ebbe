/* The transport state of a QP (struct roce_qp, D-ROCE-3): made when a QP leaves RST, refreshed
 * at every transition from the context the command left, freed at RST and DESTROY; O(1) from
 * the QPN (struct qp.xport). The QP's work queues in its buffer (D-ROCE-4), its timer, the
 * errors the transport puts it in and the flush of its WQEs ([IBTA] §10.3.1 Error state:
 * "all outstanding and subsequent WRs are completed with flush errors"). */
#include <stdlib.h>
#include <string.h>

#include "roce/roce.h"

struct roce_qp *roce_qp_get(struct nicref_dev *dev, uint32_t qpn)
{
	struct qp *q = obj_get(dev, OBJ_QP, qpn & ROCE_PSN_MASK);
	return q ? q->xport : NULL;
}

#define CTX(q, n) PRM_GET(qpc, n, (q)->ctx, QP_CTX_BYTES)

/* [IFC] qpc mtu as IB encodes it (IBTA §7.7.1 Table 26? "MTU": 1 256 ... 5 4096). */
static uint32_t pmtu_bytes(uint64_t mtu)
{
	return mtu >= 1 && mtu <= 5 ? 256u << (mtu - 1) : 1024u;
}

/* D-ROCE-4: the RQ, then the SQ, in the pages of pas[]; the sizes the transport keeps. */
static void set_queues(struct roce_qp *rq)
{
	const struct qp *q = rq->qp;
	rq->rq.log_stride = (uint8_t)(CTX(q, log_rq_stride) + 4);
	rq->rq.log_size = (uint8_t)CTX(q, log_rq_size);
	rq->sq.log_size = (uint8_t)CTX(q, log_sq_size);
}

void roce_qp_wq(const struct roce_qp *rq, bool sq, struct wq *out)
{
	const struct qp *q = rq->qp;
	uint64_t page = 4096ull << CTX(q, log_page_size);
	uint64_t first = CTX(q, page_offset) * (page / 64);
	memset(out, 0, sizeof *out);
	out->dbr_addr = CTX(q, dbr_addr);
	out->pas = (uint64_t *)q->pas;
	out->npas = q->npas;
	out->page_size = page;
	out->type = 1;
	out->log_stride = rq->rq.log_stride;
	out->log_size = rq->rq.log_size;
	out->first_off = first;
	if (sq) {
		uint64_t rq_bytes = CTX(q, rq_type) == 0 ? 1ull << (rq->rq.log_size + rq->rq.log_stride)
							 : 0;
		out->first_off = first + rq_bytes;
		out->log_stride = 6;
		out->log_size = rq->sq.log_size;
		out->hw_counter = rq->sq.hw_counter;
		out->sw_counter = rq->sq.sw_counter;
	}
}

int roce_qp_dbr(struct nicref_dev *dev, const struct roce_qp *qp, bool send, uint16_t *counter)
{
	struct wq w;
	roce_qp_wq(qp, send, &w);
	return wq_dbr_read(dev, &w, send, counter);
}

int roce_qp_wq_read(struct nicref_dev *dev, const struct roce_qp *qp, bool sq, uint32_t index,
		    uint32_t off, void *buf, size_t len)
{
	struct wq w;
	roce_qp_wq(qp, sq, &w);
	return wq_read(dev, &w, index, off, buf, len);
}

void roce_qp_av(const struct roce_qp *rq, struct roce_av *av)
{
	const struct qp *q = rq->qp;
	memset(av, 0, sizeof *av);
	uint64_t hi = CTX(q, primary_address_path_rmac_47_32),
		 lo = CTX(q, primary_address_path_rmac_31_0);
	for (unsigned i = 0; i < 6; i++)
		av->rmac[i] = (uint8_t)((i < 2 ? hi >> (8 * (1 - i)) : lo >> (8 * (5 - i))) & 0xFF);
	(void)nicref_field_get_bytes(q->ctx, QP_CTX_BYTES,
				     PRM_FIELD(qpc, primary_address_path_rgid_rip), av->rgid, 16);
	av->sgid_index = (uint8_t)CTX(q, primary_address_path_src_addr_index);
	av->tclass = (uint8_t)CTX(q, primary_address_path_tclass);
	av->hop_limit = (uint8_t)CTX(q, primary_address_path_hop_limit);
	av->flow_label = (uint32_t)CTX(q, primary_address_path_flow_label);
	av->udp_sport = (uint16_t)CTX(q, primary_address_path_udp_sport);
}

uint16_t roce_qp_sport(const struct roce_qp *rq)
{
	/* D-ROCE-7 */
	uint16_t p = (uint16_t)CTX(rq->qp, primary_address_path_udp_sport);
	return p ? p : (uint16_t)(0xC000u | ((rq->qpn ^ rq->remote_qpn) & 0x3FFFu));
}

/* The attributes the transitions set, read again after each ([IFC] qpc, ads). */
static void refresh(struct roce_qp *rq)
{
	const struct qp *q = rq->qp;
	rq->st = q->st;
	uint64_t port = CTX(q, primary_address_path_vhca_port_num);
	rq->port = (uint8_t)(port ? port : 1);
	rq->pkey = 0xFFFF; /* D-QP-9, D-ROCE-8 */
	rq->pmtu = (uint16_t)pmtu_bytes(CTX(q, mtu));
	rq->remote_qpn = (uint32_t)CTX(q, remote_qpn);
	if (rq->st != QP_ST_RC)
		rq->qkey = (uint32_t)CTX(q, q_key); /* UD: shares its room with the RC state */
}

unsigned roce_outstanding_limit(const struct nicref_dev *dev, const struct roce_qp *qp)
{
	(void)dev;
	return qp->rp_limit ? qp->rp_limit : ROCE_OUTSTANDING_MAX;
}

/* ---- The timer list --------------------------------------------------------------------- */

/* The list is linked by QPN (D-ROCE-RC-24): a QP's neighbours are found in O(1). */
static struct roce_qp *by_qpn(struct nicref_dev *dev, uint32_t qpn)
{
	return qpn ? roce_qp_get(dev, qpn) : NULL;
}

static void link_armed(struct nicref_dev *dev, struct roce_qp *qp)
{
	struct roce_state *rs = roce_state_of(dev);
	/* A QP in the tick's queue (roce_qp_tick) takes its place when it leaves it. */
	if (qp->armed || qp->queued)
		return;
	qp->armed = true;
	qp->tprev = 0;
	qp->tnext = rs->armed;
	struct roce_qp *n = by_qpn(dev, rs->armed);
	if (n)
		n->tprev = qp->qpn;
	rs->armed = qp->qpn;
}

static void unlink_armed(struct nicref_dev *dev, struct roce_qp *qp)
{
	struct roce_state *rs = roce_state_of(dev);
	if (!qp->armed)
		return;
	struct roce_qp *p = by_qpn(dev, qp->tprev), *n = by_qpn(dev, qp->tnext);
	if (p)
		p->tnext = qp->tnext;
	else
		rs->armed = qp->tnext;
	if (n)
		n->tprev = qp->tprev;
	qp->armed = false;
	qp->tprev = qp->tnext = 0;
}

static void relink(struct nicref_dev *dev, struct roce_qp *qp)
{
	if (qp->deadline_ns || qp->rp_restore_ns || qp->rq_watch)
		link_armed(dev, qp);
	else
		unlink_armed(dev, qp);
}

void roce_timer_arm(struct nicref_dev *dev, struct roce_qp *qp, uint64_t at_ns)
{
	qp->deadline_ns = at_ns;
	relink(dev, qp);
}

static void flush_rq(struct nicref_dev *dev, struct roce_qp *qp);

/* ---- The tick: the due timers in deadline order (D-ROCE-RC-30) --------------------------- */

/* The QP's earliest timer (its ACK timer or RNR wait, its rate's restore), 0 none. */
static uint64_t next_timer(const struct roce_qp *qp)
{
	uint64_t a = qp->deadline_ns, b = qp->rp_restore_ns;
	return !a ? b : !b ? a : a < b ? a : b;
}

static bool due(const struct roce_qp *qp, uint64_t now)
{
	uint64_t t = next_timer(qp);
	return t && t <= now;
}

/* D-ROCE-RC-30: by deadline, then by QPN. */
static bool before(const struct roce_qp *a, const struct roce_qp *b)
{
	uint64_t x = next_timer(a), y = next_timer(b);
	return x != y ? x < y : a->qpn < b->qpn;
}

/* The tick's queue of due QPs is a skew heap (Sleator and Tarjan, "Self-adjusting heaps", SIAM
 * J. Comput. 15(1), 1986) threaded through the armed list's links, which a queued QP does not
 * use (tprev its left child, tnext its right): nothing allocated, O(log n) amortised per push
 * and pop. The top-down merge: along the merged right paths the smaller root comes first, its
 * old left child becomes its right, and the merge goes on into its left. */
static uint32_t heap_merge(struct nicref_dev *dev, uint32_t a, uint32_t b)
{
	uint32_t root = 0, *link = &root;
	while (a && b) {
		struct roce_qp *x = by_qpn(dev, a), *y = by_qpn(dev, b);
		if (before(y, x)) {
			uint32_t k = a;
			a = b;
			b = k;
			x = y;
		}
		*link = a;
		a = x->tnext;
		x->tnext = x->tprev;
		link = &x->tprev;
	}
	*link = a ? a : b;
	return root;
}

/* Off the armed list (the caller unlinked it) into the queue. */
static uint32_t heap_push(struct nicref_dev *dev, uint32_t heap, struct roce_qp *qp)
{
	qp->queued = true;
	qp->tprev = qp->tnext = 0;
	return heap_merge(dev, heap, qp->qpn);
}

/* The QP's earliest timer expires (at a tie the restore first, so the retransmission runs in
 * the window restored). */
static void expire(struct nicref_dev *dev, struct roce_qp *qp)
{
	if (qp->rp_restore_ns && qp->rp_restore_ns == next_timer(qp)) {
		roce_rp_tick(dev, qp); /* clears rp_restore_ns */
		return;
	}
	qp->deadline_ns = 0;
	relink(dev, qp);
	if (qp->st == QP_ST_RC)
		rc_timer(dev, qp);
}

void roce_qp_tick(struct nicref_dev *dev)
{
	struct roce_state *rs = roce_state_of(dev);
	uint64_t now = nicref_clock_now(dev);
	/* D-ROCE-RC-28: the receive WQEs posted to a QP in ERR since the last look (the RQ has no
	 * MMIO doorbell, only its record) complete flushed now, in order. Only QPs in ERR with
	 * their own RQ are watched: one doorbell-record read each. */
	for (struct roce_qp *qp = by_qpn(dev, rs->armed); qp;) {
		struct roce_qp *n = by_qpn(dev, qp->tnext);
		if (qp->rq_watch)
			flush_rq(dev, qp);
		qp = n;
	}
	/* D-ROCE-RC-30: the timers due expire in the order of their deadlines, then of QPN,
	 * whatever the order the QPs were armed in: the due QPs go from the armed list into the
	 * queue; the first leaves it, goes back on the list (where its handler expects it), its
	 * earliest timer expires, and it goes back into the queue when another of its timers is
	 * due. A handler arms only its own QP (packets to local GIDs wait for roce_leave,
	 * D-ROCE-12); a QP it armed due now anyway is found by the next look at the list. */
	for (;;) {
		uint32_t heap = 0;
		for (struct roce_qp *qp = by_qpn(dev, rs->armed); qp;) {
			struct roce_qp *n = by_qpn(dev, qp->tnext);
			if (due(qp, now)) {
				unlink_armed(dev, qp);
				heap = heap_push(dev, heap, qp);
			}
			qp = n;
		}
		if (!heap)
			return;
		while (heap) {
			struct roce_qp *qp = by_qpn(dev, heap);
			heap = heap_merge(dev, qp->tprev, qp->tnext);
			qp->queued = false;
			qp->tprev = qp->tnext = 0;
			relink(dev, qp);
			expire(dev, qp);
			relink(dev, qp);
			if (due(qp, now)) {
				unlink_armed(dev, qp);
				heap = heap_push(dev, heap, qp);
			}
		}
	}
}

/* ---- Completion of what is outstanding (the flush) -------------------------------------- */

/* [IBTA] §10.3.1, §11.4.2 (C11-?): in Error every outstanding and later WR completes with a
 * flush error; mlx5 writes MLX5_CQE_SYNDROME_WR_FLUSH_ERR (0x5) CQEs. The send WQEs from
 * sq_head to the doorbell record; on the receive side first the WQE an RC message in progress
 * holds (taken from the RQ or the SRQ, not yet completed: D-ROCE-RC-18, finding F6), then the
 * receive WQEs posted on the QP's own RQ (an SRQ keeps the WQEs no QP took). */
int roce_sq_flush_to(struct nicref_dev *dev, struct roce_qp *qp, uint16_t end)
{
	/* A flush CQE needs the WQE's opcode, size and completion mode only: the ctrl's first
	 * three dwords (T26). */
	uint32_t guard = 1u << qp->sq.log_size;
	while (qp->sq_head != end && guard--) {
		uint8_t ctrl[12];
		if (roce_qp_wq_read(dev, qp, true, qp->sq_head, 0, ctrl, sizeof ctrl))
			return -1;
		unsigned ds = ctrl[7] & 0x3F;
		unsigned bbs = ds ? (ds * 16 + 63) / 64 : 1;
		uint8_t ce = (uint8_t)PRM_GET(send_wqe_ctrl, ce, ctrl, sizeof ctrl);
		bool prev_err = qp->sq_prev_err;
		struct roce_cqe c = { .opcode = ROCE_CQE_REQ_ERR, .syndrome = ROCE_SYND_WR_FLUSH_ERR,
				      .s_wqe_opcode = ctrl[3], .wqe_counter = qp->sq_head };
		/* D-ROCE-RC-29: a CQE the CQ refused leaves its WQE not completed (PRM §7.12.5:
		 * the CQ in error takes no more), so sq_head stays on it (and the outcome of the
		 * WQE before it stays the one CE 01b looks at). */
		if (roce_sq_cqe_wanted(qp, ce, ROCE_SYND_WR_FLUSH_ERR) && roce_cqe(dev, qp, &c)) {
			qp->sq_prev_err = prev_err;
			return -1;
		}
		qp->sq_head = (uint16_t)(qp->sq_head + bbs);
	}
	return qp->sq_head == end ? 0 : -1;
}

static void flush_sq(struct nicref_dev *dev, struct roce_qp *qp)
{
	uint16_t rec;
	if (roce_qp_dbr(dev, qp, true, &rec))
		return;
	qp->sq.sw_counter = rec;
	(void)roce_sq_flush_to(dev, qp, rec);
	qp->sq.hw_counter = qp->sq_head;
}

static void flush_rq(struct nicref_dev *dev, struct roce_qp *qp)
{
	uint16_t rec;
	if (qp->st == QP_ST_RC && rc_resp_dev_flush(dev, qp) != 0)
		return; /* the CQ refused it: the WQEs after it wait (they complete in order) */
	if (qp->qp->holds & QP_HOLDS_RMP || CTX(qp->qp, rq_type) != 0 ||
	    roce_qp_dbr(dev, qp, false, &rec))
		return;
	uint32_t guard = 1u << qp->rq.log_size;
	while ((uint16_t)qp->rq_head != rec && guard--) {
		struct roce_cqe c = { .recv = true, .opcode = ROCE_CQE_RESP_ERR,
				      .syndrome = ROCE_SYND_WR_FLUSH_ERR,
				      .wqe_counter = (uint16_t)qp->rq_head };
		if (roce_cqe(dev, qp, &c))
			break;
		qp->rq_head++;
	}
}

void roce_qp_flush(struct nicref_dev *dev, struct roce_qp *qp)
{
	/* D-ROCE-RC-28: in ERR a QP with its own RQ is watched for receive WQEs posted later
	 * (IBTA Vol. 1 §10.3.1: WRs posted in Error complete with a flush error). */
	qp->rq_watch = qp->qp->state == QP_ERR && !(qp->qp->holds & QP_HOLDS_RMP) &&
		       CTX(qp->qp, rq_type) == 0;
	roce_timer_arm(dev, qp, 0);
	if (!CTX(qp->qp, no_sq))
		flush_sq(dev, qp);
	flush_rq(dev, qp);
}

void roce_qp_error(struct nicref_dev *dev, struct roce_qp *qp)
{
	struct qp *q = qp->qp;
	if (q->state == QP_ERR || q->state == QP_RST)
		return;
	uint8_t from = q->state;
	q->state = QP_ERR;
	PRM_SET(qpc, state, q->ctx, QP_CTX_BYTES, QP_ERR);
	qp->state = QP_ERR;
	uint64_t a[4] = { qp->qpn, from, QP_ERR, 1 };
	dev_emit(dev, NICREF_EV_QP_STATE, a, 4);
	roce_qp_flush(dev, qp);
}

/* ---- The ADP modes QPs took (D-ROCE-RC-24) ----------------------------------------------- */

/* A QP takes the device's ADP mode when it enters RTS (D-ADP-2) and keeps it; QPs that took
 * the same mode share one copy (a 44-byte struct a million QPs would otherwise hold a
 * million times). Few distinct modes are live at once (one per ROCE_ACCL setting QPs entered
 * RTS under), so a list and a reference count per mode. */
struct roce_adp_mode {
	struct roce_adp_mode *next;
	uint32_t refs;
	struct nicref_adp_mode m;
};

static bool mode_eq(const struct nicref_adp_mode *a, const struct nicref_adp_mode *b)
{
	/* Field by field: the struct has padding, which memcmp would read. */
	const struct nicref_adp_profile *x = &a->profile, *y = &b->profile;
	if (a->adp != b->adp || a->retrans_en != b->retrans_en ||
	    a->base_timeout_min_ns != b->base_timeout_min_ns ||
	    a->opt.first_timeout != b->opt.first_timeout || a->opt.dec_reading != b->opt.dec_reading ||
	    a->opt.init_range != b->opt.init_range || a->opt.dec_trigger != b->opt.dec_trigger ||
	    a->opt.retry_uses != b->opt.retry_uses ||
	    x->qp_total_timeout != y->qp_total_timeout || x->range_num != y->range_num ||
	    x->start_range_index != y->start_range_index || x->time_unit != y->time_unit ||
	    x->time_base != y->time_base || x->retx_total_timeout != y->retx_total_timeout ||
	    x->timeout_init_low_bound != y->timeout_init_low_bound ||
	    x->timeout_init_range_size != y->timeout_init_range_size)
		return false;
	for (unsigned i = 0; i < NICREF_ADP_MAX_RANGES; i++) {
		const struct nicref_adp_range *r = &x->range[i], *t = &y->range[i];
		if (memcmp(r, t, sizeof *r) != 0)
			return false;
	}
	return true;
}

const struct nicref_adp_mode *roce_adp_mode_get(struct nicref_dev *dev,
						const struct nicref_adp_mode *m)
{
	struct roce_state *rs = roce_state_of(dev);
	for (struct roce_adp_mode *e = rs->modes; e; e = e->next)
		if (mode_eq(&e->m, m)) {
			e->refs++;
			return &e->m;
		}
	/* From core's allocator, as the QPs pointing at it: a snapshot holds and restores both. */
	struct roce_adp_mode *e = dev_calloc(dev, 1, sizeof *e);
	if (!e)
		return NULL;
	e->m = *m;
	e->refs = 1;
	e->next = rs->modes;
	rs->modes = e;
	return &e->m;
}

void roce_adp_mode_put(struct nicref_dev *dev, const struct nicref_adp_mode *m)
{
	struct roce_state *rs = roce_state_of(dev);
	for (struct roce_adp_mode **pe = &rs->modes; *pe; pe = &(*pe)->next)
		if (&(*pe)->m == m) {
			struct roce_adp_mode *e = *pe;
			if (--e->refs == 0) {
				*pe = e->next;
				dev_free(dev, e);
			}
			return;
		}
	NICREF_ASSERT(!"an ADP mode no QP took");
}

/* ---- Life ----------------------------------------------------------------------------- */

static void drop_state(struct nicref_dev *dev, struct qp *q)
{
	struct roce_qp *rq = q->xport;
	if (!rq)
		return;
	unlink_armed(dev, rq);
	if (rq->st == QP_ST_RC && rq->req.mode)
		roce_adp_mode_put(dev, rq->req.mode);
	q->xport = NULL;
	roce_state_of(dev)->nqps--;
	dev_free(dev, rq);
}

static struct roce_qp *make_state(struct nicref_dev *dev, struct qp *q)
{
	struct roce_qp *rq = dev_calloc(dev, 1, sizeof *rq);
	if (!rq)
		return NULL;
	rq->qp = q;
	rq->qpn = q->hdr.handle;
	rq->state = QP_RST;
	q->xport = rq;
	roce_state_of(dev)->nqps++;
	set_queues(rq);
	return rq;
}

void roce_qp_release_all(struct nicref_dev *dev)
{
	void *o;
	for (int64_t h = objtab_next(&dev->obj[OBJ_QP], 0, &o); h >= 0;
	     h = objtab_next(&dev->obj[OBJ_QP], (uint32_t)h + 1, &o))
		drop_state(dev, o);
	roce_state_of(dev)->armed = 0;
}

static void modified(struct nicref_dev *dev, struct qp *q)
{
	/* [IBTA] §10.3.1: Reset empties the queues without completions; the transport state goes
	 * and is made again at the next RST2INIT (the counters start over). */
	if (q->state == QP_RST) {
		drop_state(dev, q);
		return;
	}
	struct roce_qp *rq = q->xport ? q->xport : make_state(dev, q);
	if (!rq)
		return; /* out of memory: the QP has no transport; its packets are dropped */
	uint8_t from = rq->state;
	refresh(rq);
	rq->state = q->state;
	if (from == QP_RTR && q->state == QP_RTS && rq->st != QP_ST_RC)
		rq->ud_psn = (uint32_t)CTX(q, next_send_psn); /* UD: shares the RC state's room */
	if (q->state == QP_ERR && from != QP_ERR)
		roce_qp_flush(dev, rq);
	if (rq->st == QP_ST_RC)
		rc_modify(dev, rq, from, q->state);
}

void roce_qp_notify(struct nicref_dev *dev, enum dev_note note, uint32_t qpn)
{
	if (note == DEV_NOTE_OBJECTS_RELEASED) {
		roce_qp_release_all(dev);
		return;
	}
	if (note != DEV_NOTE_QP_MODIFY && note != DEV_NOTE_QP_DESTROY)
		return;
	struct qp *q = obj_get(dev, OBJ_QP, qpn);
	if (!q)
		return;
	roce_enter(dev);
	if (note == DEV_NOTE_QP_DESTROY)
		drop_state(dev, q);
	else
		modified(dev, q);
	roce_leave(dev);
}

/* ---- Counted events ------------------------------------------------------------------- */

void roce_drop(struct nicref_dev *dev, unsigned port, enum nicref_roce_drop reason,
	       uint32_t qpn, uint32_t psn)
{
	struct roce_counters *c = &roce_state_of(dev)->cnt;
	c->drops[0]++;
	if ((unsigned)reason < NICREF_ROCE_DROP_COUNT)
		c->drops[reason]++;
	uint64_t a[4] = { port, reason, qpn, psn };
	dev_emit(dev, NICREF_EV_ROCE_DROP, a, 4);
}

void roce_nak_sent(struct nicref_dev *dev, struct roce_qp *qp, uint32_t psn, uint8_t syndrome)
{
	struct roce_counters *c = &roce_state_of(dev)->cnt;
	c->naks_sent++;
	if ((syndrome & 0x60) == 0x20) /* [IBTA] Table 44: 01xxxxx RNR NAK */
		c->rnr_naks_sent++;
	dev_emit3(dev, NICREF_EV_ROCE_NAK, qp->qpn, psn, syndrome);
}

void roce_retx(struct nicref_dev *dev, struct roce_qp *qp, uint32_t from_psn, unsigned reason)
{
	roce_state_of(dev)->cnt.retransmits++;
	dev_emit3(dev, NICREF_EV_ROCE_RETX, qp->qpn, from_psn, reason);
}

void roce_rnr_nak_received(struct nicref_dev *dev, struct roce_qp *qp)
{
	(void)qp;
	roce_state_of(dev)->cnt.rnr_naks_received++;
}
