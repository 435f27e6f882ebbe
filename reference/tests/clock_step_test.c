/* One clock advance steps through the deadlines inside it (nicref_clock_advance, core/subsys.h
 * next_deadline): what falls due inside an advance happens at its own time, in time order across
 * the subsystems, so one advance of a + b gives the same trace, event for event and time for
 * time, as an advance of a then one of b. Per ticking subsystem: the LRO timer with two periods
 * (PRM T147 lro_timer_supported_periods "fluctuate between N and 2N", T45
 * lro_timeout_period_usecs, docs/lro.md D-LRO-5: a session ends at t0 + N), the CQ moderation
 * timer against an LRO CQE of the same advance (§7.13.14, D-CQ-6), and the RC requester's ACK
 * timer (IBTA Vol. 1 §9.7.6.1.3, docs/roce.md D-ROCE-RC-19). Each fails on the clock that ticked
 * once at the advance's end (found by review revlro, finding F1). */
#include <criterion/criterion.h>
#include <stdlib.h>

#include "driver_qp.h"
#include "eth/lro.h"
#include "lro_util.h"

/* The events since the mark, copied (the fields, not the padding). */
struct run {
	size_t n;
	struct nicref_event ev[256];
};

static void keep(struct run *r)
{
	const struct tl_trace *tr = &rdev->tr;
	cr_assert_eq(tr->dropped, 0);
	cr_assert_leq(tr->n, 256);
	r->n = tr->n;
	for (size_t i = 0; i < tr->n; i++) {
		memset(&r->ev[i], 0, sizeof r->ev[i]);
		r->ev[i].seq = tr->ev[i].seq;
		r->ev[i].time_ns = tr->ev[i].time_ns;
		r->ev[i].kind = tr->ev[i].kind;
		memcpy(r->ev[i].arg, tr->ev[i].arg, sizeof r->ev[i].arg);
	}
}

static void expect_same(const struct run *a, const struct run *b, const char *what)
{
	cr_expect_eq(a->n, b->n, "%s: %zu events against %zu", what, a->n, b->n);
	for (size_t i = 0; i < a->n && i < b->n; i++)
		cr_expect(a->ev[i].kind == b->ev[i].kind && a->ev[i].time_ns == b->ev[i].time_ns &&
				  !memcmp(a->ev[i].arg, b->ev[i].arg, sizeof a->ev[i].arg),
			  "%s: event %zu is %s at %llu ns against %s at %llu ns", what, i,
			  nicref_event_name(a->ev[i].kind), (unsigned long long)a->ev[i].time_ns,
			  nicref_event_name(b->ev[i].kind), (unsigned long long)b->ev[i].time_ns);
}

static void give_on(uint32_t tirn, uint16_t sport, uint32_t seq, size_t payload)
{
	struct seg s = seg_of(seq, payload);
	s.sport = sport;
	lro_tirn = tirn;
	cr_assert_eq(seg_give(&s), RX_DELIVERED);
}

/* ---- LRO: two periods -------------------------------------------------------------------- */

/* Session A (TIR period 1024 us) opens at t0 in WQE 0, session B (TIR period 32 us) at t0 + 1 us
 * in WQE 1; then the clock moves by the steps given (their sum 3 ms). */
static uint64_t two_periods(const uint64_t *steps, unsigned n, struct run *r)
{
	lro_setup();
	struct lro_tir_opts t = lro_tir_default();
	t.timeout_usecs = 1024;
	uint32_t slow = lro_make_tir(&t), fast = lro_tirn;
	rx_post1(RX_BUF, 4096);
	rx_post1(RX_BUF + 0x1000, 4096);
	uint64_t t0 = nicref_clock_now(rdev->dev);
	tl_mark(&rdev->tr);
	give_on(slow, 1, 1, 100);
	nicref_clock_advance(rdev->dev, 1000);
	give_on(fast, 2, 1, 100);
	for (unsigned i = 0; i < n; i++)
		nicref_clock_advance(rdev->dev, steps[i]);
	keep(r);
	return t0;
}

Test(clock_step, lro_sessions_of_two_periods_end_at_their_deadlines_whatever_the_steps)
{
	static struct run one, two;
	const uint64_t whole[1] = { 3000000 }, split[2] = { 500000, 2500000 };
	uint64_t t0 = two_periods(whole, 1, &one);
	/* D-LRO-5: B ends at t0 + 1 us + 32 us, A at t0 + 1024 us; B's CQE first. */
	const struct nicref_event *b = lro_ev(NICREF_EV_LRO_END, 0), *a = lro_ev(NICREF_EV_LRO_END, 1);
	cr_expect_eq(b->arg[2], 1, "WQE 1 (B) ends first");
	cr_expect_eq(b->time_ns, t0 + 33000);
	cr_expect_eq(a->arg[2], 0);
	cr_expect_eq(a->time_ns, t0 + 1024000);
	/* §7.12.10 timestamp "taken when this CQE was generated" (no TCP timestamp option: the
	 * internal timer, D-TS-1 at 156 MHz): B's CQE at 33 us, within [N, 2N] of its open. */
	uint8_t c[64];
	rx_cqe(c);
	cr_expect_eq(CQE(c, wqe_counter), 1);
	uint64_t ts = (uint64_t)CQE(c, timestamp_h) << 32 | CQE(c, timestamp_l);
	uint64_t at = t0 + 33000;
	cr_expect_eq(ts, (at / 1000000u) * 156000u + (at % 1000000u) * 156000u / 1000000u,
		     "the timer CQE's timestamp is its deadline's");
	rx_teardown();
	two_periods(split, 2, &two);
	expect_same(&one, &two, "3 ms at once against 0.5 ms then 2.5 ms");
	rx_teardown();
}

/* Inside one tick too (the clock set past both deadlines by hand, as nothing else can): the
 * expired sessions end in deadline order, then open order. */
Test(clock_step, one_tick_ends_expired_sessions_in_deadline_order)
{
	lro_setup();
	struct lro_tir_opts t = lro_tir_default();
	t.timeout_usecs = 1024;
	uint32_t slow = lro_make_tir(&t), fast = lro_tirn;
	for (unsigned i = 0; i < 3; i++)
		rx_post1(RX_BUF + 0x1000 * i, 4096);
	tl_mark(&rdev->tr);
	give_on(slow, 1, 1, 100); /* WQE 0, deadline 1024 us */
	give_on(fast, 2, 1, 100); /* WQE 1, deadline 32 us */
	give_on(fast, 3, 1, 100); /* WQE 2, deadline 32 us: after WQE 1 (open order) */
	rdev->dev->core.now_ns += 3000000;
	lro_tick(rdev->dev, lro_state_of(rdev->dev));
	cr_assert_eq(tl_count(&rdev->tr, NICREF_EV_LRO_END), 3);
	cr_expect_eq(lro_ev(NICREF_EV_LRO_END, 0)->arg[2], 1);
	cr_expect_eq(lro_ev(NICREF_EV_LRO_END, 1)->arg[2], 2);
	cr_expect_eq(lro_ev(NICREF_EV_LRO_END, 2)->arg[2], 0);
	rx_teardown();
}

/* ---- CQ moderation against an LRO CQE of the same advance --------------------------------- */

/* The receive CQ armed with cq_period 50 us (its timer from its creation, D-CQ-6); at t0 a
 * segment through the plain TIR (a CQE at once, its event held to 50 us) and one through the
 * LRO TIR (32 us: its CQE at 32 us, under the held event); then the steps (100 us in all). */
static uint64_t moderated(const uint64_t *steps, unsigned n, struct run *r)
{
	lro_setup();
	struct refdrv_cq_attr m = { .cq_period = 50 };
	cr_assert_eq(refdrv_modify_cq(&rdev->d, &rx.cq, 1u, &m), 0, "%s", rdev->d.error);
	refdrv_cq_arm(&rdev->d, &rx.cq, false);
	rx_post1(RX_BUF, 4096);
	rx_post1(RX_BUF + 0x1000, 4096);
	uint64_t t0 = nicref_clock_now(rdev->dev);
	uint32_t lro = lro_tirn;
	tl_mark(&rdev->tr);
	give_on(rx.tirn, 1, 1, 100);
	give_on(lro, 2, 1, 100);
	for (unsigned i = 0; i < n; i++)
		nicref_clock_advance(rdev->dev, steps[i]);
	keep(r);
	return t0;
}

Test(clock_step, cq_event_held_past_an_lro_deadline_fires_after_its_cqe)
{
	static struct run one, two;
	const uint64_t whole[1] = { 100000 }, split[2] = { 40000, 60000 };
	uint64_t t0 = moderated(whole, 1, &one);
	const struct nicref_event *end = lro_ev(NICREF_EV_LRO_END, 0);
	const struct nicref_event *eqe = lro_ev(NICREF_EV_EQE, 0);
	cr_expect_eq(end->time_ns, t0 + 32000, "D-LRO-5: the session ends at t0 + N");
	cr_expect_eq(eqe->time_ns, t0 + 50000, "§7.13.14: the held event at the period's end");
	cr_expect_lt(end->seq, eqe->seq, "the LRO CQE at 32 us comes before the event at 50 us");
	rx_teardown();
	moderated(split, 2, &two);
	expect_same(&one, &two, "100 us at once against 40 us then 60 us");
	rx_teardown();
}

/* ---- The RC requester's timer --------------------------------------------------------------- */

/* Two RC QPs of one device connected to each other (D-ROCE-12 loopback, as snapshot_test's);
 * QP 0 SENDs to QP 1, which has no receive WQE: an RNR NAK each time (IBTA Vol. 1 §9.7.5.2.8),
 * rnr_retry 7 (retried without end), min_rnr_nak 1 (an RNR wait of 0.01 ms, Table 45); then the
 * steps. */
static void rnr_loop(const uint64_t *steps, unsigned n, struct run *r)
{
	struct tl_dev *t = tl_up(NULL);
	rdev = t;
	struct refdrv_qp_attr a;
	struct refdrv_qp_stack st;
	refdrv_qp_defaults(&a);
	a.nqp = 2;
	a.rnr_retry = 7;
	a.min_rnr_nak = 1;
	a.eq_buf = 0x50000000ull;
	a.qp_dbr = 0x50FF0000ull;
	a.cq_dbr = 0x50FE0000ull;
	a.qp_buf = 0x51000000ull;
	a.cq_buf = 0x52000000ull;
	a.data_addr = 0x54000000ull;
	cr_assert_eq(refdrv_qp_stack_up(&t->d, &a, &st), 0, "%s", t->d.error);
	for (unsigned i = 0; i < 2; i++)
		cr_assert_eq(refdrv_qp_connect(&t->d, &st, i, st.qp[1 - i].qpn, &a.local), 0, "%s",
			     t->d.error);
	struct refdrv_wqe w;
	memset(&w, 0, sizeof w);
	cr_assert(refdrv_wqe_begin(&w, REFDRV_QP_OP_SEND, st.qp[0].sq.pc, st.qp[0].qpn) >= 0);
	cr_assert(refdrv_wqe_ptr(&w, st.key, a.data_addr, 64) >= 0);
	struct refdrv_wqe_ctrl c = { .ce = 2 };
	cr_assert_eq(refdrv_wqe_finish(&w, &c, false), 0);
	tl_mark(&t->tr);
	cr_assert_eq(refdrv_sq_post(&t->d, &st.qp[0].sq, &w, REFDRV_RING_DB), 0, "%s", t->d.error);
	for (unsigned i = 0; i < n; i++)
		nicref_clock_advance(t->dev, steps[i]);
	keep(r);
}

Test(clock_step, rc_rnr_waits_inside_one_advance_each_retried_at_their_deadline)
{
	static struct run one, two;
	/* 35 us: three RNR waits of 10 us end inside it (the first NAK at the post). */
	const uint64_t whole[1] = { 35000 }, split[2] = { 12000, 23000 };
	rnr_loop(whole, 1, &one);
	size_t retx = tl_count(&rdev->tr, NICREF_EV_ROCE_RETX);
	cr_expect_eq(retx, 3, "three RNR waits ended: three retries, got %zu", retx);
	uint64_t t0 = lro_ev(NICREF_EV_ROCE_NAK, 0)->time_ns;
	for (size_t i = 0; i < retx && i < 3; i++)
		cr_expect_eq(lro_ev(NICREF_EV_ROCE_RETX, i)->time_ns, t0 + 10000 * (i + 1),
			     "retry %zu at the end of its RNR wait", i);
	tl_down(rdev);
	rdev = NULL;
	rnr_loop(split, 2, &two);
	expect_same(&one, &two, "35 us at once against 12 us then 23 us");
	tl_down(rdev);
	rdev = NULL;
}

/* One advance makes at most 1024 stops (core/dev.c CLOCK_STOPS_MAX): the RNR loop above retries
 * every 10 us for ever, so one advance of 1 s would otherwise tick 100,000 times. The first 1024
 * RNR waits end at their deadlines, then the clock jumps to the target and ticks once there. */
Test(clock_step, one_advance_makes_at_most_1024_stops)
{
	static struct run r;
	const uint64_t second[1] = { 1000000000ull };
	struct nicref_stats before, after;
	const uint64_t none[1] = { 0 };
	rnr_loop(none, 1, &r);
	nicref_stats_get(rdev->dev, &before);
	uint64_t t0 = nicref_clock_now(rdev->dev);
	nicref_clock_advance(rdev->dev, second[0]);
	nicref_stats_get(rdev->dev, &after);
	uint64_t retx = after.roce_retransmits - before.roce_retransmits;
	cr_expect_eq(nicref_clock_now(rdev->dev), t0 + second[0]);
	cr_expect(retx >= 1000 && retx <= 1025, "about one retry per stop up to the cap: %llu",
		  (unsigned long long)retx);
	tl_down(rdev);
	rdev = NULL;
}
