/* The RoCE row's tick when several QPs' timers are past at one tick (docs/roce.md D-ROCE-RC-30):
 * they expire in the order of their deadlines, then of QPN, whatever order the QPs were armed in
 * (the armed list keeps the newest first). One tick sees several deadlines past when an advance
 * has used its CLOCK_STOPS_MAX (1024) stops and the clock jumps to its target (core/dev.c), and
 * when two deadlines fall on the same nanosecond. Both tests fail on the tick that walked the
 * armed list in its order (session 31). Retransmission on the ACK timer: IBTA Vol. 1
 * §9.7.6.1.3; the timeout 4.096 us * 2^ack_timeout (IBTA Vol. 1 §9.7.6.1.3, qpc
 * primary_address_path ack_timeout, PRM Rev 0.40 T96). */
#include <criterion/criterion.h>
#include <string.h>

#include "driver_qp.h"
#include "testlib.h"

/* QP 0 and QP 1 connected to each other over the device's own GID (D-ROCE-12), QP 0 SENDing to
 * QP 1, which has no receive WQE: an RNR NAK each time, retried without end every 10 us
 * (rnr_retry 7, min_rnr_nak 1: IBTA Vol. 1 §9.7.5.2.8, Table 45); clock_step_test.c's loop, here
 * to use up an advance's stops. QP 2 and QP 3 connected to a peer that never answers (their
 * frames leave by the wire, which goes nowhere), each with its own ack_timeout. */
struct tick_fab {
	struct tl_dev *t;
	struct refdrv_qp_attr a;
	struct refdrv_qp_stack st;
};

static void fab_up(struct tick_fab *f, unsigned timeout2, unsigned timeout3)
{
	f->t = tl_up(NULL);
	refdrv_qp_defaults(&f->a);
	f->a.nqp = 4;
	f->a.rnr_retry = 7;
	f->a.min_rnr_nak = 1;
	f->a.eq_buf = 0x50000000ull;
	f->a.qp_dbr = 0x50FF0000ull;
	f->a.cq_dbr = 0x50FE0000ull;
	f->a.qp_buf = 0x51000000ull;
	f->a.cq_buf = 0x52000000ull;
	f->a.data_addr = 0x58000000ull;
	struct refdrv *d = &f->t->d;
	cr_assert_eq(refdrv_qp_stack_up(d, &f->a, &f->st), 0, "%s", d->error);
	for (unsigned i = 0; i < 2; i++)
		cr_assert_eq(refdrv_qp_connect(d, &f->st, i, f->st.qp[1 - i].qpn, &f->a.local), 0,
			     "%s", d->error);
	struct refdrv_qp_addr far = { .mac = 0x02AABBCCDD01ull };
	cr_assert_eq(refdrv_qp_addr_ip(&far, "198.51.100.7"), 0);
	const unsigned timeout[2] = { timeout2, timeout3 };
	for (unsigned i = 2; i < 4; i++) {
		f->st.a.ack_timeout = timeout[i - 2]; /* read by the connect's INIT2RTR and RTR2RTS */
		cr_assert_eq(refdrv_qp_connect(d, &f->st, i, 0x000ABC, &far), 0, "%s", d->error);
	}
}

/* One SEND of 64 bytes on QP i, CE 10b; its doorbell arms the QP's ACK timer (RNR: the NAK). */
static void send_on(struct tick_fab *f, unsigned i)
{
	struct refdrv_wqe w;
	memset(&w, 0, sizeof w);
	struct refdrv_qp *q = &f->st.qp[i];
	cr_assert(refdrv_wqe_begin(&w, REFDRV_QP_OP_SEND, q->sq.pc, q->qpn) >= 0);
	cr_assert(refdrv_wqe_ptr(&w, f->st.key, f->a.data_addr + 0x1000 * i, 64) >= 0);
	struct refdrv_wqe_ctrl c = { .ce = 2 };
	cr_assert_eq(refdrv_wqe_finish(&w, &c, false), 0);
	cr_assert_eq(refdrv_sq_post(&f->t->d, &q->sq, &w, REFDRV_RING_DB), 0, "%s", f->t->d.error);
}

/* The QPNs of the retransmissions at time `at`, in trace order; how many. */
static size_t retx_at(const struct tl_trace *tr, uint64_t at, uint32_t *qpn, size_t cap)
{
	size_t n = 0;
	for (size_t i = 0; i < tr->n; i++)
		if (tr->ev[i].kind == NICREF_EV_ROCE_RETX && tr->ev[i].time_ns == at && n < cap)
			qpn[n++] = (uint32_t)tr->ev[i].arg[0];
	return n;
}

/* QP 3 (the higher QPN) is armed first with the earlier deadline (ack_timeout 12: 16.8 ms), QP 2
 * after it with the later one (13: 33.6 ms), then the RNR loop starts. One advance of 1 s: the
 * loop's 1024 RNR waits (10.24 ms) use up the advance's stops before either ACK timer, so the
 * clock jumps to 1 s and ticks once there with three timers past: the RNR wait ended last
 * (about 10.25 ms), QP 3's (16.8 ms), QP 2's (33.6 ms). Retransmitted in that order; the list
 * order (newest first: QP 0, QP 2, QP 3) and QPN order both put QP 2 before QP 3. */
Test(roce_tick, timers_past_at_one_tick_expire_in_deadline_order)
{
	struct tick_fab f;
	fab_up(&f, 13, 12);
	send_on(&f, 3);
	send_on(&f, 2);
	send_on(&f, 0);
	/* Only the retransmissions are kept: the RNR loop makes several events a stop. */
	nicref_trace_mute(f.t->dev, ~(1ull << NICREF_EV_ROCE_RETX));
	tl_mark(&f.t->tr);
	uint64_t t0 = nicref_clock_now(f.t->dev), at = t0 + 1000000000ull;
	nicref_clock_advance(f.t->dev, 1000000000ull);
	cr_assert_eq(f.t->tr.dropped, 0);
	cr_assert_eq(nicref_clock_now(f.t->dev), at);
	uint32_t q[8];
	size_t n = retx_at(&f.t->tr, at, q, 8);
	cr_assert_eq(n, 3, "three timers past at the jump's tick: %zu retransmissions there", n);
	cr_expect_eq(q[0], f.st.qp[0].qpn, "first the RNR wait (about 10.25 ms), got QP %#x", q[0]);
	cr_expect_eq(q[1], f.st.qp[3].qpn, "then QP 3's ACK timer (16.8 ms), got QP %#x", q[1]);
	cr_expect_eq(q[2], f.st.qp[2].qpn, "then QP 2's ACK timer (33.6 ms), got QP %#x", q[2]);
	nicref_trace_mute(f.t->dev, 0);
	tl_down(f.t);
}

/* The same ack_timeout (12) on QP 2 and QP 3, posted at the same time, QP 2 first: one deadline
 * for both, one stop, and the tie goes by QPN (QP 2 first; the list order put QP 3, armed last,
 * first). */
Test(roce_tick, equal_deadlines_expire_in_qpn_order)
{
	struct tick_fab f;
	fab_up(&f, 12, 12);
	send_on(&f, 2);
	send_on(&f, 3);
	tl_mark(&f.t->tr);
	uint64_t t0 = nicref_clock_now(f.t->dev);
	uint64_t d = 4096ull << 12; /* 4.096 us * 2^12 */
	nicref_clock_advance(f.t->dev, d + 1000);
	uint32_t q[8];
	size_t n = retx_at(&f.t->tr, t0 + d, q, 8);
	cr_assert_eq(n, 2, "both ACK timers at t0 + %llu ns: %zu retransmissions there",
		     (unsigned long long)d, n);
	cr_expect_eq(q[0], f.st.qp[2].qpn, "the lower QPN first, got QP %#x", q[0]);
	cr_expect_eq(q[1], f.st.qp[3].qpn, "then the higher, got QP %#x", q[1]);
	tl_down(f.t);
}
