/* SET_HCA_CAP (PRM §12.3.4 T154-T157): each read-write field of T145 taken, the others ignored,
 * the range rules (docs/caps.md), cmdif_checksum governing the queue at once, the states and
 * op_mod, D-INIT-1, reserved bits under the strict and the permissive profile (D-CMD-8), and the
 * §8.2 driver flow. Shared tools: caps_util.h. */
#include <stdint.h>
#include <string.h>

#include "caps_util.h"
#include "cmd/ctl_dev.h" /* one white-box test: caps_set.cache_line_128byte_unsupported */

static uint8_t cur0[CAP], max0[CAP], buf[CAP], after[CAP];

/* ==== SET_HCA_CAP ========================================================================== */

/* Each RW field of T145, one at a time, then QUERY current shows it and the maximum is as
 * before. */
Test(caps_set, each_rw_field_is_taken)
{
	static const struct {
		const char *name;
		uint64_t v;
	} rw[] = {
		{ "cmdif_checksum", 1 },     { "cmdif_checksum", 0 },
		{ "cmdif_checksum", 3 },     { "cache_line_128byte", 1 },
		{ "cache_line_128byte", 0 }, { "log_max_sq", 10 },
		{ "log_max_sq", 0 },         { "log_max_sq", 16 },
		{ "log_uar_page_sz", 1 },    { "log_uar_page_sz", 8 },
	};
	start(REFDRV_ENABLED, 1);
	query_ok(0x0, max0);
	for (size_t i = 0; i < sizeof rw / sizeof rw[0]; i++) {
		query_ok(0x1, buf);
		put(buf, "hca_cap", rw[i].name, rw[i].v);
		set_ok(0x0, buf);
		query_ok(0x1, after);
		cr_expect_eq(get(after, "hca_cap", rw[i].name), rw[i].v, "%s", rw[i].name);
		cr_expect_eq(memcmp(after, buf, CAP), 0, "%s: only the field changed", rw[i].name);
		query_ok(0x0, buf);
		cr_expect_eq(memcmp(buf, max0, CAP), 0, "the maximum set never changes");
	}
	cr_expect_eq(tdev->tr.violations, 0);
	stop();
}

/* Every other field of the input is ignored (§12.3.4 takes RW fields only). */
Test(caps_set, read_only_fields_are_ignored)
{
	start(REFDRV_ENABLED, 1);
	query_ok(0x1, cur0);
	memcpy(buf, cur0, CAP);
	GEN_SET(buf, log_max_cq, 3);
	GEN_SET(buf, num_ports, 7);
	GEN_SET(buf, driver_version, 0);
	GEN_SET(buf, log_max_pd, 2);
	GEN_SET(buf, device_frequency_mhz, 1);
	GEN_SET(buf, log_max_sq, 12);
	set_ok(0x0, buf);
	query_ok(0x1, after);
	memcpy(buf, cur0, CAP);
	GEN_SET(buf, log_max_sq, 12);
	cr_expect_eq(memcmp(after, buf, CAP), 0, "only log_max_sq changed");
	stop();
}

/* A SET of a type without RW fields (T147, T149/T151) changes nothing. */
Test(caps_set, types_without_rw_fields_change_nothing)
{
	start(REFDRV_ENABLED, 1);
	static const unsigned types[] = { T_ETH, T_FLOW };
	for (size_t i = 0; i < 2; i++) {
		unsigned op = types[i] << 1;
		query_ok(op | 1, cur0);
		set_ok(op, cur0);
		/* a changed read-only value is ignored */
		memcpy(buf, cur0, CAP);
		buf[0] ^= 0x80; /* csum_cap / nic_rx_multi_path_tirs */
		set_ok(op, buf);
		query_ok(op | 1, after);
		cr_expect_eq(memcmp(after, cur0, CAP), 0, "type %u changed", types[i]);
	}
	cr_expect_eq(tdev->tr.violations, 0);
	stop();
}

static void refused_set(const char *name, uint64_t v, enum nicref_cmd_rule rule)
{
	query_ok(0x1, cur0);
	memcpy(buf, cur0, CAP);
	put(buf, "hca_cap", name, v);
	cr_expect_eq(set(0x0, buf), 0x03, "%s = %llu accepted", name, (unsigned long long)v);
	tl_expect_refused(tdev, 0x03, rule);
	query_ok(0x1, after);
	cr_expect_eq(memcmp(after, cur0, CAP), 0, "a refused SET changed the current caps");
}

/* The range rules of SET_HCA_CAP (docs/caps.md, rules_caps.h). */
Test(caps_set, range_rules)
{
	start(REFDRV_ENABLED, 1);
	/* T145 40h[15:14]: 2 is not defined. */
	refused_set("cmdif_checksum", 2, NICREF_RULE_CAP_CMDIF_CHECKSUM_INVALID);
	/* log_max_sq <= maximum (16) */
	refused_set("log_max_sq", 17, NICREF_RULE_CAP_LOG_MAX_SQ_ABOVE_MAX);
	refused_set("log_max_sq", 31, NICREF_RULE_CAP_LOG_MAX_SQ_ABOVE_MAX);
	/* 4 KB * 2^log_uar_page_sz <= 1 MB * 2^uar_sz (uar_sz 0) */
	refused_set("log_uar_page_sz", 9, NICREF_RULE_CAP_UAR_PAGE_BEYOND_AREA);
	refused_set("log_uar_page_sz", 0xFFFF, NICREF_RULE_CAP_UAR_PAGE_BEYOND_AREA);
	cr_expect_eq(tdev->tr.violations, 0);
	stop();
}

/* All four RW fields at once, one of them bad: nothing changes. */
Test(caps_set, refused_set_changes_nothing)
{
	/* The strict profile (D-CMD-5 cmdif_checksum 3), so that the signature check shows the
	 * refused SET left cmdif_checksum as it was. */
	struct nicref_profile strict;
	nicref_profile_default(&strict);
	strict.cmdif_checksum = 3;
	tdev = tl_up_to(&strict, REFDRV_ENABLED);
	query_ok(0x1, cur0);
	memcpy(buf, cur0, CAP);
	GEN_SET(buf, cmdif_checksum, 1);
	GEN_SET(buf, cache_line_128byte, 1);
	GEN_SET(buf, log_max_sq, 4);
	GEN_SET(buf, log_uar_page_sz, 20);
	cr_expect_eq(set(0x0, buf), 0x03);
	tl_expect_refused(tdev, 0x03, NICREF_RULE_CAP_UAR_PAGE_BEYOND_AREA);
	query_ok(0x1, after);
	cr_expect_eq(memcmp(after, cur0, CAP), 0);
	/* Input signatures are still checked: cmdif_checksum stayed 3, not the 1 refused. */
	tdev->d.mistakes = REFDRV_MISTAKE_MAILBOX_SIGNATURE;
	cr_expect_lt(set(0x0, cur0), 0, "a bad mailbox signature went through");
	cr_expect_eq(tdev->d.last_delivery, 0x1, "T96 signature error");
	stop();
}

/* cache_line_128byte = 1 only when the maximum says supported. The default profile supports
 * it, so this test clears the maximum through the library's private state (core/caps.h). */
Test(caps_set, cache_line_128byte_unsupported)
{
	start(REFDRV_ENABLED, 1);
	prm_set(tdev->dev->core.caps.max[CAP_GENERAL], CAP_BYTES, PRM_FIELD(hca_cap, cache_line_128byte), 0);
	refused_set("cache_line_128byte", 1, NICREF_RULE_CAP_CACHE_LINE_128_UNSUPPORTED);
	stop();
}

/* cmdif_checksum takes effect at once (cmd/cmdq.c reads the current capability). */
Test(caps_set, cmdif_checksum_governs_the_queue)
{
	start(REFDRV_ENABLED, 1);
	query_ok(0x1, cur0);
	memcpy(buf, cur0, CAP);
	GEN_SET(buf, cmdif_checksum, 1); /* generated, not checked */
	set_ok(0x0, buf);
	tdev->d.mistakes = REFDRV_MISTAKE_MAILBOX_SIGNATURE;
	set_ok(0x0, buf); /* a wrong input mailbox signature is no longer checked */
	cr_expect_eq(tdev->d.last_delivery, 0);
	tdev->d.mistakes = 0;
	tdev->d.check_out_sigs = true;
	query_ok(0x1, after); /* output still signed (value 1) */
	GEN_SET(buf, cmdif_checksum, 3);
	set_ok(0x0, buf);
	tdev->d.mistakes = REFDRV_MISTAKE_MAILBOX_SIGNATURE;
	cr_expect_lt(set(0x0, buf), 0, "checked again with 3");
	cr_expect_eq(tdev->d.last_delivery, 0x1);
	cr_expect_eq(tdev->tr.vio[NICREF_VIO_MAILBOX_SIGNATURE], 1);
	stop();
}

/* §8.2: SET_HCA_CAP between ENABLE_HCA and INIT_HCA only; op_mod bit 0 reserved (T155). */
Test(caps_set, states_and_op_mod)
{
	memset(buf, 0, sizeof buf);
	start(REFDRV_QUEUE, 1);
	cr_expect_eq(set(0x0, buf), 0x04);
	tl_expect_refused(tdev, 0x04, NICREF_RULE_HCA_NOT_ENABLED);
	stop();

	start(REFDRV_INITIALIZED, 1);
	query_ok(0x1, cur0);
	cr_expect_eq(set(0x0, cur0), 0x04);
	tl_expect_refused(tdev, 0x04, NICREF_RULE_HCA_ALREADY_INITIALIZED);
	stop();

	start(REFDRV_ENABLED, 1);
	query_ok(0x1, cur0);
	static const unsigned bad[] = { 0x1, 0x3, 0xF, 0x4, 0x10 };
	for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
		cr_expect_eq(set(bad[i], cur0), 0x02, "op_mod 0x%x", bad[i]);
		tl_expect_refused(tdev, 0x02, NICREF_RULE_BAD_OP_MOD);
	}
	stop();
}

/* D-INIT-1: after QUERY_PAGES(init), SET_HCA_CAP is a violation and still applied. */
Test(caps_set, after_init_pages_query)
{
	start(REFDRV_BOOT_PAGES, 1);
	query_ok(0x1, cur0);
	set_ok(0x0, cur0); /* before QUERY_PAGES(init): fine */
	cr_expect_eq(tdev->tr.violations, 0);
	uint8_t in[16] = { 0 }, out[16];
	put_cmd_header(in, "QUERY_PAGES", 2);
	cr_assert_eq(refdrv_cmd(&tdev->d, in, sizeof in, out, sizeof out), 0);
	memcpy(buf, cur0, CAP);
	GEN_SET(buf, log_max_sq, 5);
	set_ok(0x0, buf);
	cr_expect_eq(tdev->tr.vio[NICREF_VIO_SET_HCA_CAP_AFTER_INIT_PAGES], 1);
	cr_expect_eq(tdev->tr.violations, 1);
	query_ok(0x1, after);
	cr_expect_eq(GEN(after, log_max_sq), 5, "applied anyway");
	/* A refused SET is not reported (it changed nothing). */
	GEN_SET(buf, log_max_sq, 30);
	cr_expect_eq(set(0x0, buf), 0x03);
	cr_expect_eq(tdev->tr.violations, 1);
	stop();
}

/* ENABLE_HCA after DISABLE_HCA starts from the default current values again. */
Test(caps_set, disable_hca_restores_defaults)
{
	start(REFDRV_ENABLED, 1);
	query_ok(0x1, cur0);
	memcpy(buf, cur0, CAP);
	GEN_SET(buf, log_max_sq, 3);
	GEN_SET(buf, cache_line_128byte, 1);
	set_ok(0x0, buf);
	uint8_t in[16] = { 0 }, out[16];
	put_cmd_header(in, "DISABLE_HCA", 0);
	cr_assert_eq(refdrv_cmd(&tdev->d, in, sizeof in, out, sizeof out), 0);
	put_cmd_header(in, "ENABLE_HCA", 0);
	cr_assert_eq(refdrv_cmd(&tdev->d, in, sizeof in, out, sizeof out), 0);
	query_ok(0x1, after);
	cr_expect_eq(memcmp(after, cur0, CAP), 0);
	stop();
}

/* Reserved bits of the capability (T128 "reserved not equal 0", D-CMD-8): each dword is a
 * violation, arg = input byte offset << 32 | bits; strict profile refuses. */
static void reserved_case(unsigned op_mod, unsigned cap_off, uint32_t bits)
{
	query_ok(op_mod | 1, cur0);
	memcpy(buf, cur0, CAP);
	for (unsigned k = 0; k < 4; k++)
		buf[cap_off + k] |= (uint8_t)(bits >> (24 - 8 * k));
	tl_mark(&tdev->tr);
	int st = set(op_mod, buf);
	cr_expect_eq(tdev->tr.vio[NICREF_VIO_CMD_RESERVED_NOT_ZERO], 1, "cap %03Xh", cap_off);
	cr_expect_eq(tdev->tr.vio_arg[NICREF_VIO_CMD_RESERVED_NOT_ZERO],
		     (uint64_t)(CAP_IN + cap_off) << 32 | bits, "cap %03Xh: arg 0x%llx", cap_off,
		     (unsigned long long)tdev->tr.vio_arg[NICREF_VIO_CMD_RESERVED_NOT_ZERO]);
	cr_expect_eq(st, 0x03, "cap %03Xh: status 0x%x", cap_off, st);
	tl_expect_refused(tdev, 0x03, NICREF_RULE_RESERVED_NOT_ZERO);
}

Test(caps_set, reserved_bits_strict)
{
	static uint8_t gen[CAP];
	start(REFDRV_ENABLED, 1);
	query_ok(0x1, gen);
	reserved_case(0x0, 0x3C, 0x00010000);  /* T145 3Ch[31:16] (T144: stat_rate_support) */
	reserved_case(0x0, 0x00, 0x80000000);  /* T144 00h-0Ch */
	reserved_case(0x0, 0x40, 0x80000000);  /* T145 40h[31] */
	reserved_case(0x0, 0xFFC, 0x00000001); /* past T144's FCh (D-CAP-6) */
	reserved_case(0x2, 0x04, 0x00000001);  /* T147: 04h not a field */
	reserved_case(0x2, 0x40, 0x00000001);  /* T146 40h-FCh */
	reserved_case(0xE, 0x04, 0x00000001);  /* T148 04h-3Ch */
	reserved_case(0xE, 0x48, 0x00000001);  /* T151 receive 08h */
	reserved_case(0xE, 0x40, 0x00200000);  /* T151 00h[21] */
	reserved_case(0xE, 0x60, 0x10000000);  /* T153 receive ft_field_support 00h[28] */
	reserved_case(0xE, 0x74, 0x00000001);  /* T152 receive bitmask support 04h */
	reserved_case(0xE, 0x130, 0x00000100); /* T153 transmit bitmask 00h[8] */
	reserved_case(0xE, 0x80, 0x00000001);  /* T148 80h-BCh: no block there */
	query_ok(0x1, after);
	cr_expect_eq(memcmp(after, gen, CAP), 0, "a refused SET changed the current caps");
	stop();
}

/* Permissive profile (reserved_check 0): reported, and the SET is applied. */
Test(caps_set, reserved_bits_permissive)
{
	start(REFDRV_ENABLED, 0);
	query_ok(0x1, cur0);
	memcpy(buf, cur0, CAP);
	buf[0x3D] = 0x01; /* 3Ch[16] */
	GEN_SET(buf, log_max_sq, 9);
	set_ok(0x0, buf);
	cr_expect_eq(tdev->tr.vio[NICREF_VIO_CMD_RESERVED_NOT_ZERO], 1);
	cr_expect_eq(tdev->tr.vio_arg[NICREF_VIO_CMD_RESERVED_NOT_ZERO], (uint64_t)0x4C << 32 | 0x10000);
	query_ok(0x1, after);
	cr_expect_eq(GEN(after, log_max_sq), 9);
	cr_expect_eq(after[0x3D], 0, "a reserved bit is not stored");
	stop();
}

/* The driver flow of §8.2 (QUERY max and current, SET with what QUERY gave) stays silent. */
Test(caps_set, write_back_of_query_is_accepted)
{
	start(REFDRV_ENABLED, 1);
	for (unsigned type = 0; type < 8; type++) {
		if (type != T_GENERAL && type != T_ETH && type != T_FLOW)
			continue;
		query_ok(type << 1, max0);
		query_ok(type << 1 | 1, cur0);
		set_ok(type << 1, cur0);
		query_ok(type << 1 | 1, after);
		cr_expect_eq(memcmp(after, cur0, CAP), 0);
	}
	cr_expect_eq(tdev->tr.violations, 0);
	cr_expect_eq(tl_count(&tdev->tr, NICREF_EV_CMD_FAIL), 0);
	stop();
}

/* D-CAP-7 at its bound: log_uar_page_sz = 8 + uar_sz makes the UAR area one UAR page, page 0 of
 * BAR0, which holds the init segment (D-UAR-1), so no UAR index remains. The SET is taken (the
 * PRM bounds the page by the area only, T145 48h/90h) and INIT_HCA runs; every ALLOC_UAR is
 * then refused EXCEED_LIM UAR_EXHAUSTED. One step below, one UAR page (index 1) is left. */
static void uar_page_then_alloc(unsigned log_page, unsigned want_status, uint32_t want_uar)
{
	start(REFDRV_CAPS, 1);
	query_ok(0x1, buf);
	cr_assert_eq(GEN(buf, uar_sz), 0, "the default UAR area is 1 MB");
	GEN_SET(buf, log_uar_page_sz, log_page);
	set_ok(0x0, buf);
	cr_assert_eq(refdrv_bring_up(&tdev->d, REFDRV_INITIALIZED), 0, "%s", tdev->d.error);
	uint8_t in[16] = { 0 }, out[16];
	put_cmd_header(in, "ALLOC_UAR", 0);
	for (int k = 0; k < 2; k++) {
		int st = refdrv_cmd(&tdev->d, in, sizeof in, out, sizeof out);
		cr_expect_eq(st, k == 0 ? (int)want_status : 0x08, "ALLOC_UAR %d: status 0x%x", k,
			     (unsigned)st);
		if (k == 0 && st == 0)
			cr_expect_eq(tl_get32(out + 8) & 0xFFFFFFu, want_uar, "T203 uar");
		if (st != 0)
			cr_expect_eq(tdev->d.last_syndrome,
				     nicref_cmd_rule_syndrome(NICREF_RULE_UAR_EXHAUSTED));
	}
	cr_expect_eq(tdev->tr.violations, 0);
	stop();
}

Test(caps_set, uar_page_at_the_area_bound_leaves_no_uar)
{
	uar_page_then_alloc(8, 0x08, 0); /* T128 0x08 EXCEED_LIM */
}

Test(caps_set, uar_page_below_the_area_bound_leaves_one_uar)
{
	uar_page_then_alloc(7, 0x00, 1);
}
