/* QUERY/MODIFY_NIC_VPORT_CONTEXT (PRM §12.16.3-§12.16.4 T476-T485, the context T15-T20): the
 * context at power-on, the round trip of every writable field (the loop walks the layout
 * registry, so a context field added without a test here fails), field_select, the address and
 * VLAN lists and their bounds, the lengths (D-VP-1, D-VP-4 - D-VP-7). Shared tools:
 * vport_util.h. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "vport_util.h"

TestSuite(vport_context, .init = setup, .fini = teardown);

/* ---- QUERY/MODIFY_NIC_VPORT_CONTEXT --------------------------------------------------------- */

Test(vport_context, context_at_power_on)
{
	uint8_t out[Q_OUT];
	cr_assert_eq(query_ctx(0, out, sizeof out), OK);
	cr_expect_eq(tl_getf(out, Q_CTX + 0x00, 26, 24), MIN_INLINE_L2, "D-VP-3: L2");
	cr_expect_eq(tl_getf(out, Q_CTX + 0x24, 15, 0), 0, "T16: 0 = the physical port's MTU");
	cr_expect_eq(tl_getf(out, Q_CTX + 0xF0, 31, 29), 0, "no promiscuous mode");
	cr_expect_eq(tl_getf(out, Q_CTX + 0xF0, 26, 24), 0, "the list asked for");
	cr_expect_eq(tl_getf(out, Q_CTX + 0xF0, 11, 0), 0, "no current addresses");
	cr_expect_eq(get_mac(out, Q_CTX + 0xF4), PERMANENT_MAC, "D-VP-3 permanent address");
	cr_expect_eq(tl_getf(out, Q_CTX + 0xF4, 31, 16), 0, "T19 00h[31:16] reserved");
	cr_expect_eq(vport_min_wqe_inline_mode(tdev->dev), MIN_INLINE_L2, "the SQ's accessor agrees");
}

/* Every field of the context layout, with how a driver writes it (T483 field_select bit) and a
 * value other than its power-on one; device-owned fields have no bit (D-VP-3). */
struct ctx_field {
	const char *name;
	uint32_t fs;  /* 0: not writable */
	uint64_t value;
	uint64_t power_on;
};
static const struct ctx_field ctx_fields[] = {
	{ "min_wqe_inline_mode", 0, 3, MIN_INLINE_L2 },
	{ "roce_en", 1u << 1, 1, 0 }, /* beyond Rev 0.40: the public interface's bit 1 (D-VFIO-3) */
	{ "mtu", FS_MTU, 9000, 0 },
	{ "promisc_uc", FS_PROMISC, 1, 0 },
	{ "promisc_mc", FS_PROMISC, 1, 0 },
	{ "promisc_all", FS_PROMISC, 1, 0 },
	{ "allowed_list_type", FS_LIST, 1, 0 },
	{ "allowed_list_size", FS_LIST, 3, 0 },
	{ "permanent_address_47_32", 0, 0x1234, PERMANENT_MAC >> 32 },
	{ "permanent_address_31_0", 0, 0x89ABCDEF, PERMANENT_MAC & 0xFFFFFFFFu },
	{ "addresses_list", FS_LIST, 0, 0 }, /* elements: see the list tests */
};

static const struct ctx_field *ctx_field_find(const char *name)
{
	for (size_t k = 0; k < sizeof ctx_fields / sizeof ctx_fields[0]; k++)
		if (strcmp(ctx_fields[k].name, name) == 0)
			return &ctx_fields[k];
	return NULL;
}

/* The QUERY round trip (issue 4 "done when"): each writable field set alone through its
 * field_select bit comes back as set, and every other field keeps its value. */
Test(vport_context, round_trip_every_writable_field)
{
	const struct nicref_layout *l = &nicref_layout_nic_vport_context;
	for (uint32_t i = 0; i < l->nfields; i++)
		cr_assert_not_null(ctx_field_find(l->fields[i].name),
				   "context field %s has no round-trip row", l->fields[i].name);
	for (uint32_t i = 0; i < l->nfields; i++) {
		const struct nicref_field *f = &l->fields[i];
		const struct ctx_field *cf = ctx_field_find(f->name);
		if (f->flags & NICREF_FIELD_ARRAY)
			continue; /* the list elements: list_round_trip_* below */
		/* MODIFY with only this field (and its selecting bit) non-zero; the list type and
		 * size travel together (size 3 of type 1 needs 3 mc elements). */
		uint32_t n = strcmp(f->name, "allowed_list_size") == 0 ? (uint32_t)cf->value : 0;
		uint32_t len;
		uint8_t *in = modify_in(cf->fs, n, &len);
		struct nicref_field at = *f;
		at.bit_offset += M_CTX * 8;
		cr_assert_eq(nicref_field_set(in, len, &at, cf->value), 0);
		for (uint32_t k = 0; k < n; k++)
			put_mac(in, M_IN + 8 * k, 0x0000000000A0ull + k);
		cr_assert_eq(modify_run(in, len), OK, "MODIFY of %s", f->name);

		/* QUERY of the list type the field concerns: 0, or 1 for the list fields. */
		unsigned qtype = cf->fs == FS_LIST ? (strcmp(f->name, "allowed_list_type") == 0
							      ? (unsigned)cf->value
							      : 0)
						   : 0;
		uint8_t out[Q_OUT + 8 * 8];
		cr_assert_eq(query_ctx(qtype, out, sizeof out), OK);
		for (uint32_t j = 0; j < l->nfields; j++) {
			const struct nicref_field *g = &l->fields[j];
			if (g->flags & NICREF_FIELD_ARRAY)
				continue;
			struct nicref_field gq = *g;
			gq.bit_offset += Q_CTX * 8;
			uint64_t got;
			cr_assert_eq(nicref_field_get(out, sizeof out, &gq, &got), 0);
			const struct ctx_field *cg = ctx_field_find(g->name);
			uint64_t want = cg->power_on;
			if (j == i && cf->fs)
				want = cf->value; /* the field written comes back */
			else if (strcmp(g->name, "allowed_list_type") == 0)
				want = qtype; /* echoes the list asked for */
			cr_expect_eq(got, want, "after MODIFY of %s: %s = 0x%llx, expected 0x%llx",
				     f->name, g->name, (unsigned long long)got,
				     (unsigned long long)want);
		}
		/* back to power-on for the next field */
		vport_dev_reset(tdev->dev);
	}
}

/* The same fields at the offsets T16 prints, once: the layout is what the PRM says. */
Test(vport_context, round_trip_at_prm_offsets)
{
	uint32_t len;
	uint8_t *in = modify_in(FS_MTU | FS_PROMISC, 0, &len);
	tl_setf(in, M_CTX + 0x24, 15, 0, 1500);
	tl_setf(in, M_CTX + 0xF0, 31, 31, 1);
	tl_setf(in, M_CTX + 0xF0, 29, 29, 1);
	cr_assert_eq(modify_run(in, len), OK);
	uint8_t out[Q_OUT];
	cr_assert_eq(query_ctx(0, out, sizeof out), OK);
	cr_expect_eq(tl_getf(out, Q_CTX + 0x24, 15, 0), 1500);
	cr_expect_eq(tl_getf(out, Q_CTX + 0xF0, 31, 31), 1, "promisc_uc");
	cr_expect_eq(tl_getf(out, Q_CTX + 0xF0, 30, 30), 0, "promisc_mc");
	cr_expect_eq(tl_getf(out, Q_CTX + 0xF0, 29, 29), 1, "promisc_all");
	/* promisc bits are all written by bit 4: clearing them takes a MODIFY with zeros */
	in = modify_in(FS_PROMISC, 0, &len);
	cr_assert_eq(modify_run(in, len), OK);
	cr_assert_eq(query_ctx(0, out, sizeof out), OK);
	cr_expect_eq(tl_getf(out, Q_CTX + 0xF0, 31, 29), 0);
	cr_expect_eq(tl_getf(out, Q_CTX + 0x24, 15, 0), 1500, "mtu not selected: kept");
}

Test(vport_context, unselected_fields_are_ignored)
{
	cr_assert_eq(modify_mtu(4000), OK);
	/* field_select 0: every field of the input is ignored, even the device-owned ones */
	uint32_t len;
	uint8_t *in = modify_in(0, 0, &len);
	tl_setf(in, M_CTX + 0x00, 26, 24, 7);
	tl_setf(in, M_CTX + 0x24, 15, 0, 100);
	tl_setf(in, M_CTX + 0xF0, 31, 29, 7);
	tl_setf(in, M_CTX + 0xF0, 26, 24, 5); /* an invalid type, not selected */
	put_mac(in, M_CTX + 0xF4, 0x0A0B0C0D0E0Full);
	cr_assert_eq(modify_run(in, len), OK);
	uint8_t out[Q_OUT];
	cr_assert_eq(query_ctx(0, out, sizeof out), OK);
	cr_expect_eq(tl_getf(out, Q_CTX + 0x00, 26, 24), MIN_INLINE_L2);
	cr_expect_eq(tl_getf(out, Q_CTX + 0x24, 15, 0), 4000);
	cr_expect_eq(tl_getf(out, Q_CTX + 0xF0, 31, 29), 0);
	cr_expect_eq(get_mac(out, Q_CTX + 0xF4), PERMANENT_MAC, "D-VP-3: not writable");
}

Test(vport_context, field_select_unknown_bits_refused)
{
	/* T483 defines bits 2, 4 and 6 (D-VP-5); bit 1, roce_en, is the public mlx5
	 * interface's (D-VFIO-3). */
	for (unsigned b = 0; b < 32; b++) {
		if (b == 1 || b == 2 || b == 4 || b == 6)
			continue;
		uint32_t len;
		uint8_t *in = modify_in(FS_MTU | (1u << b), 0, &len);
		tl_setf(in, M_CTX + 0x24, 15, 0, 1234);
		cr_assert_eq(modify_run(in, len), BAD_PARAM, "bit %u", b);
		tl_expect_refused(tdev, BAD_PARAM, NICREF_RULE_NIC_VPORT_FIELD_SELECT_UNKNOWN);
	}
	uint8_t out[Q_OUT];
	cr_assert_eq(query_ctx(0, out, sizeof out), OK);
	cr_expect_eq(tl_getf(out, Q_CTX + 0x24, 15, 0), 0, "the mtu was not changed");
}

Test(vport_context, list_round_trip_each_type)
{
	static const uint64_t uc[] = { 0x001122334455ull, 0x02AABBCCDDEEull };
	static const uint64_t mc[] = { 0x01005E000001ull, 0x333300000001ull, 0x01005E7FFFFAull };
	static const uint64_t vl[] = { 0, 1, 100, 4095 };
	cr_assert_eq(modify_list(0, 2, uc), OK);
	cr_assert_eq(modify_list(1, 3, mc), OK);
	cr_assert_eq(modify_list(2, 4, vl), OK);
	/* T16: one list per allowed_list_type; each MODIFY replaced only its own */
	expect_list(0, 2, uc);
	expect_list(1, 3, mc);
	expect_list(2, 4, vl);
	/* a shorter list replaces the whole list; an empty one clears it */
	cr_assert_eq(modify_list(1, 1, mc + 2), OK);
	expect_list(1, 1, mc + 2);
	cr_assert_eq(modify_list(0, 0, NULL), OK);
	expect_list(0, 0, NULL);
	expect_list(2, 4, vl);
	cr_expect_eq(tdev->dev->vport->list_len[0], 0);
	cr_expect_null(tdev->dev->vport->list[0], "an empty list holds no memory");
}

Test(vport_context, list_sizes_up_to_the_capabilities)
{
	/* D-VP-1: allowed_list_size <= 2^log_max_current_uc_list / _mc_list. */
	uint64_t *v = calloc(0xFFF, sizeof *v);
	cr_assert_not_null(v);
	for (uint32_t i = 0; i <= MAX_MC; i++)
		v[i] = 0x01005E000000ull + i;
	cr_expect_eq(modify_list(0, MAX_UC, v), OK);
	cr_expect_eq(modify_list(0, MAX_UC + 1, v), BAD_PARAM);
	tl_expect_refused(tdev, BAD_PARAM, NICREF_RULE_NIC_VPORT_UC_LIST_TOO_LONG);
	expect_list(0, MAX_UC, v);
	cr_expect_eq(modify_list(1, MAX_MC, v), OK);
	cr_expect_eq(modify_list(1, MAX_MC + 1, v), BAD_PARAM);
	tl_expect_refused(tdev, BAD_PARAM, NICREF_RULE_NIC_VPORT_MC_LIST_TOO_LONG);
	expect_list(1, MAX_MC, v);
	/* The vlan bound (2^12) is beyond the 12-bit allowed_list_size with the default
	 * capabilities: the longest list the field can state is taken ... */
	for (uint32_t i = 0; i < 0xFFF; i++)
		v[i] = i;
	cr_expect_eq(modify_list(2, 0xFFF, v), OK);
	expect_list(2, 0xFFF, v);
	/* ... and a smaller log_max_vlan_list shows the rule. */
	tl_set_cap(tdev, "log_max_vlan_list", 2);
	cr_expect_eq(modify_list(2, 4, v), OK);
	cr_expect_eq(modify_list(2, 5, v), BAD_PARAM);
	tl_expect_refused(tdev, BAD_PARAM, NICREF_RULE_NIC_VPORT_VLAN_LIST_TOO_LONG);
	expect_list(2, 4, v);
	free(v);
}

Test(vport_context, list_type_beyond_vlan_refused)
{
	uint64_t mac = 0x001122334455ull;
	for (unsigned t = 3; t < 8; t++) {
		cr_expect_eq(modify_list(t, 1, &mac), BAD_PARAM, "MODIFY type %u", t);
		tl_expect_refused(tdev, BAD_PARAM, NICREF_RULE_NIC_VPORT_LIST_TYPE_INVALID);
		uint8_t out[Q_OUT];
		cr_expect_eq(query_ctx(t, out, sizeof out), BAD_PARAM, "QUERY type %u", t);
		tl_expect_refused(tdev, BAD_PARAM, NICREF_RULE_NIC_VPORT_LIST_TYPE_INVALID);
	}
	expect_list(0, 0, NULL);
}

Test(vport_context, list_beyond_input_length_refused)
{
	/* D-VP-6: allowed_list_size 3 with room for 2 elements. */
	uint32_t len;
	uint8_t *in = modify_in(FS_LIST | FS_MTU, 2, &len);
	tl_setf(in, M_CTX + 0xF0, 11, 0, 3);
	tl_setf(in, M_CTX + 0x24, 15, 0, 2000);
	put_mac(in, M_IN, 0x001122334455ull);
	put_mac(in, M_IN + 8, 0x001122334456ull);
	cr_expect_eq(modify_run(in, len), BAD_INPUT_LEN);
	tl_expect_refused(tdev, BAD_INPUT_LEN, NICREF_RULE_NIC_VPORT_LIST_BEYOND_INPUT);
	expect_list(0, 0, NULL);
	uint8_t out[Q_OUT];
	cr_assert_eq(query_ctx(0, out, sizeof out), OK);
	cr_expect_eq(tl_getf(out, Q_CTX + 0x24, 15, 0), 0, "nothing of the refused command kept");
}

Test(vport_context, list_element_reserved_bits_refused)
{
	/* T19 00h[31:16] is reserved; strict profile (D-CMD-8): BAD_PARAM and a violation
	 * naming input offset 208h (element 1) and the bits. */
	uint32_t len;
	uint8_t *in = modify_in(FS_LIST, 2, &len);
	tl_setf(in, M_CTX + 0xF0, 11, 0, 2);
	put_mac(in, M_IN, 0x001122334455ull);
	put_mac(in, M_IN + 8, 0x001122334456ull);
	tl_setf(in, M_IN + 8, 31, 16, 0x8001);
	cr_expect_eq(modify_run(in, len), BAD_PARAM);
	tl_expect_refused(tdev, BAD_PARAM, NICREF_RULE_RESERVED_NOT_ZERO);
	cr_expect_eq(tdev->tr.violations, 1);
	cr_expect_eq(tdev->tr.last_violation, NICREF_VIO_CMD_RESERVED_NOT_ZERO);
	cr_expect_eq(tdev->tr.last_violation_arg, (uint64_t)(M_IN + 8) << 32 | 0x80010000u);
	expect_list(0, 0, NULL);
	/* T17: a vlan element uses 00h[11:0] only */
	tdev->tr.violations = 0;
	in = modify_in(FS_LIST, 1, &len);
	tl_setf(in, M_CTX + 0xF0, 26, 24, 2);
	tl_setf(in, M_CTX + 0xF0, 11, 0, 1);
	tl_put32(in + M_IN + 4, 1);
	cr_expect_eq(modify_run(in, len), BAD_PARAM);
	cr_expect_eq(tdev->tr.last_violation_arg, (uint64_t)(M_IN + 4) << 32 | 1u);
	tdev->tr.violations = 0;
}

Test(vport_context, query_list_fills_the_output_it_is_given)
{
	/* D-VP-6: four addresses, room for two: two written, the size says four. */
	static const uint64_t uc[] = { 0x0000000000A1ull, 0x0000000000A2ull, 0x0000000000A3ull,
				       0x0000000000A4ull };
	cr_assert_eq(modify_list(0, 4, uc), OK);
	uint8_t out[Q_OUT + 8 * 4];
	uint8_t in[0x10] = { 0 };
	header(in, OP_QUERY_NIC_VPORT_CONTEXT, 0);
	memset(out, 0xEE, sizeof out);
	cr_assert_eq(tl_cmd(tdev, in, sizeof in, out, Q_OUT + 16), OK);
	cr_expect_eq(tl_getf(out, Q_CTX + 0xF0, 11, 0), 4);
	cr_expect_eq(get_mac(out, Q_OUT), uc[0]);
	cr_expect_eq(get_mac(out, Q_OUT + 8), uc[1]);
	/* the fixed part alone: the minimum output (D-VP-4) */
	cr_assert_eq(tl_cmd(tdev, in, sizeof in, out, Q_OUT), OK);
	cr_expect_eq(tl_getf(out, Q_CTX + 0xF0, 11, 0), 4);
	cr_expect_eq(tl_cmd(tdev, in, sizeof in, out, Q_OUT - 4), BAD_OUTPUT_LEN);
	tl_expect_refused(tdev, BAD_OUTPUT_LEN, NICREF_RULE_OUTPUT_TOO_SHORT);
}

Test(vport_context, minimum_lengths_are_the_fixed_parts)
{
	/* D-VP-4: MODIFY input 200h (T482 context at 100h, fixed part 100h). */
	uint32_t len;
	uint8_t *in = modify_in(FS_MTU, 0, &len);
	cr_expect_eq(modify_run(in, len - 4), BAD_INPUT_LEN);
	tl_expect_refused(tdev, BAD_INPUT_LEN, NICREF_RULE_INPUT_TOO_SHORT);
}

Test(vport_context, mtu_any_value_stored)
{
	/* D-VP-7: T16 states no bound. */
	static const unsigned v[] = { 1, 68, 1500, 9000, 0xFFFF, 0 };
	for (unsigned k = 0; k < sizeof v / sizeof v[0]; k++) {
		cr_assert_eq(modify_mtu(v[k]), OK);
		uint8_t out[Q_OUT];
		cr_assert_eq(query_ctx(0, out, sizeof out), OK);
		cr_expect_eq(tl_getf(out, Q_CTX + 0x24, 15, 0), v[k]);
		cr_expect_eq(tdev->dev->vport->mtu, v[k]);
	}
}
