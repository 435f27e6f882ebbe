/* Shared by the RC transport's unit tests (rc_*_test.c): a model requester and responder wired
 * through the callbacks of roce/rc.h to an SQ of rc_wqe, an RQ, a flat "remote memory" and a log
 * of everything the engines did, and a wire between them that can lose packets by number.
 * Expected outcomes in the tests come from IBTA Vol. 1 ch. 9, seed 004 and docs/roce.md's
 * D-ROCE-RC-* decisions, worked out by hand. */
#ifndef NICREF_TESTS_RC_UTIL_H
#define NICREF_TESTS_RC_UTIL_H

#include <criterion/criterion.h>
#include <stdint.h>
#include <string.h>

#include "roce/rc.h"

#define RU_SQ 64
#define RU_LOG 512
#define RU_MEM 65536

/* One packet the requester or the responder sent. */
struct ru_pkt {
	struct rc_pkt p; /* as the other side reads it */
	uint16_t wqe;
	uint32_t off;
	uint8_t data[4096];
};

struct ru {
	/* requester side */
	struct rc_req q;
	struct nicref_adp_mode mode; /* the ADP mode q points to */
	struct rc_wqe sq[RU_SQ];
	uint8_t src[RU_MEM];   /* the requester's local data: WQE i's payload at i * 4096 */
	uint8_t rdst[RU_MEM];  /* the requester's READ destination: WQE i at i * 4096 */
	int done[RU_SQ];       /* completions per WQE */
	int ndone;
	uint16_t done_order[RU_LOG];
	int fail_idx, fail_syn, nfail;
	int retx[4];           /* go-back-N by reason */
	uint32_t retx_psn[RU_LOG];
	int nretx;
	int timeouts, timeout_fail;
	uint8_t bbs;            /* WQEBBs of the WQEs ru_post makes (0: 1) */
	int gather_fail_wqe;    /* WQE index + 1 whose gather fails (0: none) */
	struct ru_pkt *req_out; /* packets the requester sent, in order */
	int nreq;
	/* responder side */
	struct rc_resp r;
	struct rc_resp_env env;
	int rq_posted, rq_taken, rq_used; /* receive WQEs posted, taken and completed */
	uint32_t rmp_base;      /* non-zero: WQEs come from an SRQ/RMP, index rmp_base + k */
	bool rq_done_rmp[8];    /* rq_done saw the WQE as the RMP's */
	bool rq_se[8];          /* rq_done's se (the last packet's BTH SE) */
	uint8_t rq_syn[8];
	uint32_t rq_size;       /* bytes of each receive WQE */
	uint8_t rq_buf[8][RU_MEM / 8];
	uint32_t rq_len[8], rq_imm[8];
	bool rq_has_imm[8];
	uint8_t rq_msg[8];
	uint8_t mem[RU_MEM];    /* the responder's memory region: va 0x10000.., rkey 0x1234 */
	int puts_per_byte[RU_MEM]; /* placement count per byte (never twice) */
	bool cq_full;
	int fatal;
	enum rc_verdict fatal_v;
	struct ru_pkt *resp_out; /* ACKs/NAKs/READ responses, in order */
	int nresp;
};

#define RU_VA 0x10000u
#define RU_RKEY 0x1234u

static inline struct ru *ru_new(void)
{
	struct ru *u = calloc(1, sizeof *u);
	cr_assert_not_null(u);
	u->req_out = calloc(RU_LOG, sizeof *u->req_out);
	u->resp_out = calloc(RU_LOG, sizeof *u->resp_out);
	cr_assert(u->req_out && u->resp_out);
	for (size_t i = 0; i < sizeof u->src; i++)
		u->src[i] = (uint8_t)(i * 7 + 3);
	u->fail_idx = -1;
	u->rq_size = RU_MEM / 8;
	return u;
}

static inline void ru_free(struct ru *u)
{
	free(u->req_out);
	free(u->resp_out);
	free(u);
}

/* ---- requester callbacks ---- */
static inline int ru_wqe(void *ctx, uint16_t idx, struct rc_wqe *w)
{
	struct ru *u = ctx;
	*w = u->sq[idx % RU_SQ];
	return w->msg == RC_MSG_NONE ? RC_SYN_LOCAL_QP_OP : 0;
}
static inline int ru_emit(void *ctx, const struct rc_tx *t)
{
	struct ru *u = ctx;
	if (u->gather_fail_wqe == (int)t->wqe + 1)
		return RC_SYN_LOCAL_PROT;
	/* a ring: the log keeps the last RU_LOG packets (tests index the first ones) */
	struct ru_pkt *o = &u->req_out[u->nreq++ % RU_LOG];
	memset(&o->p, 0, sizeof o->p);
	o->p.opcode = t->opcode;
	o->p.psn = t->psn;
	o->p.ackreq = t->ackreq;
	o->p.se = t->se;
	o->p.pkey = 0xFFFF;
	o->p.has_reth = t->reth;
	o->p.va = t->va;
	o->p.rkey = t->rkey;
	o->p.dma_len = t->dma_len;
	o->p.has_imm = t->imm;
	o->p.imm = t->imm_data;
	o->p.len = t->len;
	o->wqe = t->wqe;
	o->off = t->off;
	cr_assert_leq(t->len, sizeof o->data);
	memcpy(o->data, &u->src[(t->wqe % RU_SQ) * 4096u % RU_MEM + t->off], t->len);
	o->p.payload = o->data;
	return 0;
}
static inline int ru_scatter(void *ctx, uint16_t idx, uint32_t off, const uint8_t *d, uint32_t len)
{
	struct ru *u = ctx;
	memcpy(&u->rdst[(idx % RU_SQ) * 4096u % RU_MEM + off], d, len);
	return 0;
}
static inline void ru_done(void *ctx, uint16_t idx, const struct rc_wqe *w)
{
	struct ru *u = ctx;
	(void)w;
	u->done[idx % RU_SQ]++;
	u->done_order[u->ndone++ % RU_LOG] = idx;
}
static inline void ru_fail(void *ctx, uint16_t idx, uint8_t syn)
{
	struct ru *u = ctx;
	u->fail_idx = idx;
	u->fail_syn = syn;
	u->nfail++;
}
static inline void ru_retx(void *ctx, uint32_t psn, enum rc_retx_reason why)
{
	struct ru *u = ctx;
	u->retx[why]++;
	u->retx_psn[u->nretx++ % RU_LOG] = psn;
}
static inline void ru_timeout(void *ctx, const struct nicref_adp_qp *a, bool again)
{
	struct ru *u = ctx;
	(void)a;
	u->timeouts++;
	if (!again)
		u->timeout_fail++;
}
static const struct rc_req_ops ru_req_ops = { ru_wqe, ru_emit, ru_scatter, ru_done, ru_fail, ru_retx, ru_timeout };

/* ---- responder callbacks ---- */
static inline bool ru_rq_avail(void *ctx)
{
	struct ru *u = ctx;
	return u->rq_taken < u->rq_posted;
}
static inline int ru_rq_take(void *ctx, struct rc_rwqe_ref *ref)
{
	struct ru *u = ctx;
	if (u->rq_taken >= u->rq_posted)
		return -1;
	ref->index = u->rmp_base + (uint32_t)u->rq_taken++;
	ref->room = u->rq_size;
	ref->rmp = u->rmp_base != 0;
	return 0;
}
static inline int ru_rq_place(void *ctx, const struct rc_rwqe_ref *ref, uint32_t off, const uint8_t *d,
			      uint32_t len)
{
	struct ru *u = ctx;
	cr_assert_lt(ref->index - u->rmp_base, (uint32_t)u->rq_taken);
	memcpy(&u->rq_buf[ref->index % 8][off], d, len);
	return 0;
}
static inline int ru_rq_done(void *ctx, const struct rc_rwqe_ref *ref, enum rc_msg m, uint32_t n,
			     bool has_imm, uint32_t imm, uint8_t syn, bool se)
{
	struct ru *u = ctx;
	int i = (int)(ref->index % 8);
	u->rq_se[i] = se;
	u->rq_len[i] = n;
	u->rq_imm[i] = imm;
	u->rq_has_imm[i] = has_imm;
	u->rq_msg[i] = (uint8_t)m;
	u->rq_syn[i] = syn;
	u->rq_done_rmp[i] = ref->rmp;
	u->rq_used++;
	return 0;
}
static inline int ru_rkey(void *ctx, uint32_t rkey, uint64_t va, uint32_t len, bool write)
{
	(void)ctx;
	(void)write;
	if (rkey != RU_RKEY || va < RU_VA || va + len > RU_VA + RU_MEM)
		return -1;
	return 0;
}
static inline int ru_mem_put(void *ctx, uint32_t rkey, uint64_t va, const uint8_t *d, uint32_t len)
{
	struct ru *u = ctx;
	(void)rkey;
	cr_assert(va >= RU_VA && va + len <= RU_VA + RU_MEM);
	memcpy(&u->mem[va - RU_VA], d, len);
	for (uint32_t i = 0; i < len; i++)
		u->puts_per_byte[va - RU_VA + i]++;
	return 0;
}
static inline bool ru_cq_ok(void *ctx)
{
	return !((struct ru *)ctx)->cq_full;
}
static inline void ru_ack(void *ctx, uint32_t psn, uint8_t syn, uint32_t msn)
{
	struct ru *u = ctx;
	struct ru_pkt *o = &u->resp_out[u->nresp++ % RU_LOG];
	memset(&o->p, 0, sizeof o->p);
	o->p.opcode = RC_BTH_ACK;
	o->p.psn = psn;
	o->p.has_aeth = true;
	o->p.syndrome = syn;
	o->p.msn = msn;
}
static inline int ru_read_resp(void *ctx, uint8_t op, uint32_t psn, uint32_t rkey, uint64_t va,
			       uint32_t len, uint8_t syn, uint32_t msn)
{
	struct ru *u = ctx;
	(void)rkey;
	if (va < RU_VA || va + len > RU_VA + RU_MEM)
		return -1;
	struct ru_pkt *o = &u->resp_out[u->nresp++ % RU_LOG];
	memset(&o->p, 0, sizeof o->p);
	o->p.opcode = op;
	o->p.psn = psn;
	o->p.has_aeth = op != RC_BTH_READ_RESP_MIDDLE;
	o->p.syndrome = syn;
	o->p.msn = msn;
	o->p.len = len;
	memcpy(o->data, &u->mem[va - RU_VA], len);
	o->p.payload = o->data;
	return 0;
}
static inline void ru_fatal(void *ctx, enum rc_verdict v)
{
	struct ru *u = ctx;
	u->fatal++;
	u->fatal_v = v;
}
static const struct rc_resp_ops ru_resp_ops = { ru_rq_avail, ru_rq_take, ru_rq_place, ru_rq_done, ru_rkey,
						ru_mem_put, ru_cq_ok, ru_ack, ru_read_resp, ru_fatal };

/* A connected pair: requester PSN psn, MTU 256, classic timer (timeout 14: 67.1 ms), retry_cnt
 * 7, rnr_retry rnr; the responder expects psn. */
static inline void ru_connect(struct ru *u, uint32_t psn, uint8_t retry_cnt, uint8_t rnr, uint8_t limit)
{
	memset(&u->mode, 0, sizeof u->mode); /* the classic timer; the requester points to it */
	struct nicref_adp_qp_attr aa = { 14, retry_cnt };
	struct rc_req_attr a = { psn, 256, rnr, limit, 0 };
	rc_req_init(&u->q, &a, &u->mode, &aa, 0, 0);
	rc_resp_init(&u->r, psn);
	u->env.pmtu = 256;
	u->env.pkey = 0xFFFF;
	u->env.receives = true;
	u->env.rwe = u->env.rre = true;
	u->env.min_rnr = 1;
}

static inline uint16_t ru_post(struct ru *u, enum rc_msg m, uint32_t len, uint64_t va)
{
	uint16_t i = u->q.pi;
	struct rc_wqe w = { (uint8_t)m, true, false, len, va, RU_RKEY, 0xC0DE0000u + i, u->bbs };
	u->sq[i % RU_SQ] = w;
	u->q.pi = (uint16_t)(u->q.pi + (u->bbs ? u->bbs : 1));
	return i;
}

/* A new pair connected at PSN 0 with no message limit (ru_connect's retry_cnt and rnr), nsend
 * SENDs of 100 bytes posted and the requester run at time 0. */
static inline struct ru *ru_sending(uint8_t retry_cnt, uint8_t rnr, int nsend)
{
	struct ru *u = ru_new();
	ru_connect(u, 0, retry_cnt, rnr, 0);
	for (int i = 0; i < nsend; i++)
		ru_post(u, RC_MSG_SEND, 100, 0);
	rc_req_run(&u->q, &ru_req_ops, u, 0);
	return u;
}

/* Moves every packet not yet delivered across: request i is lost when bit i of req_loss is
 * set, response j when bit j of resp_loss is set (numbered over the whole run). */
struct ru_wire {
	int req_seen, resp_seen;
	uint64_t req_loss, resp_loss;
};
static inline void ru_pump(struct ru *u, struct ru_wire *w, uint64_t now)
{
	for (int guard = 0; guard < 10000; guard++) {
		if (w->req_seen < u->nreq) {
			int i = w->req_seen++;
			if (i < 64 && (w->req_loss >> i & 1u))
				continue;
			cr_assert_lt(u->nreq - i, RU_LOG, "the wire fell behind its log");
			rc_resp_rx(&u->r, &u->env, &u->req_out[i % RU_LOG].p, &ru_resp_ops, u);
			continue;
		}
		if (w->resp_seen < u->nresp) {
			int j = w->resp_seen++;
			if (j < 64 && (w->resp_loss >> j & 1u))
				continue;
			cr_assert_lt(u->nresp - j, RU_LOG, "the wire fell behind its log");
			rc_req_rx(&u->q, &u->resp_out[j % RU_LOG].p, &ru_req_ops, u, now);
			continue;
		}
		return;
	}
	cr_assert_fail("the wire does not settle");
}

#endif
