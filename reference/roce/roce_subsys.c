/* The RoCE transport's row of the subsystem table (core/subsys.h; device/device.c places it
 * after eth's, whose wire path it sends through): its state made at create (scratch buffers
 * sized for the largest frame, so no packet allocates), the hooks it hands the control plane
 * (cmd/ctl_dev.h: roce_rx, qp_run), power-on, the clock moving (for the QPs' timers and the
 * reaction point), the notes of QP transitions, counters, invariants. */
#include <stdlib.h>

#include "nicref/snapshot.h"
#include "roce/roce.h"

/* The largest frame: the largest port MTU the model allows plus the L2 header with two VLAN
 * tags (D-TX-6). */
#define ROCE_FRAME_CAP (16384u + 22u)

struct roce_state *roce_state_of(struct nicref_dev *dev)
{
	return dev->datapath.roce;
}

static int roce_create(struct nicref_dev *dev, void **state)
{
	struct roce_state *rs = calloc(1, sizeof *rs);
	if (!rs)
		return -1;
	*state = rs;
	rs->frame_cap = ROCE_FRAME_CAP;
	rs->frame = malloc(rs->frame_cap);
	rs->msg = malloc(rs->frame_cap);
	if (!rs->frame || !rs->msg)
		return -1;
	rs->check_icrc = true;
	dev->datapath.roce_rx = roce_rx;
	dev->datapath.qp_run = roce_qp_run;
	dev->datapath.roce = rs;
	return 0;
}

static void roce_destroy(struct nicref_dev *dev, void *state)
{
	struct roce_state *rs = state;
	/* The QPs outlive this row (the objects' row goes later, without notes to this one):
	 * their transport state goes now. */
	if (rs && dev->datapath.roce == rs && dev->obj[OBJ_QP].dir)
		roce_qp_release_all(dev);
	if (dev->datapath.roce == rs) {
		dev->datapath.roce_rx = NULL;
		dev->datapath.qp_run = NULL;
		dev->datapath.roce = NULL;
	}
	if (!rs)
		return;
	free(rs->frame);
	free(rs->msg);
	free(rs->lb);
	free(rs);
}

static void roce_reset(struct nicref_dev *dev, void *state)
{
	(void)dev;
	struct roce_state *rs = state;
	rs->cnt = (struct roce_counters){ 0 };
	rs->lb_head = rs->lb_tail = 0;
	rs->depth = 0;
}

static void roce_counters(const struct nicref_dev *dev, const void *state,
			  struct nicref_stats *out)
{
	(void)dev;
	const struct roce_state *rs = state;
	const struct roce_counters *c = &rs->cnt;
	out->roce_pkts_in += c->pkts_in;
	out->roce_pkts_out += c->pkts_out;
	for (unsigned r = 0; r < NICREF_ROCE_DROP_COUNT; r++)
		out->roce_drops[r] += c->drops[r];
	out->roce_icrc_errors += c->drops[NICREF_ROCE_DROP_ICRC];
	out->roce_retransmits += c->retransmits;
	out->roce_naks_sent += c->naks_sent;
	out->roce_rnr_naks_sent += c->rnr_naks_sent;
	out->roce_rnr_naks_received += c->rnr_naks_received;
	out->roce_cnps_sent += c->cnps_sent;
	out->roce_cnps_received += c->cnps_received;
	out->roce_ecn_marked += c->ecn_marked;
}

static void roce_tick(struct nicref_dev *dev, void *state)
{
	/* No timer armed and nothing queued: the tick would do nothing (a time advance comes
	 * with every frame a capture replays). */
	const struct roce_state *rs = state;
	if (!rs->armed && rs->lb_tail == 0)
		return;
	roce_enter(dev);
	roce_qp_tick(dev);
	roce_leave(dev);
}

/* The earliest timer of an armed QP: its ACK timer or RNR wait (rc_req_deadline, which the QP's
 * deadline follows: rc_dev.c sync) or its rate's restore (roce_cc.c). A walk of the armed list
 * only (the QPs with a timer, linked by QPN); the clock stops there (core/subsys.h), so each
 * expiry happens at its deadline (D-ROCE-RC-19). */
static bool roce_next_deadline(const struct nicref_dev *dev, const void *state, uint64_t *t)
{
	const struct roce_state *rs = state;
	bool any = false;
	for (uint32_t k = rs->armed; k;) {
		const struct qp *q = obj_get(dev, OBJ_QP, k);
		const struct roce_qp *qp = q->xport;
		const uint64_t d[2] = { qp->deadline_ns, qp->rp_restore_ns };
		for (unsigned j = 0; j < 2; j++)
			if (d[j] && (!any || d[j] < *t)) {
				*t = d[j];
				any = true;
			}
		k = qp->tnext;
	}
	return any;
}

static void roce_notify(struct nicref_dev *dev, void *state, enum dev_note note, uint32_t num)
{
	(void)state;
	roce_qp_notify(dev, note, num);
}

/* D-ROCE-18: the transport's state is per QP (struct roce_qp), made by core's allocator
 * (core/devmem.h) like the QP it serves, so a snapshot holds it with the objects and brings it
 * back, page list, queues, requester and responder state included, whatever its layout
 * (roce/roce_qp.c). The row keeps by value what is not a QP's: its counters, the armed list's
 * head and the count of QPs with state. The loopback queue is empty between entries (the
 * ROCE_LOOPBACK_IDLE invariant); a device caught inside one is refused. The ADP modes QPs
 * share (D-ROCE-RC-24) are allocator blocks too; the row keeps their list's head. */
struct roce_blob {
	struct roce_counters cnt;
	uint32_t armed; /* the armed list's first QPN */
	uint32_t nqps;
	struct roce_adp_mode *modes; /* the shared ADP modes (blocks of core's allocator) */
};

static int roce_snap_save(struct nicref_dev *dev, const void *state, void **blob)
{
	(void)dev;
	const struct roce_state *rs = state;
	if (rs->depth || rs->lb_head != rs->lb_tail)
		return NICREF_SNAP_UNSUPPORTED_STATE;
	struct roce_blob *b = malloc(sizeof *b);
	*blob = b;
	if (!b)
		return -1;
	b->cnt = rs->cnt;
	b->armed = rs->armed;
	b->nqps = rs->nqps;
	b->modes = rs->modes;
	return 0;
}

static void roce_snap_restore(struct nicref_dev *dev, void *state, const void *blob)
{
	(void)dev;
	struct roce_state *rs = state;
	const struct roce_blob *b = blob;
	rs->cnt = b->cnt;
	rs->armed = b->armed;
	rs->nqps = b->nqps;
	rs->modes = b->modes;
	rs->lb_head = rs->lb_tail = 0;
}

static void roce_snap_free(void *blob)
{
	free(blob);
}

static int roce_check(const struct nicref_dev *dev, const void *state, char *buf, size_t len)
{
	const struct roce_state *rs = state;
	if (dev->datapath.roce != rs || dev->datapath.roce_rx != roce_rx ||
	    dev->datapath.qp_run != roce_qp_run)
		return dev_broken(buf, len, NICREF_INV_ROCE_HOOK,
				  "the RoCE hooks are not the transport's");
	if (rs->depth || rs->lb_head || rs->lb_tail)
		return dev_broken(buf, len, NICREF_INV_ROCE_LOOPBACK_IDLE,
				  "depth %u, loopback queue [%zu, %zu)", rs->depth, rs->lb_head,
				  rs->lb_tail);
	uint32_t n = 0;
	void *o;
	for (int64_t h = objtab_next(&dev->obj[OBJ_QP], 0, &o); h >= 0;
	     h = objtab_next(&dev->obj[OBJ_QP], (uint32_t)h + 1, &o)) {
		const struct qp *q = o;
		const struct roce_qp *qp = q->xport;
		if ((q->state == QP_RST) != (qp == NULL) || (qp && (qp->qp != q || qp->qpn != h)))
			return dev_broken(buf, len, NICREF_INV_ROCE_QP_STATE,
					  "QP %lld in state %u %s transport state", (long long)h,
					  q->state, qp ? "with" : "without");
		if (!qp)
			continue;
		n++;
		if (qp->armed != (qp->deadline_ns || qp->rp_restore_ns || qp->rq_watch) ||
		    (qp->rq_watch && q->state != QP_ERR) || qp->queued)
			return dev_broken(buf, len, NICREF_INV_ROCE_TIMERS,
					  "QP %u armed %d, deadline %llu, restore %llu, RQ watched %d "
					  "in state %u, queued %d", qp->qpn, qp->armed,
					  (unsigned long long)qp->deadline_ns,
					  (unsigned long long)qp->rp_restore_ns, qp->rq_watch, q->state,
					  qp->queued);
		if (qp->rp_limit > ROCE_OUTSTANDING_MAX)
			return dev_broken(buf, len, NICREF_INV_ROCE_WINDOW, "QP %u limit %u",
					  qp->qpn, qp->rp_limit);
	}
	if (n != rs->nqps)
		return dev_broken(buf, len, NICREF_INV_ROCE_QP_STATE,
				  "%u QPs with transport state, %u counted", n, rs->nqps);
	/* The armed list is linked by QPN (roce/roce.h struct roce_qp). */
	uint32_t prev = 0, armed = 0;
	for (uint32_t k = rs->armed; k;) {
		const struct qp *q = obj_get(dev, OBJ_QP, k);
		const struct roce_qp *qp = q ? q->xport : NULL;
		if (!qp || qp->tprev != prev || !qp->armed || ++armed > n)
			return dev_broken(buf, len, NICREF_INV_ROCE_TIMERS,
					  "the armed list is broken at QP %u", k);
		prev = k;
		k = qp->tnext;
	}
	return 0;
}

const struct dev_subsys roce_subsys = {
	.name = "roce",
	.create = roce_create,
	.destroy = roce_destroy,
	.reset = roce_reset,
	.tick = roce_tick,
	.next_deadline = roce_next_deadline,
	.notify = roce_notify,
	.check = roce_check,
	.counters = roce_counters,
	.snap_save = roce_snap_save,
	.snap_restore = roce_snap_restore,
	.snap_free = roce_snap_free,
};
