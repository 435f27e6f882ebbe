/* The ADP engine's per-QP timer state machine (reference/adp/; seed 001, D-ADP-*): the PRNG and
 * the initial draw, escalation through the ranges, retry_num, decrease by name and by amount,
 * the caps, the total timeout, the classic timer, NAKs and the counters. The example profile E:
 * adp_util.h. Every expected value is worked out by hand from the seed text. */
#include <stdint.h>
#include <string.h>

#include "adp_util.h"

/* ---- Engine (item 2) --------------------------------------------------------------------- */

/* splitmix64's published first output for seed 0, and the device PRNG gives the same stream. */
Test(adp_engine, splitmix64)
{
	uint64_t s = 0;
	cr_expect_eq(nicref_splitmix64(&s), 0xE220A8397B1DCDAFull);
	struct nicref_config cfg;
	nicref_config_default(&cfg);
	cfg.seed = 12345;
	struct nicref_dev *d = nicref_dev_create(&cfg);
	cr_assert_not_null(d);
	s = 12345;
	for (int i = 0; i < 16; i++)
		cr_expect_eq(nicref_splitmix64(&s), nicref_prng_next(d), "draw %d", i);
	nicref_dev_destroy(d);
}

/* IBA local ACK timeout 4.096 us * 2^t, 0 = infinite, 5 bits. */
Test(adp_engine, ib_timeout)
{
	cr_expect_eq(nicref_adp_ib_timeout_ns(0), 0);
	cr_expect_eq(nicref_adp_ib_timeout_ns(1), 8192);
	cr_expect_eq(nicref_adp_ib_timeout_ns(14), 67108864);         /* 4096 * 16384 */
	cr_expect_eq(nicref_adp_ib_timeout_ns(31), 8796093022208ull); /* 4096 * 2^31 = 2^43 */
	cr_expect_eq(nicref_adp_ib_timeout_ns(32), 0);                /* 5 bits: 32 is 0 */
	cr_expect_eq(nicref_adp_ib_timeout_ns(33), 8192);
}

/* seed 001 L7 against seed 000 L175 (D-ADP-9). */
Test(adp_engine, init_draw)
{
	struct nicref_adp_profile p = example();
	struct nicref_adp_mode m = mode_of(&p);
	struct nicref_adp_qp qp;
	unsigned lo, count;
	nicref_adp_init_bounds(&m, &lo, &count);
	cr_expect(lo == 2 && count == 2, "exclusive: {2, 3}");
	nicref_adp_qp_init(&qp, &m, &QP_ATTR, 100, 5); /* 2 + 5 % 2 = 3 */
	cr_expect_eq(qp.e, 3);
	cr_expect_eq(qp.r, -1);
	cr_expect_eq(qp.phase, NICREF_ADP_INITIAL);
	cr_expect_eq(qp.t_progress, 100);
	cr_expect_eq(nicref_adp_armed_ns(&qp), 32000);
	nicref_adp_qp_init(&qp, &m, &QP_ATTR, 0, 6); /* 2 + 6 % 2 = 2 */
	cr_expect_eq(qp.e, 2);
	m.opt.init_range = NICREF_ADP_INIT_INCLUSIVE;
	nicref_adp_init_bounds(&m, &lo, &count);
	cr_expect(lo == 2 && count == 3, "inclusive: {2, 3, 4}");
	nicref_adp_qp_init(&qp, &m, &QP_ATTR, 0, 5); /* 2 + 5 % 3 = 4 */
	cr_expect_eq(qp.e, 4);
	/* size 0: exclusive reading leaves only low; inclusive too. */
	p.timeout_init_range_size = 0;
	m = mode_of(&p);
	nicref_adp_init_bounds(&m, &lo, &count);
	cr_expect(lo == 2 && count == 1);
	nicref_adp_qp_init(&qp, &m, &QP_ATTR, 0, UINT64_MAX);
	cr_expect_eq(qp.e, 2);
	m.opt.init_range = NICREF_ADP_INIT_INCLUSIVE;
	nicref_adp_init_bounds(&m, &lo, &count);
	cr_expect(lo == 2 && count == 1);
}

/* Runs one expiry and checks (why, r, e, armed). */
static void expire(struct nicref_adp_qp *qp, uint64_t now, enum nicref_adp_reason why, int r,
		   unsigned e, uint64_t armed)
{
	enum nicref_adp_reason got;
	cr_assert(nicref_adp_on_timeout(qp, now, &got), "failed at %llu", (unsigned long long)now);
	cr_expect_eq(got, why, "at %llu: %s, expected %s", (unsigned long long)now,
		     nicref_adp_reason_name(got), nicref_adp_reason_name(why));
	cr_expect_eq(qp->r, r, "at %llu: range %d, expected %d", (unsigned long long)now, qp->r, r);
	cr_expect_eq(qp->e, e, "at %llu: e %u, expected %u", (unsigned long long)now, qp->e, e);
	cr_expect_eq(nicref_adp_armed_ns(qp), armed, "at %llu: armed %llu, expected %llu",
		     (unsigned long long)now, (unsigned long long)nicref_adp_armed_ns(qp),
		     (unsigned long long)armed);
}

static void progress(struct nicref_adp_qp *qp, uint64_t now, enum nicref_adp_reason why, int r,
		     unsigned e)
{
	enum nicref_adp_reason got;
	nicref_adp_on_progress(qp, now, &got);
	cr_expect_eq(got, why, "progress: %s, expected %s", nicref_adp_reason_name(got),
		     nicref_adp_reason_name(why));
	cr_expect_eq(qp->r, r, "progress: range %d, expected %d", qp->r, r);
	cr_expect_eq(qp->e, e, "progress: e %u, expected %u", qp->e, e);
}

/* seed 001 L13-15, L25, L29-35: initial 3 is in range 0 [1, 4]: retried once (ENTER_RANGE),
 * then doubled to 4, used retry_num 2 times, then range 1 from 5, retry_num 1: 6, 7, then
 * range 2 from 8: 9, 10, and 10 is the ceiling (D-ADP-13). */
Test(adp_engine, escalation_in_range_first_timeout)
{
	struct nicref_adp_profile p = example();
	struct nicref_adp_mode m = mode_of(&p);
	struct nicref_adp_qp qp;
	nicref_adp_qp_init_e(&qp, &m, &QP_ATTR, 0, 3);
	expire(&qp, 32000, NICREF_ADP_R_ENTER_RANGE, 0, 3, 32000);
	cr_expect_eq(qp.uses, 1, "retry_num 2 - 1: one more arm at 3 before escalation");
	expire(&qp, 64000, NICREF_ADP_R_DOUBLE, 0, 4, 64000);
	expire(&qp, 128000, NICREF_ADP_R_RETRY_SAME, 0, 4, 64000);
	expire(&qp, 192000, NICREF_ADP_R_NEXT_RANGE, 1, 5, 128000);
	expire(&qp, 320000, NICREF_ADP_R_DOUBLE, 1, 6, 256000);
	expire(&qp, 576000, NICREF_ADP_R_DOUBLE, 1, 7, 512000);
	expire(&qp, 1088000, NICREF_ADP_R_NEXT_RANGE, 2, 8, 1024000);
	expire(&qp, 2112000, NICREF_ADP_R_DOUBLE, 2, 9, 2048000);
	expire(&qp, 4160000, NICREF_ADP_R_DOUBLE, 2, 10, 4096000);
	expire(&qp, 8256000, NICREF_ADP_R_CEILING, 2, 10, 4096000);
	expire(&qp, 12352000, NICREF_ADP_R_CEILING, 2, 10, 4096000);
	/* 16448000 - 0 >= 16384000 (4000 << 12): seed 001 L49. */
	enum nicref_adp_reason why;
	cr_expect_not(nicref_adp_on_timeout(&qp, 16448000, &why));
	cr_expect_eq(why, NICREF_ADP_R_RETRY_EXC);
	cr_expect_eq(qp.phase, NICREF_ADP_FAILED);
	cr_expect_eq(nicref_adp_armed_ns(&qp), 0);
	cr_expect_not(nicref_adp_on_timeout(&qp, 20000000, &why), "a failed QP stays failed");
}

/* The other reading of "retried only once" (D-ADP-12): the initial value was its use. */
Test(adp_engine, first_timeout_escalate_option)
{
	struct nicref_adp_profile p = example();
	struct nicref_adp_mode m = mode_of(&p);
	m.opt.first_timeout = NICREF_ADP_FIRST_ESCALATE;
	struct nicref_adp_qp qp;
	nicref_adp_qp_init_e(&qp, &m, &QP_ATTR, 0, 3);
	expire(&qp, 32000, NICREF_ADP_R_DOUBLE, 0, 4, 64000);
	expire(&qp, 96000, NICREF_ADP_R_RETRY_SAME, 0, 4, 64000);
	expire(&qp, 160000, NICREF_ADP_R_NEXT_RANGE, 1, 5, 128000);
	/* Initial at the top of the last range: escalation has nowhere to go. */
	nicref_adp_qp_init_e(&qp, &m, &QP_ATTR, 0, 10);
	expire(&qp, 4096000, NICREF_ADP_R_CEILING, 2, 10, 4096000);
	/* Out of range: START_RANGE under both readings. */
	nicref_adp_qp_init_e(&qp, &m, &QP_ATTR, 0, 0);
	expire(&qp, 4000, NICREF_ADP_R_START_RANGE, 0, 1, 8000);
}

/* seed 001 L17: out of every range, start at timeout_range[start_range_index].range_low_bound. */
Test(adp_engine, first_timeout_out_of_range)
{
	struct nicref_adp_profile p = example();
	p.start_range_index = 1;
	struct nicref_adp_mode m = mode_of(&p);
	struct nicref_adp_qp qp;
	/* e 0 (V 4000) is below range 0 [1, 4]. */
	nicref_adp_qp_init_e(&qp, &m, &QP_ATTR, 0, 0);
	cr_expect_eq(nicref_adp_armed_ns(&qp), 4000);
	expire(&qp, 4000, NICREF_ADP_R_START_RANGE, 1, 5, 128000);
	/* range 1 retry_num 1: the next expiry doubles. */
	expire(&qp, 132000, NICREF_ADP_R_DOUBLE, 1, 6, 256000);
	/* e 11 (above range 2 [8, 10]). */
	nicref_adp_qp_init_e(&qp, &m, &QP_ATTR, 0, 11);
	cr_expect_eq(nicref_adp_armed_ns(&qp), 8192000); /* 4000 << 11 */
	expire(&qp, 8192000, NICREF_ADP_R_START_RANGE, 1, 5, 128000);
	/* D-ADP-4: both ends of a range are inside it: e 4 (top of range 0), e 5 (bottom of 1). */
	nicref_adp_qp_init_e(&qp, &m, &QP_ATTR, 0, 4);
	expire(&qp, 64000, NICREF_ADP_R_ENTER_RANGE, 0, 4, 64000);
	nicref_adp_qp_init_e(&qp, &m, &QP_ATTR, 0, 5);
	expire(&qp, 128000, NICREF_ADP_R_ENTER_RANGE, 1, 5, 128000);
	cr_expect_eq(qp.uses, 0, "range 1 retry_num 1: 1 - 1");
	expire(&qp, 256000, NICREF_ADP_R_DOUBLE, 1, 6, 256000);
}

/* timeout_retry_num counts consecutive uses (seed 000 L227): 3 arms at each value. */
Test(adp_engine, retry_num_uses)
{
	struct nicref_adp_profile p = example();
	p.range[1].timeout_retry_num = 3;
	p.start_range_index = 1;
	struct nicref_adp_mode m = mode_of(&p);
	struct nicref_adp_qp qp;
	nicref_adp_qp_init_e(&qp, &m, &QP_ATTR, 0, 0);
	expire(&qp, 4000, NICREF_ADP_R_START_RANGE, 1, 5, 128000);   /* 1st arm at 5 */
	expire(&qp, 132000, NICREF_ADP_R_RETRY_SAME, 1, 5, 128000);  /* 2nd */
	expire(&qp, 260000, NICREF_ADP_R_RETRY_SAME, 1, 5, 128000);  /* 3rd */
	expire(&qp, 388000, NICREF_ADP_R_DOUBLE, 1, 6, 256000);      /* 3 used: double */
	/* Progress resets the count ("consecutive"): 6 - 2 (TO_DIV_4) = 4 < lo 5 -> 5. */
	progress(&qp, 400000, NICREF_ADP_R_DECREASE, 1, 5);
	expire(&qp, 528000, NICREF_ADP_R_RETRY_SAME, 1, 5, 128000);
	expire(&qp, 656000, NICREF_ADP_R_RETRY_SAME, 1, 5, 128000);
	expire(&qp, 784000, NICREF_ADP_R_DOUBLE, 1, 6, 256000);
}

/* D-ADP-14, timeout_retry_num after progress, other reading (retry_uses RETRANSMISSIONS, seed
 * 000 L227 "consecutive retransmissions attempts with the same timeout value"): while
 * escalating nothing changes (retry_num_uses above), but after progress the next message's
 * first transmission is no retransmission, so 3 retransmissions at 5 (4 arms) precede the
 * doubling. A NAK retransmission after progress is a retransmission at the value: one use. */
Test(adp_engine, retry_uses_after_progress)
{
	struct nicref_adp_profile p = example();
	p.range[1].timeout_retry_num = 3;
	p.start_range_index = 1;
	struct nicref_adp_mode m = mode_of(&p);
	m.opt.retry_uses = NICREF_ADP_USES_RETRANSMISSIONS;
	struct nicref_adp_qp qp;
	nicref_adp_qp_init_e(&qp, &m, &QP_ATTR, 0, 0);
	expire(&qp, 4000, NICREF_ADP_R_START_RANGE, 1, 5, 128000);
	expire(&qp, 132000, NICREF_ADP_R_RETRY_SAME, 1, 5, 128000);
	expire(&qp, 260000, NICREF_ADP_R_RETRY_SAME, 1, 5, 128000);
	expire(&qp, 388000, NICREF_ADP_R_DOUBLE, 1, 6, 256000);      /* as the default reading */
	progress(&qp, 400000, NICREF_ADP_R_DECREASE, 1, 5);          /* the first send at 5 */
	expire(&qp, 528000, NICREF_ADP_R_RETRY_SAME, 1, 5, 128000);  /* retransmission 1 */
	expire(&qp, 656000, NICREF_ADP_R_RETRY_SAME, 1, 5, 128000);  /* 2 */
	expire(&qp, 784000, NICREF_ADP_R_RETRY_SAME, 1, 5, 128000);  /* 3: the default doubles */
	expire(&qp, 912000, NICREF_ADP_R_DOUBLE, 1, 6, 256000);
	cr_expect_eq(qp.uses, 0);
	/* Progress, then a NAK retransmission at 5 (one use), then two timer retransmissions. */
	enum nicref_adp_reason why;
	cr_assert(nicref_adp_on_nak(&qp, 1000000, true, &why));
	cr_expect(why == NICREF_ADP_R_NAK && qp.e == 5);
	expire(&qp, 1128000, NICREF_ADP_R_RETRY_SAME, 1, 5, 128000);
	expire(&qp, 1256000, NICREF_ADP_R_RETRY_SAME, 1, 5, 128000);
	expire(&qp, 1384000, NICREF_ADP_R_DOUBLE, 1, 6, 256000);
	/* The default reading on the same events doubles one expiry earlier after progress. */
	m.opt.retry_uses = NICREF_ADP_USES_ARMS;
	nicref_adp_qp_init_e(&qp, &m, &QP_ATTR, 0, 6);
	expire(&qp, 256000, NICREF_ADP_R_ENTER_RANGE, 1, 6, 256000);
	progress(&qp, 260000, NICREF_ADP_R_DECREASE, 1, 5);
	expire(&qp, 388000, NICREF_ADP_R_RETRY_SAME, 1, 5, 128000);
	expire(&qp, 516000, NICREF_ADP_R_RETRY_SAME, 1, 5, 128000);
	expire(&qp, 644000, NICREF_ADP_R_DOUBLE, 1, 6, 256000);
}

/* D-ADP-13: the next range continues above the current value when ranges overlap. */
Test(adp_engine, next_range_overlap)
{
	struct nicref_adp_profile p = example();
	p.range_num = 2;
	p.range[0] = (struct nicref_adp_range){ 0, 1, 1, 1, 3 }; /* [1, 4] */
	p.range[1] = (struct nicref_adp_range){ 0, 1, 1, 3, 5 }; /* [3, 8] */
	struct nicref_adp_mode m = mode_of(&p);
	struct nicref_adp_qp qp;
	/* e 3 is in both: the lowest index, range 0 (seed 001 L15 "any defined range"). */
	nicref_adp_qp_init_e(&qp, &m, &QP_ATTR, 0, 3);
	expire(&qp, 32000, NICREF_ADP_R_ENTER_RANGE, 0, 3, 32000);
	expire(&qp, 64000, NICREF_ADP_R_DOUBLE, 0, 4, 64000);
	expire(&qp, 128000, NICREF_ADP_R_NEXT_RANGE, 1, 5, 128000); /* max(3, 4 + 1) */
	/* A next range entirely below the value: its top. [1, 6] then [2, 3]. */
	p.range[0] = (struct nicref_adp_range){ 0, 1, 1, 1, 5 };
	p.range[1] = (struct nicref_adp_range){ 0, 1, 1, 2, 1 };
	m = mode_of(&p);
	nicref_adp_qp_init_e(&qp, &m, &QP_ATTR, 0, 6);
	expire(&qp, 256000, NICREF_ADP_R_ENTER_RANGE, 0, 6, 256000);
	expire(&qp, 512000, NICREF_ADP_R_NEXT_RANGE, 1, 3, 32000);
}

/* Drives E's QP from e 3 to range 2, e 10 (as in escalation_in_range_first_timeout). */
static void to_top(struct nicref_adp_qp *qp, const struct nicref_adp_mode *m)
{
	enum nicref_adp_reason why;
	nicref_adp_qp_init_e(qp, m, &QP_ATTR, 0, 3);
	for (int i = 0; i < 9; i++)
		cr_assert(nicref_adp_on_timeout(qp, 1000u * (uint64_t)(i + 1), &why));
	cr_assert(qp->r == 2 && qp->e == 10, "r %d e %u", qp->r, qp->e);
}

/* seed 000 L207-221, seed 001 L51-56 under the default reading (D-ADP-16): range 2
 * TO_LOW_BOUND 10 -> 8; at lo 8 -> prev 1 at 8 - 1 = 7 (D-ADP-15); range 1 TO_DIV_4: 7 - 2 = 5;
 * at lo 5 -> prev 0 at 4; range 0 TO_DIV_2: 4 - 1 = 3, 2, 1; range 0 at lo: no previous. */
Test(adp_engine, decrease_by_name)
{
	struct nicref_adp_profile p = example();
	struct nicref_adp_mode m = mode_of(&p);
	struct nicref_adp_qp qp;
	to_top(&qp, &m);
	progress(&qp, 10000, NICREF_ADP_R_DECREASE, 2, 8);
	cr_expect_eq(qp.t_progress, 10000);
	progress(&qp, 10001, NICREF_ADP_R_PREV_RANGE, 1, 7);
	progress(&qp, 10002, NICREF_ADP_R_DECREASE, 1, 5);
	progress(&qp, 10003, NICREF_ADP_R_PREV_RANGE, 0, 4);
	progress(&qp, 10004, NICREF_ADP_R_DECREASE, 0, 3);
	progress(&qp, 10005, NICREF_ADP_R_DECREASE, 0, 2);
	progress(&qp, 10006, NICREF_ADP_R_DECREASE, 0, 1);
	progress(&qp, 10007, NICREF_ADP_R_KEEP, 0, 1);
	cr_expect_eq(nicref_adp_armed_ns(&qp), 8000);
	/* TO_DIV_4 from 6 in range 1: 6 - 2 = 4 is below lo 5: stops at 5. */
	to_top(&qp, &m);
	progress(&qp, 10000, NICREF_ADP_R_DECREASE, 2, 8);
	progress(&qp, 10001, NICREF_ADP_R_PREV_RANGE, 1, 7);
	qp.e = 6;
	progress(&qp, 10002, NICREF_ADP_R_DECREASE, 1, 5);
}

/* "Decrement by 2 / by 4" in code order (D-ADP-16 other reading): TO_DIV_4 -2, TO_DIV_2 -4. */
Test(adp_engine, decrease_by_amount)
{
	struct nicref_adp_profile p = example();
	p.range[0].range_size = 9; /* [1, 10] so that a -4 step shows */
	p.range[1].range_low_bound = 11;
	p.range[1].range_size = 6; /* [11, 17] */
	p.range_num = 2;
	struct nicref_adp_mode m = mode_of(&p);
	m.opt.dec_reading = NICREF_ADP_DEC_BY_AMOUNT;
	struct nicref_adp_qp qp;
	nicref_adp_qp_init_e(&qp, &m, &QP_ATTR, 0, 10);
	expire(&qp, 4096000, NICREF_ADP_R_ENTER_RANGE, 0, 10, 4096000);
	progress(&qp, 5000000, NICREF_ADP_R_DECREASE, 0, 6); /* TO_DIV_2: 10 - 4 */
	progress(&qp, 5000001, NICREF_ADP_R_DECREASE, 0, 2); /* 6 - 4 */
	progress(&qp, 5000002, NICREF_ADP_R_DECREASE, 0, 1); /* 2 - 4 < 1: lo */
	/* Range 1 (TO_DIV_4): 17 - 2 = 15. */
	nicref_adp_qp_init_e(&qp, &m, &QP_ATTR, 0, 17);
	enum nicref_adp_reason why;
	cr_assert(nicref_adp_on_timeout(&qp, 1, &why));
	cr_expect(qp.r == 1 && qp.e == 17);
	progress(&qp, 2, NICREF_ADP_R_DECREASE, 1, 15);
	/* Third reading (factors in code order): TO_DIV_4 -1, TO_DIV_2 -2. */
	m.opt.dec_reading = NICREF_ADP_DEC_BY_FACTOR;
	nicref_adp_qp_init_e(&qp, &m, &QP_ATTR, 0, 10);
	cr_assert(nicref_adp_on_timeout(&qp, 1, &why));
	progress(&qp, 2, NICREF_ADP_R_DECREASE, 0, 8);
	nicref_adp_qp_init_e(&qp, &m, &QP_ATTR, 0, 17);
	cr_assert(nicref_adp_on_timeout(&qp, 1, &why));
	progress(&qp, 2, NICREF_ADP_R_DECREASE, 1, 16);
}

/* D-ADP-15: moving to a previous range with a gap lands on its top. */
Test(adp_engine, prev_range_gap)
{
	struct nicref_adp_profile p = example();
	p.range_num = 2;
	p.range[0] = (struct nicref_adp_range){ 0, 1, 1, 1, 1 }; /* [1, 2] */
	p.range[1] = (struct nicref_adp_range){ 0, 1, 1, 5, 1 }; /* [5, 6] */
	struct nicref_adp_mode m = mode_of(&p);
	struct nicref_adp_qp qp;
	nicref_adp_qp_init_e(&qp, &m, &QP_ATTR, 0, 5);
	expire(&qp, 128000, NICREF_ADP_R_ENTER_RANGE, 1, 5, 128000);
	progress(&qp, 200000, NICREF_ADP_R_PREV_RANGE, 0, 2); /* clamp(4, 1, 2) */
	/* Escalating out of range 0 across the gap: max(lo 5, 2 + 1) = 5 (D-ADP-13). */
	nicref_adp_qp_init_e(&qp, &m, &QP_ATTR, 0, 2);
	expire(&qp, 16000, NICREF_ADP_R_ENTER_RANGE, 0, 2, 16000);
	expire(&qp, 32000, NICREF_ADP_R_NEXT_RANGE, 1, 5, 128000);
	/* Overlapping: range 0 [1, 6], range 1 [3, 8]; at 3 in range 1 a decrease moves to range
	 * 0 at clamp(3 - 1, 1, 6) = 2, the next value below, not range 0's top 6 (D-ADP-15). */
	p.range[0] = (struct nicref_adp_range){ 0, 1, 1, 1, 5 };
	p.range[1] = (struct nicref_adp_range){ 0, 1, 1, 3, 5 };
	p.start_range_index = 1;
	m = mode_of(&p);
	nicref_adp_qp_init_e(&qp, &m, &QP_ATTR, 0, 0); /* below both: start range 1 at 3 */
	expire(&qp, 4000, NICREF_ADP_R_START_RANGE, 1, 3, 32000);
	progress(&qp, 5000, NICREF_ADP_R_PREV_RANGE, 0, 2);
}

/* D-ADP-14: progress before the first timeout changes nothing but the progress time; the other
 * trigger reading decreases only after progress without retransmission. */
Test(adp_engine, decrease_trigger)
{
	struct nicref_adp_profile p = example();
	struct nicref_adp_mode m = mode_of(&p);
	struct nicref_adp_qp qp;
	nicref_adp_qp_init_e(&qp, &m, &QP_ATTR, 0, 3);
	progress(&qp, 500, NICREF_ADP_R_KEEP, -1, 3);
	cr_expect_eq(qp.phase, NICREF_ADP_INITIAL);
	cr_expect_eq(qp.t_progress, 500);
	m.opt.dec_trigger = NICREF_ADP_DEC_CLEAN_PROGRESS;
	to_top(&qp, &m);
	progress(&qp, 10000, NICREF_ADP_R_KEEP, 2, 10);     /* after retransmissions */
	progress(&qp, 10001, NICREF_ADP_R_DECREASE, 2, 8);  /* clean */
	progress(&qp, 10002, NICREF_ADP_R_PREV_RANGE, 1, 7);
	enum nicref_adp_reason why;
	cr_assert(nicref_adp_on_timeout(&qp, 20000, &why)); /* retry_num 1: 7 is the top: */
	cr_expect(why == NICREF_ADP_R_NEXT_RANGE && qp.r == 2 && qp.e == 8);
	progress(&qp, 30000, NICREF_ADP_R_KEEP, 2, 8);
}

/* seed 001 L43 (cap, D-ADP-10) and L60 (floor). */
Test(adp_engine, cap_and_floor)
{
	struct nicref_adp_profile p = example();
	struct nicref_adp_mode m = mode_of(&p);
	struct nicref_adp_qp_attr a = { 5, 7 }; /* cap 4096 << 5 = 131072 */
	struct nicref_adp_qp qp;
	nicref_adp_qp_init_e(&qp, &m, &a, 0, 3);
	cr_expect_eq(nicref_adp_armed_ns(&qp), 32000);
	expire(&qp, 32000, NICREF_ADP_R_ENTER_RANGE, 0, 3, 32000);
	expire(&qp, 64000, NICREF_ADP_R_DOUBLE, 0, 4, 64000);
	expire(&qp, 128000, NICREF_ADP_R_RETRY_SAME, 0, 4, 64000);
	expire(&qp, 192000, NICREF_ADP_R_NEXT_RANGE, 1, 5, 128000); /* 128000 < 131072 */
	expire(&qp, 320000, NICREF_ADP_R_DOUBLE, 1, 6, 131072);     /* 256000 capped; e 6 kept */
	expire(&qp, 451072, NICREF_ADP_R_DOUBLE, 1, 7, 131072);
	/* timeout 0 (infinite) caps nothing. */
	a.timeout = 0;
	nicref_adp_qp_init_e(&qp, &m, &a, 0, 10);
	cr_expect_eq(nicref_adp_armed_ns(&qp), 4096000);
	/* The floor wins over a cap below it: minimum 10000 ns, time_base 16 us (16000 >= 10000),
	 * QP timeout 1: cap 8192 < 10000. */
	p.time_base = 16;
	m = mode_of(&p);
	m.base_timeout_min_ns = 10000;
	a.timeout = 1;
	nicref_adp_qp_init_e(&qp, &m, &a, 0, 3);
	cr_expect_eq(nicref_adp_armed_ns(&qp), 10000);
}

/* seed 001 L45-49, seed 000 L117-125 and L159-163 (D-ADP-11). */
Test(adp_engine, total_timeout)
{
	struct nicref_adp_profile p = example();
	struct nicref_adp_mode m = mode_of(&p);
	struct nicref_adp_qp qp;
	nicref_adp_qp_init_e(&qp, &m, &QP_ATTR, 0, 3);
	cr_expect_eq(nicref_adp_total_timeout_ns(&qp), 16384000); /* 4000 << 12 */
	p.qp_total_timeout = 1;
	m = mode_of(&p);
	struct nicref_adp_qp_attr a = { 10, 3 };
	nicref_adp_qp_init_e(&qp, &m, &a, 0, 3);
	cr_expect_eq(nicref_adp_total_timeout_ns(&qp), 12582912); /* 3 * 4096 * 1024 */
	a.retry_cnt = 0;
	nicref_adp_qp_init_e(&qp, &m, &a, 0, 3);
	cr_expect_eq(nicref_adp_total_timeout_ns(&qp), 0);
	enum nicref_adp_reason why;
	cr_expect_not(nicref_adp_on_timeout(&qp, 32000, &why), "retry_cnt 0: the first expiry");
	a = (struct nicref_adp_qp_attr){ 0, 7 }; /* infinite QP timeout: no total */
	nicref_adp_qp_init_e(&qp, &m, &a, 0, 3);
	cr_expect_eq(nicref_adp_total_timeout_ns(&qp), UINT64_MAX);
	/* The limit is measured from the last progress, and reached at equality. */
	p.qp_total_timeout = 0;
	m = mode_of(&p);
	nicref_adp_qp_init_e(&qp, &m, &QP_ATTR, 1000, 3);
	cr_expect(nicref_adp_on_timeout(&qp, 16384999, &why)); /* elapsed 16383999 */
	nicref_adp_on_progress(&qp, 16385000, &why);
	cr_expect(nicref_adp_on_timeout(&qp, 32768999, &why)); /* 16383999 since progress */
	cr_expect_not(nicref_adp_on_timeout(&qp, 32769000, &why)); /* 16384000 */
	cr_expect_eq(why, NICREF_ADP_R_RETRY_EXC);
}

/* seed 001 L49 "If no forward progress is made within the total timeout, the QP fails": progress
 * is owed only while something is outstanding. A QP that enters ready-to-send at 0, idles 100 ms
 * (far past the total, 4000 << 12 = 16384000 ns), then sends from idle: the total counts from
 * that send (D-ADP-11), so the first expiry retransmits; the busy time since the send still
 * counts in full. */
Test(adp_engine, idle_time_is_not_missing_progress)
{
	struct nicref_adp_profile p = example();
	struct nicref_adp_mode m = mode_of(&p);
	struct nicref_adp_qp qp;
	enum nicref_adp_reason why;
	nicref_adp_qp_init_e(&qp, &m, &QP_ATTR, 0, 2); /* e0 = 2: V = 4000 << 2 = 16000 ns */
	const uint64_t send = 100000000ull;
	nicref_adp_on_send_idle(&qp, send);
	cr_expect_eq(nicref_adp_armed_ns(&qp), 16000, "the send from idle keeps the value");
	cr_expect(nicref_adp_on_timeout(&qp, send + 16000, &why),
		  "first expiry 16 us after the send from idle must retransmit; got %s",
		  nicref_adp_reason_name(why));
	cr_expect_eq(why, NICREF_ADP_R_ENTER_RANGE); /* e = 2 lies in range 0 [1, 4] */
	/* No progress since the send: 16384000 ns after it the total is reached (equality fails). */
	cr_expect(nicref_adp_on_timeout(&qp, send + 16383999, &why));
	cr_expect_not(nicref_adp_on_timeout(&qp, send + 16384000, &why));
	cr_expect_eq(why, NICREF_ADP_R_RETRY_EXC);
	/* A failed QP stays failed: a later send from idle does not revive it. */
	nicref_adp_on_send_idle(&qp, send + 20000000);
	cr_expect_not(nicref_adp_on_timeout(&qp, send + 20016000, &why));
	cr_expect_eq(nicref_adp_armed_ns(&qp), 0);
	/* The clock never moves back: a send from idle stamped before the last progress. */
	nicref_adp_qp_init_e(&qp, &m, &QP_ATTR, 0, 2);
	nicref_adp_on_progress(&qp, 5000000, &why);
	nicref_adp_on_send_idle(&qp, 1000000);
	cr_expect_not(nicref_adp_on_timeout(&qp, 5000000 + 16384000, &why),
		      "the total counts from the progress at 5 ms, not from 1 ms");
	nicref_adp_qp_init_e(&qp, &m, &QP_ATTR, 0, 2);
	nicref_adp_on_progress(&qp, 5000000, &why);
	cr_expect(nicref_adp_on_timeout(&qp, 5000000 + 16383999, &why));
}

/* No profile / ADP off: the IB timer, retry_cnt retries (D-ADP-3). An invalid profile runs the
 * same way. */
Test(adp_engine, classic)
{
	struct nicref_adp_mode m;
	memset(&m, 0, sizeof m);
	struct nicref_adp_qp_attr a = { 10, 3 };
	struct nicref_adp_qp qp;
	enum nicref_adp_reason why;
	nicref_adp_qp_init(&qp, &m, &a, 0, 12345);
	cr_expect_eq(nicref_adp_armed_ns(&qp), 4194304); /* 4096 << 10 */
	cr_expect_eq(nicref_adp_total_timeout_ns(&qp), UINT64_MAX);
	for (int i = 1; i <= 3; i++) {
		cr_expect(nicref_adp_on_timeout(&qp, 4194304ull * (uint64_t)i, &why), "retry %d", i);
		cr_expect_eq(why, NICREF_ADP_R_CLASSIC);
		cr_expect_eq(nicref_adp_armed_ns(&qp), 4194304);
	}
	cr_expect_not(nicref_adp_on_timeout(&qp, 4194304ull * 4, &why)); /* a 4th: 4 > 3 */
	cr_expect_eq(why, NICREF_ADP_R_RETRY_EXC);
	/* Progress restores the count. */
	nicref_adp_qp_init(&qp, &m, &a, 0, 0);
	for (int i = 0; i < 3; i++)
		cr_expect(nicref_adp_on_timeout(&qp, 1, &why));
	nicref_adp_on_progress(&qp, 2, &why);
	cr_expect_eq(why, NICREF_ADP_R_CLASSIC);
	for (int i = 0; i < 3; i++)
		cr_expect(nicref_adp_on_timeout(&qp, 3, &why));
	cr_expect_not(nicref_adp_on_timeout(&qp, 4, &why));
	/* A profile that fails the checks is not run. */
	struct nicref_adp_profile p = example();
	p.time_unit = 2;
	m = mode_of(&p);
	nicref_adp_qp_init(&qp, &m, &a, 0, 5);
	cr_expect_not(qp.mode.adp);
	cr_expect_eq(nicref_adp_armed_ns(&qp), 4194304);
	/* Timeout 0: no timer. */
	a.timeout = 0;
	memset(&m, 0, sizeof m);
	nicref_adp_qp_init(&qp, &m, &a, 0, 0);
	cr_expect_eq(nicref_adp_armed_ns(&qp), 0);
}

/* D-ADP-17: NAK retries count against retry_cnt in both modes; progress restores it. */
Test(adp_engine, nak)
{
	struct nicref_adp_profile p = example();
	struct nicref_adp_mode m = mode_of(&p);
	struct nicref_adp_qp_attr a = { 14, 1 };
	struct nicref_adp_qp qp;
	enum nicref_adp_reason why;
	nicref_adp_qp_init_e(&qp, &m, &a, 0, 3);
	cr_expect(nicref_adp_on_nak(&qp, 10, false, &why));
	cr_expect_eq(why, NICREF_ADP_R_NAK);
	cr_expect_eq(qp.e, 3, "a NAK does not change the timer value");
	cr_expect_not(nicref_adp_on_nak(&qp, 20, false, &why)); /* 2 > retry_cnt 1 */
	cr_expect_eq(qp.phase, NICREF_ADP_FAILED);
	nicref_adp_qp_init_e(&qp, &m, &a, 0, 3);
	cr_expect(nicref_adp_on_nak(&qp, 10, false, &why));
	cr_expect(nicref_adp_on_nak(&qp, 20, true, &why)); /* progress first: count 1 again */
	cr_expect_eq(qp.t_progress, 20);
	/* ADP timer expiries do not use retry_cnt (total timeout only). */
	nicref_adp_qp_init_e(&qp, &m, &a, 0, 3);
	for (int i = 1; i <= 5; i++)
		cr_expect(nicref_adp_on_timeout(&qp, (uint64_t)i, &why));
	memset(&m, 0, sizeof m); /* classic */
	nicref_adp_qp_init(&qp, &m, &a, 0, 0);
	cr_expect(nicref_adp_on_nak(&qp, 1, false, &why));
	cr_expect_not(nicref_adp_on_timeout(&qp, 2, &why), "NAK and timer share retry_cnt");
}

/* D-ADP-18. */
Test(adp_engine, counters)
{
	struct nicref_adp_counters c = { 0, 0 };
	struct nicref_adp_mode m;
	memset(&m, 0, sizeof m);
	struct nicref_adp_qp qp;
	nicref_adp_qp_init(&qp, &m, &QP_ATTR, 0, 0);
	nicref_adp_count_timeout(&qp, true, &c);
	nicref_adp_count_timeout(&qp, false, &c);
	cr_expect(c.roce_adp_retrans == 0 && c.roce_adp_retrans_to == 0, "ADP off: none");
	m.retrans_en = true; /* enabled, no profile: firmware-defined (classic) timer */
	nicref_adp_qp_init(&qp, &m, &QP_ATTR, 0, 0);
	nicref_adp_count_timeout(&qp, true, &c);
	nicref_adp_count_timeout(&qp, true, &c);
	nicref_adp_count_timeout(&qp, false, &c);
	cr_expect(c.roce_adp_retrans == 2 && c.roce_adp_retrans_to == 1);
	struct nicref_adp_profile p = example();
	m = mode_of(&p);
	nicref_adp_qp_init(&qp, &m, &QP_ATTR, 0, 0);
	nicref_adp_count_timeout(&qp, true, &c);
	cr_expect(c.roce_adp_retrans == 3 && c.roce_adp_retrans_to == 1);
}

Test(adp_engine, names)
{
	cr_expect_str_eq(nicref_adp_reason_name(NICREF_ADP_R_ENTER_RANGE), "enter_range");
	cr_expect_str_eq(nicref_adp_reason_name(NICREF_ADP_R_RETRY_EXC), "retry_exc");
	cr_expect_null(nicref_adp_reason_name(NICREF_ADP_R_COUNT));
	for (unsigned r = 0; r < NICREF_ADP_R_COUNT; r++)
		cr_expect_not_null(nicref_adp_reason_name((enum nicref_adp_reason)r));
	cr_expect_str_eq(nicref_adp_end_name(NICREF_ADP_END_STALL), "stall");
	cr_expect_null(nicref_adp_end_name((enum nicref_adp_end)4));
	/* seed 000 L153 / seed 001 L9: time_base << e; saturates. */
	struct nicref_adp_profile p = example();
	cr_expect_eq(nicref_adp_value_ns(&p, 0), 4000);
	cr_expect_eq(nicref_adp_value_ns(&p, 10), 4096000);
	cr_expect_eq(nicref_adp_value_ns(&p, 52), 4000ull << 52); /* 2^64 > 1.8e19 = 4000 << 52 */
	cr_expect_eq(nicref_adp_value_ns(&p, 53), UINT64_MAX);    /* 4000 << 53 > 2^64 */
	cr_expect_eq(nicref_adp_value_ns(&p, 200), UINT64_MAX);
}
