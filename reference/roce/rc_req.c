/* The RC requester (docs/roce.md "RC transport", D-ROCE-RC-*): sends the messages of the SQ as
 * packets (IBTA Vol. 1 §9.7.2), keeps the outstanding window ([S004] L126-133), reads ACKs,
 * NAKs and READ responses (IBTA Vol. 1 §9.7.4 requester side), and goes back N on a timeout,
 * a NAK sequence error or an RNR NAK (IBTA Vol. 1 §9.7.4.1, [S004] L77, L105-106).
 *
 * D-ROCE-3: nothing sent is kept; a retransmission re-reads the WQEs from the SQ (ops->wqe) and
 * sends from the oldest unacknowledged PSN, which is always where the requester restarts:
 * every go-back-N of IBTA (timeout: the oldest unacknowledged; NAK sequence error and RNR NAK:
 * the NAK's PSN, after the NAK acknowledged what came before it) lands there. */
#include <string.h>

#include "roce/rc.h"

/* D-ROCE-RC-24: struct nicref_adp_qp is the per-QP state, then the mode; the requester keeps
 * the state (RC_ADP_BYTES) and points to the mode. */
_Static_assert(RC_ADP_BYTES + sizeof(struct nicref_adp_mode) <= sizeof(struct nicref_adp_qp) &&
		       RC_ADP_BYTES <= 20,
	       "struct nicref_adp_qp: the per-QP state (20 bytes at most), then the mode");

void rc_req_adp(const struct rc_req *q, struct nicref_adp_qp *out)
{
	memset(out, 0, sizeof *out);
	if (q->mode)
		out->mode = *q->mode;
	memcpy(out, q->adp, RC_ADP_BYTES);
}

static void adp_put(struct rc_req *q, const struct nicref_adp_qp *a)
{
	memcpy(q->adp, a, RC_ADP_BYTES);
}

void rc_req_init(struct rc_req *q, const struct rc_req_attr *a, const struct nicref_adp_mode *mode,
		 const struct nicref_adp_qp_attr *adp_attr, uint64_t now_ns, uint64_t random)
{
	memset(q, 0, sizeof *q);
	struct nicref_adp_qp e;
	nicref_adp_qp_init(&e, mode, adp_attr, now_ns, random);
	q->mode = mode;
	adp_put(q, &e);
	q->npsn = q->hpsn = q->una_psn = q->una_wqe_psn = a->sq_psn & RC_PSN_MASK;
	q->pmtu = a->pmtu ? a->pmtu : 256;
	q->rnr_retry = a->rnr_retry & 7u;
	q->rnr_left = q->rnr_retry;
	q->limit = a->limit;
	q->una = q->next = q->pi = a->sq_head;
	q->state = RC_REQ_RUN;
}

unsigned rc_req_outstanding(const struct rc_req *q)
{
	return q->nout;
}

static uint16_t bbs_of(const struct rc_wqe *w)
{
	return w->bbs ? w->bbs : 1u;
}

/* WQE una completed: the next one is the oldest. */
static void retire(struct rc_req *q, const struct rc_req_ops *ops, void *ctx, const struct rc_wqe *w,
		   uint32_t next_first_psn)
{
	ops->done(ctx, q->una, w);
	q->una = (uint16_t)(q->una + bbs_of(w));
	q->una_wqe_psn = next_first_psn;
	if (q->nout)
		q->nout--;
}

uint64_t rc_req_deadline(const struct rc_req *q)
{
	return q->state == RC_REQ_RUN || q->state == RC_REQ_RNR ? q->deadline_ns : 0;
}

/* The ACK timer: the value of the ADP engine or the classic IB local ACK timeout (IBTA Vol. 1
 * §9.7.6.1.3: 4.096 us x 2^timeout, 0 = none; seeds 000/001 under ROCE_ACCL). */
static void arm(struct rc_req *q, uint64_t now_ns)
{
	struct nicref_adp_qp e;
	rc_req_adp(q, &e);
	uint64_t v = nicref_adp_armed_ns(&e);
	q->deadline_ns = v == 0 ? 0 : (v > UINT64_MAX - now_ns ? UINT64_MAX : now_ns + v);
}

static void req_fail(struct rc_req *q, const struct rc_req_ops *ops, void *ctx, uint16_t idx,
		     uint8_t syn)
{
	q->state = RC_REQ_ERR;
	q->deadline_ns = 0;
	ops->fail(ctx, idx, syn);
}

/* The sending position moves to the oldest unacknowledged PSN: the WQE una, from its first
 * unacknowledged packet. What was sent stays sent (hpsn, the messages outstanding): a
 * response to it is still one the requester waits for (D-ROCE-RC-21). */
static void rewind_to_una(struct rc_req *q)
{
	q->next = q->una;
	q->next_pkt = (q->una_psn - q->una_wqe_psn) & RC_PSN_MASK;
	q->npsn = q->una_psn;
}

/* Go back N to the oldest unacknowledged PSN (IBTA §9.7.4.1: retried packets are the
 * originals: same PSN, same opcode; a MIDDLE or LAST packet stays one, without RETH: the
 * responder kept the message's RETH, D-ROCE-RC-5). */
static void go_back(struct rc_req *q, const struct rc_req_ops *ops, void *ctx,
		    enum rc_retx_reason why)
{
	rewind_to_una(q);
	q->deadline_ns = 0;
	ops->retx(ctx, q->una_psn, why);
}

void rc_req_run(struct rc_req *q, const struct rc_req_ops *ops, void *ctx, uint64_t now_ns)
{
	while (q->state == RC_REQ_RUN && (q->next != q->pi || q->next_pkt != 0)) {
		/* [S004] L126-133, L108: a new message starts only while fewer than the window's
		 * messages are outstanding (D-ROCE-RC-4: outstanding counts messages). A packet
		 * before hpsn is sent again: its message is outstanding already (D-ROCE-RC-21). */
		bool fresh = q->npsn == q->hpsn;
		if (q->next_pkt == 0 && fresh && q->limit != 0 && rc_req_outstanding(q) >= q->limit)
			return;
		struct rc_wqe w;
		int e = ops->wqe(ctx, q->next, &w);
		if (e != 0) {
			/* [S004] L68: a WQE the engine cannot run faults only this QP. */
			req_fail(q, ops, ctx, q->next, (uint8_t)e);
			return;
		}
		uint32_t n = rc_npkts(w.len, q->pmtu);
		uint32_t k = q->next_pkt;
		uint32_t span = w.msg == RC_MSG_READ ? n - k : 1u;
		/* IBTA §9.7.1: fewer than 2^23 PSNs outstanding, so every PSN compares right. */
		if (((q->npsn - q->una_psn) & RC_PSN_MASK) + span >= RC_PSN_HALF)
			return;
		struct rc_tx t;
		memset(&t, 0, sizeof t);
		t.wqe = q->next;
		t.psn = q->npsn;
		if (w.msg == RC_MSG_READ) {
			/* IBTA §9.7.4.1.4 (retried READ): the request of the responses still
			 * missing: PSN of the first, VA and length advanced by the responses
			 * received. */
			uint64_t done = (uint64_t)k * q->pmtu;
			t.opcode = RC_BTH_READ_REQUEST;
			t.reth = true;
			t.va = w.va + done;
			t.rkey = w.rkey;
			t.dma_len = done < w.len ? (uint32_t)(w.len - done) : 0;
			t.ackreq = true;
		} else {
			struct rc_seg s;
			rc_seg_of((enum rc_msg)w.msg, w.len, q->pmtu, k, &s);
			t.opcode = s.opcode;
			t.ackreq = s.ackreq;
			t.reth = s.reth;
			t.imm = s.imm;
			t.off = s.off;
			t.len = s.len;
			t.va = w.va;
			t.rkey = w.rkey;
			t.dma_len = w.len;
			t.imm_data = w.imm;
			t.se = w.se && (s.pos == RC_POS_LAST || s.pos == RC_POS_ONLY);
		}
		e = ops->emit(ctx, &t);
		if (e != 0) {
			req_fail(q, ops, ctx, q->next, (uint8_t)e);
			return;
		}
		if (rc_req_outstanding(q) == 0) {
			/* Sent from idle: the ADP total timeout counts from here (D-ADP-11). */
			struct nicref_adp_qp a;
			rc_req_adp(q, &a);
			nicref_adp_on_send_idle(&a, now_ns);
			adp_put(q, &a);
		}
		if (k == 0 && fresh)
			q->nout++;
		q->npsn = rc_psn_add(q->npsn, span);
		if (rc_psn_diff(q->npsn, q->hpsn) > 0)
			q->hpsn = q->npsn;
		q->next_pkt = k + span;
		/* IBTA §9.7.6.1.3: the timer runs while a request is unacknowledged. */
		if (q->deadline_ns == 0)
			arm(q, now_ns);
		if (q->next_pkt >= n) {
			q->next = (uint16_t)(q->next + bbs_of(&w));
			q->next_pkt = 0;
		}
	}
}

/* Completes the WQEs every PSN of which is at or before p (IBTA §9.7.4: an ACK of PSN p
 * acknowledges every request before it, coalesced ACKs included). A READ is completed only by
 * its responses: an ACK beyond a READ whose responses are missing means they were lost
 * (*gap). Moves una_psn; returns -1 when a WQE could not be read (the QP failed), else whether
 * una_psn moved (forward progress). */
static int ack_upto(struct rc_req *q, uint32_t p, const struct rc_req_ops *ops, void *ctx,
		    bool *gap)
{
	uint32_t np = rc_psn_add(p, 1);
	while (rc_req_outstanding(q) != 0) {
		struct rc_wqe w;
		int e = ops->wqe(ctx, q->una, &w);
		if (e != 0) {
			req_fail(q, ops, ctx, q->una, (uint8_t)e);
			return -1;
		}
		uint32_t last = rc_psn_add(q->una_wqe_psn, rc_npkts(w.len, q->pmtu) - 1);
		if (w.msg == RC_MSG_READ) {
			uint32_t cap = rc_psn_diff(q->una_psn, q->una_wqe_psn) > 0 ? q->una_psn
										   : q->una_wqe_psn;
			if (rc_psn_diff(np, cap) > 0) {
				*gap = true;
				np = cap;
			}
			break;
		}
		if (rc_psn_diff(p, last) < 0)
			break;
		retire(q, ops, ctx, &w, rc_psn_add(last, 1));
	}
	if (rc_psn_diff(np, q->una_psn) <= 0)
		return 0;
	q->una_psn = np;
	return 1;
}

/* After forward progress: the ADP engine learns it, the RNR budget is whole again (IBTA
 * §9.7.5.2: the RNR retry count is per request), a retry may start again (the latch,
 * D-ROCE-RC-22), and the timer restarts for what remains. A go-back not yet resent up to the
 * acknowledged PSN resumes after it (nothing acknowledged is sent again).
 *
 * An RNR wait (D-ROCE-RC-23, D-ROCE-RC-25): progress moved the oldest unacknowledged PSN past
 * the PSN the RNR NAK named, so the request it refused was executed after all (a later copy).
 * When that acknowledges everything sent, nothing is left to retry and the wait ends: the
 * requester runs again. When requests are left (sent after the refused one, which the
 * responder discarded while it waited for that one), they are retried: the wait runs to its
 * end (IBTA Vol. 1 §9.7.5.2.8: no retry before the RNR NAK's timer) and its expiry resends
 * them from the oldest unacknowledged PSN, not the ACK timer later. */
static void progressed(struct rc_req *q, uint64_t now_ns)
{
	enum nicref_adp_reason why;
	struct nicref_adp_qp e;
	rc_req_adp(q, &e);
	nicref_adp_on_progress(&e, now_ns, &why);
	adp_put(q, &e);
	q->acked_any = true;
	q->rnr_left = q->rnr_retry;
	q->retry_latch = false;
	if (rc_psn_diff(q->una_psn, q->npsn) > 0)
		rewind_to_una(q);
	if (q->state == RC_REQ_RNR) {
		if (q->una_psn != q->hpsn)
			return; /* the RNR wait's deadline stays: its expiry resends */
		q->state = RC_REQ_RUN;
	}
	q->deadline_ns = 0;
	if (rc_req_outstanding(q) != 0)
		arm(q, now_ns);
}

/* A NAK sequence error, or lost READ responses: go back N, one retry of retry_cnt (IBTA
 * §9.7.5.2.x; D-ADP-17); exhausted: error 0x15 (D-ROCE-RC-7). The retry latch is set: until
 * progress or a timeout, the same loss shown again (a copy of the NAK, the ACKs of the
 * duplicates the go-back itself causes) starts no other retry (D-ROCE-RC-22). */
static void retry_now(struct rc_req *q, const struct rc_req_ops *ops, void *ctx, uint64_t now_ns,
		      bool progress, enum rc_retx_reason why)
{
	enum nicref_adp_reason r;
	struct nicref_adp_qp e;
	rc_req_adp(q, &e);
	bool again = nicref_adp_on_nak(&e, now_ns, progress, &r);
	adp_put(q, &e);
	if (!again) {
		req_fail(q, ops, ctx, q->una, RC_SYN_RETRY_EXC);
		return;
	}
	q->retry_latch = true;
	go_back(q, ops, ctx, why);
}

static const uint8_t nak_syndrome[8] = {
	[RC_NAK_INV_REQ] = RC_SYN_REMOTE_INVAL_REQ,
	[RC_NAK_REM_ACCESS] = RC_SYN_REMOTE_ACCESS,
	[RC_NAK_REM_OP] = RC_SYN_REMOTE_OP,
	[RC_NAK_INV_RD_REQ] = RC_SYN_REMOTE_INVAL_REQ,
};

/* The WQE whose PSNs hold psn, one of the outstanding ones (a READ takes a PSN per response,
 * IBTA §9.7.2); una when none does (the NAK's PSN was checked against una_psn and hpsn). */
static uint16_t nak_wqe(const struct rc_req *q, uint32_t psn, const struct rc_req_ops *ops,
			void *ctx)
{
	uint16_t idx = q->una;
	uint32_t first = q->una_wqe_psn;
	for (unsigned i = 0; i < q->nout; i++) {
		struct rc_wqe w;
		if (ops->wqe(ctx, idx, &w) != 0)
			break;
		uint32_t next = rc_psn_add(first, rc_npkts(w.len, q->pmtu));
		if (rc_psn_diff(psn, next) < 0)
			return idx;
		idx = (uint16_t)(idx + bbs_of(&w));
		first = next;
	}
	return q->una;
}

static bool ack_rx(struct rc_req *q, const struct rc_pkt *p, const struct rc_req_ops *ops, void *ctx,
		   uint64_t now_ns)
{
	uint32_t psn = p->psn & RC_PSN_MASK;
	/* IBTA §9.7.4: a response for a PSN the requester has not sent, or older than the last
	 * acknowledged one, is a ghost: ignored (D-ROCE-RC-6). */
	if (rc_psn_diff(psn, rc_psn_add(q->una_psn, RC_PSN_MASK)) < 0 || rc_psn_diff(psn, q->hpsn) >= 0)
		return false;
	/* The PSN before the oldest unacknowledged one is the last acknowledged: a duplicate
	 * ACK, unless nothing was ever acknowledged (then no responder sent it). */
	if (!q->acked_any && rc_psn_diff(psn, q->una_psn) < 0)
		return false;
	bool gap = false;
	uint8_t syn = p->syndrome;
	enum rc_aeth_kind kind = rc_aeth_kind_of(syn);
	/* An ACK acknowledges up to its PSN; a NAK up to the PSN before it. */
	uint32_t upto = kind == RC_AETH_ACK ? psn : rc_psn_add(psn, RC_PSN_MASK);
	if (kind == RC_AETH_RESERVED || (syn & 0x80u))
		return false;
	if (kind == RC_AETH_NAK && (syn & 31u) > RC_NAK_INV_RD_REQ)
		return false; /* a reserved NAK code: not a response the requester knows */
	/* A NAK (or RNR NAK) names the request it refuses (IBTA §9.7.5.1-2): one sent and not
	 * acknowledged. One for the last acknowledged PSN refuses nothing outstanding: a
	 * duplicate or a ghost, dropped (found by roce_rx: a fatal NAK after the ACK of the only
	 * WQE failed a WQE never posted). */
	if (kind != RC_AETH_ACK && rc_psn_diff(psn, q->una_psn) < 0)
		return false;
	int prog = ack_upto(q, upto, ops, ctx, &gap);
	if (prog < 0)
		return true;
	if (prog)
		progressed(q, now_ns);
	if (kind == RC_AETH_ACK) {
		if (gap) {
			/* IBTA §9.7.4.1.4: the READ's responses were lost; asked again once
			 * (D-ROCE-RC-22: a latched gap is the same loss, not a new one). */
			if (q->retry_latch || q->state == RC_REQ_RNR)
				return prog > 0;
			retry_now(q, ops, ctx, now_ns, false, RC_RETX_READ_GAP);
		} else if (rc_req_outstanding(q) == 0 && q->state == RC_REQ_RUN) {
			q->deadline_ns = 0;
		}
		return true;
	}
	if (kind == RC_AETH_RNR) {
		/* IBTA §9.7.5.2: rnr_retry 7 retries without end; otherwise each RNR NAK uses
		 * one, and the next one beyond fails the WQE with RNR retry exceeded. */
		if (q->rnr_retry != 7) {
			if (q->rnr_left == 0) {
				req_fail(q, ops, ctx, q->una, RC_SYN_RNR_RETRY_EXC);
				return true;
			}
			q->rnr_left--;
		}
		/* The ACK timer stops while the RNR wait runs (one deadline, D-ROCE-RC-24). */
		q->state = RC_REQ_RNR;
		uint64_t w = rc_rnr_timer_ns(syn & 31u);
		q->deadline_ns = now_ns > UINT64_MAX - w ? UINT64_MAX : now_ns + w;
		if (q->deadline_ns == 0)
			q->deadline_ns = 1;
		return true;
	}
	unsigned code = syn & 31u;
	if (code == RC_NAK_PSN_SEQ) {
		/* D-ROCE-RC-22: a NAK for the PSN the requester already went back to (a copy of
		 * one it acted on), or for the PSN an RNR wait will resend from, starts no other
		 * go-back and uses no retry; it changes nothing, so it is not taken. */
		if (q->retry_latch || q->state == RC_REQ_RNR)
			return prog > 0;
		retry_now(q, ops, ctx, now_ns, prog > 0, RC_RETX_NAK_SEQ);
		return true;
	}
	/* IBTA §9.7.5.2 / §10.7.3.1 class C: a fatal NAK completes the WQE in error and the QP
	 * goes to ERR; [S004] L107: "Fatal NAK: stop the QP". The error names the WQE the NAK is
	 * for (D-ROCE-RC-27): a READ before it whose responses are missing is not it (the layer
	 * flushes it first, in order). */
	req_fail(q, ops, ctx, nak_wqe(q, psn, ops, ctx), nak_syndrome[code]);
	return true;
}

static bool read_resp_rx(struct rc_req *q, const struct rc_pkt *p, const struct rc_req_ops *ops,
			 void *ctx, uint64_t now_ns)
{
	uint32_t psn = p->psn & RC_PSN_MASK;
	if (rc_psn_diff(psn, q->una_psn) < 0 || rc_psn_diff(psn, q->hpsn) >= 0)
		return false; /* a duplicate or a ghost response (D-ROCE-RC-6) */
	/* A response acknowledges the SENDs and WRITEs before its READ (IBTA §9.7.4). */
	struct rc_wqe w;
	int prog = 0;
	for (;;) {
		if (rc_req_outstanding(q) == 0)
			return false;
		int e = ops->wqe(ctx, q->una, &w);
		if (e != 0) {
			req_fail(q, ops, ctx, q->una, (uint8_t)e);
			return true;
		}
		if (w.msg == RC_MSG_READ)
			break;
		uint32_t last = rc_psn_add(q->una_wqe_psn, rc_npkts(w.len, q->pmtu) - 1);
		if (rc_psn_diff(psn, last) <= 0)
			return false; /* a READ response inside a SEND's PSNs: nothing waits for it */
		retire(q, ops, ctx, &w, rc_psn_add(last, 1));
		q->una_psn = q->una_wqe_psn;
		prog = 1;
	}
	if (rc_psn_diff(q->una_wqe_psn, q->una_psn) > 0) {
		q->una_psn = q->una_wqe_psn;
		prog = 1;
	}
	if (psn != q->una_psn) {
		/* IBTA §9.7.4.1.4: responses missing before this one: the READ is asked again
		 * from the first missing response, once: the rest of the old request's
		 * responses, still on their way, show the same gap (D-ROCE-RC-6). */
		if (prog)
			progressed(q, now_ns);
		if (!q->retry_latch && q->state != RC_REQ_RNR) {
			retry_now(q, ops, ctx, now_ns, false, RC_RETX_READ_GAP);
			return true;
		}
		return false; /* the rest of the old request's responses */
	}
	uint32_t n = rc_npkts(w.len, q->pmtu);
	uint32_t k = (psn - q->una_wqe_psn) & RC_PSN_MASK;
	uint32_t want = k + 1 < n ? q->pmtu : w.len - k * q->pmtu;
	/* The response's place: LAST or ONLY at the last PSN of the READ, FIRST or MIDDLE
	 * before it (a retried READ's responses start again with FIRST, IBTA §9.7.4.1.4). */
	const struct rc_op_info *oi = rc_op_info(p->opcode);
	bool ends = oi->pos == RC_POS_LAST || oi->pos == RC_POS_ONLY;
	if (k >= n || ends != (k + 1 == n) || p->len != want) {
		if (prog)
			progressed(q, now_ns);
		return false; /* IBTA §9.7.4: a response out of place is dropped (D-ROCE-RC-6) */
	}
	int e = ops->scatter(ctx, q->una, k * q->pmtu, p->payload, p->len);
	if (e != 0) {
		req_fail(q, ops, ctx, q->una, (uint8_t)e);
		return true;
	}
	q->una_psn = rc_psn_add(psn, 1);
	if (k + 1 == n)
		retire(q, ops, ctx, &w, q->una_psn);
	progressed(q, now_ns);
	return true;
}

bool rc_req_rx(struct rc_req *q, const struct rc_pkt *p, const struct rc_req_ops *ops, void *ctx,
	       uint64_t now_ns)
{
	if (q->state != RC_REQ_RUN && q->state != RC_REQ_RNR)
		return false;
	const struct rc_op_info *oi = rc_op_info(p->opcode);
	if (oi == NULL || !oi->resp)
		return false;
	bool taken;
	if (p->opcode == RC_BTH_ACK)
		taken = p->has_aeth && ack_rx(q, p, ops, ctx, now_ns);
	else
		taken = read_resp_rx(q, p, ops, ctx, now_ns);
	rc_req_run(q, ops, ctx, now_ns);
	return taken;
}

/* One expiry, handled at t, the time the clock moved to (D-ROCE-RC-19). */
static void expire(struct rc_req *q, const struct rc_req_ops *ops, void *ctx, uint64_t t)
{
	if (q->state == RC_REQ_RNR) {
		/* IBTA §9.7.5.2.8: after the RNR NAK's time the requester sends again from the
		 * oldest unacknowledged PSN: the NAK's, or the first after what progress during
		 * the wait acknowledged (D-ROCE-RC-25). */
		q->deadline_ns = 0;
		q->state = RC_REQ_RUN;
		go_back(q, ops, ctx, RC_RETX_RNR);
		rc_req_run(q, ops, ctx, t);
		return;
	}
	q->deadline_ns = 0;
	if (rc_req_outstanding(q) == 0)
		return;
	/* IBTA §9.7.6.1.3: the local ACK timeout; seeds 000/001 under ADP (retries, total
	 * timeout, the next value). */
	enum nicref_adp_reason why;
	struct nicref_adp_qp e;
	rc_req_adp(q, &e);
	bool again = nicref_adp_on_timeout(&e, t, &why);
	adp_put(q, &e);
	ops->timeout(ctx, &e, again);
	if (!again) {
		req_fail(q, ops, ctx, q->una, RC_SYN_RETRY_EXC);
		return;
	}
	q->retry_latch = false; /* a timeout is a new loss (D-ROCE-RC-22) */
	go_back(q, ops, ctx, RC_RETX_TIMEOUT);
	rc_req_run(q, ops, ctx, t);
}

void rc_req_tick(struct rc_req *q, const struct rc_req_ops *ops, void *ctx, uint64_t now_ns)
{
	/* D-ROCE-RC-19: the requester acts when the clock moves, at the time it moved to: one
	 * expiry per move, its packets sent and its next timer armed from now, never a second
	 * expiry before the packets of the first could be answered. */
	uint64_t d = rc_req_deadline(q);
	if (d != 0 && d <= now_ns)
		expire(q, ops, ctx, now_ns);
}
