/* The ADP engine (reference/adp/), its profiles: validation (seed 001 rules, D-ADP-*) and the
 * codec at the seed 000 bit positions. The timer state machine: adp_engine_test.c; the timeline:
 * adp_timeline_test.c. The example profile E: adp_util.h. Every expected value is worked out by
 * hand from the seed text, with the arithmetic in the comments; none is copied from what the
 * model prints. */
#include <stdint.h>
#include <string.h>

#include "adp_util.h"
#include "testlib.h"

/* ---- Validation (item 1) ------------------------------------------------------------------ */

static enum nicref_adp_rule check(const struct nicref_adp_profile *p)
{
	return nicref_adp_profile_check(p, 4000, 4);
}

Test(adp_profile, example_is_valid)
{
	struct nicref_adp_profile p = example();
	cr_assert_eq(check(&p), NICREF_ADP_OK);
}

/* seed 000 L143-147: only 0x1 TIME_USEC. */
Test(adp_profile, time_unit)
{
	for (unsigned u = 0; u < 4; u++) {
		struct nicref_adp_profile p = example();
		p.time_unit = (uint8_t)u;
		cr_expect_eq(check(&p), u == 1 ? NICREF_ADP_OK : NICREF_ADP_BAD_TIME_UNIT,
			     "time_unit %u", u);
	}
}

/* seed 001 L27: a power of 2, at least the minimum (4 us = 4000 ns, seed 000 L85 in ns). */
Test(adp_profile, time_base)
{
	static const struct {
		uint16_t base;
		uint32_t min_ns;
		enum nicref_adp_rule want;
	} c[] = {
		{ 0, 4000, NICREF_ADP_TIME_BASE_NOT_POW2 },
		{ 6, 4000, NICREF_ADP_TIME_BASE_NOT_POW2 },
		{ 12, 4000, NICREF_ADP_TIME_BASE_NOT_POW2 },
		{ 0xFFFF, 4000, NICREF_ADP_TIME_BASE_NOT_POW2 },
		{ 2, 4000, NICREF_ADP_TIME_BASE_BELOW_MIN },  /* 2000 ns < 4000 */
		{ 4, 4000, NICREF_ADP_OK },                   /* 4000 = 4000: the boundary */
		{ 4, 4001, NICREF_ADP_TIME_BASE_BELOW_MIN },  /* 4000 < 4001 */
		{ 8, 4001, NICREF_ADP_OK },                   /* 8000 >= 4001 */
		{ 1, 0, NICREF_ADP_OK },                      /* 1000 >= 0 */
		{ 0x8000, 4000, NICREF_ADP_OK },              /* 32768 us: the largest power of 2 */
	};
	for (size_t i = 0; i < sizeof c / sizeof c[0]; i++) {
		struct nicref_adp_profile p = example();
		p.time_base = c[i].base;
		cr_expect_eq(nicref_adp_profile_check(&p, c[i].min_ns, 4), c[i].want,
			     "time_base %u min %u: %s", c[i].base, c[i].min_ns,
			     nicref_adp_rule_name(nicref_adp_profile_check(&p, c[i].min_ns, 4)));
	}
}

/* seed 000 L67-69, L129-131, L181: 1..min(4, adp_retx_profile_max_range_num) (D-ADP-19). */
Test(adp_profile, range_num)
{
	struct nicref_adp_profile p = example();
	p.range_num = 0;
	cr_expect_eq(check(&p), NICREF_ADP_BAD_RANGE_NUM);
	p.range_num = 5; /* 3-bit field, 4 entries */
	cr_expect_eq(check(&p), NICREF_ADP_BAD_RANGE_NUM);
	p.range_num = 7;
	cr_expect_eq(check(&p), NICREF_ADP_BAD_RANGE_NUM);
	p = example(); /* range_num 3 against a device that allows 2, 3, 8 (array: 4) */
	cr_expect_eq(nicref_adp_profile_check(&p, 4000, 2), NICREF_ADP_BAD_RANGE_NUM);
	cr_expect_eq(nicref_adp_profile_check(&p, 4000, 3), NICREF_ADP_OK);
	p.range_num = 1;
	cr_expect_eq(check(&p), NICREF_ADP_OK);
	/* 4 ranges: a 4th entry above range 2 (lo 11 > 8), prev 2 < 3. */
	p = example();
	p.range_num = 4;
	p.range[3] = (struct nicref_adp_range){ 2, 0, 1, 11, 1 };
	cr_expect_eq(check(&p), NICREF_ADP_OK);
	cr_expect_eq(nicref_adp_profile_check(&p, 4000, 8), NICREF_ADP_OK);
	p.range_num = 5;
	cr_expect_eq(nicref_adp_profile_check(&p, 4000, 8), NICREF_ADP_BAD_RANGE_NUM);
}

/* seed 000 L137, L185: start_range_index names a valid entry. */
Test(adp_profile, start_range_index)
{
	struct nicref_adp_profile p = example();
	p.start_range_index = 2; /* range_num 3: indices 0-2 */
	cr_expect_eq(check(&p), NICREF_ADP_OK);
	p.start_range_index = 3;
	cr_expect_eq(check(&p), NICREF_ADP_BAD_START_RANGE);
	p.start_range_index = 7;
	cr_expect_eq(check(&p), NICREF_ADP_BAD_START_RANGE);
}

/* seed 001 L41: range_low_bound[i] < range_low_bound[j] for i < j; seed 000 L185: only the
 * first range_num entries count. */
Test(adp_profile, sorted)
{
	struct nicref_adp_profile p = example();
	p.range[1].range_low_bound = 1; /* equal to range 0's */
	cr_expect_eq(check(&p), NICREF_ADP_RANGES_NOT_SORTED);
	p = example();
	p.range[2].range_low_bound = 4; /* 4 < 5 of range 1 */
	cr_expect_eq(check(&p), NICREF_ADP_RANGES_NOT_SORTED);
	p = example();
	p.range[3] = (struct nicref_adp_range){ 0, 3, 0, 0, 0 }; /* beyond range_num: ignored */
	cr_expect_eq(check(&p), NICREF_ADP_OK);
	/* Overlapping ranges are allowed: only the low bounds must increase. */
	p = example();
	p.range[0].range_size = 9; /* [1, 10] covers ranges 1 and 2 */
	cr_expect_eq(check(&p), NICREF_ADP_OK);
}

/* seed 001 L61 "prev_range_index must always be less than current_range"; range 0: 0 (D-ADP-5). */
Test(adp_profile, prev_range_index)
{
	struct nicref_adp_profile p = example();
	p.range[0].prev_range_index = 1;
	cr_expect_eq(check(&p), NICREF_ADP_BAD_PREV_RANGE);
	p = example();
	p.range[1].prev_range_index = 1; /* not < 1 */
	cr_expect_eq(check(&p), NICREF_ADP_BAD_PREV_RANGE);
	p = example();
	p.range[2].prev_range_index = 2;
	cr_expect_eq(check(&p), NICREF_ADP_BAD_PREV_RANGE);
	p.range[2].prev_range_index = 0;
	cr_expect_eq(check(&p), NICREF_ADP_OK);
}

/* seed 000 L215-221: 3 is reserved. */
Test(adp_profile, dec_mode)
{
	for (unsigned r = 0; r < 3; r++) {
		struct nicref_adp_profile p = example();
		p.range[r].dec_mode = 3;
		cr_expect_eq(check(&p), NICREF_ADP_BAD_DEC_MODE, "range %u", r);
		for (unsigned m = 0; m < 3; m++) {
			p.range[r].dec_mode = (uint8_t)m;
			cr_expect_eq(check(&p), NICREF_ADP_OK, "range %u dec_mode %u", r, m);
		}
	}
}

/* seed 000 L227: at least one use of each value (D-ADP-6); 10 bits. */
Test(adp_profile, retry_num)
{
	struct nicref_adp_profile p = example();
	p.range[1].timeout_retry_num = 0;
	cr_expect_eq(check(&p), NICREF_ADP_BAD_RETRY_NUM);
	p.range[1].timeout_retry_num = 1023;
	cr_expect_eq(check(&p), NICREF_ADP_OK);
}

/* D-ADP-7: 4000 << e < 2^63 iff 2^e < 2^63 / 4000 = 2305843009213693.95, i.e. e <= 51
 * (2^51 = 2251799813685248, 2^52 = 4503599627370496). */
Test(adp_profile, overflow)
{
	struct nicref_adp_profile p = example();
	p.range_num = 1;
	p.range[0] = (struct nicref_adp_range){ 0, 0, 1, 40, 11 }; /* top 51 */
	cr_expect_eq(check(&p), NICREF_ADP_OK);
	p.range[0].range_size = 12; /* top 52 */
	cr_expect_eq(check(&p), NICREF_ADP_OVERFLOW);
	p.range[0].range_size = 255; /* 40 + 255: no 8-bit wrap-around */
	cr_expect_eq(check(&p), NICREF_ADP_OVERFLOW);
	p = example();
	p.timeout_init_low_bound = 50;
	p.timeout_init_range_size = 1; /* top 51 */
	cr_expect_eq(check(&p), NICREF_ADP_OK);
	p.timeout_init_range_size = 2; /* top 52 (seed 000 L175's bound, both readings) */
	cr_expect_eq(check(&p), NICREF_ADP_OVERFLOW);
	p = example();
	p.retx_total_timeout = 51;
	cr_expect_eq(check(&p), NICREF_ADP_OK);
	p.retx_total_timeout = 52;
	cr_expect_eq(check(&p), NICREF_ADP_OVERFLOW);
	p.qp_total_timeout = 1; /* seed 000 L163: "Valid if qp_total_timeout is 0x0" */
	cr_expect_eq(check(&p), NICREF_ADP_OK);
	/* time_base 32768 us = 32768000 ns: 2^63 / 32768000 = 2.815e11; 2^38 = 2.749e11 fits,
	 * 2^39 = 5.498e11 does not. */
	p = example();
	p.time_base = 0x8000;
	p.retx_total_timeout = 38;
	cr_expect_eq(check(&p), NICREF_ADP_OK);
	p.retx_total_timeout = 39;
	cr_expect_eq(check(&p), NICREF_ADP_OVERFLOW);
}

/* The first rule in enum order wins. */
Test(adp_profile, order_and_names)
{
	struct nicref_adp_profile p = example();
	p.time_unit = 0;
	p.time_base = 3;
	p.range_num = 0;
	cr_expect_eq(check(&p), NICREF_ADP_BAD_TIME_UNIT);
	p.time_unit = 1;
	cr_expect_eq(check(&p), NICREF_ADP_TIME_BASE_NOT_POW2);
	p.time_base = 4;
	cr_expect_eq(check(&p), NICREF_ADP_BAD_RANGE_NUM);
	p = example();
	p.range[2].dec_mode = 3;
	p.range[2].timeout_retry_num = 0;
	p.range[2].prev_range_index = 5;
	cr_expect_eq(check(&p), NICREF_ADP_BAD_PREV_RANGE);
	cr_expect_str_eq(nicref_adp_rule_name(NICREF_ADP_OVERFLOW), "OVERFLOW");
	cr_expect_str_eq(nicref_adp_rule_citation(NICREF_ADP_RANGES_NOT_SORTED), "seed 001 L41");
	cr_expect_null(nicref_adp_rule_name(NICREF_ADP_RULE_COUNT));
	for (unsigned r = 0; r < NICREF_ADP_RULE_COUNT; r++)
		cr_expect_not_null(nicref_adp_rule_name((enum nicref_adp_rule)r));
}

Test(adp_profile, options)
{
	struct nicref_adp_options o = { 0, 0, 0, 0, 0 };
	cr_expect(nicref_adp_options_ok(&o));
	o = (struct nicref_adp_options){ 1, 2, 1, 1, 1 };
	cr_expect(nicref_adp_options_ok(&o));
	o.first_timeout = 2;
	cr_expect_not(nicref_adp_options_ok(&o));
	o = (struct nicref_adp_options){ 0, 3, 0, 0, 0 };
	cr_expect_not(nicref_adp_options_ok(&o));
	o = (struct nicref_adp_options){ 0, 0, 2, 0, 0 };
	cr_expect_not(nicref_adp_options_ok(&o));
	o = (struct nicref_adp_options){ 0, 0, 0, 2, 0 };
	cr_expect_not(nicref_adp_options_ok(&o));
	o = (struct nicref_adp_options){ 0, 0, 0, 0, 2 }; /* retry_uses: arms or retransmissions */
	cr_expect_not(nicref_adp_options_ok(&o));
}

/* ---- Codec: the seed 000 bit positions ------------------------------------------------------ */

/* E as seed 000 lays it out:
 *   00h: range_num 3 << 28 = 0x30000000 | time_unit 1 << 22 = 0x00400000 | time_base 4
 *        = 0x30400004
 *   04h: retx_total_timeout 12 << 24 = 0x0C000000 | low 2 << 8 = 0x200 | size 2 = 0x0C000202
 *   08h: dec 1 << 26 = 0x04000000 | retry 2 << 16 = 0x20000 | lo 1 << 8 | size 3 = 0x04020103
 *   0Ch: retry 1 << 16 = 0x10000 | lo 5 << 8 = 0x500 | size 2 = 0x00010502
 *   10h: prev 1 << 28 = 0x10000000 | dec 2 << 26 = 0x08000000 | 0x10000 | 0x800 | 2
 *        = 0x18010802
 *   14h: 0 */
static const uint32_t E_DWORDS[6] = { 0x30400004, 0x0C000202, 0x04020103,
				      0x00010502, 0x18010802, 0 };

static void expect_profile_eq(const struct nicref_adp_profile *a, const struct nicref_adp_profile *b)
{
	cr_expect(a->qp_total_timeout == b->qp_total_timeout && a->range_num == b->range_num &&
		  a->start_range_index == b->start_range_index && a->time_unit == b->time_unit &&
		  a->time_base == b->time_base && a->retx_total_timeout == b->retx_total_timeout &&
		  a->timeout_init_low_bound == b->timeout_init_low_bound &&
		  a->timeout_init_range_size == b->timeout_init_range_size,
		  "profile header differs");
	for (unsigned i = 0; i < NICREF_ADP_MAX_RANGES; i++) {
		const struct nicref_adp_range *x = &a->range[i], *y = &b->range[i];
		cr_expect(x->prev_range_index == y->prev_range_index && x->dec_mode == y->dec_mode &&
			  x->timeout_retry_num == y->timeout_retry_num &&
			  x->range_low_bound == y->range_low_bound && x->range_size == y->range_size,
			  "range %u differs", i);
	}
}

Test(adp_codec, encode_decode)
{
	uint8_t buf[NICREF_ADP_PROFILE_BYTES], want[NICREF_ADP_PROFILE_BYTES];
	memset(want, 0, sizeof want);
	for (unsigned i = 0; i < 6; i++)
		tl_put32(want + 4 * i, E_DWORDS[i]);
	struct nicref_adp_profile p = example(), q;
	memset(buf, 0xAA, sizeof buf);
	cr_assert_eq(nicref_adp_profile_encode(&p, buf, sizeof buf), 0);
	cr_assert_arr_eq(buf, want, sizeof want);
	memset(&q, 0x55, sizeof q);
	cr_assert_eq(nicref_adp_profile_decode(want, sizeof want, &q), 0);
	expect_profile_eq(&q, &p);
	/* qp_total_timeout is 00h[31]; every bit of the field widths. */
	memset(want, 0, sizeof want);
	tl_put32(want, 0x80000000u);
	tl_put32(want + 0x14, 0x7FFFFFFFu); /* prev 7, dec 3, retry 0x3FF, lo 0xFF, size 0xFF */
	cr_assert_eq(nicref_adp_profile_decode(want, 0x18, &q), 0);
	cr_expect_eq(q.qp_total_timeout, 1);
	cr_expect_eq(q.range[3].prev_range_index, 7);
	cr_expect_eq(q.range[3].dec_mode, 3);
	cr_expect_eq(q.range[3].timeout_retry_num, 0x3FF);
	cr_expect_eq(q.range[3].range_low_bound, 0xFF);
	cr_expect_eq(q.range[3].range_size, 0xFF);
	/* Too short, or a value wider than its field. */
	cr_expect_eq(nicref_adp_profile_decode(want, 0x17, &q), -1);
	cr_expect_eq(nicref_adp_profile_encode(&p, buf, 0x2F), -1);
	p.range_num = 8; /* 3 bits */
	cr_expect_eq(nicref_adp_profile_encode(&p, buf, sizeof buf), -1);
	p = example();
	p.range[0].timeout_retry_num = 1024; /* 10 bits */
	cr_expect_eq(nicref_adp_profile_encode(&p, buf, sizeof buf), -1);
}
