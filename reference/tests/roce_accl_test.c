/* The ROCE_ACCL register (reference/reg/roce_accl.c) through ACCESS_REGISTER commands: seed 000
 * (layout, query/set semantics, read-only capabilities), seed 001 (profile rules, selection,
 * no return to firmware-defined timeouts without a reset), decisions D-ADP-* in
 * docs/decisions.md. Register id 0x4050 is nicref's choice (the seeds give none).
 *
 * Inputs are built byte by byte from the seed's tables (big-endian dwords) and posted through
 * the command queue; expected contents are transcribed from the seeds, never from what the
 * model prints. */
#include <stdint.h>
#include <string.h>

#include "cmd/ctl_dev.h"
#include "reg/roce_accl.h"
#include "testlib.h"

#define OP_ENABLE_HCA 0x104u
#define WRITE TL_REG_WRITE /* PRM T222 op_mod */
#define READ TL_REG_READ
#define ROCE_ACCL 0x4050u /* nicref's choice (docs/adp.md) */
#define SIZE 0x40u        /* seed 000: 00h-0Fh, then the 384-bit profile at 10h-3Fh */

#define OK 0x00u
#define BAD_PARAM 0x03u
#define BAD_INPUT_LEN 0x50u

static struct nicref_dev *dev;

static void make_dev(const struct nicref_profile *prof)
{
	struct nicref_config cfg;
	nicref_config_default(&cfg);
	if (prof)
		cfg.profile = *prof;
	cfg.profile.reserved_check = 1; /* strict (D-CMD-8) */
	dev = tl_queue_dev(&cfg);
	tl_queue_simple(dev, OP_ENABLE_HCA, 0, 0);
}

static void setup(void)
{
	make_dev(NULL);
}

static void teardown(void)
{
	nicref_dev_destroy(dev);
	dev = NULL;
}

/* ---- The register's dwords -------------------------------------------------------------- */

/* ROCE_ACCL data: 16 dwords (00h-3Ch). */
struct regval {
	uint32_t d[SIZE / 4];
};

static struct tl_result reg_access(unsigned op_mod, const struct regval *v, uint32_t size)
{
	struct tl_reg c = tl_reg_cmd(op_mod, ROCE_ACCL, SIZE);
	for (unsigned i = 0; i < SIZE / 4; i++)
		tl_reg_set(&c, 4 * i, 31, 0, v->d[i]);
	return tl_queue_cmd(dev, c.in, 0x10 + size, 0x10 + SIZE);
}

static struct tl_result reg_write(const struct regval *v)
{
	return reg_access(WRITE, v, SIZE);
}

static struct regval reg_read(void)
{
	struct regval zero, got;
	memset(&zero, 0, sizeof zero);
	struct tl_result r = reg_access(READ, &zero, SIZE);
	cr_assert_eq(r.status, OK, "READ status 0x%x", r.status);
	for (unsigned i = 0; i < SIZE / 4; i++)
		got.d[i] = tl_get32(r.out + 0x10 + 4 * i);
	return got;
}

/* The example profile E of adp_test.c / docs/adp.md as seed 000 lays it out at 10h:
 *   10h: range_num 3 << 28 | time_unit 1 << 22 | time_base 4            = 0x30400004
 *   14h: retx_total_timeout 12 << 24 | init low 2 << 8 | init size 2     = 0x0C000202
 *   18h: range 0: dec 1 << 26 | retry 2 << 16 | lo 1 << 8 | size 3     = 0x04020103
 *   1Ch: range 1: dec 0 | retry 1 << 16 | lo 5 << 8 | size 2           = 0x00010502
 *   20h: range 2: prev 1 << 28 | dec 2 << 26 | retry 1 << 16 | lo 8 << 8 | 2 = 0x18010802 */
static const uint32_t E_PROFILE[6] = { 0x30400004, 0x0C000202, 0x04020103,
				       0x00010502, 0x18010802, 0 };

/* 00h: adp_retx_profile_select bit 28 = 0x10000000, roce_adp_retrans_field_select bit 0 = 1.
 * 04h: adp_retx_profile_id 30:28 (id << 28), roce_adp_retrans_en bit 0. */
#define SEL_PROFILE 0x10000000u
#define SEL_EN 0x00000001u

static struct regval profile_write(unsigned id, const uint32_t *prof)
{
	struct regval v;
	memset(&v, 0, sizeof v);
	v.d[0] = SEL_PROFILE;
	v.d[1] = (uint32_t)id << 28;
	for (unsigned i = 0; i < 6; i++)
		v.d[4 + i] = prof[i];
	return v;
}

/* The default capabilities at 08h: max_range_num 4 << 28 = 0x40000000, max_id 7 << 24 =
 * 0x07000000, base_timeout_min 4000 = 0xFA0: 0x47000FA0 (seed 000 L63-87; the values are the
 * public ones: 4 ranges, 4 us). */
#define CAPS_DEFAULT 0x47000FA0u

static void expect_read(uint32_t d0, uint32_t d1, uint32_t d2, const uint32_t *prof)
{
	struct regval got = reg_read();
	cr_expect_eq(got.d[0], d0, "00h 0x%08x, expected 0x%08x", got.d[0], d0);
	cr_expect_eq(got.d[1], d1, "04h 0x%08x, expected 0x%08x", got.d[1], d1);
	cr_expect_eq(got.d[2], d2, "08h 0x%08x, expected 0x%08x", got.d[2], d2);
	cr_expect_eq(got.d[3], 0, "0Ch is reserved");
	for (unsigned i = 0; i < 12; i++) {
		uint32_t want = prof && i < 6 ? prof[i] : 0;
		cr_expect_eq(got.d[4 + i], want, "profile %02Xh 0x%08x, expected 0x%08x", 4 * i,
			     got.d[4 + i], want);
	}
}

/* ---- Layouts --------------------------------------------------------------------------- */

/* seed 000 L19-97 (register), L113-185 (profile), L201-239 (range entry). */
Test(roce_accl_layout, seed_000)
{
	static const struct tl_row range[] = {
		{ "prev_range_index", 0x00, 30, 28 }, { "dec_mode", 0x00, 27, 26 },
		{ "timeout_retry_num", 0x00, 25, 16 }, { "range_low_bound", 0x00, 15, 8 },
		{ "range_size", 0x00, 7, 0 },
	};
	tl_expect_layout("adp_retx_timeout_range", 4, range, 5);
	static const struct tl_row prof[] = {
		{ "qp_total_timeout", 0x00, 31, 31 },
		{ "range_num", 0x00, 30, 28 },
		{ "start_range_index", 0x00, 26, 24 },
		{ "time_unit", 0x00, 23, 22 },
		{ "time_base", 0x00, 15, 0 },
		{ "retx_total_timeout", 0x04, 31, 24 },
		{ "timeout_init_low_bound", 0x04, 15, 8 },
		{ "timeout_init_range_size", 0x04, 7, 0 },
		{ "timeout_range_0_prev_range_index", 0x08, 30, 28 },
		{ "timeout_range_0_dec_mode", 0x08, 27, 26 },
		{ "timeout_range_0_timeout_retry_num", 0x08, 25, 16 },
		{ "timeout_range_0_range_low_bound", 0x08, 15, 8 },
		{ "timeout_range_0_range_size", 0x08, 7, 0 },
		{ "timeout_range_1_prev_range_index", 0x0C, 30, 28 },
		{ "timeout_range_1_dec_mode", 0x0C, 27, 26 },
		{ "timeout_range_1_timeout_retry_num", 0x0C, 25, 16 },
		{ "timeout_range_1_range_low_bound", 0x0C, 15, 8 },
		{ "timeout_range_1_range_size", 0x0C, 7, 0 },
		{ "timeout_range_2_prev_range_index", 0x10, 30, 28 },
		{ "timeout_range_2_dec_mode", 0x10, 27, 26 },
		{ "timeout_range_2_timeout_retry_num", 0x10, 25, 16 },
		{ "timeout_range_2_range_low_bound", 0x10, 15, 8 },
		{ "timeout_range_2_range_size", 0x10, 7, 0 },
		{ "timeout_range_3_prev_range_index", 0x14, 30, 28 },
		{ "timeout_range_3_dec_mode", 0x14, 27, 26 },
		{ "timeout_range_3_timeout_retry_num", 0x14, 25, 16 },
		{ "timeout_range_3_range_low_bound", 0x14, 15, 8 },
		{ "timeout_range_3_range_size", 0x14, 7, 0 },
	};
	tl_expect_layout("adp_retx_profile", 0x30, prof, 28);
	const struct nicref_layout *l = nicref_layout_find("roce_accl");
	cr_assert_not_null(l);
	cr_expect_eq(l->size, 0x40);
	cr_expect_eq(l->nfields, 7 + 28);
	static const struct tl_row reg[] = {
		{ "adp_retx_profile_select", 0x00, 28, 28 },
		{ "roce_adp_retrans_field_select", 0x00, 0, 0 },
		{ "adp_retx_profile_id", 0x04, 30, 28 },
		{ "roce_adp_retrans_en", 0x04, 0, 0 },
		{ "adp_retx_profile_max_range_num", 0x08, 30, 28 },
		{ "adp_retx_profile_max_id", 0x08, 26, 24 },
		{ "adp_retx_base_timeout_min", 0x08, 19, 0 },
		{ "qp_total_timeout", 0x10, 31, 31 },
		{ "time_base", 0x10, 15, 0 },
		{ "timeout_range_3_range_size", 0x24, 7, 0 },
	};
	for (size_t i = 0; i < sizeof reg / sizeof reg[0]; i++) {
		const struct nicref_field *f = nicref_layout_field(l, reg[i].name);
		cr_assert_not_null(f, "roce_accl has no %s", reg[i].name);
		cr_expect(f->prm_offset == reg[i].off && f->msb == reg[i].msb &&
			  f->lsb == reg[i].lsb, "roce_accl.%s", reg[i].name);
	}
	/* The whole-command views put the register at ACCESS_REGISTER 10h. */
	const struct nicref_layout *in = nicref_layout_find("access_reg_roce_accl_in");
	cr_assert_not_null(in);
	cr_expect_eq(in->size, 0x50);
	const struct nicref_field *f = nicref_layout_field(in, "adp_retx_profile_id");
	cr_assert_not_null(f);
	cr_expect_eq(f->prm_offset, 0x14);
	const struct nicref_layout *out = nicref_layout_find("access_reg_roce_accl_out");
	cr_assert_not_null(out);
	f = nicref_layout_field(out, "timeout_range_2_prev_range_index");
	cr_assert_not_null(f);
	cr_expect_eq(f->prm_offset, 0x30);
}

Test(roce_accl_layout, register_table)
{
	cr_expect_str_eq(nicref_register_name(ROCE_ACCL), "ROCE_ACCL");
	cr_expect_eq(nicref_register_size(ROCE_ACCL), SIZE);
	cr_expect_eq(nicref_register_find("ROCE_ACCL"), (int)ROCE_ACCL);
}

/* ---- Query and set ----------------------------------------------------------------------- */

TestSuite(roce_accl, .init = setup, .fini = teardown);

/* After reset: select bits 1 (supported/configurable, D-ADP-8), id 0 (firmware-defined,
 * seed 001 L70), ADP off, the capabilities, profile zero. */
Test(roce_accl, query_power_on)
{
	expect_read(SEL_PROFILE | SEL_EN, 0, CAPS_DEFAULT, NULL);
	struct nicref_adp_mode m;
	nicref_adp_dev_mode(dev, &m);
	cr_expect(!m.adp && !m.retrans_en && m.base_timeout_min_ns == 4000);
}

/* seed 000 L37, L59: roce_adp_retrans_en only with roce_adp_retrans_field_select. */
Test(roce_accl, enable)
{
	struct regval v;
	memset(&v, 0, sizeof v);
	v.d[1] = 1; /* en without its select: ignored */
	struct tl_result r = reg_write(&v);
	tl_expect_ok(&r);
	expect_read(SEL_PROFILE | SEL_EN, 0, CAPS_DEFAULT, NULL);
	v.d[0] = SEL_EN;
	r = reg_write(&v);
	tl_expect_ok(&r);
	expect_read(SEL_PROFILE | SEL_EN, 1, CAPS_DEFAULT, NULL);
	struct nicref_adp_mode m;
	nicref_adp_dev_mode(dev, &m);
	cr_expect(m.retrans_en && !m.adp, "enabled, no profile: classic timer (D-ADP-3)");
	v.d[1] = 0; /* turning ADP off is allowed: it is not a return to FW-defined timeouts */
	r = reg_write(&v);
	tl_expect_ok(&r);
	expect_read(SEL_PROFILE | SEL_EN, 0, CAPS_DEFAULT, NULL);
	/* The read-only capabilities are ignored on write. */
	v.d[0] = 0;
	v.d[2] = 0x12345678u & 0x770FFFFFu; /* only capability bits, no reserved ones */
	r = reg_write(&v);
	tl_expect_ok(&r);
	expect_read(SEL_PROFILE | SEL_EN, 0, CAPS_DEFAULT, NULL);
}

/* seed 000 L27 (set), D-ADP-1 (a written profile is selected), D-ADP-8 (query returns it). */
Test(roce_accl, set_profile_then_query)
{
	struct regval v = profile_write(1, E_PROFILE);
	struct tl_result r = reg_write(&v);
	tl_expect_ok(&r);
	expect_read(SEL_PROFILE | SEL_EN, 1u << 28, CAPS_DEFAULT, E_PROFILE);
	struct nicref_adp_mode m;
	nicref_adp_dev_mode(dev, &m);
	cr_expect(!m.adp, "selected, but roce_adp_retrans_en is 0");
	cr_expect_eq(m.profile.time_base, 4);
	cr_expect_eq(m.profile.range[2].prev_range_index, 1);
	/* Enable in the same write as a new profile, id 7 (= max_id). */
	v = profile_write(7, E_PROFILE);
	v.d[0] |= SEL_EN;
	v.d[1] |= 1;
	v.d[4] = 0x30400008; /* time_base 8 */
	r = reg_write(&v);
	tl_expect_ok(&r);
	uint32_t want[6];
	memcpy(want, E_PROFILE, sizeof want);
	want[0] = 0x30400008;
	expect_read(SEL_PROFILE | SEL_EN, 7u << 28 | 1u, CAPS_DEFAULT, want);
	nicref_adp_dev_mode(dev, &m);
	cr_expect(m.adp && m.retrans_en && m.profile.time_base == 8);
	/* The input id of a READ is not an index (D-ADP-8): reading "id 3" returns id 7. */
	struct regval q;
	memset(&q, 0, sizeof q);
	q.d[1] = 3u << 28;
	struct tl_result rr = reg_access(READ, &q, SIZE);
	tl_expect_ok(&rr);
	cr_expect_eq(tl_get32(rr.out + 0x14), 7u << 28 | 1u);
	/* Entries beyond range_num are kept as written (not validated, seed 000 L185). */
	memcpy(want, E_PROFILE, sizeof want);
	want[5] = 0x0C000000; /* range 3: dec_mode 3 (reserved), retry_num 0 */
	v = profile_write(2, want);
	r = reg_write(&v);
	tl_expect_ok(&r);
	expect_read(SEL_PROFILE | SEL_EN, 2u << 28 | 1u, CAPS_DEFAULT, want);
}

/* A refused write changes nothing: not the profile, not the id, not the enable bit written
 * in the same command. `bad` is E with dword i replaced. */
static void expect_refused(unsigned id, unsigned dword, uint32_t value, enum nicref_cmd_rule rule)
{
	uint32_t bad[6];
	memcpy(bad, E_PROFILE, sizeof bad);
	bad[dword] = value;
	struct regval v = profile_write(id, bad);
	v.d[0] |= SEL_EN;
	v.d[1] |= 1;
	struct tl_result r = reg_write(&v);
	tl_expect_rule(&r, BAD_PARAM, rule);
	expect_read(SEL_PROFILE | SEL_EN, 1u << 28, CAPS_DEFAULT, E_PROFILE);
}

/* Every rule of seeds 000/001 through the register, each against E already selected as id 1
 * with ADP off. Dword values: see E_PROFILE's comment. */
Test(roce_accl, rules)
{
	struct regval v = profile_write(1, E_PROFILE);
	struct tl_result r = reg_write(&v);
	tl_expect_ok(&r);
	/* seed 000 L47, seed 001 L66: id 0 (D-ADP-1). */
	expect_refused(0, 0, E_PROFILE[0], NICREF_RULE_ROCE_ACCL_PROFILE_ID_ZERO);
	/* time_unit 0 and 2: 0x30400004 with 23:22 = 00 / 10 -> 0x30000004 / 0x30800004. */
	expect_refused(2, 0, 0x30000004, NICREF_RULE_ROCE_ACCL_ADP_TIME_UNIT);
	expect_refused(2, 0, 0x30800004, NICREF_RULE_ROCE_ACCL_ADP_TIME_UNIT);
	/* time_base 6, 0: not powers of 2; 2: 2000 ns < 4000 (seed 001 L27). */
	expect_refused(2, 0, 0x30400006, NICREF_RULE_ROCE_ACCL_ADP_TIME_BASE_NOT_POW2);
	expect_refused(2, 0, 0x30400000, NICREF_RULE_ROCE_ACCL_ADP_TIME_BASE_NOT_POW2);
	expect_refused(2, 0, 0x30400002, NICREF_RULE_ROCE_ACCL_ADP_TIME_BASE_BELOW_MIN);
	/* range_num 0 and 5 (30:28). */
	expect_refused(2, 0, 0x00400004, NICREF_RULE_ROCE_ACCL_ADP_RANGE_NUM);
	expect_refused(2, 0, 0x50400004, NICREF_RULE_ROCE_ACCL_ADP_RANGE_NUM);
	/* start_range_index 3 with range_num 3 (26:24 = 3 -> 0x03000000). */
	expect_refused(2, 0, 0x33400004, NICREF_RULE_ROCE_ACCL_ADP_START_RANGE);
	/* range 1 lo 1 (= range 0's): 0x00010102. */
	expect_refused(2, 3, 0x00010102, NICREF_RULE_ROCE_ACCL_ADP_RANGES_NOT_SORTED);
	/* range 2 prev 2: 0x28010802; range 0 prev 1: 0x14020103. */
	expect_refused(2, 4, 0x28010802, NICREF_RULE_ROCE_ACCL_ADP_PREV_RANGE);
	expect_refused(2, 2, 0x14020103, NICREF_RULE_ROCE_ACCL_ADP_PREV_RANGE);
	/* range 1 dec_mode 3: 3 << 26 = 0x0C000000 -> 0x0C010502. */
	expect_refused(2, 3, 0x0C010502, NICREF_RULE_ROCE_ACCL_ADP_DEC_MODE);
	/* range 1 timeout_retry_num 0: 0x00000502. */
	expect_refused(2, 3, 0x00000502, NICREF_RULE_ROCE_ACCL_ADP_RETRY_NUM);
	/* retx_total_timeout 52: 4000 << 52 >= 2^63 (4000 << 51 < 2^63): 0x34000202. */
	expect_refused(2, 1, 0x34000202, NICREF_RULE_ROCE_ACCL_ADP_OVERFLOW);
	/* id 7 is the maximum (3 bits), and then the profile-write is accepted with 51. */
	v = profile_write(7, E_PROFILE);
	v.d[5] = 0x33000202;
	r = reg_write(&v);
	tl_expect_ok(&r);
}

/* seed 000 L75-77: the id is bounded by adp_retx_profile_max_id; range_num and the minimum by
 * the other capabilities (device profile settings). */
Test(roce_accl_caps, device_capabilities)
{
	struct nicref_profile prof;
	nicref_profile_default(&prof);
	prof.adp_max_profile_id = 1;
	prof.adp_max_range_num = 2;
	prof.adp_base_timeout_min_ns = 8000;
	make_dev(&prof);
	/* 08h: 2 << 28 | 1 << 24 | 8000 (0x1F40) = 0x21001F40. */
	expect_read(SEL_PROFILE | SEL_EN, 0, 0x21001F40u, NULL);
	uint32_t p2[6];
	memcpy(p2, E_PROFILE, sizeof p2);
	p2[0] = 0x20400008; /* range_num 2, time_base 8 (8000 >= 8000) */
	struct regval v = profile_write(2, p2);
	struct tl_result r = reg_write(&v);
	tl_expect_rule(&r, BAD_PARAM, NICREF_RULE_ROCE_ACCL_PROFILE_ID_ABOVE_MAX);
	p2[0] = 0x30400008; /* range_num 3 > 2 */
	v = profile_write(1, p2);
	r = reg_write(&v);
	tl_expect_rule(&r, BAD_PARAM, NICREF_RULE_ROCE_ACCL_ADP_RANGE_NUM);
	p2[0] = 0x20400004; /* time_base 4: 4000 < 8000 */
	v = profile_write(1, p2);
	r = reg_write(&v);
	tl_expect_rule(&r, BAD_PARAM, NICREF_RULE_ROCE_ACCL_ADP_TIME_BASE_BELOW_MIN);
	expect_read(SEL_PROFILE | SEL_EN, 0, 0x21001F40u, NULL);
	p2[0] = 0x20400008;
	v = profile_write(1, p2);
	r = reg_write(&v);
	tl_expect_ok(&r);
	expect_read(SEL_PROFILE | SEL_EN, 1u << 28, 0x21001F40u, p2);
	nicref_dev_destroy(dev);
	dev = NULL;
}

/* Capabilities a device profile cannot have: refused at create. */
Test(roce_accl_caps, profile_ok)
{
	struct nicref_config cfg;
	struct nicref_dev *d;
	static const struct {
		uint8_t range_num, max_id;
		uint32_t min_ns;
		struct nicref_adp_options opt;
		bool ok;
	} c[] = {
		{ 4, 7, 4000, { 0, 0, 0, 0, 0 }, true },
		{ 1, 1, 0, { 1, 2, 1, 1, 1 }, true },
		{ 4, 7, 0xFFFFF, { 0, 0, 0, 0, 0 }, true },
		{ 0, 7, 4000, { 0, 0, 0, 0, 0 }, false },
		{ 5, 7, 4000, { 0, 0, 0, 0, 0 }, false },
		{ 4, 0, 4000, { 0, 0, 0, 0, 0 }, false },
		{ 4, 8, 4000, { 0, 0, 0, 0, 0 }, false },
		{ 4, 7, 0x100000, { 0, 0, 0, 0, 0 }, false },
		{ 4, 7, 4000, { 0, 3, 0, 0, 0 }, false },
		{ 4, 7, 4000, { 0, 0, 0, 0, 2 }, false },
	};
	for (size_t i = 0; i < sizeof c / sizeof c[0]; i++) {
		nicref_config_default(&cfg);
		cfg.profile.adp_max_range_num = c[i].range_num;
		cfg.profile.adp_max_profile_id = c[i].max_id;
		cfg.profile.adp_base_timeout_min_ns = c[i].min_ns;
		cfg.profile.adp = c[i].opt;
		d = nicref_dev_create(&cfg);
		cr_expect_eq(d != NULL, c[i].ok, "case %zu", i);
		if (d)
			nicref_dev_destroy(d);
	}
}

/* seed 001 L66: only a reset returns to firmware-defined timeouts; counters are reset too. */
Test(roce_accl, reset_returns_to_firmware_defined)
{
	struct regval v = profile_write(3, E_PROFILE);
	v.d[0] |= SEL_EN;
	v.d[1] |= 1;
	struct tl_result r = reg_write(&v);
	tl_expect_ok(&r);
	v = profile_write(0, E_PROFILE);
	r = reg_write(&v);
	tl_expect_rule(&r, BAD_PARAM, NICREF_RULE_ROCE_ACCL_PROFILE_ID_ZERO);
	expect_read(SEL_PROFILE | SEL_EN, 3u << 28 | 1u, CAPS_DEFAULT, E_PROFILE);
	/* The device counters (D-ADP-18), fed as an RC QP of the function would. */
	struct nicref_adp_mode m;
	nicref_adp_dev_mode(dev, &m);
	struct nicref_adp_qp qp;
	struct nicref_adp_qp_attr a = { 14, 7 };
	nicref_adp_qp_init(&qp, &m, &a, 0, 0);
	cr_expect(qp.mode.adp);
	roce_accl_count(dev, &qp, true);
	roce_accl_count(dev, &qp, true);
	roce_accl_count(dev, &qp, false);
	struct nicref_adp_counters c;
	nicref_adp_dev_counters(dev, &c);
	cr_expect(c.roce_adp_retrans == 2 && c.roce_adp_retrans_to == 1);
	cr_expect_eq(roce_accl_check(dev), 0);
	nicref_dev_reset(dev);
	nicref_adp_dev_counters(dev, &c);
	cr_expect(c.roce_adp_retrans == 0 && c.roce_adp_retrans_to == 0);
	nicref_bar_write32(dev, 0x10, (uint32_t)(TL_QADDR >> 32));
	nicref_bar_write32(dev, 0x14, (uint32_t)TL_QADDR);
	uint8_t in[16] = { 0 };
	tl_put32(in, OP_ENABLE_HCA << 16);
	cr_assert_eq(tl_queue_cmd(dev, in, 16, 16).status, OK);
	expect_read(SEL_PROFILE | SEL_EN, 0, CAPS_DEFAULT, NULL);
}

/* Reserved bits (D-CMD-8 strict), the length check of ACCESS_REGISTER, no local_port. */
Test(roce_accl, reserved_and_length)
{
	struct regval v;
	memset(&v, 0, sizeof v);
	v.d[0] = 0x00010000u; /* 00h[23:16]: a port register's local_port, reserved here */
	struct tl_result r = reg_write(&v);
	tl_expect_rule(&r, BAD_PARAM, NICREF_RULE_RESERVED_NOT_ZERO);
	memset(&v, 0, sizeof v);
	v.d[3] = 1; /* 0Ch */
	r = reg_write(&v);
	tl_expect_rule(&r, BAD_PARAM, NICREF_RULE_RESERVED_NOT_ZERO);
	v = profile_write(1, E_PROFILE);
	v.d[4] |= 0x00200000u; /* profile 00h[21]: between time_unit and time_base */
	r = reg_write(&v);
	tl_expect_rule(&r, BAD_PARAM, NICREF_RULE_RESERVED_NOT_ZERO);
	v = profile_write(1, E_PROFILE);
	v.d[15] = 0x80000000u; /* profile 2Ch: reserved tail of the 384 bits */
	r = reg_write(&v);
	tl_expect_rule(&r, BAD_PARAM, NICREF_RULE_RESERVED_NOT_ZERO);
	v = profile_write(1, E_PROFILE);
	v.d[4 + 2] |= 0x80000000u; /* range 0 bit 31 */
	r = reg_write(&v);
	tl_expect_rule(&r, BAD_PARAM, NICREF_RULE_RESERVED_NOT_ZERO);
	expect_read(SEL_PROFILE | SEL_EN, 0, CAPS_DEFAULT, NULL);
	/* The whole 40h must be there. */
	v = profile_write(1, E_PROFILE);
	r = reg_access(WRITE, &v, SIZE - 4);
	tl_expect_rule(&r, BAD_INPUT_LEN, NICREF_RULE_REG_INPUT_TOO_SHORT);
	/* A READ's input is not checked (D-REG-11): garbage at 00h[23:16] reads fine. */
	memset(&v, 0, sizeof v);
	v.d[0] = 0x00FF0000u;
	r = reg_access(READ, &v, SIZE);
	tl_expect_ok(&r);
}
