/* The RC transport on two devices joined by nicref_link (roce/rc_dev*.c over the RoCE layer,
 * harness/driver_qp.h for the connected pair): an RDMA WRITE, a SEND and an RDMA READ go through
 * with the right completions on both sides and the bytes where they belong; a lost request
 * packet is sent again from its PSN (roce_retx reason 1, NAK sequence error); an RNR NAK is
 * retried after the RNR timer (IBTA Vol. 1 Table 45) and the SEND lands once a receive WQE is
 * posted; a link that loses everything ends in the error CQE 0x15 and the QP in ERR. Expected
 * values from IBTA Vol. 1 §9.7, the mlx5 CQE opcodes/syndromes and docs/roce.md D-ROCE-RC-*. */
#include <stdlib.h>
#include <string.h>

#include "driver_qp.h"
#include "nicref/layout.h"
#include "nicref/link.h"
#include "roce/roce.h"
#include "testlib.h"

struct side {
	struct nicref_dev *dev;
	struct nicref_link **l;
};

static void wtx(void *ctx, unsigned port, const uint8_t *f, size_t len)
{
	struct side *s = ctx;
	if (*s->l)
		nicref_link_tx(*s->l, s->dev, port, f, len);
}

struct fab {
	struct nicref_link *l;
	struct side sa, sb;
	struct tl_dev *a, *b;
	struct refdrv_qp_stack qa, qb;
	uint32_t rmpn;              /* b's SRQ, when fab_up made one (b_on_srq) */
	struct refdrv_rq_ring srq;
};

static uint8_t roce_profile; /* the profile setting of the next fab_up's devices */
static unsigned a_log_cq_size; /* non-zero: a's CQs of the next fab_up hold 2^n CQEs */
static bool b_on_srq; /* b's QP of the next fab_up takes its receive WQEs from an SRQ */

static struct tl_dev *wired(struct side *s)
{
	struct tl_dev *t = calloc(1, sizeof *t);
	cr_assert_not_null(t);
	struct nicref_config cfg;
	nicref_config_default(&cfg);
	memset(&t->tr, 0, sizeof t->tr);
	cfg.trace = tl_trace_event;
	cfg.trace_ctx = &t->tr;
	cfg.ops.wire_tx = wtx;
	cfg.ops.ctx = s;
	cfg.profile.roce_profile = roce_profile;
	t->dev = nicref_dev_create(&cfg);
	cr_assert_not_null(t->dev);
	s->dev = t->dev;
	struct refdrv_ops ops = refdrv_ops_model(t->dev);
	cr_assert_eq(refdrv_init(&t->d, &ops), 0);
	cr_assert_eq(refdrv_bring_up(&t->d, REFDRV_INITIALIZED), 0, "%s", t->d.error);
	t->next_mem = TL_MEM;
	tl_mark(&t->tr);
	return t;
}

/* ROCE_ACCL (seed 000) on t: roce_adp_retrans_en and profile 1 = the example profile E of
 * docs/adp.md (time_base 4 us, 3 ranges, initial exponents 2..3, retx_total_timeout 12). */
static void adp_on(struct tl_dev *t)
{
	static const uint32_t e[6] = { 0x30400004, 0x0C000202, 0x04020103, 0x00010502, 0x18010802, 0 };
	struct tl_reg c = tl_reg_cmd(TL_REG_WRITE, 0x4050u, 0x40);
	tl_reg_set(&c, 0x00, 31, 0, 0x10000001u); /* profile select, en select */
	tl_reg_set(&c, 0x04, 31, 0, 1u << 28 | 1u); /* profile id 1, en */
	for (unsigned i = 0; i < 6; i++)
		tl_reg_set(&c, 0x10 + 4 * i, 31, 0, e[i]);
	uint8_t out[0x50];
	cr_assert_eq(refdrv_cmd(&t->d, c.in, 0x50, out, sizeof out), 0, "ROCE_ACCL: %s", t->d.error);
}

/* b's SRQ: a linked-list RMP (wq_type 0; T42: a WQE starts with its next segment) of 16 WQEs
 * of 64 bytes under a PD of its own, made before b's QP, which names it (qpc rq_type 1). */
static void srq_make(struct fab *f, struct refdrv_qp_attr *ab)
{
	struct tl_dev *t = f->b;
	uint64_t buf = tl_hostmem(t, 4096), dbr = tl_hostmem(t, 64);
	struct refdrv_rmp_attr ra = { .wq = { .buf = buf, .dbr = dbr, .wq_type = 0, .log_wq_sz = 4,
					      .log_wq_stride = 6, .pd = tl_alloc_pd(t) } };
	cr_assert_eq(refdrv_create_rmp(&t->d, &ra, &f->rmpn), 0, "%s", t->d.error);
	f->srq = (struct refdrv_rq_ring){ .buf = buf, .dbr = dbr, .log_wq_sz = 4, .log_wq_stride = 6,
					  .shared = true, .linked = true, .qn = f->rmpn };
	ab->on_rmp = true;
	ab->rmpn = f->rmpn;
}

/* A connected RC pair (QP a0 <-> b0), MTU 1024 (mtu 3), A's sq_psn 0xFFFFFE (it wraps); adp:
 * A's ROCE_ACCL selects the ADP engine before its QP reaches RTS. */
static struct fab *fab_up_adp(unsigned retry_count, unsigned rnr_retry, bool adp)
{
	struct fab *f = calloc(1, sizeof *f);
	cr_assert_not_null(f);
	f->sa.l = f->sb.l = &f->l;
	f->a = wired(&f->sa);
	f->b = wired(&f->sb);
	if (adp)
		adp_on(f->a);
	struct refdrv_qp_attr aa, ab;
	refdrv_qp_defaults(&aa);
	aa.local.mac = 0x024E4943520Aull;
	aa.retry_count = retry_count;
	aa.rnr_retry = rnr_retry;
	if (roce_profile == 1)
		aa.rre = 0; /* seed004 refuses remote READ (D-QP-14) */
	ab = aa;
	if (a_log_cq_size)
		aa.log_cq_size = a_log_cq_size;
	refdrv_qp_addr_ip(&ab.local, "192.0.2.2");
	ab.local.mac = 0x024E4943520Bull;
	aa.sq_psn = 0xFFFFFE;
	ab.rq_psn = 0xFFFFFE;
	if (b_on_srq)
		srq_make(f, &ab);
	int which = 0;
	int st = refdrv_qp_pair(&f->a->d, &aa, &f->qa, &f->b->d, &ab, &f->qb, &which);
	cr_assert_eq(st, 0, "device %c: %s", which ? 'b' : 'a', which ? f->b->d.error : f->a->d.error);
	f->l = nicref_link_create(f->a->dev, 1, f->b->dev, 1, 1024, 9000);
	cr_assert_not_null(f->l);
	nicref_link_set_tick(f->l, 1000);
	tl_mark(&f->a->tr);
	tl_mark(&f->b->tr);
	return f;
}

static struct fab *fab_up(unsigned retry_count, unsigned rnr_retry)
{
	return fab_up_adp(retry_count, rnr_retry, false);
}

/* DESTROY_QP as a driver does before it goes: the transport state goes with the QP. */
static void qp_destroy(struct tl_dev *t, uint32_t qpn)
{
	uint8_t in[0x10] = { 0 }, out[0x10] = { 0 };
	refdrv_field_set(in, sizeof in, "destroy_qp_in", "opcode",
			 (uint64_t)nicref_opcode_find("DESTROY_QP"));
	refdrv_field_set(in, sizeof in, "destroy_qp_in", "qpn", qpn);
	cr_expect_eq(refdrv_cmd(&t->d, in, sizeof in, out, sizeof out), 0, "%s", t->d.error);
}

static void fab_down(struct fab *f)
{
	qp_destroy(f->a, f->qa.qp[0].qpn);
	qp_destroy(f->b, f->qb.qp[0].qpn);
	nicref_link_destroy(f->l);
	f->l = NULL;
	tl_down(f->a);
	tl_down(f->b);
	free(f);
}

/* A send WQE on QP 0 of a: opcode, local bytes [laddr, laddr + len) under the stack's key,
 * remote address raddr for RDMA, the ctrl's CE and SE (T26). */
static void post_ctrl(struct fab *f, unsigned op, uint64_t laddr, uint32_t len, uint64_t raddr,
		      uint32_t rkey, struct refdrv_wqe_ctrl c)
{
	struct refdrv_qp *q = &f->qa.qp[0];
	struct refdrv_wqe w;
	cr_assert_geq(refdrv_wqe_begin(&w, op, q->sq.pc, q->qpn), 0, "%s", w.error);
	if (op == REFDRV_QP_OP_RDMA_WRITE || op == REFDRV_QP_OP_RDMA_READ ||
	    op == REFDRV_QP_OP_RDMA_WRITE_IMM)
		cr_assert_geq(refdrv_wqe_raddr(&w, raddr, rkey), 0, "%s", w.error);
	if (len)
		cr_assert_geq(refdrv_wqe_ptr(&w, f->qa.key, laddr, len), 0, "%s", w.error);
	cr_assert_eq(refdrv_wqe_finish(&w, &c, false), 0, "%s", w.error);
	cr_assert_eq(refdrv_sq_post(&f->a->d, &q->sq, &w, REFDRV_RING_DB), 0, "%s", f->a->d.error);
}

/* post_ctrl with CE 10b (a CQE on success). */
static void post_rkey(struct fab *f, unsigned op, uint64_t laddr, uint32_t len, uint64_t raddr,
		      uint32_t rkey)
{
	post_ctrl(f, op, laddr, len, raddr, rkey, (struct refdrv_wqe_ctrl){ .ce = 2 });
}

/* post() under b's stack key. */
static void post(struct fab *f, unsigned op, uint64_t laddr, uint32_t len, uint64_t raddr)
{
	post_rkey(f, op, laddr, len, raddr, f->qb.key);
}

static void recv_post(struct fab *f, uint64_t addr, uint32_t len)
{
	struct refdrv_rx_sge s = { addr, f->qb.key, len, false };
	cr_assert_eq(refdrv_rq_post(&f->b->d, &f->qb.qp[0].rq, &s, 1), 0, "%s", f->b->d.error);
}

/* A receive WQE on b's SRQ (one entry under b's key: the scatter goes through the QP's PD). */
static void srq_post(struct fab *f, uint64_t addr, uint32_t len)
{
	struct refdrv_rx_sge s = { addr, f->qb.key, len, false };
	cr_assert_eq(refdrv_rq_post(&f->b->d, &f->srq, &s, 1), 0, "%s", f->b->d.error);
}

static int poll(struct tl_dev *t, struct refdrv_cq *cq, uint8_t cqe[64])
{
	return refdrv_rx_poll(&t->d, cq, cqe);
}

static void pattern(struct tl_dev *t, uint64_t addr, uint32_t len, uint8_t seed)
{
	uint8_t *b = malloc(len);
	for (uint32_t i = 0; i < len; i++)
		b[i] = (uint8_t)(i * 31 + seed);
	tl_mem_write(t, addr, b, len);
	free(b);
}

static void same(struct tl_dev *ta, uint64_t a, struct tl_dev *tb, uint64_t b, uint32_t len)
{
	uint8_t *x = malloc(len), *y = malloc(len);
	tl_mem_read(ta, a, x, len);
	tl_mem_read(tb, b, y, len);
	cr_expect_eq(memcmp(x, y, len), 0, "%u bytes at 0x%llx and 0x%llx", len,
		     (unsigned long long)a, (unsigned long long)b);
	free(x);
	free(y);
}

/* The link loses frame number `frame` (0 = the first) of direction d, and nothing else. */
static void lose_frame(struct fab *f, enum nicref_link_dir d, uint64_t frame)
{
	struct nicref_link_faults lf;
	nicref_link_faults_default(&lf);
	lf.nloss = 1;
	lf.loss[0] = frame;
	cr_assert_eq(nicref_link_set_faults(f->l, d, &lf), 0);
}

/* 2ERR_QP on b's QP 0 (the driver moves it to Error). */
static void qp_2err_b(struct fab *f)
{
	uint8_t in[0x10] = { 0 }, out[0x10] = { 0 };
	refdrv_field_set(in, sizeof in, "qp_2err_in", "opcode",
			 (uint64_t)nicref_opcode_find("2ERR_QP"));
	refdrv_field_set(in, sizeof in, "qp_2err_in", "qpn", f->qb.qp[0].qpn);
	cr_assert_eq(refdrv_cmd(&f->b->d, in, sizeof in, out, sizeof out), 0, "%s", f->b->d.error);
}

#define D 0x70000000ull

Test(rc_dev, write_send_read_complete)
{
	struct fab *f = fab_up(7, 7);
	pattern(f->a, D, 4096, 1);
	pattern(f->b, D + 0x30000, 2000, 9);
	recv_post(f, D + 0x10000, 4096);
	post(f, REFDRV_QP_OP_RDMA_WRITE, D, 3000, D + 0x20000);
	post(f, REFDRV_QP_OP_SEND, D + 100, 1000, 0);
	post(f, REFDRV_QP_OP_RDMA_READ, D + 0x40000, 2000, D + 0x30000);
	nicref_link_advance(f->l, 1000000);
	uint8_t cqe[64];
	static const unsigned ops[3] = { 0x08, 0x0A, 0x10 };
	for (int i = 0; i < 3; i++) {
		cr_assert_eq(poll(f->a, &f->qa.qp[0].scq, cqe), 1, "requester CQE %d", i);
		cr_expect_eq(refdrv_rx_cqe_field(cqe, "opcode"), 0, "MLX5_CQE_REQ");
		cr_expect_eq(refdrv_rx_cqe_field(cqe, "s_wqe_opcode"), ops[i]);
		cr_expect_eq(refdrv_rx_cqe_field(cqe, "wqe_counter"), (uint64_t)i);
	}
	cr_expect_eq(poll(f->a, &f->qa.qp[0].scq, cqe), 0);
	cr_assert_eq(poll(f->b, &f->qb.qp[0].rcq, cqe), 1, "the SEND's receive CQE");
	cr_expect_eq(refdrv_rx_cqe_field(cqe, "opcode"), 2, "MLX5_CQE_RESP_SEND");
	cr_expect_eq(refdrv_rx_cqe_field(cqe, "byte_cnt"), 1000);
	cr_expect_eq(poll(f->b, &f->qb.qp[0].rcq, cqe), 0, "a WRITE makes no responder CQE");
	same(f->a, D, f->b, D + 0x20000, 3000);
	same(f->a, D + 100, f->b, D + 0x10000, 1000);
	same(f->b, D + 0x30000, f->a, D + 0x40000, 2000);
	/* WRITE 3000 B at MTU 1024: 3 packets from PSN 0xFFFFFE (wraps), SEND 1, READ 1 */
	cr_expect_eq(tl_count(&f->a->tr, NICREF_EV_ROCE_RETX), 0);
	cr_expect_eq(tl_count(&f->a->tr, NICREF_EV_ROCE_TX), 5, "3 + 1 + 1 request packets");
	/* B: one ACK for the WRITE's last packet, one for the SEND (D-ROCE-RC-9), two READ
	 * responses (FIRST, LAST) */
	cr_expect_eq(tl_count(&f->b->tr, NICREF_EV_ROCE_TX), 4);
	const struct nicref_event *r0 = tl_nth(&f->b->tr, NICREF_EV_ROCE_TX, 2);
	cr_assert_not_null(r0);
	cr_expect_eq(r0->arg[3], 0x0D, "READ RESPONSE FIRST");
	cr_expect_eq(r0->arg[4], 2, "the READ's PSN: after 0xFFFFFE, 0xFFFFFF, 0, 1");
	const struct nicref_event *e = tl_nth(&f->a->tr, NICREF_EV_ROCE_TX, 2);
	cr_assert_not_null(e);
	cr_expect_eq(e->arg[4], 0, "the third packet's PSN wrapped to 0");
	fab_down(f);
}

/* PRM §7.4.4.1 T26 CE and SE over RC (D-ROCE-20, -21): a SEND with CE 11b and SE, a WRITE with
 * immediate with SE and CE 00b, a SEND with CE 10b and no SE. a's send CQEs: the SEND of CE
 * 11b solicited ("Generate CQE and EQE (local Solicited event)"), the WRITE none (CE 00b, no
 * error), the last SEND unsolicited. b's receive CQEs (T68 se; IBTA Vol. 1 §9.2 BTH SE,
 * §11.4.2.2): the SEND's and the WRITE's solicited, the last SEND's not; b's receive CQ armed
 * for solicited events fires. Before the fix a's CE 11b SEND had no CQE and no receive CQE
 * carried se. */
Test(rc_dev, ce_11b_and_bth_se_make_solicited_cqes)
{
	struct fab *f = fab_up(7, 7);
	pattern(f->a, D, 4096, 5);
	recv_post(f, D + 0x10000, 256);
	recv_post(f, D + 0x10100, 256);
	recv_post(f, D + 0x10200, 256);
	refdrv_cq_arm(&f->b->d, &f->qb.qp[0].rcq, true); /* solicited only */
	post_ctrl(f, REFDRV_QP_OP_SEND, D, 64, 0, 0, (struct refdrv_wqe_ctrl){ .ce = 3, .se = true });
	post_ctrl(f, REFDRV_QP_OP_RDMA_WRITE_IMM, D, 32, D + 0x20000, f->qb.key,
		  (struct refdrv_wqe_ctrl){ .ce = 0, .se = true });
	post_ctrl(f, REFDRV_QP_OP_SEND, D, 16, 0, 0, (struct refdrv_wqe_ctrl){ .ce = 2 });
	nicref_link_advance(f->l, 1000000);
	uint8_t cqe[64];
	static const struct { unsigned wqe, se; } sent[2] = { { 0, 1 }, { 2, 0 } };
	for (unsigned i = 0; i < 2; i++) {
		cr_assert_eq(poll(f->a, &f->qa.qp[0].scq, cqe), 1, "send CQE %u", i);
		cr_expect_eq(refdrv_rx_cqe_field(cqe, "opcode"), 0, "MLX5_CQE_REQ");
		cr_expect_eq(refdrv_rx_cqe_field(cqe, "wqe_counter"), sent[i].wqe);
		cr_expect_eq(refdrv_rx_cqe_field(cqe, "se"), sent[i].se, "send CQE %u: se", i);
	}
	cr_expect_eq(poll(f->a, &f->qa.qp[0].scq, cqe), 0, "CE 00b: no CQE for the WRITE");
	static const struct { unsigned opcode, se; } recv[3] = { { 2, 1 }, { 1, 1 }, { 2, 0 } };
	for (unsigned i = 0; i < 3; i++) {
		cr_assert_eq(poll(f->b, &f->qb.qp[0].rcq, cqe), 1, "receive CQE %u", i);
		cr_expect_eq(refdrv_rx_cqe_field(cqe, "opcode"), recv[i].opcode, "receive CQE %u", i);
		cr_expect_eq(refdrv_rx_cqe_field(cqe, "se"), recv[i].se, "receive CQE %u: se", i);
	}
	cr_expect_eq(tl_count(&f->b->tr, NICREF_EV_EQE), 1, "the solicited CQE fired b's CQ");
	fab_down(f);
}

/* The second packet of the WRITE (PSN 0xFFFFFF) lost: B NAKs PSN 0xFFFFFF once, A goes back to
 * it with WRITE_MIDDLE and everything completes. */
Test(rc_dev, lost_packet_resent_from_its_psn)
{
	struct fab *f = fab_up(7, 7);
	lose_frame(f, NICREF_LINK_AB, 1);
	pattern(f->a, D, 4096, 3);
	post(f, REFDRV_QP_OP_RDMA_WRITE, D, 3000, D + 0x20000);
	nicref_link_advance(f->l, 1000000);
	const struct nicref_event *r = tl_only(&f->a->tr, NICREF_EV_ROCE_RETX);
	cr_expect_eq(r->arg[1], 0xFFFFFF, "from the lost PSN");
	cr_expect_eq(r->arg[2], 1, "reason: NAK sequence error");
	const struct nicref_event *n = tl_only(&f->b->tr, NICREF_EV_ROCE_NAK);
	cr_expect_eq(n->arg[1], 0xFFFFFF);
	cr_expect_eq(n->arg[2], 0x60);
	uint8_t cqe[64];
	cr_assert_eq(poll(f->a, &f->qa.qp[0].scq, cqe), 1);
	cr_expect_eq(refdrv_rx_cqe_field(cqe, "opcode"), 0);
	same(f->a, D, f->b, D + 0x20000, 3000);
	fab_down(f);
}

/* D-ROCE-RC-19: the link ends its intervals at each device's timer (nicref_clock_next_deadline),
 * so a retransmission crosses it and is answered before the next deadline. The only SEND is
 * lost; with no tick, one link advance of 300 ms (ack_timeout 14: 67.1 ms a try): one timeout
 * retransmission, at its deadline, acknowledged; without the stop the device would have run
 * through four expiries before the link moved the first resend. */
Test(rc_dev, link_stops_at_a_timer_so_the_peer_answers_the_resend)
{
	struct fab *f = fab_up(7, 7);
	nicref_link_set_tick(f->l, 0);
	lose_frame(f, NICREF_LINK_AB, 0);
	recv_post(f, D + 0x10000, 4096);
	pattern(f->a, D, 100, 9);
	post(f, REFDRV_QP_OP_SEND, D, 100, 0);
	uint64_t t0 = nicref_clock_now(f->a->dev);
	nicref_link_advance(f->l, 300000000);
	const struct nicref_event *r = tl_only(&f->a->tr, NICREF_EV_ROCE_RETX);
	cr_expect_eq(r->time_ns, t0 + 4096ull * (1u << 14), "at the ACK timer's deadline");
	uint8_t cqe[64];
	cr_assert_eq(poll(f->a, &f->qa.qp[0].scq, cqe), 1);
	cr_expect_eq(refdrv_rx_cqe_field(cqe, "opcode"), 0, "the SEND completes");
	cr_assert_eq(poll(f->b, &f->qb.qp[0].rcq, cqe), 1);
	same(f->a, D, f->b, D + 0x10000, 100);
	fab_down(f);
}

/* D-ROCE-RC-26: a lost READ response is an implied NAK. A READ of 3000 bytes at MTU 1024 takes
 * PSNs 0xFFFFFE, 0xFFFFFF and 0; B's MIDDLE response (the second frame from B) is lost, so the
 * LAST shows the gap: A asks the READ again from PSN 0xFFFFFF and the event says why with
 * reason 3 (implied NAK, IBTA Vol. 1 §9.7.4.1.4), not 1 (B sent no NAK: roce_nak none). Before
 * D-ROCE-RC-26 the glue reported reason 1. */
Test(rc_dev, lost_read_response_is_an_implied_nak)
{
	struct fab *f = fab_up(7, 7);
	lose_frame(f, NICREF_LINK_BA, 1);
	pattern(f->b, D + 0x30000, 3000, 11);
	post(f, REFDRV_QP_OP_RDMA_READ, D + 0x40000, 3000, D + 0x30000);
	nicref_link_advance(f->l, 1000000);
	const struct nicref_event *r = tl_only(&f->a->tr, NICREF_EV_ROCE_RETX);
	cr_assert_not_null(r);
	cr_expect_eq(r->arg[1], 0xFFFFFF, "from the missing response");
	cr_expect_eq(r->arg[2], 3, "reason: implied NAK");
	cr_expect_eq(tl_count(&f->b->tr, NICREF_EV_ROCE_NAK), 0, "no NAK was sent");
	uint8_t cqe[64];
	cr_assert_eq(poll(f->a, &f->qa.qp[0].scq, cqe), 1);
	cr_expect_eq(refdrv_rx_cqe_field(cqe, "opcode"), 0);
	cr_expect_eq(refdrv_rx_cqe_field(cqe, "s_wqe_opcode"), 0x10);
	same(f->b, D + 0x30000, f->a, D + 0x40000, 3000);
	fab_down(f);
}

/* a's send CQ holds exactly two CQEs, both MLX5_CQE_REQ_ERR (13), with these syndromes, WQE
 * counters and s_wqe_opcodes in order: each WQE completes once. */
struct req_err {
	unsigned syn, wqe, op;
};
static void expect_two_req_err(struct fab *f, const struct req_err want[2])
{
	uint8_t cqe[64];
	for (unsigned i = 0; i < 2; i++) {
		cr_assert_eq(poll(f->a, &f->qa.qp[0].scq, cqe), 1, "send CQE %u", i);
		cr_expect_eq(refdrv_rx_cqe_field(cqe, "opcode"), 13, "MLX5_CQE_REQ_ERR");
		cr_expect_eq(refdrv_rx_cqe_field(cqe, "syndrome"), want[i].syn, "CQE %u syndrome", i);
		cr_expect_eq(refdrv_rx_cqe_field(cqe, "wqe_counter"), want[i].wqe, "CQE %u WQE", i);
		cr_expect_eq(refdrv_rx_cqe_field(cqe, "s_wqe_opcode"), want[i].op, "CQE %u opcode", i);
	}
	cr_expect_eq(poll(f->a, &f->qa.qp[0].scq, cqe), 0, "each WQE completes once");
}

/* D-ROCE-RC-27: a READ of 100 bytes (PSN 0xFFFFFE) whose only response is lost, then a WRITE
 * (PSN 0xFFFFFF) under an R_Key b does not know: b NAKs the WRITE with Remote Access Error and
 * its QP goes to ERR. a's error CQE names the WRITE (WQE 1, 0x13); the READ before it,
 * outstanding when the QP enters Error, completes flushed first (0x05, IBTA Vol. 1 §10.3.1).
 * Before D-ROCE-RC-27 the READ took the NAK's error (WQE 0, 0x13) and the WRITE was flushed. */
Test(rc_dev, fatal_nak_after_read_names_its_wqe)
{
	struct fab *f = fab_up(7, 7);
	lose_frame(f, NICREF_LINK_BA, 0);
	pattern(f->a, D, 256, 9);
	post(f, REFDRV_QP_OP_RDMA_READ, D + 0x40000, 100, D + 0x30000);
	post_rkey(f, REFDRV_QP_OP_RDMA_WRITE, D, 100, D + 0x20000, f->qb.key ^ 0x100u);
	nicref_link_advance(f->l, 1000000);
	const struct nicref_event *n = tl_only(&f->b->tr, NICREF_EV_ROCE_NAK);
	cr_assert_not_null(n);
	cr_expect_eq(n->arg[1], 0xFFFFFF, "b refused the WRITE");
	cr_expect_eq(n->arg[2], 0x62, "NAK Remote Access Error");
	cr_expect_eq(tl_count(&f->a->tr, NICREF_EV_ROCE_RETX), 0, "the READ is not asked again");
	expect_two_req_err(f, (const struct req_err[2]){ { 0x05, 0, 0x10 }, { 0x13, 1, 0x08 } });
	fab_down(f);
}

/* No receive WQE: RNR NAK (code 1: 10 us, min_rnr_nak 1); the receive WQE comes; the retry
 * after the RNR timer lands. */
Test(rc_dev, rnr_nak_retried)
{
	struct fab *f = fab_up(7, 3);
	pattern(f->a, D, 512, 5);
	post(f, REFDRV_QP_OP_SEND, D, 512, 0);
	nicref_link_advance(f->l, 5000);
	cr_expect_geq(tl_count(&f->b->tr, NICREF_EV_ROCE_NAK), 1);
	recv_post(f, D + 0x10000, 4096);
	nicref_link_advance(f->l, 100000);
	const struct nicref_event *r = tl_nth(&f->a->tr, NICREF_EV_ROCE_RETX, 0);
	cr_assert_not_null(r);
	cr_expect_eq(r->arg[2], 2, "reason: RNR");
	uint8_t cqe[64];
	cr_assert_eq(poll(f->b, &f->qb.qp[0].rcq, cqe), 1);
	cr_expect_eq(refdrv_rx_cqe_field(cqe, "byte_cnt"), 512);
	cr_assert_eq(poll(f->a, &f->qa.qp[0].scq, cqe), 1);
	cr_expect_eq(refdrv_rx_cqe_field(cqe, "opcode"), 0);
	same(f->a, D, f->b, D + 0x10000, 512);
	fab_down(f);
}

/* Everything A sends is lost; retry_count 2: three transmissions, then the error CQE 0x15
 * (MLX5_CQE_SYNDROME_TRANSPORT_RETRY_EXC_ERR) and the QP in ERR (qp_state to 6). */
Test(rc_dev, retry_exhaustion_error_cqe)
{
	struct fab *f = fab_up(2, 7);
	struct nicref_link_faults lf;
	nicref_link_faults_default(&lf);
	lf.loss_ppm = NICREF_LINK_PPM;
	cr_assert_eq(nicref_link_set_faults(f->l, NICREF_LINK_AB, &lf), 0);
	post(f, REFDRV_QP_OP_SEND, D, 100, 0);
	post(f, REFDRV_QP_OP_SEND, D, 100, 0);
	/* ack_timeout 14: 4.096 us x 2^14 = 67.1 ms per try */
	for (int i = 0; i < 40; i++)
		nicref_link_advance(f->l, 10000000);
	uint8_t cqe[64];
	cr_assert_eq(poll(f->a, &f->qa.qp[0].scq, cqe), 1);
	cr_expect_eq(refdrv_rx_cqe_field(cqe, "opcode"), 13, "MLX5_CQE_REQ_ERR");
	cr_expect_eq(refdrv_rx_cqe_field(cqe, "syndrome"), 0x15);
	cr_expect_eq(refdrv_rx_cqe_field(cqe, "wqe_counter"), 0);
	cr_assert_eq(poll(f->a, &f->qa.qp[0].scq, cqe), 1, "the second WQE flushed");
	cr_expect_eq(refdrv_rx_cqe_field(cqe, "syndrome"), 0x05);
	cr_expect_eq(tl_count(&f->a->tr, NICREF_EV_ROCE_RETX), 2);
	const struct nicref_event *s = tl_nth(&f->a->tr, NICREF_EV_QP_STATE, 0);
	cr_assert_not_null(s);
	cr_expect_eq(s->arg[2], 6, "QP to ERR");
	fab_down(f);
}

/* Under ADP (ROCE_ACCL, seeds 000/001) the timer's values are the engine's: the first
 * retransmission of a lost packet comes 4 us x 2^e after it, e the initial draw in 2..3 (seed
 * 001 L7: [low, low + size - 1]); every timeout retransmission counts roce_adp_retrans
 * (D-ADP-18), the failure roce_adp_retrans_to, and the WQE ends with 0x15. */
Test(rc_dev, adp_timer_drives_retransmissions)
{
	struct fab *f = fab_up_adp(7, 7, true);
	struct nicref_link_faults lf;
	nicref_link_faults_default(&lf);
	lf.loss_ppm = NICREF_LINK_PPM;
	cr_assert_eq(nicref_link_set_faults(f->l, NICREF_LINK_AB, &lf), 0);
	nicref_link_set_tick(f->l, 100);
	post(f, REFDRV_QP_OP_SEND, D, 100, 0);
	for (int i = 0; i < 200; i++)
		nicref_link_advance(f->l, 1000000);
	size_t ntx = tl_count(&f->a->tr, NICREF_EV_ROCE_TX);
	size_t nre = tl_count(&f->a->tr, NICREF_EV_ROCE_RETX);
	cr_assert_geq(ntx, 3);
	cr_expect_eq(ntx, nre + 1, "every retransmission sends the one packet again");
	const struct nicref_event *t0 = tl_nth(&f->a->tr, NICREF_EV_ROCE_TX, 0);
	const struct nicref_event *t1 = tl_nth(&f->a->tr, NICREF_EV_ROCE_TX, 1);
	uint64_t gap = t1->time_ns - t0->time_ns;
	cr_expect((gap >= 16000 && gap <= 16100) || (gap >= 32000 && gap <= 32100),
		  "first retransmission after %llu ns: 16 or 32 us (to the 100 ns tick)",
		  (unsigned long long)gap);
	struct nicref_adp_counters c;
	nicref_adp_dev_counters(f->a->dev, &c);
	cr_expect_eq(c.roce_adp_retrans, nre, "one roce_adp_retrans per timeout retransmission");
	cr_expect_eq(c.roce_adp_retrans_to, 1, "the failure");
	uint8_t cqe[64];
	cr_assert_eq(poll(f->a, &f->qa.qp[0].scq, cqe), 1);
	cr_expect_eq(refdrv_rx_cqe_field(cqe, "syndrome"), 0x15);
	fab_down(f);
}

/* seed004: 16 messages outstanding ([S004] L126-133): 20 SENDs over a link of 50 us: 16 leave
 * at once, the other 4 after the first ACK comes back; all complete. */
Test(rc_dev, seed004_window_of_sixteen)
{
	roce_profile = 1;
	struct fab *f = fab_up(7, 7);
	roce_profile = 0;
	struct nicref_link_faults lf;
	nicref_link_faults_default(&lf);
	lf.delay_ns = 50000;
	cr_assert_eq(nicref_link_set_faults(f->l, NICREF_LINK_AB, &lf), 0);
	cr_assert_eq(nicref_link_set_faults(f->l, NICREF_LINK_BA, &lf), 0);
	for (int i = 0; i < 20; i++)
		recv_post(f, D + 0x10000 + (uint64_t)i * 256, 256);
	for (int i = 0; i < 20; i++)
		post(f, REFDRV_QP_OP_SEND, D, 64, 0);
	cr_expect_eq(tl_count(&f->a->tr, NICREF_EV_ROCE_TX), 16, "the window");
	nicref_link_advance(f->l, 1000000);
	cr_expect_eq(tl_count(&f->a->tr, NICREF_EV_ROCE_TX), 20);
	uint8_t cqe[64];
	int n = 0;
	while (poll(f->a, &f->qa.qp[0].scq, cqe) == 1) {
		cr_expect_eq(refdrv_rx_cqe_field(cqe, "opcode"), 0);
		n++;
	}
	cr_expect_eq(n, 20);
	fab_down(f);
}

/* seed004 runs Send and Write only ([S004] L35, L68): an RDMA READ WQE faults the QP: error
 * CQE 0x02 (LOCAL_QP_OP_ERR), nothing sent, the QP in ERR. */
Test(rc_dev, seed004_read_wqe_faults_the_qp)
{
	roce_profile = 1;
	struct fab *f = fab_up(7, 7);
	roce_profile = 0;
	post(f, REFDRV_QP_OP_RDMA_READ, D, 64, D + 0x30000);
	nicref_link_advance(f->l, 100000);
	cr_expect_eq(tl_count(&f->a->tr, NICREF_EV_ROCE_TX), 0);
	uint8_t cqe[64];
	cr_assert_eq(poll(f->a, &f->qa.qp[0].scq, cqe), 1);
	cr_expect_eq(refdrv_rx_cqe_field(cqe, "opcode"), 13);
	cr_expect_eq(refdrv_rx_cqe_field(cqe, "syndrome"), 0x02);
	const struct nicref_event *s = tl_nth(&f->a->tr, NICREF_EV_QP_STATE, 0);
	cr_assert_not_null(s);
	cr_expect_eq(s->arg[2], 6);
	fab_down(f);
}

/* connectx: no fixed outstanding cap (docs/roce.md "Device profiles", D-ROCE-RC-4): 20 SENDs
 * over a 50 us link all leave at once. */
Test(rc_dev, connectx_no_window)
{
	struct fab *f = fab_up(7, 7);
	struct nicref_link_faults lf;
	nicref_link_faults_default(&lf);
	lf.delay_ns = 50000;
	cr_assert_eq(nicref_link_set_faults(f->l, NICREF_LINK_AB, &lf), 0);
	for (int i = 0; i < 20; i++)
		recv_post(f, D + 0x10000 + (uint64_t)i * 256, 256);
	for (int i = 0; i < 20; i++)
		post(f, REFDRV_QP_OP_SEND, D, 64, 0);
	cr_expect_eq(tl_count(&f->a->tr, NICREF_EV_ROCE_TX), 20);
	nicref_link_advance(f->l, 1000000);
	fab_down(f);
}

/* ---- F6: the receive WQE a SEND in progress holds, when the QP enters ERR -------------------- */

/* A SEND on QP 0 of b (to a), as post() does on a. */
static void post_b(struct fab *f, uint64_t laddr, uint32_t len)
{
	struct refdrv_qp *q = &f->qb.qp[0];
	struct refdrv_wqe w;
	cr_assert_geq(refdrv_wqe_begin(&w, REFDRV_QP_OP_SEND, q->sq.pc, q->qpn), 0, "%s", w.error);
	cr_assert_geq(refdrv_wqe_ptr(&w, f->qb.key, laddr, len), 0, "%s", w.error);
	struct refdrv_wqe_ctrl c = { .ce = 2 };
	cr_assert_eq(refdrv_wqe_finish(&w, &c, false), 0, "%s", w.error);
	cr_assert_eq(refdrv_sq_post(&f->b->d, &q->sq, &w, REFDRV_RING_DB), 0, "%s", f->b->d.error);
}

/* Two receive WQEs on b; a SEND of 3000 bytes from a (FIRST, MIDDLE, LAST at MTU 1024) of which
 * only the FIRST arrives: b's responder holds receive WQE 0 for the message (D-ROCE-RC-16). */
static struct fab *fab_send_first_only_on(unsigned retry_count, bool srq)
{
	b_on_srq = srq;
	struct fab *f = fab_up(retry_count, 7);
	b_on_srq = false;
	struct nicref_link_faults lf;
	nicref_link_faults_default(&lf);
	lf.nloss = 2;
	lf.loss[0] = 1;
	lf.loss[1] = 2;
	cr_assert_eq(nicref_link_set_faults(f->l, NICREF_LINK_AB, &lf), 0);
	(srq ? srq_post : recv_post)(f, D + 0x10000, 4096);
	(srq ? srq_post : recv_post)(f, D + 0x11000, 4096);
	pattern(f->a, D, 3000, 7);
	post(f, REFDRV_QP_OP_SEND, D, 3000, 0);
	nicref_link_advance(f->l, 10000);
	cr_assert_eq(tl_count(&f->b->tr, NICREF_EV_ROCE_RX), 1, "the FIRST only");
	uint8_t cqe[64];
	cr_assert_eq(poll(f->b, &f->qb.qp[0].rcq, cqe), 0, "the message is not complete");
	return f;
}

static struct fab *fab_send_first_only(unsigned retry_count)
{
	return fab_send_first_only_on(retry_count, false);
}

/* b's receive CQ after its QP entered ERR: WQE 0 (the one the SEND held) then WQE 1, both
 * flushed (MLX5_CQE_RESP_ERR, WR_FLUSH_ERR), and nothing more. */
static void expect_both_flushed_in_order(struct fab *f)
{
	uint8_t cqe[64];
	for (unsigned i = 0; i < 2; i++) {
		cr_assert_eq(poll(f->b, &f->qb.qp[0].rcq, cqe), 1, "receive CQE %u", i);
		cr_expect_eq(refdrv_rx_cqe_field(cqe, "opcode"), 14, "MLX5_CQE_RESP_ERR");
		cr_expect_eq(refdrv_rx_cqe_field(cqe, "syndrome"), 0x05, "WR_FLUSH_ERR");
		cr_expect_eq(refdrv_rx_cqe_field(cqe, "wqe_counter"), i, "receive WQE %u, in order", i);
	}
	cr_expect_eq(poll(f->b, &f->qb.qp[0].rcq, cqe), 0, "each WQE completes once");
}

/* IBTA Vol. 1 §10.3.1 (Error: every outstanding WR completes with a flush error), D-ROCE-RC-18:
 * 2ERR_QP while a SEND holds receive WQE 0 flushes WQE 0 first, then WQE 1. Before the fix the
 * flush started after the WQEs taken (WQE 1), and WQE 0 never completed (F6). */
Test(rc_dev, held_receive_wqe_flushed_first_on_2err)
{
	struct fab *f = fab_send_first_only(7);
	qp_2err_b(f);
	expect_both_flushed_in_order(f);
	fab_down(f);
}

/* D-ROCE-RC-28: a receive WQE posted to a QP already in ERR completes with a flush error
 * (IBTA Vol. 1 §10.3.1; Linux ib_drain_rq relies on it) at the device's next tick, with no
 * send doorbell. Before D-ROCE-RC-28 it completed only at a later send doorbell. */
Test(rc_dev, receive_wqe_posted_in_err_flushed_at_the_next_tick)
{
	struct fab *f = fab_up(7, 7);
	qp_2err_b(f);
	uint8_t cqe[64];
	cr_expect_eq(poll(f->b, &f->qb.qp[0].rcq, cqe), 0, "nothing was posted");
	nicref_link_advance(f->l, 10000);
	for (unsigned i = 0; i < 2; i++) {
		recv_post(f, D + 0x10000, 4096);
		nicref_link_advance(f->l, 1000);
		cr_assert_eq(poll(f->b, &f->qb.qp[0].rcq, cqe), 1, "receive WQE %u flushed", i);
		cr_expect_eq(refdrv_rx_cqe_field(cqe, "opcode"), 14, "MLX5_CQE_RESP_ERR");
		cr_expect_eq(refdrv_rx_cqe_field(cqe, "syndrome"), 0x05, "WR_FLUSH_ERR");
		cr_expect_eq(refdrv_rx_cqe_field(cqe, "wqe_counter"), i);
		cr_expect_eq(poll(f->b, &f->qb.qp[0].rcq, cqe), 0, "once");
	}
	fab_down(f);
}

/* Every packet lost both ways; b posts a SEND, which fails by its requester's retry exhaustion
 * (syndrome 0x15), so b's QP enters ERR (F6's shape). */
static void b_fails_by_retry_exhaustion(struct fab *f)
{
	struct nicref_link_faults lf;
	nicref_link_faults_default(&lf);
	lf.loss_ppm = NICREF_LINK_PPM;
	cr_assert_eq(nicref_link_set_faults(f->l, NICREF_LINK_AB, &lf), 0);
	cr_assert_eq(nicref_link_set_faults(f->l, NICREF_LINK_BA, &lf), 0);
	pattern(f->b, D + 0x20000, 64, 3);
	post_b(f, D + 0x20000, 64);
	/* ack_timeout 14: 67.1 ms per try, retry_count 2: three tries */
	for (int i = 0; i < 40; i++)
		nicref_link_advance(f->l, 10000000);
	uint8_t cqe[64];
	cr_assert_eq(poll(f->b, &f->qb.qp[0].scq, cqe), 1, "b's SEND failed");
	cr_expect_eq(refdrv_rx_cqe_field(cqe, "syndrome"), 0x15);
}

/* F6's shape (fuzzers: corpora/roce_pair/regress-f6-*): b's QP goes to ERR by its own
 * requester's retry exhaustion (0x15) while its responder holds WQE 0 for an unfinished SEND:
 * the receive WQEs are flushed from WQE 0. */
Test(rc_dev, held_receive_wqe_flushed_first_on_retry_exhaustion)
{
	struct fab *f = fab_send_first_only(2);
	b_fails_by_retry_exhaustion(f);
	expect_both_flushed_in_order(f);
	fab_down(f);
}

/* D-ROCE-RC-18 with an SRQ: b's QP takes its receive WQEs from an RMP (qpc rq_type 1); the SEND
 * FIRST takes SRQ WQE 0 (D-ROCE-RC-16) and its later packets are lost; b's QP goes to ERR
 * (`enter` below). The held WQE is outstanding (IBTA Vol. 1 §10.3.1): it completes flushed on
 * b's receive CQ (MLX5_CQE_RESP_ERR, WR_FLUSH_ERR, the SRQ's wqe_counter 0). SRQ WQE 1, which no
 * QP took, stays on the SRQ for its other QPs (a WQE of an SRQ is a QP's only once taken:
 * roce_qp.c's flush): no CQE for it, and the RMP's counters say one taken of two posted. */
static void expect_srq_held_wqe_flushed(struct fab *f)
{
	uint8_t cqe[64];
	cr_assert_eq(poll(f->b, &f->qb.qp[0].rcq, cqe), 1, "the held SRQ WQE completes");
	cr_expect_eq(refdrv_rx_cqe_field(cqe, "opcode"), 14, "MLX5_CQE_RESP_ERR");
	cr_expect_eq(refdrv_rx_cqe_field(cqe, "syndrome"), 0x05, "WR_FLUSH_ERR");
	cr_expect_eq(refdrv_rx_cqe_field(cqe, "wqe_counter"), 0, "SRQ WQE 0");
	cr_expect_eq(poll(f->b, &f->qb.qp[0].rcq, cqe), 0, "SRQ WQE 1 is not the QP's");
	struct refdrv_wq_status st;
	cr_assert_eq(refdrv_query_rmp(&f->b->d, f->rmpn, &st), 0, "%s", f->b->d.error);
	cr_expect_eq(st.hw_counter, 1, "one WQE taken from the SRQ");
	cr_expect_eq(st.sw_counter, 2, "two posted");
}

Test(rc_dev, held_srq_wqe_flushed_on_2err)
{
	struct fab *f = fab_send_first_only_on(7, true);
	qp_2err_b(f);
	expect_srq_held_wqe_flushed(f);
	fab_down(f);
}

/* The same when b's QP enters ERR by its own requester's retry exhaustion (F6's shape). */
Test(rc_dev, held_srq_wqe_flushed_on_retry_exhaustion)
{
	struct fab *f = fab_send_first_only_on(2, true);
	b_fails_by_retry_exhaustion(f);
	expect_srq_held_wqe_flushed(f);
	fab_down(f);
}

/* D-RMP-1, D-RX-16 (T43, T55): b's linked-list SRQ whose stride 0 names Next_WQE_index 0x12, at
 * or beyond its 16 strides: the device takes stride 2 (0x12 modulo the ring), names it in the
 * receive CQE's wqe_counter and reports the driver's violation on b's QP; the list goes on from
 * stride 2's own next (relinked to 1). Before, the CQE named 0x12, which the driver's
 * wqe_counter lookup (mlx5_wq_ll_get_wqe) cannot find. */
Test(rc_dev, srq_next_beyond_ring_takes_the_stride_modulo_the_ring)
{
	b_on_srq = true;
	struct fab *f = fab_up(7, 7);
	b_on_srq = false;
	for (unsigned k = 0; k < 3; k++)
		srq_post(f, D + 0x10000 + 0x1000u * k, 256);
	const uint8_t next0[4] = { 0, 0, 0, 0x12 }, next2[4] = { 0, 0, 0, 1 };
	tl_mem_write(f->b, f->srq.buf, next0, 4);
	tl_mem_write(f->b, f->srq.buf + 2 * 64, next2, 4);
	for (unsigned k = 0; k < 3; k++) {
		pattern(f->a, D + 0x100u * k, 64, (uint8_t)(11 + k));
		post(f, REFDRV_QP_OP_SEND, D + 0x100u * k, 64, 0);
	}
	nicref_link_advance(f->l, 100000);
	const uint16_t order[3] = { 0, 2, 1 };
	uint8_t cqe[64], got[64], want[64];
	for (unsigned k = 0; k < 3; k++) {
		cr_assert_eq(poll(f->b, &f->qb.qp[0].rcq, cqe), 1, "SEND %u's receive CQE", k);
		cr_expect_eq(refdrv_rx_cqe_field(cqe, "opcode"), 2, "SEND %u received", k);
		cr_expect_eq(refdrv_rx_cqe_field(cqe, "wqe_counter"), order[k], "SEND %u: the stride", k);
		tl_mem_read(f->a, D + 0x100u * k, want, sizeof want);
		tl_mem_read(f->b, D + 0x10000 + 0x1000u * order[k], got, sizeof got);
		cr_expect_arr_eq(got, want, sizeof want, "SEND %u in stride %u's buffer", k, order[k]);
	}
	tl_expect_one_violation(&f->b->tr, NICREF_VIO_RX_LL_NEXT_BEYOND_RING);
	const struct nicref_event *v = tl_nth(&f->b->tr, NICREF_EV_VIOLATION, 0);
	cr_assert(v);
	cr_expect_eq(v->arg[1], (uint64_t)f->qb.qp[0].qpn << 32 | 0x12u << 16 | 2u);
	fab_down(f);
}

/* ---- D-ROCE-RC-29: a send CQ that refuses a CQE (full without oi: PRM §7.12.1) ---------------- */

/* A pair whose a has CQs of two CQEs; two SENDs from a complete and fill a's send CQ (its
 * CQEs are not polled: update_ci stays 0). */
static struct fab *fab_send_cq_full(uint8_t profile)
{
	roce_profile = profile;
	a_log_cq_size = 1;
	struct fab *f = fab_up(7, 7);
	roce_profile = 0;
	a_log_cq_size = 0;
	recv_post(f, D + 0x10000, 256);
	recv_post(f, D + 0x10100, 256);
	post(f, REFDRV_QP_OP_SEND, D, 64, 0);
	post(f, REFDRV_QP_OP_SEND, D, 64, 0);
	nicref_link_advance(f->l, 100000);
	cr_assert_eq(tl_count(&f->a->tr, NICREF_EV_CQE), 2, "a's send CQ holds its two CQEs");
	tl_mark(&f->a->tr);
	return f;
}

/* What PRM §7.12.1 and §7.12.5 leave after an overrun on a's send CQ: one CQ_OVERRUN, the CQ
 * error event (T84/T85: EQE type 04h, syndrome 1), a's QP in ERR, no CQE written after it (the
 * CQ in error takes none), and the two CQEs from before still there to poll. The device's SQ
 * head and counter stay on WQE `head`, the oldest WQE not completed. */
static void expect_overrun_stops_at(struct fab *f, uint16_t head)
{
	tl_expect_one_violation(&f->a->tr, NICREF_VIO_CQ_OVERRUN);
	cr_expect_eq(tl_count(&f->a->tr, NICREF_EV_CQE), 0, "nothing written after the overrun");
	const struct nicref_event *s = tl_only(&f->a->tr, NICREF_EV_QP_STATE);
	cr_expect_eq(s->arg[2], 6, "a's QP to ERR");
	uint8_t cqe[64];
	for (unsigned i = 0; i < 2; i++) {
		cr_assert_eq(poll(f->a, &f->qa.qp[0].scq, cqe), 1, "SEND %u's CQE", i);
		cr_expect_eq(refdrv_rx_cqe_field(cqe, "opcode"), 0, "MLX5_CQE_REQ");
	}
	cr_expect_eq(poll(f->a, &f->qa.qp[0].scq, cqe), 0);
	struct roce_qp *qp = roce_qp_get(f->a->dev, f->qa.qp[0].qpn);
	cr_assert_not_null(qp);
	cr_expect_eq(qp->sq_head, head, "the oldest WQE not completed is WQE %u", head);
	cr_expect_eq(qp->sq.hw_counter, head, "the device's SQ counter stays there");
	cr_expect_eq(qp->req.state, RC_REQ_ERR, "the requester stopped");
	cr_expect_eq(qp->deadline_ns, 0, "no timer");
}

/* D-ROCE-RC-29: the CQ overruns on the flush CQE of a READ whose response was lost (WQE 2),
 * written because a fatal NAK refused the WRITE after it (WQE 3, D-ROCE-RC-27). Neither the READ
 * nor the WRITE completes, and the device's SQ head stays on the READ. Before D-ROCE-RC-29
 * req_fail went on after the refused flush CQE: it tried the WRITE's error CQE past the READ
 * and moved the head to WQE 4, past two WQEs that never completed. */
Test(rc_dev, cq_overrun_on_a_flush_cqe_completes_nothing_after_it)
{
	struct fab *f = fab_send_cq_full(0);
	lose_frame(f, NICREF_LINK_BA, 2); /* b's third frame: the READ's response */
	tl_mark(&f->b->tr);
	post(f, REFDRV_QP_OP_RDMA_READ, D + 0x40000, 100, D + 0x30000);
	post_rkey(f, REFDRV_QP_OP_RDMA_WRITE, D, 100, D + 0x20000, f->qb.key ^ 0x100u);
	nicref_link_advance(f->l, 1000000);
	const struct nicref_event *n = tl_only(&f->b->tr, NICREF_EV_ROCE_NAK);
	cr_expect_eq(n->arg[2], 0x62, "b refused the WRITE: NAK Remote Access Error");
	expect_overrun_stops_at(f, 2);
	fab_down(f);
}

/* D-ROCE-RC-29: the failing WQE's own error CQE overruns the CQ (seed004: a READ WQE faults the
 * QP, 0x02, [S004] L35, L68): the READ (WQE 2) does not complete and the head stays on it.
 * Before, the head moved to WQE 3 though the error CQE was never written. */
Test(rc_dev, cq_overrun_on_the_error_cqe_leaves_the_wqe_not_completed)
{
	struct fab *f = fab_send_cq_full(1);
	post(f, REFDRV_QP_OP_RDMA_READ, D, 64, D + 0x30000);
	nicref_link_advance(f->l, 100000);
	cr_expect_eq(tl_count(&f->a->tr, NICREF_EV_ROCE_TX), 0, "the READ is not sent");
	expect_overrun_stops_at(f, 2);
	fab_down(f);
}

/* D-ROCE-RC-18, D-ROCE-RC-29: a NAK PSN Sequence Error that acknowledges a SEND whose CQE
 * overruns the CQ: the QP is in ERR from that CQE on, and the go-back the NAK asks for does not
 * happen (no roce_retx, no packet). a sends a SEND (PSN 0) and a WRITE of 3000 bytes (PSNs
 * 1-3); the WRITE's FIRST and b's ACK of the SEND are lost, so b's NAK for PSN 1 is what
 * acknowledges the SEND (IBTA Vol. 1 §9.7.5.1). Before, the requester went on in the same
 * step: a roce_retx from PSN 1 and the WRITE's packets sent again by a QP in ERR. */
Test(rc_dev, cq_overrun_on_a_nak_stops_the_go_back)
{
	struct fab *f = fab_send_cq_full(0);
	struct nicref_link_faults lf;
	nicref_link_faults_default(&lf);
	lf.nloss = 1;
	lf.loss[0] = 3; /* a's fourth frame: the WRITE's FIRST */
	cr_assert_eq(nicref_link_set_faults(f->l, NICREF_LINK_AB, &lf), 0);
	lf.loss[0] = 2; /* b's third frame: the ACK of the SEND */
	cr_assert_eq(nicref_link_set_faults(f->l, NICREF_LINK_BA, &lf), 0);
	recv_post(f, D + 0x10200, 256);
	tl_mark(&f->b->tr);
	post(f, REFDRV_QP_OP_SEND, D, 64, 0);
	post(f, REFDRV_QP_OP_RDMA_WRITE, D, 3000, D + 0x20000);
	cr_expect_eq(tl_count(&f->a->tr, NICREF_EV_ROCE_TX), 4, "the SEND and the WRITE's 3");
	tl_mark(&f->a->tr);
	nicref_link_advance(f->l, 100000);
	const struct nicref_event *n = tl_only(&f->b->tr, NICREF_EV_ROCE_NAK);
	cr_expect_eq(n->arg[1], 1, "NAK for PSN 1");
	cr_expect_eq(n->arg[2], 0x60, "PSN Sequence Error");
	tl_expect_one_violation(&f->a->tr, NICREF_VIO_CQ_OVERRUN);
	cr_expect_eq(tl_count(&f->a->tr, NICREF_EV_ROCE_RETX), 0, "no go-back from a QP in ERR");
	cr_expect_eq(tl_count(&f->a->tr, NICREF_EV_ROCE_TX), 0, "nothing sent after the overrun");
	struct roce_qp *qp = roce_qp_get(f->a->dev, f->qa.qp[0].qpn);
	cr_assert_not_null(qp);
	cr_expect_eq(qp->sq_head, 2, "the SEND (WQE 2) did not complete");
	cr_expect_eq(qp->req.state, RC_REQ_ERR, "the requester stopped");
	cr_expect_eq(qp->deadline_ns, 0, "no timer");
	fab_down(f);
}

/* T76 oi ("overrun ignore"): the same READ and refused WRITE on a send CQ full but with oi set
 * (MODIFY_CQ): §7.12.1 "old CQEs may be overwritten", so nothing is refused: the READ's flush
 * CQE and the WRITE's error CQE are written in order at producer counters 2 and 3, over the
 * two SEND CQEs, and the CQ stays OK (no violation). */
Test(rc_dev, cq_with_oi_takes_the_flush_and_the_error_cqe)
{
	struct fab *f = fab_send_cq_full(0);
	struct refdrv_cq *cq = &f->qa.qp[0].scq;
	struct refdrv_cq_attr oi = cq->a;
	oi.oi = true;
	cr_assert_eq(refdrv_modify_cq(&f->a->d, cq, 1u << 2, &oi), 0, "%s", f->a->d.error);
	tl_mark(&f->a->tr);
	lose_frame(f, NICREF_LINK_BA, 2);
	post(f, REFDRV_QP_OP_RDMA_READ, D + 0x40000, 100, D + 0x30000);
	post_rkey(f, REFDRV_QP_OP_RDMA_WRITE, D, 100, D + 0x20000, f->qb.key ^ 0x100u);
	nicref_link_advance(f->l, 1000000);
	cr_expect_eq(f->a->tr.violations, 0, "no overrun with oi");
	static const struct { unsigned syn, wqe; } want[2] = { { 0x05, 2 }, { 0x13, 3 } };
	cr_assert_eq(tl_count(&f->a->tr, NICREF_EV_CQE), 2);
	for (unsigned i = 0; i < 2; i++) {
		const struct nicref_event *e = tl_nth(&f->a->tr, NICREF_EV_CQE, i);
		cr_expect_eq(e->arg[1], 2 + i, "producer counter %u", 2 + i);
		cr_expect_eq(e->arg[2], 13, "MLX5_CQE_REQ_ERR");
		cr_expect_eq(e->arg[3], want[i].syn, "CQE %u syndrome", i);
		cr_expect_eq(e->arg[4], want[i].wqe, "CQE %u WQE", i);
	}
	struct roce_qp *qp = roce_qp_get(f->a->dev, f->qa.qp[0].qpn);
	cr_assert_not_null(qp);
	cr_expect_eq(qp->sq_head, 4, "every WQE completed");
	fab_down(f);
}

/* D-ROCE-RC-29: the flush of the WQEs before a failing one reads what a flush CQE needs, the
 * ctrl's opcode and size (T26), as the flush of a QP in ERR does. A SEND (WQE 0) is sent and
 * its ACK lost; software then rewrites its ctrl (the wqe_index no longer its own) and posts a
 * NOP (WQE 1), an opcode RC does not run (0x02, the QP to ERR): the SEND, outstanding, still
 * completes flushed first (IBTA Vol. 1 §10.3.1), then the NOP with its error. Before, that
 * flush read the whole WQE with the send path's checks, gave up at the SEND, and the NOP's
 * error CQE was written with the SEND never completed. */
Test(rc_dev, flush_before_a_failing_wqe_reads_only_the_ctrl)
{
	struct fab *f = fab_up(7, 7);
	lose_frame(f, NICREF_LINK_BA, 0); /* b's ACK of the SEND */
	recv_post(f, D + 0x10000, 256);
	post(f, REFDRV_QP_OP_SEND, D, 64, 0);
	nicref_link_advance(f->l, 1000);
	uint8_t ctrl[4];
	tl_put32(ctrl, 0x7700u << 8 | REFDRV_QP_OP_SEND); /* wqe_index 0x7700, not 0 */
	tl_mem_write(f->a, f->qa.qp[0].sq.a.sq_buf, ctrl, sizeof ctrl);
	post(f, REFDRV_QP_OP_NOP, D, 0, 0);
	nicref_link_advance(f->l, 1000);
	expect_two_req_err(f, (const struct req_err[2]){ { 0x05, 0, 0x0A }, { 0x02, 1, 0x00 } });
	fab_down(f);
}
