/* The RC responder (docs/roce.md "RC transport", D-ROCE-RC-*): the checks of an arriving
 * request in the profile's order ([S004] L88-101 RC_CHK for seed004; IBTA Vol. 1 §9.7.5.1 for
 * connectx), then its execution: SEND into the receive WQE, RDMA WRITE into memory, RDMA READ
 * answered with responses, the ACK policy and the NAKs (IBTA Vol. 1 §9.7.5.2, [S004]
 * L103-107). Duplicates are answered again and never placed twice (IBTA §9.7.5.1.2). */
#include <stddef.h>
#include <string.h>

#include "roce/rc.h"

/* What the PSN check found (IBTA §9.7.5.1.2: valid, duplicate, invalid = out of sequence). */
enum psn_class { PSN_UNCHECKED, PSN_VALID, PSN_DUP, PSN_AHEAD };

struct chk {
	struct rc_resp *r;
	const struct rc_resp_env *env;
	const struct rc_pkt *p;
	const struct rc_op_info *oi;
	const struct rc_resp_ops *ops;
	void *ctx;
	enum psn_class psn;
};

typedef enum rc_verdict (*chk_fn)(struct chk *c);

/* The receive WQE a message holds, kept field by field in struct rc_resp (D-ROCE-RC-24). */
static struct rc_rwqe_ref rwqe_of(const struct rc_resp *r)
{
	struct rc_rwqe_ref ref = { r->rwqe_index, r->rwqe_room, r->rwqe_rmp, r->rwqe_held };
	return ref;
}

/* Takes the next receive WQE for the message: 0, or -1 (none, or it cannot be read). */
static int take_rwqe(struct chk *c, struct rc_resp *r)
{
	struct rc_rwqe_ref ref = rwqe_of(r);
	if (c->ops->rq_take(c->ctx, &ref) != 0)
		return -1;
	r->rwqe_index = (uint16_t)ref.index;
	r->rwqe_room = ref.room;
	r->rwqe_rmp = ref.rmp;
	r->rwqe_held = true;
	return 0;
}

static bool takes_rwqe(const struct rc_op_info *oi)
{
	/* A SEND takes a receive WQE at its first packet; an RDMA WRITE with immediate at its
	 * last (IBTA §9.4.1.1 / §9.4.3: the immediate goes to a receive WQE). */
	if (oi->msg == RC_MSG_SEND || oi->msg == RC_MSG_SEND_IMM)
		return oi->pos == RC_POS_FIRST || oi->pos == RC_POS_ONLY;
	return oi->msg == RC_MSG_WRITE_IMM;
}

static bool completes_rwqe(const struct rc_op_info *oi)
{
	bool end = oi->pos == RC_POS_LAST || oi->pos == RC_POS_ONLY;
	return end && (oi->msg == RC_MSG_SEND || oi->msg == RC_MSG_SEND_IMM ||
		       oi->msg == RC_MSG_WRITE_IMM);
}

/* [S004] L94 "OPCODE: RC send/write, else Fatal.invalid req"; IBTA §9.7.5.1.3: an opcode the
 * responder does not support is an invalid request. */
static enum rc_verdict chk_opcode(struct chk *c)
{
	const struct rc_op_info *oi = c->oi;
	if (oi == NULL || oi->resp)
		return RC_V_NAK_INV;
	if (c->env->seed004 && (oi->msg == RC_MSG_READ || oi->imm))
		return RC_V_NAK_INV; /* [S004] L35: RC Send / Write only */
	return RC_V_OK;
}

/* [S004] L95 "Length: First/Middle == MTU; Last/Only <= MTU"; IBTA §9.7.5.1.3: a LAST
 * carries 1..MTU bytes (D-ROCE-RC-11: under connectx), a READ request none. */
static enum rc_verdict chk_length(struct chk *c)
{
	uint32_t len = c->p->len, mtu = c->env->pmtu;
	switch (c->oi->pos) {
	case RC_POS_FIRST:
	case RC_POS_MIDDLE:
		return len == mtu ? RC_V_OK : RC_V_NAK_INV;
	case RC_POS_LAST:
		/* D-ROCE-RC-11: seed004 as written ([S004] L95 "Last <= MTU"); IBTA: a LAST
		 * carries at least one byte. */
		if (len > mtu)
			return RC_V_NAK_INV;
		return len >= 1 || c->env->seed004 ? RC_V_OK : RC_V_NAK_INV;
	default:
		if (c->oi->msg == RC_MSG_READ)
			return len == 0 ? RC_V_OK : RC_V_NAK_INV;
		return len <= mtu ? RC_V_OK : RC_V_NAK_INV;
	}
}

/* P_Key match (D-ROCE-RC-12, the layer's D-ROCE-8): IBTA §10.9.3: the key bits 14:0 equal, not
 * the invalid key (bits 14:0 zero), at least one of the two a full member (bit 15). [S004] L96
 * writes the membership bit as 14; read as IBTA's bit 15 under both profiles (with bit 14 the
 * partition field would overlap the membership test). Mismatch: dropped silently. */
static enum rc_verdict chk_pkey(struct chk *c)
{
	uint16_t a = c->p->pkey, b = c->env->pkey;
	if ((a & 0x7FFFu) != (b & 0x7FFFu) || (a & 0x7FFFu) == 0 || !((a | b) & 0x8000u))
		return RC_V_DROP;
	return RC_V_OK;
}

/* [S004] L97 "DestQP enabled and > 1, else drop"; IBTA §10.3.1: a QP receives in RTR and RTS.
 * (The QP's number was looked up by the classification: a QPN with no QP never gets here.) */
static enum rc_verdict chk_destqp(struct chk *c)
{
	return c->env->receives ? RC_V_OK : RC_V_DROP;
}

/* [S004] L98 "RQ almost_full: send RNR"; IBTA §9.7.5.2.8: no receive WQE for a request that
 * needs one: RNR NAK. */
static enum rc_verdict chk_rq(struct chk *c)
{
	if (!takes_rwqe(c->oi))
		return RC_V_OK;
	/* A SEND in progress already holds the head WQE (only a FIRST/ONLY takes one). */
	return c->ops->rq_avail(c->ctx) ? RC_V_OK : RC_V_RNR;
}

/* [S004] L99 "WRITE MRT: R_Key, PD, range, else NAK Remote Access Error" ([S004] L118-124);
 * IBTA §9.7.5.1.4 / §10.6.7.2: the QP's remote rights and the R_Key; a zero-length RDMA
 * checks no R_Key (IBTA C9-88). */
static enum rc_verdict chk_rkey(struct chk *c)
{
	const struct rc_pkt *p = c->p;
	if (!c->oi->reth)
		return RC_V_OK;
	bool write = c->oi->msg != RC_MSG_READ;
	if (write ? !c->env->rwe : !c->env->rre)
		return RC_V_NAK_ACC;
	if (p->dma_len == 0)
		return RC_V_OK;
	return c->ops->rkey(c->ctx, p->rkey, p->va, p->dma_len, write) == 0 ? RC_V_OK : RC_V_NAK_ACC;
}

/* [S004] L100 "CQ not overflowed, else Fatal.cq_overflow". */
static enum rc_verdict chk_cq(struct chk *c)
{
	if (!completes_rwqe(c->oi))
		return RC_V_OK;
	return c->ops->cq_ok(c->ctx) ? RC_V_OK : RC_V_FATAL;
}

/* [S004] L101 "PSN: RECV_PSN == EPSN, else Send Dup/Retry"; IBTA §9.7.5.1.2: PSN equal to the
 * expected PSN: valid; in the half window before it: duplicate; otherwise out of sequence. */
static enum rc_verdict chk_psn(struct chk *c)
{
	int32_t d = rc_psn_diff(c->p->psn & RC_PSN_MASK, c->r->epsn);
	c->psn = d == 0 ? PSN_VALID : d < 0 ? PSN_DUP : PSN_AHEAD;
	if (c->psn == PSN_DUP)
		return RC_V_DUP;
	return c->psn == PSN_AHEAD ? RC_V_NAK_SEQ : RC_V_OK;
}

/* IBTA §9.7.5.1.3: the opcode sequence: a FIRST or ONLY between messages, a MIDDLE or LAST
 * of the same operation inside one; otherwise an invalid request. Run on valid PSNs only
 * (a duplicate's opcode is not compared with the message in progress). */
static enum rc_verdict chk_seq(struct chk *c)
{
	const struct rc_op_info *oi = c->oi;
	bool starts = oi->pos == RC_POS_FIRST || oi->pos == RC_POS_ONLY;
	if (c->r->cur == RC_MSG_NONE)
		return starts ? RC_V_OK : RC_V_NAK_INV;
	if (starts)
		return RC_V_NAK_INV;
	bool send_cur = c->r->cur == RC_MSG_SEND || c->r->cur == RC_MSG_SEND_IMM;
	bool send_now = oi->msg == RC_MSG_SEND || oi->msg == RC_MSG_SEND_IMM;
	bool write_cur = c->r->cur == RC_MSG_WRITE || c->r->cur == RC_MSG_WRITE_IMM;
	bool write_now = oi->msg == RC_MSG_WRITE || oi->msg == RC_MSG_WRITE_IMM;
	return (send_cur && send_now) || (write_cur && write_now) ? RC_V_OK : RC_V_NAK_INV;
}

static const struct {
	const char *name, *citation;
	chk_fn fn;
} chks[RC_CHK_COUNT] = {
	[RC_CHK_OPCODE] = { "opcode", "seed 004 L94; IBTA Vol. 1 §9.7.5.1.3", chk_opcode },
	[RC_CHK_LENGTH] = { "length", "seed 004 L95; IBTA Vol. 1 §9.7.5.1.3", chk_length },
	[RC_CHK_PKEY] = { "pkey", "seed 004 L96; IBTA Vol. 1 §10.9.3", chk_pkey },
	[RC_CHK_DESTQP] = { "destqp", "seed 004 L97; IBTA Vol. 1 §10.3.1", chk_destqp },
	[RC_CHK_RQ] = { "rq", "seed 004 L98; IBTA Vol. 1 §9.7.5.2.8", chk_rq },
	[RC_CHK_RKEY] = { "rkey", "seed 004 L99, L118-124; IBTA Vol. 1 §9.7.5.1.4, C9-88", chk_rkey },
	[RC_CHK_CQ] = { "cq", "seed 004 L100", chk_cq },
	[RC_CHK_PSN] = { "psn", "seed 004 L101; IBTA Vol. 1 §9.7.5.1.2", chk_psn },
	[RC_CHK_SEQ] = { "opcode_sequence", "IBTA Vol. 1 §9.7.5.1.3", chk_seq },
};

/* D-ROCE-RC-10: the orders. DestQP first in both: every later check reads the QP (its MTU,
 * its P_Key), so the QP must be one that receives. seed004 then runs RC_CHK's rows as
 * [S004] L94-101 lists them; the opcode sequence (which RC_CHK does not list) runs on valid
 * PSNs. connectx runs IBTA's: header (P_Key), PSN, then the request's validity, resources,
 * rights and the CQ. */
static const uint8_t order_seed004[] = { RC_CHK_DESTQP, RC_CHK_OPCODE, RC_CHK_LENGTH, RC_CHK_PKEY,
					 RC_CHK_RQ,     RC_CHK_RKEY,   RC_CHK_CQ,     RC_CHK_PSN,
					 RC_CHK_SEQ };
static const uint8_t order_ibta[] = { RC_CHK_DESTQP, RC_CHK_PKEY, RC_CHK_PSN,  RC_CHK_OPCODE, RC_CHK_SEQ,
				      RC_CHK_LENGTH, RC_CHK_RQ,   RC_CHK_RKEY, RC_CHK_CQ };

const char *rc_chk_name(enum rc_chk c)
{
	return (unsigned)c < RC_CHK_COUNT ? chks[c].name : "?";
}

const char *rc_chk_citation(enum rc_chk c)
{
	return (unsigned)c < RC_CHK_COUNT ? chks[c].citation : "?";
}

static const char *const verdict_names[RC_V_COUNT] = {
	"ok", "drop", "duplicate", "nak_psn_seq", "rnr_nak", "nak_invalid_request",
	"nak_remote_access", "nak_remote_op", "fatal",
};

const char *rc_verdict_name(enum rc_verdict v)
{
	return (unsigned)v < RC_V_COUNT ? verdict_names[v] : "?";
}

void rc_resp_init(struct rc_resp *r, uint32_t rq_psn)
{
	memset(r, 0, sizeof *r);
	r->epsn = rq_psn & RC_PSN_MASK;
	r->cur = RC_MSG_NONE;
}

static uint8_t ack_syn(void)
{
	return rc_aeth_syn(RC_AETH_ACK, RC_AETH_CREDIT_INVALID);
}

/* The READ responses of a request at psn for [va, va + len) (IBTA §9.7.5.1.5 / §9.4.4): one
 * per MTU, PSNs psn.., each first, last and only with an AETH. */
static int read_answer(struct chk *c, uint32_t psn, uint64_t va, uint32_t len)
{
	uint32_t mtu = c->env->pmtu, n = rc_npkts(len, mtu);
	for (uint32_t k = 0; k < n; k++) {
		uint32_t l = k + 1 < n ? mtu : len - k * mtu;
		if (c->ops->read_resp(c->ctx, rc_read_resp_op(k, n), rc_psn_add(psn, k), c->p->rkey,
				      va + (uint64_t)k * mtu, l, ack_syn(), c->r->msn) != 0)
			return -1;
	}
	return 0;
}

/* A fatal responder error (IBTA §10.7.3.1 class C; [S004] L94-100 "Fatal"): the NAK (for the
 * NAK kinds), and the QP to ERR. */
static enum rc_verdict fatal_syn(struct chk *c, enum rc_verdict v, uint8_t syn)
{
	static const uint8_t nak_of[RC_V_COUNT] = {
		[RC_V_NAK_INV] = RC_NAK_INV_REQ + 1,
		[RC_V_NAK_ACC] = RC_NAK_REM_ACCESS + 1,
		[RC_V_NAK_OP] = RC_NAK_REM_OP + 1,
	};
	/* D-ROCE-RC-15: a NAK acknowledges every PSN before its own (IBTA Vol. 1 §9.7.5.1), so
	 * a request AHEAD of the expected PSN (seed004's order checks the PSN last,
	 * D-ROCE-RC-10) is NAKed with the expected PSN: the PSNs between were never executed
	 * (as the RNR NAK, D-ROCE-RC-20). */
	uint32_t psn = c->p->psn & RC_PSN_MASK;
	if (rc_psn_diff(psn, c->r->epsn) > 0)
		psn = c->r->epsn;
	if (nak_of[v] != 0)
		c->ops->ack(c->ctx, psn, rc_aeth_syn(RC_AETH_NAK, (unsigned)nak_of[v] - 1u),
			    c->r->msn);
	/* D-ROCE-RC-15: the receive WQE a SEND held completes in error (the rest are flushed). */
	if (c->r->rwqe_held) {
		struct rc_rwqe_ref ref = rwqe_of(c->r);
		c->r->rwqe_held = false;
		c->ops->rq_done(c->ctx, &ref, (enum rc_msg)c->r->cur, c->r->off, false, 0, syn,
				 false);
	}
	c->r->err = true;
	c->ops->fatal(c->ctx, v);
	return v;
}

/* The syndrome of the receive WQE in progress when the responder fails (D-ROCE-RC-15). */
static enum rc_verdict fatal(struct chk *c, enum rc_verdict v)
{
	return fatal_syn(c, v, v == RC_V_NAK_OP ? RC_SYN_LOCAL_PROT : RC_SYN_LOCAL_QP_OP);
}

/* The outcome of a check that did not pass. */
static enum rc_verdict refuse(struct chk *c, enum rc_verdict v)
{
	struct rc_resp *r = c->r;
	const struct rc_pkt *p = c->p;
	switch (v) {
	case RC_V_DROP:
		return v;
	case RC_V_DUP:
		/* IBTA §9.7.5.1.2 (C9-104..106): a duplicate SEND or WRITE is acknowledged
		 * again (the last PSN received in order, D-ROCE-RC-13) and not placed; a
		 * duplicate READ is executed again. */
		if (c->oi != NULL && c->oi->msg == RC_MSG_READ) {
			/* The READ runs again, so its R_Key and rights are checked again (in
			 * the IBTA order the PSN check came first). */
			enum rc_verdict k = chk_rkey(c);
			if (k != RC_V_OK)
				return fatal(c, k);
			if (read_answer(c, p->psn & RC_PSN_MASK, p->va, p->dma_len) != 0)
				return fatal(c, RC_V_FATAL);
		} else {
			c->ops->ack(c->ctx, rc_psn_add(r->epsn, RC_PSN_MASK), ack_syn(), r->msn);
		}
		return v;
	case RC_V_NAK_SEQ:
		/* IBTA §9.7.5.1.2: one NAK sequence error per expected PSN: the latch holds
		 * until the expected PSN arrives. */
		if (!r->nak_latch) {
			c->ops->ack(c->ctx, r->epsn, rc_aeth_syn(RC_AETH_NAK, RC_NAK_PSN_SEQ), r->msn);
			r->nak_latch = true;
		}
		return v;
	case RC_V_RNR:
		/* IBTA §9.7.5.2.8: the RNR NAK carries the request's PSN and the QP's
		 * min_rnr_nak timer code; the expected PSN does not move. The request is the
		 * expected one in IBTA's order; in seed 004's (the RQ checked before the PSN) it
		 * may be ahead or a duplicate, and a NAK acknowledges every PSN before its own
		 * (IBTA §9.7.5.1): so the NAK carries the expected PSN, never acknowledging a
		 * request not executed (D-ROCE-RC-20; found by roce_pair, F2). */
		c->ops->ack(c->ctx, r->epsn, rc_aeth_syn(RC_AETH_RNR, c->env->min_rnr), r->msn);
		return v;
	default:
		return fatal(c, v);
	}
}

/* The request is valid: execute it ([S004] L103-106; IBTA §9.7.5.1.5). */
static enum rc_verdict execute(struct chk *c)
{
	struct rc_resp *r = c->r;
	const struct rc_pkt *p = c->p;
	const struct rc_op_info *oi = c->oi;
	bool end = oi->pos == RC_POS_LAST || oi->pos == RC_POS_ONLY;
	uint32_t psn = p->psn & RC_PSN_MASK;
	r->nak_latch = false;
	if (oi->msg == RC_MSG_READ) {
		r->msn = rc_psn_add(r->msn, 1);
		r->epsn = rc_psn_add(psn, rc_npkts(p->dma_len, c->env->pmtu));
		if (read_answer(c, psn, p->va, p->dma_len) != 0)
			return fatal(c, RC_V_FATAL);
		return RC_V_OK;
	}
	if (oi->pos == RC_POS_FIRST || oi->pos == RC_POS_ONLY) {
		r->off = 0;
		if (oi->reth) {
			r->va = p->va;
			r->rkey = p->rkey;
			r->left = p->dma_len;
		}
	}
	bool send = oi->msg == RC_MSG_SEND || oi->msg == RC_MSG_SEND_IMM;
	if (send) {
		if (!r->rwqe_held) {
			if (take_rwqe(c, r) != 0)
				return fatal(c, RC_V_FATAL);
			r->cur = (uint8_t)oi->msg;
		}
		struct rc_rwqe_ref ref = rwqe_of(r);
		/* [S004] L95 "Send: <= RQ buffer"; IBTA §9.7.5.1.3: a SEND longer than the
		 * receive WQE is an invalid request; the WQE completes with a local length
		 * error. */
		if ((uint64_t)r->off + p->len > ref.room)
			return fatal_syn(c, RC_V_NAK_INV, RC_SYN_LOCAL_LENGTH);
		if (p->len != 0 && c->ops->rq_place(c->ctx, &ref, r->off, p->payload, p->len) != 0)
			return fatal(c, RC_V_NAK_OP); /* [S004] L101 Bresp; D-ROCE-RC-14 */
	} else {
		/* IBTA §9.7.5.1.3: the WRITE's packets together carry the RETH's DMA length. */
		if (p->len > r->left || (end && p->len != r->left))
			return fatal(c, RC_V_NAK_INV);
		if (p->len != 0 && c->ops->mem_put(c->ctx, r->rkey, r->va, p->payload, p->len) != 0)
			return fatal(c, RC_V_NAK_OP);
		r->va += p->len;
		r->left -= p->len;
	}
	r->off += p->len;
	r->epsn = rc_psn_add(psn, 1);
	r->cur = end ? RC_MSG_NONE : (uint8_t)oi->msg;
	if (end) {
		r->msn = rc_psn_add(r->msn, 1);
		if (oi->msg == RC_MSG_WRITE_IMM) {
			if (take_rwqe(c, r) != 0)
				return fatal(c, RC_V_FATAL);
		}
		if (completes_rwqe(oi)) {
			struct rc_rwqe_ref ref = rwqe_of(r);
			r->rwqe_held = false;
			/* D-ROCE-21: the last packet's BTH SE makes the completion solicited
			 * (IBTA Vol. 1 §9.2 SE, §11.4.2.2). */
			if (c->ops->rq_done(c->ctx, &ref, (enum rc_msg)oi->msg, r->off, p->has_imm,
					    p->imm, RC_SYN_OK, p->se) != 0)
				return fatal(c, RC_V_FATAL);
		}
	}
	/* D-ROCE-RC-9: an ACK when the request asks for one and at the end of each message; a
	 * coalesced ACK covers every PSN before it ([S004] L104 "implicit ACK"). */
	if (p->ackreq || end)
		c->ops->ack(c->ctx, psn, ack_syn(), r->msn);
	return RC_V_OK;
}

/* IBTA Vol. 1 §10.3.1 (Error: every outstanding WR completes with a flush error): the receive
 * WQE a message in progress holds (taken by its first packet, D-ROCE-RC-16; its LAST not come)
 * is outstanding, and the oldest on the queue, so it completes first, flushed, before the WQEs
 * still posted (D-ROCE-RC-18; finding F6: it was taken off the RQ and never completed). */
int rc_resp_flush(struct rc_resp *r, const struct rc_resp_ops *ops, void *ctx)
{
	if (!r->rwqe_held)
		return 0;
	struct rc_rwqe_ref ref = rwqe_of(r);
	if (ops->rq_done(ctx, &ref, (enum rc_msg)r->cur, 0, false, 0, RC_SYN_WR_FLUSH, false) != 0)
		return -1;
	r->rwqe_held = false;
	r->cur = RC_MSG_NONE;
	return 0;
}

enum rc_verdict rc_resp_rx(struct rc_resp *r, const struct rc_resp_env *env, const struct rc_pkt *p,
			   const struct rc_resp_ops *ops, void *ctx)
{
	if (r->err)
		return RC_V_DROP;
	/* IBTA §9.6.1 header validation: an opcode of another transport than RC is not for an
	 * RC QP: dropped. */
	if ((p->opcode >> 5) != 0)
		return RC_V_DROP;
	struct chk c = { r, env, p, rc_op_info(p->opcode), ops, ctx, PSN_UNCHECKED };
	const uint8_t *order = env->seed004 ? order_seed004 : order_ibta;
	size_t n = env->seed004 ? sizeof order_seed004 : sizeof order_ibta;
	for (size_t i = 0; i < n; i++) {
		/* Checks that read the opcode's row wait for the opcode check. */
		if (c.oi == NULL && order[i] != RC_CHK_DESTQP && order[i] != RC_CHK_PKEY &&
		    order[i] != RC_CHK_PSN && order[i] != RC_CHK_OPCODE)
			continue;
		if (c.oi != NULL && c.oi->resp && order[i] != RC_CHK_DESTQP && order[i] != RC_CHK_PKEY &&
		    order[i] != RC_CHK_PSN && order[i] != RC_CHK_OPCODE)
			continue;
		/* The opcode sequence is a question for valid PSNs only. */
		if (order[i] == RC_CHK_SEQ && c.psn != PSN_VALID)
			continue;
		enum rc_verdict v = chks[order[i]].fn(&c);
		if (v != RC_V_OK)
			return refuse(&c, v);
	}
	return execute(&c);
}
