/* Completion event moderation (PRM §7.13.14): by count, by period from the event or from the
 * CQE, solicited CQEs breaking it, MODIFY_CQ releasing it, and the timers' order. Decisions:
 * docs/cq.md. Shared tools: cq_util.h. */
#include <string.h>

#include "cq_util.h"

/* ---- Completion event moderation (§7.13.14) ------------------------------------------------- */

Test(cq_moderation, by_count)
{
	struct tl_dev *t = tl_up(NULL);
	struct refdrv_eq eq = tl_eq(t, 3, 0, 0);
	struct refdrv_cq_attr a = { .log_cq_size = 4, .eqn = eq.eqn, .cq_max_count = 3 };
	struct refdrv_cq cq = tl_cq_attr(t, &a);
	uint8_t c[64];
	tl_mark(&t->tr);
	refdrv_cq_arm(&t->d, &cq, false);
	cr_assert_eq(post(t, &cq, 1, false), 0);
	cr_assert_eq(post(t, &cq, 2, false), 0);
	cr_expect_eq(completions(t, cq.cqn), 0, "2 completions < cq_max_count 3");
	cr_assert_eq(post(t, &cq, 3, false), 0);
	cr_expect_eq(completions(t, cq.cqn), 1, "the third completion (D-CQ-6)");
	/* After the event the count starts again. */
	refdrv_cq_event_seen(&cq);
	while (refdrv_cq_poll(&t->d, &cq, c) == 1)
		;
	refdrv_cq_arm(&t->d, &cq, false);
	cr_assert_eq(post(t, &cq, 4, false), 0);
	cr_assert_eq(post(t, &cq, 5, false), 0);
	cr_expect_eq(completions(t, cq.cqn), 1);
	cr_assert_eq(post(t, &cq, 6, false), 0);
	cr_expect_eq(completions(t, cq.cqn), 2);
	tl_down(t);
}

Test(cq_moderation, by_period_upon_event)
{
	struct tl_dev *t = tl_up(NULL);
	struct refdrv_eq eq = tl_eq(t, 3, 0, 0);
	struct refdrv_cq_attr a = { .log_cq_size = 4, .eqn = eq.eqn, .cq_period = 10 };
	struct refdrv_cq cq = tl_cq_attr(t, &a);
	uint64_t t0 = nicref_clock_now(t->dev); /* the timer starts with the CQ (D-CQ-6) */
	uint8_t c[64];
	tl_mark(&t->tr);
	refdrv_cq_arm(&t->d, &cq, false);
	cr_assert_eq(post(t, &cq, 1, false), 0);
	cr_expect_eq(completions(t, cq.cqn), 0, "held: the 10 us timer runs");
	nicref_clock_advance(t->dev, 9999);
	cr_expect_eq(completions(t, cq.cqn), 0);
	nicref_clock_advance(t->dev, 1);
	cr_assert_eq(completions(t, cq.cqn), 1, "timer expired with an event pending");
	cr_expect_eq(tl_nth(&t->tr, NICREF_EV_EQE, 0)->time_ns, t0 + 10000);
	/* T76 upon_event: the timer restarted at the event. */
	refdrv_cq_event_seen(&cq);
	while (refdrv_cq_poll(&t->d, &cq, c) == 1)
		;
	refdrv_cq_arm(&t->d, &cq, false);
	nicref_clock_advance(t->dev, 4000);
	cr_assert_eq(post(t, &cq, 2, false), 0);
	nicref_clock_advance(t->dev, 5999);
	cr_expect_eq(completions(t, cq.cqn), 1);
	nicref_clock_advance(t->dev, 1);
	cr_expect_eq(completions(t, cq.cqn), 2);
	/* A CQE long after the last event: the timer has expired, the event goes at once. */
	refdrv_cq_event_seen(&cq);
	while (refdrv_cq_poll(&t->d, &cq, c) == 1)
		;
	refdrv_cq_arm(&t->d, &cq, false);
	nicref_clock_advance(t->dev, 20000);
	cr_assert_eq(post(t, &cq, 3, false), 0);
	cr_expect_eq(completions(t, cq.cqn), 3);
	tl_down(t);
}

/* T76 upon_event / §7.13.14 "The cq_period timer restarts either upon event generation or upon
 * completion generation": a held event released by a clock advance was generated at its
 * deadline, so the timer restarts there whatever the size of the advance that found it due
 * (D-CQ-6). Returns the completion events after a second CQE 10 us after that deadline. */
static size_t held_then_second(unsigned steps)
{
	struct tl_dev *t = tl_up(NULL);
	struct refdrv_eq eq = tl_eq(t, 3, 0, 0);
	struct refdrv_cq_attr a = { .log_cq_size = 4, .eqn = eq.eqn, .cq_period = 10 };
	struct refdrv_cq cq = tl_cq_attr(t, &a);
	uint8_t c[64];
	tl_mark(&t->tr);
	refdrv_cq_arm(&t->d, &cq, false);
	cr_assert_eq(post(t, &cq, 1, false), 0); /* held: due at creation + 10 us */
	for (unsigned i = 0; i < steps; i++)
		nicref_clock_advance(t->dev, 20000 / steps);
	cr_assert_eq(completions(t, cq.cqn), 1);
	refdrv_cq_event_seen(&cq);
	while (refdrv_cq_poll(&t->d, &cq, c) == 1)
		;
	refdrv_cq_arm(&t->d, &cq, false);
	cr_assert_eq(post(t, &cq, 2, false), 0); /* creation + 20 us: 10 us after the event */
	size_t n = completions(t, cq.cqn);
	tl_down(t);
	return n;
}

Test(cq_moderation, held_event_restarts_the_timer_at_its_deadline)
{
	cr_expect_eq(held_then_second(2), 2, "two 10 us steps: the second event goes at once");
	cr_expect_eq(held_then_second(1), 2,
		     "one 20 us step: the timer restarted at the deadline (10 us), not at 20 us");
}

/* The interrupt a held completion event requests (§7.13.12) is requested when the event was
 * generated, at its deadline, so the vector's timer (§7.13.15 "Every time interrupt is fired
 * ... the timer is re-loaded") reloads there, whatever the size of the clock advance that
 * found the event due (D-CQ-6, D-EQ-11). Returns the interrupts after a second event 10 us
 * after that deadline, on an interrupt vector moderated to one per 10 us. */
static size_t held_event_irq_then_next(unsigned steps)
{
	struct tl_dev *t = tl_up(NULL);
	struct refdrv_eq eq = tl_eq(t, 4, 0, 3);
	tl_int_moderation(t, 3, 10);
	struct refdrv_cq_attr a = { .log_cq_size = 4, .eqn = eq.eqn, .cq_period = 10 };
	struct refdrv_cq cq = tl_cq_attr(t, &a);
	uint8_t c[64], e[64];
	tl_mark(&t->tr);
	refdrv_eq_doorbell(&t->d, &eq, true);
	refdrv_cq_arm(&t->d, &cq, false);
	cr_assert_eq(post(t, &cq, 1, false), 0); /* held: due at creation + 10 us */
	for (unsigned i = 0; i < steps; i++)
		nicref_clock_advance(t->dev, 20000 / steps);
	cr_assert_eq(completions(t, cq.cqn), 1);
	cr_assert_eq(tl_count(&t->tr, NICREF_EV_INTERRUPT), 1, "the vector's first interrupt");
	cr_assert_eq(refdrv_eq_poll(&t->d, &eq, e), 1);
	refdrv_eq_doorbell(&t->d, &eq, true);
	refdrv_cq_event_seen(&cq);
	while (refdrv_cq_poll(&t->d, &cq, c) == 1)
		;
	refdrv_cq_arm(&t->d, &cq, false);
	cr_assert_eq(post(t, &cq, 2, false), 0); /* creation + 20 us: 10 us after the event */
	cr_assert_eq(completions(t, cq.cqn), 2);
	size_t n = tl_count(&t->tr, NICREF_EV_INTERRUPT);
	tl_down(t);
	return n;
}

Test(cq_moderation, held_event_requests_its_interrupt_at_its_deadline)
{
	cr_expect_eq(held_event_irq_then_next(2), 2, "two 10 us steps: the second at once");
	cr_expect_eq(held_event_irq_then_next(1), 2,
		     "one 20 us step: the vector reloaded at the event (10 us), not at 20 us");
}

/* A held interrupt due before a held completion event fires first, even when one clock advance
 * finds both due: vector 3 (one interrupt per 10 us) has an interrupt of EQ A held until T +
 * 10 us; CQ cq on EQ B has its event held until T + 15 us. A device running continuously fires
 * the interrupt at T + 10 us, so the event's request at T + 15 us is held until T + 20 us (a
 * third interrupt); it does not coalesce into the interrupt fired before it (D-CQ-6, D-EQ-11).
 * Returns the interrupts at T + 25 us. */
static size_t held_irq_before_held_event(unsigned steps)
{
	struct tl_dev *t = tl_up(NULL);
	struct refdrv_eq a = tl_eq(t, 4, 0, 3), b = tl_eq(t, 4, 0, 3);
	tl_int_moderation(t, 3, 10);
	uint8_t e[64];
	uint8_t gen[64] = { [1] = 0x17, [3] = 0x5 }; /* T78 event_type, event_sub_type */
	tl_mark(&t->tr);
	refdrv_eq_doorbell(&t->d, &a, true);
	cr_assert_eq(refdrv_gen_eqe(&t->d, a.eqn, gen), 0); /* fires at T */
	cr_assert_eq(refdrv_eq_poll(&t->d, &a, e), 1);
	refdrv_eq_doorbell(&t->d, &a, true);
	cr_assert_eq(refdrv_gen_eqe(&t->d, a.eqn, gen), 0); /* held: due at T + 10 us */
	nicref_clock_advance(t->dev, 5000);
	struct refdrv_cq_attr ca = { .log_cq_size = 4, .eqn = b.eqn, .cq_period = 10 };
	struct refdrv_cq cq = tl_cq_attr(t, &ca); /* its timer starts at T + 5 us */
	refdrv_eq_doorbell(&t->d, &b, true);
	refdrv_cq_arm(&t->d, &cq, false);
	cr_assert_eq(post(t, &cq, 1, false), 0); /* held: due at T + 15 us */
	cr_assert_eq(tl_count(&t->tr, NICREF_EV_INTERRUPT), 1);
	for (unsigned i = 0; i < steps; i++)
		nicref_clock_advance(t->dev, 20000 / steps);
	cr_assert_eq(completions(t, cq.cqn), 1);
	size_t n = tl_count(&t->tr, NICREF_EV_INTERRUPT);
	tl_down(t);
	return n;
}

Test(cq_moderation, held_interrupt_and_held_event_in_deadline_order)
{
	cr_expect_eq(held_irq_before_held_event(4), 3, "5 us steps: T + 0, 10 and 20 us");
	cr_expect_eq(held_irq_before_held_event(1), 3,
		     "one 20 us step: the event at T + 15 us does not coalesce into the "
		     "interrupt that fired at T + 10 us");
}

/* D-CQ-20: a completion event held by moderation when the CQ goes to error still fires, after
 * the CQ error event (§7.12.1 and §7.12.5 say what happens to the CQE and the work queue and that
 * the CQ error event is generated; nothing says completion events stop). */
Test(cq_moderation, held_event_fires_after_the_cq_error_event)
{
	struct tl_dev *t = tl_up(NULL);
	struct refdrv_eq eq = async_eq(t);
	struct refdrv_cq_attr a = { .log_cq_size = 1, .eqn = eq.eqn, .cq_period = 10 };
	struct refdrv_cq cq = tl_cq_attr(t, &a);
	tl_mark(&t->tr);
	refdrv_cq_arm(&t->d, &cq, false);
	cr_assert_eq(post(t, &cq, 1, false), 0); /* held: the 10 us timer runs */
	cr_assert_eq(post(t, &cq, 2, false), 0);
	cr_assert_eq(post(t, &cq, 3, false), -1); /* full: overrun, the CQ to error */
	cr_assert_eq(tl_count(&t->tr, NICREF_EV_EQE), 1);
	cr_expect_eq(tl_nth(&t->tr, NICREF_EV_EQE, 0)->arg[2], 0x04, "T79 CQ_Error first");
	cr_expect_eq(completions(t, cq.cqn), 0, "the completion event is still held");
	nicref_clock_advance(t->dev, 10000);
	cr_expect_eq(completions(t, cq.cqn), 1, "D-CQ-20: the held event fires after the error");
	cr_assert_eq(tl_count(&t->tr, NICREF_EV_EQE), 2);
	cr_expect_eq(tl_nth(&t->tr, NICREF_EV_EQE, 1)->arg[2], 0x00, "T79 completion event");
	tl_down(t);
}

Test(cq_moderation, by_period_upon_cqe)
{
	struct tl_dev *t = tl_up(NULL);
	struct refdrv_eq eq = tl_eq(t, 3, 0, 0);
	struct refdrv_cq_attr a = { .log_cq_size = 4, .eqn = eq.eqn, .cq_period = 10,
				    .cq_period_mode = 1 };
	struct refdrv_cq cq = tl_cq_attr(t, &a);
	tl_mark(&t->tr);
	refdrv_cq_arm(&t->d, &cq, false);
	nicref_clock_advance(t->dev, 50000);
	cr_assert_eq(post(t, &cq, 1, false), 0);
	/* T76 upon_cqe: the timer restarted at this CQE; 10 us of quiet releases the event. */
	cr_expect_eq(completions(t, cq.cqn), 0);
	nicref_clock_advance(t->dev, 6000);
	cr_assert_eq(post(t, &cq, 2, false), 0);
	nicref_clock_advance(t->dev, 6000);
	cr_expect_eq(completions(t, cq.cqn), 0, "restarted by the second CQE");
	nicref_clock_advance(t->dev, 4000);
	cr_expect_eq(completions(t, cq.cqn), 1);
	tl_down(t);
}

Test(cq_moderation, solicited_breaks_moderation_and_modify_releases)
{
	struct tl_dev *t = tl_up(NULL);
	struct refdrv_eq eq = tl_eq(t, 3, 0, 0);
	struct refdrv_cq_attr a = { .log_cq_size = 4, .eqn = eq.eqn, .cq_max_count = 100,
				    .scqe_break_moderation_en = true };
	struct refdrv_cq cq = tl_cq_attr(t, &a);
	uint8_t c[64];
	tl_mark(&t->tr);
	refdrv_cq_arm(&t->d, &cq, false);
	cr_assert_eq(post(t, &cq, 1, false), 0);
	cr_expect_eq(completions(t, cq.cqn), 0);
	cr_assert_eq(post(t, &cq, 2, true), 0);
	cr_expect_eq(completions(t, cq.cqn), 1, "T76: a solicited CQE causes immediate EQE");
	/* Moderation off (MODIFY_CQ cq_max_count 0) releases a held event at once. */
	refdrv_cq_event_seen(&cq);
	while (refdrv_cq_poll(&t->d, &cq, c) == 1)
		;
	refdrv_cq_arm(&t->d, &cq, false);
	cr_assert_eq(post(t, &cq, 3, false), 0);
	cr_expect_eq(completions(t, cq.cqn), 1);
	struct refdrv_cq_attr m = { .cq_max_count = 0 };
	cr_assert_eq(refdrv_modify_cq(&t->d, &cq, 1u << 1, &m), 0);
	cr_expect_eq(completions(t, cq.cqn), 2);
	tl_down(t);
}

Test(cq_moderation, timers_fire_in_deadline_then_cqn_order)
{
	struct tl_dev *t = tl_up(NULL);
	struct refdrv_eq eq = tl_eq(t, 3, 0, 0);
	struct refdrv_cq_attr a = { .log_cq_size = 2, .eqn = eq.eqn, .cq_period = 5 };
	struct refdrv_cq c1 = tl_cq_attr(t, &a), c2 = tl_cq_attr(t, &a);
	a.cq_period = 3;
	struct refdrv_cq c3 = tl_cq_attr(t, &a);
	tl_mark(&t->tr);
	refdrv_cq_arm(&t->d, &c2, false);
	refdrv_cq_arm(&t->d, &c1, false);
	refdrv_cq_arm(&t->d, &c3, false);
	cr_assert_eq(post(t, &c2, 1, false), 0);
	cr_assert_eq(post(t, &c1, 1, false), 0);
	cr_assert_eq(post(t, &c3, 1, false), 0);
	nicref_clock_advance(t->dev, 100000); /* all three due within one advance */
	cr_assert_eq(completions(t, 0), 3);
	uint8_t e[64];
	uint32_t order[3];
	for (unsigned i = 0; i < 3; i++) {
		tl_mem_read(t, eq.a.buf + 64u * i, e, 64);
		order[i] = (uint32_t)e[0x39] << 16 | e[0x3A] << 8 | e[0x3B];
	}
	cr_expect_eq(order[0], c3.cqn, "the 3 us period is due first");
	cr_expect_eq(order[1], c1.cqn, "then the lower cqn");
	cr_expect_eq(order[2], c2.cqn);
	tl_down(t);
}
