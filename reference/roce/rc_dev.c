/* The RC transport on a device (docs/roce.md "RC transport"): the entry points the rest of the
 * RoCE layer calls (rc.h: rc_modify, rc_sq_run, rc_rx, rc_timer) and the requester's callbacks,
 * which read send WQEs from the SQ in host memory, gather and send packets through the layer's
 * wire path (roce/roce.h), write the requester's CQEs and put the QP in ERR. The responder's
 * callbacks are rc_dev_resp.c's. */
#include <string.h>

#include "core/dev.h"
#include "obj/qp.h"
#include "prm/layouts.h"
#include "reg/roce_accl.h"
#include "roce/roce.h"

struct rc_ctx {
	struct nicref_dev *dev;
	struct roce_qp *qp;
};

/* The WQE as the requester needs it. */
static void wqe_view(const struct roce_swqe *s, struct rc_wqe *w)
{
	memset(w, 0, sizeof *w);
	w->msg = (uint8_t)rc_msg_of_mlx5(s->opcode);
	w->ce = s->ce;
	w->se = s->se;
	w->len = s->length;
	w->va = s->raddr;
	w->rkey = s->rkey;
	w->imm = s->imm;
	w->bbs = s->bbs;
}

static int req_wqe(void *c, uint16_t idx, struct rc_wqe *w)
{
	struct rc_ctx *x = c;
	struct roce_swqe s;
	uint8_t syn = roce_sq_wqe(x->dev, x->qp, idx, &s);
	if (syn != 0)
		return syn;
	wqe_view(&s, w);
	/* [S004] L68: an operation the engine does not run faults the QP (seed004: SEND and
	 * WRITE only, [S004] L35). */
	if (w->msg == RC_MSG_NONE)
		return RC_SYN_LOCAL_QP_OP;
	if (x->dev->core.cfg.profile.roce_profile == ROCE_PROFILE_SEED004 &&
	    w->msg != RC_MSG_SEND && w->msg != RC_MSG_WRITE)
		return RC_SYN_LOCAL_QP_OP;
	return 0;
}

static int req_emit(void *c, const struct rc_tx *t)
{
	struct rc_ctx *x = c;
	/* D-ROCE-RC-18, -29: a CQE the send CQ refused put the QP in ERR inside this step (the
	 * pure machine goes on until sync() stops it): nothing more leaves the QP. */
	if (x->qp->qp->state == QP_ERR)
		return 0;
	struct roce_state *rs = roce_state_of(x->dev);
	struct roce_swqe s;
	uint8_t syn = roce_sq_wqe(x->dev, x->qp, t->wqe, &s);
	if (syn != 0)
		return syn;
	if (t->len != 0) {
		if (t->len > rs->frame_cap)
			return RC_SYN_LOCAL_LENGTH;
		syn = roce_gather(x->dev, x->qp, &s, t->off, rs->msg, t->len);
		if (syn != 0)
			return syn;
	}
	struct roce_tx_hdr h;
	memset(&h, 0, sizeof h);
	h.opcode = t->opcode;
	h.se = t->se;
	h.ackreq = t->ackreq;
	h.psn = t->psn;
	h.dest_qp = x->qp->remote_qpn;
	h.reth_va = t->va;
	h.reth_rkey = t->rkey;
	h.reth_len = t->dma_len;
	h.imm = t->imm_data;
	/* A frame the wire path cannot send is counted there; the timer recovers (rc.h). */
	(void)roce_tx(x->dev, x->qp, &h, rs->msg, t->len);
	return 0;
}

/* READ response bytes into the READ WQE's scatter list (local write through its L_Keys). */
static int req_scatter(void *c, uint16_t idx, uint32_t off, const uint8_t *data, uint32_t len)
{
	struct rc_ctx *x = c;
	struct roce_swqe s;
	uint8_t syn = roce_sq_wqe(x->dev, x->qp, idx, &s);
	if (syn != 0)
		return syn;
	struct roce_rwqe r;
	memset(&r, 0, sizeof r);
	r.index = idx;
	r.nsge = s.nsge;
	memcpy(r.sge, s.sge, sizeof r.sge);
	r.length = s.length;
	return roce_scatter(x->dev, x->qp, &r, off, data, len);
}

static void req_done(void *c, uint16_t idx, const struct rc_wqe *w)
{
	struct rc_ctx *x = c;
	uint16_t after = (uint16_t)(idx + (w->bbs ? w->bbs : 1u));
	/* PRM §7.4.4.1 T26 CE (D-ROCE-20): a CQE on success for 10b and 11b, solicited for 11b. */
	if (!roce_sq_cqe_wanted(x->qp, w->ce, 0)) {
		x->qp->sq_head = after;
		return;
	}
	struct roce_cqe e;
	memset(&e, 0, sizeof e);
	e.se = w->ce == WQE_CE_AND_EVENT;
	e.opcode = ROCE_CQE_REQ;
	e.s_wqe_opcode = w->msg == RC_MSG_READ ? ROCE_WQE_RDMA_READ
			 : w->msg == RC_MSG_WRITE ? ROCE_WQE_RDMA_WRITE
			 : w->msg == RC_MSG_WRITE_IMM ? ROCE_WQE_RDMA_WRITE_IMM
			 : w->msg == RC_MSG_SEND_IMM ? ROCE_WQE_SEND_IMM
						     : ROCE_WQE_SEND;
	e.wqe_counter = idx;
	/* mlx5: a READ's requester CQE carries the bytes read. */
	e.byte_cnt = w->msg == RC_MSG_READ ? w->len : 0;
	/* D-ROCE-RC-29: a CQE the CQ refused (roce_cqe put the QP in ERR) leaves the WQE not
	 * completed: sq_head stays on it. */
	if (roce_cqe(x->dev, x->qp, &e) == 0)
		x->qp->sq_head = after;
}

/* D-ROCE-RC-7, D-ROCE-RC-27, D-ROCE-RC-29: the WQE idx failed. The WQEs before it not completed
 * (a READ whose responses are missing, before the WQE a fatal NAK refused) are outstanding
 * when the QP enters Error: each completes flushed (IBTA Vol. 1 §10.3.1), in order, before
 * idx's error CQE; then the QP to ERR (its other WQEs flushed). When the send CQ refuses a CQE
 * (PRM §7.12.1: full without oi, it goes to error and takes no more, §7.12.5; a write that
 * fails) the QP is in ERR at once and every WQE from the one refused on stays not completed:
 * idx's error CQE is not written after the WQEs left behind, and sq_head does not pass them. */
static void req_fail(void *c, uint16_t idx, uint8_t syndrome)
{
	struct rc_ctx *x = c;
	if (roce_sq_flush_to(x->dev, x->qp, idx) != 0) {
		roce_qp_error(x->dev, x->qp);
		return;
	}
	struct roce_swqe s;
	uint8_t op = 0, bbs = 1;
	if (roce_sq_wqe(x->dev, x->qp, idx, &s) == 0) {
		op = s.opcode;
		bbs = s.bbs ? s.bbs : 1;
	}
	struct roce_cqe e;
	memset(&e, 0, sizeof e);
	e.opcode = ROCE_CQE_REQ_ERR;
	e.syndrome = syndrome;
	e.s_wqe_opcode = op;
	e.wqe_counter = idx;
	/* T26 CE 01b (D-ROCE-20): no CQE after a WQE that completed in error (s.ce is read
	 * before roce_sq_wqe's other checks, 0 when the ctrl cannot be read). */
	if (!roce_sq_cqe_wanted(x->qp, s.ce, syndrome) || roce_cqe(x->dev, x->qp, &e) == 0)
		x->qp->sq_head = (uint16_t)(idx + bbs);
	roce_qp_error(x->dev, x->qp);
}

static void req_retx(void *c, uint32_t psn, enum rc_retx_reason why)
{
	struct rc_ctx *x = c;
	if (x->qp->qp->state == QP_ERR)
		return; /* as req_emit: a CQE refused in this step stopped the QP */
	/* enum rc_retx_reason is the roce_retx event's reason (nicref/trace.h; D-ROCE-RC-26:
	 * lost READ responses are an implied NAK, 3) */
	roce_retx(x->dev, x->qp, psn, (unsigned)why);
}

static void req_timeout(void *c, const struct nicref_adp_qp *adp, bool again)
{
	struct rc_ctx *x = c;
	roce_accl_count(x->dev, adp, again);
}

static const struct rc_req_ops dev_req_ops = { req_wqe, req_emit, req_scatter, req_done,
					       req_fail, req_retx, req_timeout };

/* D-ROCE-RC-4: the outstanding messages allowed: under seed004 the engine's 16 or the reaction
 * point's 8 ([S004] L126-133, L137-143: the layer's roce_outstanding_limit); under connectx no
 * fixed cap (the PSN window of 2^23 only; docs/roce.md "Device profiles"). */
static uint8_t window(const struct nicref_dev *dev, const struct roce_qp *qp)
{
	if (dev->core.cfg.profile.roce_profile != ROCE_PROFILE_SEED004)
		return 0;
	return (uint8_t)roce_outstanding_limit(dev, qp);
}

/* The QP went to ERR by some other way (a CQE that could not be written, 2ERR): the two state
 * machines stop. */
static bool alive(struct roce_qp *qp)
{
	if (qp->qp->state != QP_ERR && qp->qp->state != QP_RST)
		return true;
	qp->req.state = RC_REQ_ERR;
	qp->req.deadline_ns = 0;
	qp->resp.err = true;
	return false;
}

/* After every step: the QP's one timer follows the requester's deadline, and the SQ's hardware
 * counter is the next WQEBB the requester has not started (roce/roce.h). */
static void sync(struct nicref_dev *dev, struct roce_qp *qp)
{
	(void)alive(qp); /* a CQE refused during the step put the QP in ERR (D-ROCE-RC-29) */
	if (qp->req.state == RC_REQ_RUN || qp->req.state == RC_REQ_RNR)
		qp->sq.hw_counter = qp->req.next;
	roce_timer_arm(dev, qp, rc_req_deadline(&qp->req));
}

/* A field of the QP's context (the qpc as the transitions left it). */
#define QPC(qp, f) ((uint32_t)PRM_GET(qpc, f, (qp)->qp->ctx, sizeof(qp)->qp->ctx))

void rc_modify(struct nicref_dev *dev, struct roce_qp *qp, unsigned from, unsigned to)
{
	if (from == QP_RST) {
		/* Made with the QP's transport state: nothing runs before RTR / RTS. */
		memset(&qp->req, 0, sizeof qp->req);
		rc_resp_init(&qp->resp, 0);
		qp->resp.err = true;
	}
	if (to == QP_RTR && from == QP_INIT) {
		/* IBTA §10.3.1: the responder starts at the QP's next_rcv_psn. */
		rc_resp_init(&qp->resp, QPC(qp, next_rcv_psn));
	}
	if (to == QP_RTS && from == QP_RTR) {
		struct nicref_adp_mode mode;
		nicref_adp_dev_mode(dev, &mode);
		struct nicref_adp_qp_attr aa = {
			(uint8_t)QPC(qp, primary_address_path_ack_timeout),
			(uint8_t)QPC(qp, retry_count),
		};
		struct rc_req_attr a = {
			QPC(qp, next_send_psn),
			(uint16_t)qp->pmtu,
			(uint8_t)QPC(qp, rnr_retry),
			window(dev, qp),
			qp->sq.hw_counter,
		};
		/* D-ROCE-RC-24: the QP points to the device's copy of the mode it took. Out of
		 * memory: no requester (nothing is sent; the QP's packets are not answered). */
		const struct nicref_adp_mode *shared = roce_adp_mode_get(dev, &mode);
		if (qp->req.mode)
			roce_adp_mode_put(dev, qp->req.mode);
		if (shared) {
			/* D-ROCE-RC-2: the ADP draw comes from the device's seeded PRNG. */
			rc_req_init(&qp->req, &a, shared, &aa, dev->core.now_ns,
				    nicref_prng_next(dev));
		} else {
			memset(&qp->req, 0, sizeof qp->req);
		}
		qp->sq_head = a.sq_head;
	}
	if (to == QP_RTS && from == QP_RTS)
		qp->req.rnr_retry = (uint8_t)(QPC(qp, rnr_retry) & 7u);
	if (to == QP_ERR || to == QP_RST) {
		qp->req.state = RC_REQ_ERR;
		qp->req.deadline_ns = 0;
		qp->resp.err = true;
	}
	sync(dev, qp);
}

void rc_sq_run(struct nicref_dev *dev, struct roce_qp *qp)
{
	struct rc_ctx x = { dev, qp };
	if (!alive(qp))
		return;
	qp->req.pi = qp->sq.sw_counter;
	qp->req.limit = window(dev, qp);
	rc_req_run(&qp->req, &dev_req_ops, &x, dev->core.now_ns);
	sync(dev, qp);
}

void rc_timer(struct nicref_dev *dev, struct roce_qp *qp)
{
	struct rc_ctx x = { dev, qp };
	if (!alive(qp))
		return;
	qp->req.limit = window(dev, qp);
	rc_req_tick(&qp->req, &dev_req_ops, &x, dev->core.now_ns);
	sync(dev, qp);
}

/* The RC transport's view of a parsed packet. */
static void pkt_view(const struct roce_pkt *p, struct rc_pkt *v)
{
	memset(v, 0, sizeof *v);
	v->opcode = p->opcode;
	v->se = p->se;
	v->ackreq = p->ackreq;
	v->pkey = p->pkey;
	v->psn = p->psn;
	v->has_reth = (p->hdrs & NICREF_ROCE_H_RETH) != 0;
	v->has_aeth = (p->hdrs & NICREF_ROCE_H_AETH) != 0;
	v->has_imm = (p->hdrs & NICREF_ROCE_H_IMMDT) != 0;
	v->va = p->reth_va;
	v->rkey = p->reth_rkey;
	v->dma_len = p->reth_len;
	v->syndrome = p->aeth_syndrome;
	v->msn = p->aeth_msn;
	v->imm = p->imm;
	v->payload = p->payload;
	v->len = p->payload_len;
}

void rc_rx(struct nicref_dev *dev, struct roce_qp *qp, const struct roce_pkt *p)
{
	struct rc_pkt v;
	pkt_view(p, &v);
	(void)alive(qp);
	const struct rc_op_info *oi = rc_op_info(v.opcode);
	if (oi != NULL && oi->resp) {
		/* A response: the requester's (IBTA §9.7.4), in RTS (and the drained states). */
		if (qp->req.state == RC_REQ_OFF || qp->req.state == RC_REQ_ERR) {
			roce_drop(dev, p->port, NICREF_ROCE_DROP_RESPONSE_UNEXPECTED, qp->qpn, v.psn);
			return;
		}
		if (v.opcode == RC_BTH_ACK && v.has_aeth && rc_aeth_kind_of(v.syndrome) == RC_AETH_RNR)
			roce_rnr_nak_received(dev, qp);
		struct rc_ctx x = { dev, qp };
		qp->req.limit = window(dev, qp);
		if (!rc_req_rx(&qp->req, &v, &dev_req_ops, &x, dev->core.now_ns))
			roce_drop(dev, p->port, NICREF_ROCE_DROP_RESPONSE_UNEXPECTED, qp->qpn, v.psn);
		sync(dev, qp);
		return;
	}
	rc_resp_dev_rx(dev, qp, &v);
	sync(dev, qp);
}
