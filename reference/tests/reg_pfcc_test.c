/* PFCC (PRM §11.1.4 T112): global pause and per-priority flow control, their masks and their
 * exclusion (D-REG-7, D-REG-16), the stall watermarks. Shared tools: reg_util.h. */
#include <stdint.h>
#include <string.h>

#include "reg_util.h"

/* ---- PFCC (§11.1.4) -------------------------------------------------------------------------- */

TestSuite(reg_pfcc, .init = setup, .fini = teardown);

struct pfcc {
	unsigned mask_tx, mask_rx, pptx, pfctx, fctx_disabled, pprx, pfcrx, minor, critical;
	unsigned aptx, aprx;
};

static struct tl_result pfcc_write(const struct pfcc *v)
{
	struct tl_reg c = reg_cmd(WRITE, PFCC, 0x20, 1);
	tl_reg_set(&c, 0x04, 23, 16, v->mask_tx);
	tl_reg_set(&c, 0x04, 7, 0, v->mask_rx);
	tl_reg_set(&c, 0x08, 31, 31, v->pptx);
	tl_reg_set(&c, 0x08, 30, 30, v->aptx);
	tl_reg_set(&c, 0x08, 23, 16, v->pfctx);
	tl_reg_set(&c, 0x08, 8, 8, v->fctx_disabled);
	tl_reg_set(&c, 0x0C, 31, 31, v->pprx);
	tl_reg_set(&c, 0x0C, 30, 30, v->aprx);
	tl_reg_set(&c, 0x0C, 23, 16, v->pfcrx);
	tl_reg_set(&c, 0x10, 31, 16, v->minor);
	tl_reg_set(&c, 0x10, 15, 0, v->critical);
	return tl_reg_run(dev, &c);
}

static void expect_pfcc(unsigned pptx, unsigned pfctx, unsigned pprx, unsigned pfcrx)
{
	struct tl_reg c = reg_cmd(READ, PFCC, 0x20, 1);
	struct tl_result r = tl_reg_run(dev, &c);
	tl_expect_ok(&r);
	cr_assert_eq(tl_reg_get(&r, 0x04, 31, 0), 0, "prio masks are write-only");
	cr_assert_eq(tl_reg_get(&r, 0x08, 31, 31), pptx, "pptx");
	cr_assert_eq(tl_reg_get(&r, 0x08, 30, 30), pptx, "aptx follows pptx (D-REG-7)");
	cr_assert_eq(tl_reg_get(&r, 0x08, 23, 16), pfctx, "pfctx 0x%x", tl_reg_get(&r, 0x08, 23, 16));
	cr_assert_eq(tl_reg_get(&r, 0x0C, 31, 31), pprx, "pprx");
	cr_assert_eq(tl_reg_get(&r, 0x0C, 30, 30), pprx, "aprx follows pprx");
	cr_assert_eq(tl_reg_get(&r, 0x0C, 23, 16), pfcrx, "pfcrx 0x%x", tl_reg_get(&r, 0x0C, 23, 16));
}

Test(reg_pfcc, power_on_defaults)
{
	/* T112 "(default)": never generate, ignore received pause frames, no PFC. */
	expect_pfcc(0, 0, 0, 0);
	struct tl_reg c = reg_cmd(READ, PFCC, 0x20, 1);
	struct tl_result r = tl_reg_run(dev, &c);
	cr_assert_eq(tl_reg_get(&r, 0x08, 8, 8), 0);
	cr_assert_eq(tl_reg_get(&r, 0x10, 31, 0), 0, "watermarks inactive");
}

Test(reg_pfcc, global_pause)
{
	struct pfcc v = { .pptx = 1, .pprx = 1 };
	struct tl_result r = pfcc_write(&v);
	tl_expect_ok(&r);
	expect_pfcc(1, 0, 1, 0);
	v = (struct pfcc){ .pptx = 0, .pprx = 1 };
	r = pfcc_write(&v);
	tl_expect_ok(&r);
	expect_pfcc(0, 0, 1, 0);
}

Test(reg_pfcc, pfc_bits_change_only_under_the_mask)
{
	struct pfcc v = { .mask_tx = 0x0F, .pfctx = 0xFF, .mask_rx = 0xF0, .pfcrx = 0xFF };
	struct tl_result r = pfcc_write(&v);
	tl_expect_ok(&r);
	expect_pfcc(0, 0x0F, 0, 0xF0);
	v = (struct pfcc){ .mask_tx = 0x03, .pfctx = 0x02, .mask_rx = 0, .pfcrx = 0 };
	r = pfcc_write(&v);
	tl_expect_ok(&r);
	expect_pfcc(0, 0x0E, 0, 0xF0);
}

Test(reg_pfcc, pause_and_pfc_are_exclusive)
{
	/* T112: "pfctx, pptx must be mutually exclusive"; note: one mechanism for RX and TX. */
	const struct pfcc bad[] = {
		{ .pptx = 1, .mask_tx = 0x01, .pfctx = 0x01 },
		{ .pprx = 1, .mask_rx = 0x80, .pfcrx = 0x80 },
		{ .pptx = 1, .mask_rx = 0x01, .pfcrx = 0x01 },
		{ .pprx = 1, .mask_tx = 0x01, .pfctx = 0x01 },
	};
	for (size_t i = 0; i < TL_NELEM(bad); i++) {
		struct tl_result r = pfcc_write(&bad[i]);
		tl_expect_rule(&r, BAD_PARAM, NICREF_RULE_PFCC_PAUSE_AND_PFC);
	}
	expect_pfcc(0, 0, 0, 0);
	/* PFC in force, then global pause without clearing it: refused (D-REG-16). */
	struct pfcc v = { .mask_tx = 0x08, .pfctx = 0x08 };
	struct tl_result r = pfcc_write(&v);
	tl_expect_ok(&r);
	v = (struct pfcc){ .pptx = 1 };
	r = pfcc_write(&v);
	tl_expect_rule(&r, BAD_PARAM, NICREF_RULE_PFCC_PAUSE_AND_PFC);
	expect_pfcc(0, 0x08, 0, 0);
	/* Clearing PFC and enabling pause in one write is fine. */
	v = (struct pfcc){ .pptx = 1, .mask_tx = 0x08, .pfctx = 0 };
	r = pfcc_write(&v);
	tl_expect_ok(&r);
	expect_pfcc(1, 0, 0, 0);
	/* PFC bits outside the mask do not count. */
	v = (struct pfcc){ .pptx = 1, .mask_tx = 0, .pfctx = 0xFF };
	r = pfcc_write(&v);
	tl_expect_ok(&r);
	expect_pfcc(1, 0, 0, 0);
}

Test(reg_pfcc, watermark_range)
{
	static const unsigned ok[] = { 0, 0x50, 0x51, 0x1000, 0x1F40 };
	static const unsigned bad[] = { 1, 0x4F, 0x1F41, 0xFFFF };
	for (size_t i = 0; i < TL_NELEM(ok); i++) {
		struct pfcc v = { .minor = ok[i], .critical = ok[TL_NELEM(ok) - 1 - i] };
		struct tl_result r = pfcc_write(&v);
		tl_expect_ok(&r);
		struct tl_reg c = reg_cmd(READ, PFCC, 0x20, 1);
		r = tl_reg_run(dev, &c);
		cr_assert_eq(tl_reg_get(&r, 0x10, 31, 16), ok[i]);
		cr_assert_eq(tl_reg_get(&r, 0x10, 15, 0), ok[TL_NELEM(ok) - 1 - i]);
	}
	for (size_t i = 0; i < TL_NELEM(bad); i++) {
		struct pfcc v = { .minor = bad[i], .critical = 0x50 };
		struct tl_result r = pfcc_write(&v);
		tl_expect_rule(&r, BAD_PARAM, NICREF_RULE_PFCC_WATERMARK_RANGE);
		v = (struct pfcc){ .minor = 0x50, .critical = bad[i] };
		r = pfcc_write(&v);
		tl_expect_rule(&r, BAD_PARAM, NICREF_RULE_PFCC_WATERMARK_RANGE);
	}
	struct tl_reg c = reg_cmd(READ, PFCC, 0x20, 1);
	struct tl_result r = tl_reg_run(dev, &c);
	cr_assert_eq(tl_reg_get(&r, 0x10, 31, 16), 0x1F40, "refused write changed a watermark");
}

Test(reg_pfcc, fctx_disabled_is_read_write_and_active_bits_read_only)
{
	struct pfcc v = { .fctx_disabled = 1, .aptx = 1, .aprx = 1 };
	struct tl_result r = pfcc_write(&v);
	tl_expect_ok(&r);
	struct tl_reg c = reg_cmd(READ, PFCC, 0x20, 1);
	r = tl_reg_run(dev, &c);
	cr_assert_eq(tl_reg_get(&r, 0x08, 8, 8), 1);
	expect_pfcc(0, 0, 0, 0);
}
