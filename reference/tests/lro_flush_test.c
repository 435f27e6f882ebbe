/* LRO sessions that end without a segment (PRM §3.3.6.1, §3.3.6.3, §3.3.6.4; eth/lro_end.c;
 * docs/lro.md D-LRO-3, D-LRO-5, D-LRO-10): the timer in virtual time, a WQE without room for the
 * next payload (a completion with error), MODIFY_TIR of the LRO group, DESTROY_TIR, and the RQ
 * leaving RDY, each completing the sessions concerned in the order they opened. */
#include <criterion/criterion.h>

#include "eth/lro.h"
#include "lro_util.h"

TestSuite(lro_flush, .init = lro_setup, .fini = rx_teardown);

static void give(uint16_t sport, uint32_t seq, size_t payload)
{
	struct seg s = seg_of(seq, payload);
	s.sport = sport;
	cr_assert_eq(seg_give(&s), RX_DELIVERED);
}

/* The position of the first event of kind k since the mark (asserted). */
static size_t first_at(enum nicref_event_kind k)
{
	for (size_t i = 0; i < rdev->tr.n; i++)
		if (rdev->tr.ev[i].kind == k)
			return i;
	cr_assert_fail("no %s event", nicref_event_name(k));
	return 0;
}

/* D-LRO-5: a session opened at t0 ends when virtual time reaches t0 + N, N the TIR's period in
 * force (32 µs here, a supported period of T147), and not before. */
Test(lro_flush, the_timer_ends_a_session_at_its_period)
{
	uint8_t c[64];
	rx_post1(RX_BUF, 4096);
	nicref_clock_advance(rdev->dev, 5000); /* t0 = 5 µs */
	give(1, 1, 100);
	nicref_clock_advance(rdev->dev, 20000);
	give(1, 101, 100); /* a merge does not restart the timer (D-LRO-5) */
	nicref_clock_advance(rdev->dev, 11999);
	cr_expect_eq(tl_count(&rdev->tr, NICREF_EV_LRO_END), 0, "t0 + 32 µs - 1 ns: still open");
	nicref_clock_advance(rdev->dev, 1);
	cr_expect_eq(tl_count(&rdev->tr, NICREF_EV_LRO_END), 1, "t0 + 32 µs: ended");
	cr_expect_eq(lro_end_cause(0), NICREF_LRO_TIMER);
	rx_cqe(c);
	cr_expect_eq(CQE(c, lro_abrt), 1, "T68 01: timeout");
	cr_expect_eq(CQE(c, lro_num_seg), 2);
}

/* T45 10h, D-TIR-4: 20 µs asked, 16 µs (the nearest supported period below) in force. */
Test(lro_flush, the_timer_uses_the_period_in_force)
{
	struct lro_tir_opts t = lro_tir_default();
	t.timeout_usecs = 20;
	lro_tirn = lro_make_tir(&t);
	rx_post1(RX_BUF, 4096);
	give(1, 1, 100);
	nicref_clock_advance(rdev->dev, 15999);
	cr_expect_eq(tl_count(&rdev->tr, NICREF_EV_LRO_END), 0);
	nicref_clock_advance(rdev->dev, 1);
	cr_expect_eq(tl_count(&rdev->tr, NICREF_EV_LRO_END), 1, "16 µs");
}

/* §3.3.6.4 "the RQ WQE should be large enough to contain the merged segments, otherwise the
 * LRO session is flushed and completion with error is generated" (D-LRO-3): syndrome 0x1 (T74
 * local length), the RQ to ERR; its other sessions complete first (rq_state); the segment then
 * meets an RQ in ERR. */
Test(lro_flush, a_wqe_without_room_ends_in_error)
{
	uint8_t c[64];
	rx_post1(RX_BUF, 200);	  /* 154 + 100 does not fit */
	rx_post1(RX_BUF + 0x1000, 4096);
	give(1, 1, 100);
	give(2, 1, 100); /* another flow, the next WQE */
	tl_mark(&rdev->tr);
	struct seg b = seg_of(101, 100);
	b.sport = 1;
	cr_assert_eq(seg_give(&b), RX_DROPPED, "D-LRO-3: the segment meets an RQ in ERR");
	char story[32];
	cr_expect_str_eq(lro_story(story, sizeof story), "ececp", "the error CQE; the other "
							       "session's; the segment");
	cr_expect_eq(lro_end_cause(0), NICREF_LRO_WQE_SPACE);
	cr_expect_eq(tl_count(&rdev->tr, NICREF_EV_LRO_END), 2);
	cr_expect_eq(lro_end_cause(1), NICREF_LRO_RQ_STATE);
	cr_expect_eq(lro_pass_cause(0), NICREF_LRO_WQE_SPACE);
	cr_expect_eq(rx_drops_of(RX_DROP_RQ_NOT_RDY), 1, "the segment meets an RQ in ERR");
	tl_expect_one_violation(&rdev->tr, NICREF_VIO_RX_WQE_TOO_SHORT);
	rx_cqe(c);
	cr_expect_eq(CQE(c, opcode), 14, "T68 14: responder error");
	cr_expect_eq(CQE(c, syndrome), NICREF_CQE_SYN_LOCAL_LENGTH);
	cr_expect_eq(CQE(c, wqe_counter), 0);
	rx_cqe(c);
	cr_expect_eq(CQE(c, opcode), 2, "the other session completes normally");
	cr_expect_eq(CQE(c, wqe_counter), 1);
	cr_expect_eq(CQE(c, lro_num_seg), 1);
	struct refdrv_wq_status st;
	cr_assert_eq(refdrv_query_rq(&rdev->d, rx.rqn, &st), 0);
	cr_expect_eq(st.state, 3, "ERR");
}

/* §3.3.6.1: MODIFY_TIR writing the LRO group first completes the TIR's sessions, in the order
 * they opened (D-LRO-10); another TIR's stay; a MODIFY_TIR of another group flushes nothing. */
Test(lro_flush, modify_tir_completes_its_sessions_in_open_order)
{
	uint8_t c[64];
	struct lro_tir_opts t = lro_tir_default();
	uint32_t first = lro_tirn, second = lro_make_tir(&t);
	for (unsigned i = 0; i < 4; i++)
		rx_post1(RX_BUF + 0x1000 * i, 4096);
	give(7, 1, 100);
	lro_tirn = second;
	give(7, 1, 10);
	lro_tirn = first;
	give(3, 1, 100);
	tl_mark(&rdev->tr);
	struct refdrv_tir_attr a = { .self_lb_en = 1 };
	cr_assert_eq(refdrv_modify_tir(&rdev->d, first, 0x10, &a), 0, "%s", rdev->d.error);
	cr_expect_eq(tl_count(&rdev->tr, NICREF_EV_LRO_END), 0, "self_lb_en only: no flush");
	tl_mark(&rdev->tr);
	a = (struct refdrv_tir_attr){ .lro_enable_mask = 3, .lro_timeout_usecs = 1024,
				      .lro_max_msg_sz = 8 };
	cr_assert_eq(refdrv_modify_tir(&rdev->d, first, 1, &a), 0, "%s", rdev->d.error);
	char story[32];
	cr_expect_str_eq(lro_story(story, sizeof story), "ecec");
	cr_expect_eq(lro_end_cause(0), NICREF_LRO_TIR_CHANGE);
	cr_expect_eq(lro_end_cause(1), NICREF_LRO_TIR_CHANGE);
	cr_expect_eq(lro_ev(NICREF_EV_LRO_END, 0)->arg[2], 0, "flow 7 opened first");
	cr_expect_eq(lro_ev(NICREF_EV_LRO_END, 1)->arg[2], 2, "flow 3 second");
	cr_expect_lt(first_at(NICREF_EV_LRO_END), first_at(NICREF_EV_CMD_DONE),
		     "before the command completes");
	rx_cqe(c);
	cr_expect_eq(CQE(c, opcode), 2);
	cr_expect_eq(CQE(c, lro_abrt), 2);
	cr_expect_eq(CQE(c, wqe_counter), 0);
	/* The second TIR's session is still open: it merges. */
	tl_mark(&rdev->tr);
	lro_tirn = second;
	give(7, 11, 10);
	cr_expect_eq(tl_count(&rdev->tr, NICREF_EV_LRO_MERGE), 1);
}

/* §3.3.6.1: "When a TIR that is enabled for LRO is destroyed (DESTROY_TIR), the device first
 * completes all outstanding LRO sessions on that TIR and generates completions". */
Test(lro_flush, destroy_tir_completes_its_sessions)
{
	uint8_t c[64];
	rx_post1(RX_BUF, 4096);
	give(1, 1, 100);
	tl_mark(&rdev->tr);
	cr_assert_eq(refdrv_destroy_tir(&rdev->d, lro_tirn), 0, "%s", rdev->d.error);
	cr_expect_eq(tl_count(&rdev->tr, NICREF_EV_LRO_END), 1);
	cr_expect_eq(lro_end_cause(0), NICREF_LRO_TIR_CHANGE);
	cr_expect_lt(first_at(NICREF_EV_LRO_END), first_at(NICREF_EV_CMD_DONE));
	rx_cqe(c);
	cr_expect_eq(CQE(c, lro_num_seg), 1);
	cr_expect_eq(CQE(c, byte_cnt), 154);
}

/* D-LRO-10: an RQ leaving RDY (MODIFY_RQ to ERR) completes its sessions first, with their
 * normal CQEs, then its posted WQEs are flushed in error (§7.7.2.1). */
Test(lro_flush, rq_to_err_completes_sessions_before_the_flush)
{
	uint8_t c[64];
	rx_post1(RX_BUF, 4096);
	rx_post1(RX_BUF + 0x1000, 4096);
	give(1, 1, 100);
	tl_mark(&rdev->tr);
	cr_assert_eq(refdrv_modify_rq(&rdev->d, rx.rqn, 1, 3), 0, "%s", rdev->d.error);
	cr_expect_eq(tl_count(&rdev->tr, NICREF_EV_LRO_END), 1);
	cr_expect_eq(lro_end_cause(0), NICREF_LRO_RQ_STATE);
	cr_expect_lt(first_at(NICREF_EV_LRO_END), first_at(NICREF_EV_WQ_STATE),
		     "while the RQ is still RDY");
	rx_cqe(c);
	cr_expect_eq(CQE(c, opcode), 2, "the session's CQE");
	cr_expect_eq(CQE(c, wqe_counter), 0);
	cr_expect_eq(CQE(c, lro_num_seg), 1);
	rx_cqe(c);
	cr_expect_eq(CQE(c, opcode), 14, "then the flush of WQE 1 (T68 14: responder error)");
	cr_expect_eq(CQE(c, syndrome), 0x5, "T74 Work_Request_Flushed_Error");
	cr_expect_eq(CQE(c, wqe_counter), 1);
}

/* RDY to RST also leaves RDY. */
Test(lro_flush, rq_to_rst_completes_sessions)
{
	rx_post1(RX_BUF, 4096);
	give(1, 1, 100);
	tl_mark(&rdev->tr);
	cr_assert_eq(refdrv_modify_rq(&rdev->d, rx.rqn, 1, 0), 0, "%s", rdev->d.error);
	cr_expect_eq(tl_count(&rdev->tr, NICREF_EV_LRO_END), 1);
	cr_expect_eq(lro_end_cause(0), NICREF_LRO_RQ_STATE);
	struct nicref_stats st;
	nicref_stats_get(rdev->dev, &st);
	cr_expect_eq(st.lro_sessions_opened, 1);
	cr_expect_eq(st.lro_sessions_ended, 1);
}

/* A reset forgets the sessions (power-on, no CQE) and the invariants still hold. */
Test(lro_flush, reset_forgets_sessions)
{
	rx_post1(RX_BUF, 4096);
	give(1, 1, 100);
	cr_expect_eq(nicref_dev_check(rdev->dev), 0);
	nicref_dev_reset(rdev->dev);
	struct nicref_stats st;
	nicref_stats_get(rdev->dev, &st);
	cr_expect_eq(st.lro_sessions_opened, 0);
	cr_expect_eq(nicref_dev_check(rdev->dev), 0);
}

/* TEARDOWN_HCA (the panic profile, T169: the queues go with it) releases every object: the
 * sessions are forgotten with them (no CQ to complete into), and the invariants hold. */
Test(lro_flush, teardown_forgets_sessions)
{
	rx_post1(RX_BUF, 4096);
	give(1, 1, 100);
	tl_mark(&rdev->tr);
	tl_begin(rdev, "teardown_hca_in", "TEARDOWN_HCA");
	tl_set(rdev, "teardown_hca_in", "profile", 1);
	cr_assert_eq(tl_run(rdev, 0x10, 0x10), 0, "TEARDOWN_HCA panic");
	cr_expect_eq(tl_count(&rdev->tr, NICREF_EV_LRO_END), 0);
	cr_expect_eq(nicref_dev_check(rdev->dev), 0, "no session names a released RQ");
	nicref_clock_advance(rdev->dev, 64000);
	cr_expect_eq(tl_count(&rdev->tr, NICREF_EV_LRO_END), 0, "no timer either");
}

/* The engine's invariants (nicref/invariants.h -520 to -523) see a broken session. */
Test(lro_flush, invariants_see_a_broken_session)
{
	rx_post1(RX_BUF, 4096);
	give(1, 1, 100);
	struct lro_state *ls = rx_state_of(rdev->dev)->lro;
	struct lro_session *s = &ls->s[ls->head];
	cr_assert_eq(nicref_dev_check(rdev->dev), 0);
	s->byte_cnt++;
	cr_expect_eq(nicref_dev_check(rdev->dev), NICREF_INV_LRO_SESSION_BYTES);
	s->byte_cnt--;
	uint64_t deadline = s->deadline_ns;
	s->deadline_ns = UINT64_MAX; /* a timer that never fires */
	nicref_clock_advance(rdev->dev, 64000);
	cr_expect_eq(nicref_dev_check(rdev->dev), NICREF_INV_LRO_SESSION_TIMER, "open at 2N");
	s->deadline_ns = deadline;
	nicref_clock_advance(rdev->dev, 0);
	cr_expect_eq(nicref_dev_check(rdev->dev), 0, "the tick ended it");
	rx_post1(RX_BUF + 0x1000, 4096);
	give(1, 1, 100);
	s = &ls->s[ls->head];
	ls->nopen++;
	cr_expect_eq(nicref_dev_check(rdev->dev), NICREF_INV_LRO_SESSIONS_WITHIN_LIMIT);
	ls->nopen--;
	struct rq *rq = s->slot.rq;
	rq->state = WQ_ERR;
	cr_expect_eq(nicref_dev_check(rdev->dev), NICREF_INV_LRO_SESSION_RQ_RDY);
	rq->state = WQ_RDY;
}

/* A session's CQE the CQ cannot take (overrun, §7.12.1 step 2) puts the RQ in ERR, which
 * completes its other sessions (rq_state) while the timer is still ending sessions: each ends
 * once, and the invariants hold. */
Test(lro_flush, a_full_cq_while_the_timer_ends_sessions)
{
	struct rx_opts o = rx_default_opts();
	o.log_wq = 7;
	struct lro_tir_opts t = lro_tir_default();
	lro_setup_with(&o, &t);
	for (unsigned i = 0; i < 80; i++)
		rx_post1(RX_BUF, 512);
	give(1, 1, 100);
	give(2, 1, 100);
	uint8_t f[256];
	struct rx_frame_opts u = rx_udp(30);
	size_t n = rx_frame(f, &u);
	for (unsigned i = 0; i < 64; i++) /* 64 CQEs fill the CQ of 64 */
		cr_assert_eq(rx_give(f, n, 0), RX_DELIVERED);
	tl_mark(&rdev->tr);
	nicref_clock_advance(rdev->dev, 64000);
	cr_expect_eq(tl_count(&rdev->tr, NICREF_EV_LRO_END), 2, "each session ends once");
	cr_expect_eq(lro_end_cause(0), NICREF_LRO_TIMER);
	cr_expect_eq(lro_end_cause(1), NICREF_LRO_RQ_STATE, "the RQ went to ERR first");
	struct refdrv_wq_status st;
	cr_assert_eq(refdrv_query_rq(&rdev->d, rx.rqn, &st), 0);
	cr_expect_eq(st.state, 3, "ERR");
	cr_expect_eq(nicref_dev_check(rdev->dev), 0);
}
