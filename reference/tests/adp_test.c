/* The ADP engine (reference/adp/): profile validation, the per-QP timer state machine, the
 * timeline, the profile codec. Seeds 000 (ROCE_ACCL and profile layouts) and 001 (the
 * algorithm); decisions D-ADP-* in docs/decisions.md.
 *
 * Every expected value is worked out by hand from the seed text below, with the arithmetic
 * in the comments; none is copied from what the model prints.
 *
 * The example profile E (also docs/adp.md):
 *   time_unit 1 (us), time_base 4 -> base = 4000 ns; V(e) = 4000 << e ns:
 *     e:    1     2      3      4       5       6       7        8        9        10
 *     V: 8000 16000  32000  64000  128000  256000  512000  1024000  2048000  4096000
 *   init low 2, size 2: seed 001 L7 draws e in [2, 2 + 2 - 1] = {2, 3}
 *   range 0: lo 1 size 3 -> [1, 4], retry_num 2, dec_mode 1 TO_DIV_2, prev 0
 *   range 1: lo 5 size 2 -> [5, 7], retry_num 1, dec_mode 0 TO_DIV_4, prev 0
 *   range 2: lo 8 size 2 -> [8, 10], retry_num 1, dec_mode 2 TO_LOW_BOUND, prev 1
 *   start_range_index 0; qp_total_timeout 0, retx_total_timeout 12 -> 4000 << 12 = 16384000
 *   QP: timeout 14 -> cap 4096 << 14 = 67108864 ns (above every V(e) used), retry_cnt 7. */
#include <criterion/criterion.h>
#include <stdint.h>
#include <string.h>

#include "nicref/nicref.h"

static struct nicref_adp_profile example(void)
{
	struct nicref_adp_profile p;
	memset(&p, 0, sizeof p);
	p.range_num = 3;
	p.start_range_index = 0;
	p.time_unit = 1;
	p.time_base = 4;
	p.retx_total_timeout = 12;
	p.timeout_init_low_bound = 2;
	p.timeout_init_range_size = 2;
	p.range[0] = (struct nicref_adp_range){ 0, 1, 2, 1, 3 };
	p.range[1] = (struct nicref_adp_range){ 0, 0, 1, 5, 2 };
	p.range[2] = (struct nicref_adp_range){ 1, 2, 1, 8, 2 };
	return p;
}

static struct nicref_adp_mode mode_of(const struct nicref_adp_profile *p)
{
	struct nicref_adp_mode m;
	memset(&m, 0, sizeof m);
	m.adp = true;
	m.profile = *p;
	m.base_timeout_min_ns = 4000; /* seed 001 L27/L60: 4 us */
	return m;
}

static const struct nicref_adp_qp_attr QP_ATTR = { 14, 7 };

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
	struct nicref_adp_options o = { 0, 0, 0, 0 };
	cr_expect(nicref_adp_options_ok(&o));
	o = (struct nicref_adp_options){ 1, 2, 1, 1 };
	cr_expect(nicref_adp_options_ok(&o));
	o.first_timeout = 2;
	cr_expect_not(nicref_adp_options_ok(&o));
	o = (struct nicref_adp_options){ 0, 3, 0, 0 };
	cr_expect_not(nicref_adp_options_ok(&o));
	o = (struct nicref_adp_options){ 0, 0, 2, 0 };
	cr_expect_not(nicref_adp_options_ok(&o));
	o = (struct nicref_adp_options){ 0, 0, 0, 2 };
	cr_expect_not(nicref_adp_options_ok(&o));
}

/* ---- Codec: the seed 000 bit positions ------------------------------------------------------ */

static void put32(uint8_t *b, uint32_t v)
{
	b[0] = (uint8_t)(v >> 24);
	b[1] = (uint8_t)(v >> 16);
	b[2] = (uint8_t)(v >> 8);
	b[3] = (uint8_t)v;
}

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
		put32(want + 4 * i, E_DWORDS[i]);
	struct nicref_adp_profile p = example(), q;
	memset(buf, 0xAA, sizeof buf);
	cr_assert_eq(nicref_adp_profile_encode(&p, buf, sizeof buf), 0);
	cr_assert_arr_eq(buf, want, sizeof want);
	memset(&q, 0x55, sizeof q);
	cr_assert_eq(nicref_adp_profile_decode(want, sizeof want, &q), 0);
	expect_profile_eq(&q, &p);
	/* qp_total_timeout is 00h[31]; every bit of the field widths. */
	memset(want, 0, sizeof want);
	put32(want, 0x80000000u);
	put32(want + 0x14, 0x7FFFFFFFu); /* prev 7, dec 3, retry 0x3FF, lo 0xFF, size 0xFF */
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

/* ---- Timeline ------------------------------------------------------------------------------- */

struct want {
	uint64_t sent, armed;
	int range;
	unsigned e;
	enum nicref_adp_reason reason;
	unsigned lost;
};

static void expect_timeline(const struct nicref_adp_attempt *got, size_t n, const struct want *w,
			    size_t nw)
{
	cr_assert_eq(n, nw, "%zu attempts, expected %zu", n, nw);
	for (size_t i = 0; i < n; i++) {
		cr_expect_eq(got[i].attempt, got[0].attempt + i);
		cr_expect_eq(got[i].sent_ns, w[i].sent, "attempt %zu sent %llu, expected %llu", i,
			     (unsigned long long)got[i].sent_ns, (unsigned long long)w[i].sent);
		cr_expect_eq(got[i].armed_ns, w[i].armed, "attempt %zu armed %llu, expected %llu", i,
			     (unsigned long long)got[i].armed_ns, (unsigned long long)w[i].armed);
		cr_expect_eq(got[i].range, w[i].range, "attempt %zu range", i);
		cr_expect_eq(got[i].e, w[i].e, "attempt %zu e", i);
		cr_expect_eq(got[i].reason, w[i].reason, "attempt %zu reason %s, expected %s", i,
			     nicref_adp_reason_name(got[i].reason), nicref_adp_reason_name(w[i].reason));
		cr_expect_eq(got[i].lost, w[i].lost, "attempt %zu lost", i);
	}
}

/* Seed 0: the first splitmix64 draw 0xE220A8397B1DCDAF is odd, so e = 2 + 1 = 3. Every
 * transmission lost: the escalation of escalation_in_range_first_timeout, ending at
 * 16448000 >= 16384000 with 11 retransmissions and one total timeout. */
Test(adp_timeline, all_lost_total_timeout)
{
	struct nicref_adp_profile p = example();
	const uint64_t loss[1] = { UINT64_MAX };
	struct nicref_adp_run run = { .mode = mode_of(&p), .attr = QP_ATTR, .seed = 0,
				      .loss = loss, .loss_words = 1, .rtt_ns = 1000,
				      .messages = 1, .max_attempts = 100 };
	static const struct want w[] = {
		{ 0, 32000, -1, 3, NICREF_ADP_R_INIT, 1 },
		{ 32000, 32000, 0, 3, NICREF_ADP_R_ENTER_RANGE, 1 },
		{ 64000, 64000, 0, 4, NICREF_ADP_R_DOUBLE, 1 },
		{ 128000, 64000, 0, 4, NICREF_ADP_R_RETRY_SAME, 1 },
		{ 192000, 128000, 1, 5, NICREF_ADP_R_NEXT_RANGE, 1 },
		{ 320000, 256000, 1, 6, NICREF_ADP_R_DOUBLE, 1 },
		{ 576000, 512000, 1, 7, NICREF_ADP_R_DOUBLE, 1 },
		{ 1088000, 1024000, 2, 8, NICREF_ADP_R_NEXT_RANGE, 1 },
		{ 2112000, 2048000, 2, 9, NICREF_ADP_R_DOUBLE, 1 },
		{ 4160000, 4096000, 2, 10, NICREF_ADP_R_DOUBLE, 1 },
		{ 8256000, 4096000, 2, 10, NICREF_ADP_R_CEILING, 1 },
		{ 12352000, 4096000, 2, 10, NICREF_ADP_R_CEILING, 1 },
	};
	struct nicref_adp_attempt out[32];
	size_t n = 0;
	struct nicref_adp_counters c = { 0, 0 };
	cr_expect_eq(nicref_adp_timeline(&run, out, 32, &n, &c), NICREF_ADP_END_RETRY_EXC);
	expect_timeline(out, n, w, sizeof w / sizeof w[0]);
	cr_expect_eq(c.roce_adp_retrans, 11);
	cr_expect_eq(c.roce_adp_retrans_to, 1);
	/* qp_total_timeout, QP timeout 10, retry_cnt 2: total 2 * 4194304 = 8388608; expiry at
	 * 8256000 < it retransmits, the one at 12352000 fails: 11 attempts. */
	p.qp_total_timeout = 1;
	run.mode = mode_of(&p);
	run.attr = (struct nicref_adp_qp_attr){ 10, 2 };
	c = (struct nicref_adp_counters){ 0, 0 };
	cr_expect_eq(nicref_adp_timeline(&run, out, 32, &n, &c), NICREF_ADP_END_RETRY_EXC);
	expect_timeline(out, n, w, 11); /* every V(e) used is below the cap 4194304 */
	cr_expect(c.roce_adp_retrans == 10 && c.roce_adp_retrans_to == 1);
}

/* Losses 0-4, then acknowledged (rtt 1000): progress at 321000 decreases range 1's 6 by
 * TO_DIV_4 to 5; message 1 is acknowledged at 322000: at lo 5, back to range 0 at 4. */
Test(adp_timeline, progress_decrease)
{
	struct nicref_adp_profile p = example();
	const uint64_t loss[1] = { 0x1F };
	struct nicref_adp_run run = { .mode = mode_of(&p), .attr = QP_ATTR, .seed = 0,
				      .loss = loss, .loss_words = 1, .rtt_ns = 1000,
				      .messages = 2, .max_attempts = 100 };
	static const struct want w[] = {
		{ 0, 32000, -1, 3, NICREF_ADP_R_INIT, 1 },
		{ 32000, 32000, 0, 3, NICREF_ADP_R_ENTER_RANGE, 1 },
		{ 64000, 64000, 0, 4, NICREF_ADP_R_DOUBLE, 1 },
		{ 128000, 64000, 0, 4, NICREF_ADP_R_RETRY_SAME, 1 },
		{ 192000, 128000, 1, 5, NICREF_ADP_R_NEXT_RANGE, 1 },
		{ 320000, 256000, 1, 6, NICREF_ADP_R_DOUBLE, 0 },
		{ 321000, 128000, 1, 5, NICREF_ADP_R_DECREASE, 0 },
	};
	struct nicref_adp_attempt out[16];
	size_t n = 0;
	struct nicref_adp_counters c = { 0, 0 };
	cr_expect_eq(nicref_adp_timeline(&run, out, 16, &n, &c), NICREF_ADP_END_DONE);
	expect_timeline(out, n, w, sizeof w / sizeof w[0]);
	cr_expect(c.roce_adp_retrans == 5 && c.roce_adp_retrans_to == 0);
	/* Under the other trigger reading the first progress keeps 6; the clean second one
	 * would decrease, after the run. */
	run.mode.opt.dec_trigger = NICREF_ADP_DEC_CLEAN_PROGRESS;
	static const struct want w2[] = {
		{ 320000, 256000, 1, 6, NICREF_ADP_R_DOUBLE, 0 },
		{ 321000, 256000, 1, 6, NICREF_ADP_R_KEEP, 0 },
	};
	cr_expect_eq(nicref_adp_timeline(&run, out, 16, &n, NULL), NICREF_ADP_END_DONE);
	cr_assert_eq(n, 7);
	expect_timeline(out + 5, 2, w2, 2);
}

/* Limits, late ACKs, the classic timer and its stall. */
Test(adp_timeline, limits_and_classic)
{
	struct nicref_adp_profile p = example();
	const uint64_t loss[1] = { UINT64_MAX };
	struct nicref_adp_run run = { .mode = mode_of(&p), .attr = QP_ATTR, .seed = 0,
				      .loss = loss, .loss_words = 1, .rtt_ns = 1000,
				      .messages = 1, .max_attempts = 3 };
	struct nicref_adp_attempt out[8];
	size_t n = 0;
	cr_expect_eq(nicref_adp_timeline(&run, out, 8, &n, NULL), NICREF_ADP_END_LIMIT);
	cr_expect_eq(n, 3);
	run.max_attempts = 0; /* NICREF_ADP_TIMELINE_MAX; the cap of out limits */
	cr_expect_eq(nicref_adp_timeline(&run, out, 2, &n, NULL), NICREF_ADP_END_LIMIT);
	cr_expect_eq(n, 2);
	cr_expect_eq(nicref_adp_timeline(&run, NULL, 0, &n, NULL), NICREF_ADP_END_RETRY_EXC);
	cr_expect_eq(n, 0);
	/* No loss bits, rtt 40000 >= armed 32000: the timer wins (lost 2); then 40000 < 64000. */
	run.loss = NULL;
	run.loss_words = 0;
	run.rtt_ns = 40000;
	static const struct want late[] = {
		{ 0, 32000, -1, 3, NICREF_ADP_R_INIT, 2 },
		{ 32000, 32000, 0, 3, NICREF_ADP_R_ENTER_RANGE, 2 },
		{ 64000, 64000, 0, 4, NICREF_ADP_R_DOUBLE, 0 },
	};
	cr_expect_eq(nicref_adp_timeline(&run, out, 8, &n, NULL), NICREF_ADP_END_DONE);
	expect_timeline(out, n, late, 3);
	/* Classic: timeout 10 (4194304 ns), retry_cnt 3: 4 transmissions, then RETRY_EXC. */
	memset(&run.mode, 0, sizeof run.mode);
	run.attr = (struct nicref_adp_qp_attr){ 10, 3 };
	run.loss = loss;
	run.loss_words = 1;
	run.rtt_ns = 1000;
	static const struct want cl[] = {
		{ 0, 4194304, -1, 10, NICREF_ADP_R_CLASSIC, 1 },
		{ 4194304, 4194304, -1, 10, NICREF_ADP_R_CLASSIC, 1 },
		{ 8388608, 4194304, -1, 10, NICREF_ADP_R_CLASSIC, 1 },
		{ 12582912, 4194304, -1, 10, NICREF_ADP_R_CLASSIC, 1 },
	};
	struct nicref_adp_counters c = { 0, 0 };
	cr_expect_eq(nicref_adp_timeline(&run, out, 8, &n, &c), NICREF_ADP_END_RETRY_EXC);
	expect_timeline(out, n, cl, 4);
	cr_expect(c.roce_adp_retrans == 0 && c.roce_adp_retrans_to == 0, "ADP off: no count");
	run.mode.retrans_en = true;
	cr_expect_eq(nicref_adp_timeline(&run, out, 8, &n, &c), NICREF_ADP_END_RETRY_EXC);
	cr_expect(c.roce_adp_retrans == 3 && c.roce_adp_retrans_to == 1);
	run.attr.timeout = 0;
	cr_expect_eq(nicref_adp_timeline(&run, out, 8, &n, NULL), NICREF_ADP_END_STALL);
	cr_expect_eq(n, 1);
	cr_expect_eq(out[0].armed_ns, 0);
	/* No messages: nothing sent. */
	run.messages = 0;
	cr_expect_eq(nicref_adp_timeline(&run, out, 8, &n, NULL), NICREF_ADP_END_DONE);
	cr_expect_eq(n, 0);
}

/* A loss bit beyond 64: word 1 bit 0 is attempt 64. Acked transmissions with rtt 1000 from
 * e 3 (INITIAL, no range): progress keeps 3, so 64 messages go at 0, 1000, ..., 63000;
 * attempt 64 (message 64) at 64000 is lost, expires at 96000 and enters range 0. */
Test(adp_timeline, loss_words)
{
	struct nicref_adp_profile p = example();
	const uint64_t loss[2] = { 0, 1 };
	struct nicref_adp_run run = { .mode = mode_of(&p), .attr = QP_ATTR, .seed = 0,
				      .loss = loss, .loss_words = 2, .rtt_ns = 1000,
				      .messages = 66, .max_attempts = 0 };
	struct nicref_adp_attempt out[80];
	size_t n = 0;
	cr_expect_eq(nicref_adp_timeline(&run, out, 80, &n, NULL), NICREF_ADP_END_DONE);
	cr_assert_eq(n, 67);
	cr_expect(out[63].sent_ns == 63000 && out[63].reason == NICREF_ADP_R_KEEP &&
		  out[63].lost == 0);
	cr_expect(out[64].sent_ns == 64000 && out[64].message == 64 && out[64].lost == 1);
	cr_expect(out[65].sent_ns == 96000 && out[65].message == 64 &&
		  out[65].reason == NICREF_ADP_R_ENTER_RANGE && out[65].range == 0);
	/* Acked at 97000: range 0 TO_DIV_2: 3 - 1 = 2. */
	cr_expect(out[66].sent_ns == 97000 && out[66].message == 65 && out[66].e == 2 &&
		  out[66].reason == NICREF_ADP_R_DECREASE);
}
