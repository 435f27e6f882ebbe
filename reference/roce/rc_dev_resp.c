/* The RC responder on a device (docs/roce.md "RC transport"): the environment of the checks
 * from the QP (its MTU, P_Key, rights, min_rnr_nak, the profile) and the callbacks: receive
 * WQEs of the QP's RQ or RMP, the R_Key through the MKey API (obj/mkey.h: key, PD, bounds,
 * remote right), placement, the responder's CQEs, ACKs, NAKs and READ responses through the
 * layer's wire path (roce/roce.h). */
#include <string.h>

#include "core/dev.h"
#include "obj/cq.h"
#include "obj/mkey.h"
#include "obj/qp.h"
#include "prm/layouts.h"
#include "roce/roce.h"

struct resp_ctx {
	struct nicref_dev *dev;
	struct roce_qp *qp;
};

#define QPC(qp, f) ((uint32_t)PRM_GET(qpc, f, (qp)->qp->ctx, sizeof(qp)->qp->ctx))

static bool r_avail(void *c)
{
	struct resp_ctx *x = c;
	return rc_rq_avail(x->dev, x->qp);
}

static int r_take(void *c, struct rc_rwqe_ref *ref)
{
	struct resp_ctx *x = c;
	struct roce_rwqe w;
	if (roce_rq_take(x->dev, x->qp, &w) != 0)
		return -1;
	ref->index = w.index;
	ref->room = w.length;
	ref->rmp = w.from_rmp;
	return 0;
}

static int r_place(void *c, const struct rc_rwqe_ref *ref, uint32_t off, const uint8_t *d, uint32_t len)
{
	struct resp_ctx *x = c;
	struct roce_rwqe w;
	if (rc_rq_at(x->dev, x->qp, ref->index, ref->rmp, &w) != 0)
		return RC_SYN_LOCAL_PROT;
	return roce_scatter(x->dev, x->qp, &w, off, d, len);
}

static int r_done(void *c, const struct rc_rwqe_ref *ref, enum rc_msg m, uint32_t n, bool has_imm,
		  uint32_t imm, uint8_t syn, bool se)
{
	struct resp_ctx *x = c;
	struct roce_cqe e;
	memset(&e, 0, sizeof e);
	e.recv = true;
	e.se = se && syn == 0; /* D-ROCE-21 */
	/* mlx5 MLX5_CQE_RESP_*: a SEND, a SEND with immediate, a WRITE with immediate. */
	e.opcode = syn != 0 ? ROCE_CQE_RESP_ERR
		   : m == RC_MSG_WRITE_IMM ? ROCE_CQE_RESP_WR_IMM
		   : has_imm ? ROCE_CQE_RESP_SEND_IMM
			     : ROCE_CQE_RESP_SEND;
	e.syndrome = syn;
	e.wqe_counter = (uint16_t)ref->index;
	e.byte_cnt = n;
	e.imm = imm;
	return roce_cqe(x->dev, x->qp, &e);
}

static int r_rkey(void *c, uint32_t rkey, uint64_t va, uint32_t len, bool write)
{
	struct resp_ctx *x = c;
	/* [S004] L118-124: the R_Key's MKey, the QP's PD, the range and the remote right;
	 * the MKey API checks them all (PRM §6.1 through mkey_translate). */
	struct mkey_req r = { rkey, x->qp->qp->pd, va, len, write ? MKEY_REMOTE_WRITE : MKEY_REMOTE_READ,
			      false };
	return mkey_translate(x->dev, &r, NULL, NULL);
}

static int r_put(void *c, uint32_t rkey, uint64_t va, const uint8_t *d, uint32_t len)
{
	struct resp_ctx *x = c;
	struct roce_state *rs = roce_state_of(x->dev);
	if (len > rs->frame_cap)
		return -1;
	memcpy(rs->msg, d, len);
	return roce_remote(x->dev, x->qp, rkey, va, len, MKEY_REMOTE_WRITE, rs->msg);
}

static bool r_cq_ok(void *c)
{
	struct resp_ctx *x = c;
	/* [S004] L100 "CQ not overflowed": the receive CQ is not in error (PRM §7.12.1: an
	 * overflowed CQ takes no more CQEs). */
	const struct cq *cq = cq_get(x->dev, x->qp->qp->cqn_rcv);
	return cq != NULL && cq->status == CQ_STATUS_OK;
}

static void r_ack(void *c, uint32_t psn, uint8_t syn, uint32_t msn)
{
	struct resp_ctx *x = c;
	struct roce_tx_hdr h;
	memset(&h, 0, sizeof h);
	h.opcode = RC_BTH_ACK;
	h.psn = psn;
	h.dest_qp = x->qp->remote_qpn;
	h.aeth_syndrome = syn;
	h.aeth_msn = msn;
	(void)roce_tx(x->dev, x->qp, &h, NULL, 0);
	if (rc_aeth_kind_of(syn) != RC_AETH_ACK)
		roce_nak_sent(x->dev, x->qp, psn, syn);
}

static int r_read_resp(void *c, uint8_t op, uint32_t psn, uint32_t rkey, uint64_t va, uint32_t len,
		       uint8_t syn, uint32_t msn)
{
	struct resp_ctx *x = c;
	struct roce_state *rs = roce_state_of(x->dev);
	if (len > rs->frame_cap)
		return -1;
	if (len != 0 && roce_remote(x->dev, x->qp, rkey, va, len, MKEY_REMOTE_READ, rs->msg) != 0)
		return -1;
	struct roce_tx_hdr h;
	memset(&h, 0, sizeof h);
	h.opcode = op;
	h.psn = psn;
	h.dest_qp = x->qp->remote_qpn;
	h.aeth_syndrome = syn;
	h.aeth_msn = msn;
	(void)roce_tx(x->dev, x->qp, &h, rs->msg, len);
	return 0;
}

static void r_fatal(void *c, enum rc_verdict v)
{
	struct resp_ctx *x = c;
	(void)v;
	roce_qp_error(x->dev, x->qp);
}

static const struct rc_resp_ops dev_resp_ops = { r_avail, r_take,    r_place,     r_done, r_rkey,
						 r_put,   r_cq_ok,   r_ack,       r_read_resp, r_fatal };

void rc_resp_dev_rx(struct nicref_dev *dev, struct roce_qp *qp, const struct rc_pkt *p)
{
	struct resp_ctx x = { dev, qp };
	unsigned st = qp->qp->state;
	struct rc_resp_env env = {
		(uint16_t)qp->pmtu,
		qp->pkey,
		st == QP_RTR || st == QP_RTS || st == QP_SQD || st == QP_SQER,
		QPC(qp, rwe) != 0,
		QPC(qp, rre) != 0,
		dev->core.cfg.profile.roce_profile == ROCE_PROFILE_SEED004,
		(uint8_t)QPC(qp, min_rnr_nak),
	};
	bool was_err = qp->resp.err;
	enum rc_verdict v = rc_resp_rx(&qp->resp, &env, p, &dev_resp_ops, &x);
	if (v != RC_V_DROP)
		return;
	/* Why the responder dropped it: the QP in error or not receiving, an opcode of another
	 * service, or the P_Key (D-ROCE-RC-12). */
	enum nicref_roce_drop why = was_err || !env.receives ? NICREF_ROCE_DROP_QP_STATE
				    : (p->opcode >> 5) != 0  ? NICREF_ROCE_DROP_SERVICE
							     : NICREF_ROCE_DROP_PKEY;
	roce_drop(dev, qp->port, why, qp->qpn, p->psn);
}

int rc_resp_dev_flush(struct nicref_dev *dev, struct roce_qp *qp)
{
	struct resp_ctx x = { dev, qp };
	return rc_resp_flush(&qp->resp, &dev_resp_ops, &x);
}
