/* The port registers' layouts (PRM §11.1 T104-T126): each register's fields at the offsets the
 * PRM prints, the PPCNT counter groups in their order, the whole-command views behind the
 * ACCESS_REGISTER header, and the register table T104. Shared tools: reg_util.h. */
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "reg_util.h"

/* A counter group: every counter as <name>_high at off and <name>_low at off + 4, in the order
 * of the PRM's field table, and nothing else; the group is 08h-FCh of PPCNT (F8h bytes). */
static void expect_group(const char *layout, const struct counter *c, size_t n)
{
	const struct nicref_layout *l = nicref_layout_find(layout);
	cr_assert_not_null(l, "no layout %s", layout);
	cr_assert_eq(l->size, 0xF8, "%s: size 0x%x", layout, l->size);
	cr_assert_eq(l->nfields, 2 * n, "%s: %u fields, expected %zu", layout, l->nfields, 2 * n);
	for (size_t i = 0; i < n; i++) {
		char hi[80], lo[80];
		snprintf(hi, sizeof hi, "%s_high", c[i].name);
		snprintf(lo, sizeof lo, "%s_low", c[i].name);
		/* In order: the model reads counter k as fields 2k and 2k + 1. */
		cr_assert_str_eq(l->fields[2 * i].name, hi, "%s field %zu", layout, 2 * i);
		cr_assert_str_eq(l->fields[2 * i + 1].name, lo, "%s field %zu", layout, 2 * i + 1);
		cr_assert_eq(l->fields[2 * i].prm_offset, c[i].off, "%s.%s", layout, hi);
		cr_assert_eq(l->fields[2 * i + 1].prm_offset, c[i].off + 4, "%s.%s", layout, lo);
		cr_assert_eq(l->fields[2 * i].bit_width, 32);
		cr_assert_eq(l->fields[2 * i + 1].bit_width, 32);
	}
}

Test(reg_layouts, pmtu_t106)
{
	static const struct tl_row r[] = { { "local_port", 0x00, 23, 16 },
					{ "max_mtu", 0x04, 31, 16 },
					{ "admin_mtu", 0x08, 31, 16 },
					{ "oper_mtu", 0x0C, 31, 16 } };
	tl_expect_layout("pmtu", 0x10, r, 4);
}

Test(reg_layouts, ptys_t108)
{
	static const struct tl_row r[] = { { "local_port", 0x00, 23, 16 },
					{ "proto_mask", 0x00, 2, 0 },
					{ "eth_proto_capability", 0x0C, 31, 0 },
					{ "eth_proto_admin", 0x18, 31, 0 },
					{ "eth_proto_oper", 0x24, 31, 0 } };
	tl_expect_layout("ptys", 0x40, r, 5);
}

Test(reg_layouts, paos_t110)
{
	static const struct tl_row r[] = { { "local_port", 0x00, 23, 16 },
					{ "admin_status", 0x00, 11, 8 },
					{ "oper_status", 0x00, 3, 0 },
					{ "ase", 0x04, 31, 31 } };
	tl_expect_layout("paos", 0x10, r, 4);
}

Test(reg_layouts, pfcc_t112)
{
	static const struct tl_row r[] = {
		{ "local_port", 0x00, 23, 16 },
		{ "prio_mask_tx", 0x04, 23, 16 },
		{ "prio_mask_rx", 0x04, 7, 0 },
		{ "pptx", 0x08, 31, 31 },
		{ "aptx", 0x08, 30, 30 },
		{ "pfctx", 0x08, 23, 16 },
		{ "fctx_disabled", 0x08, 8, 8 },
		{ "pprx", 0x0C, 31, 31 },
		{ "aprx", 0x0C, 30, 30 },
		{ "pfcrx", 0x0C, 23, 16 },
		{ "device_stall_minor_watermark", 0x10, 31, 16 },
		{ "device_stall_critical_watermark", 0x10, 15, 0 },
	};
	tl_expect_layout("pfcc", 0x20, r, 12);
}

Test(reg_layouts, ppcnt_t114)
{
	static const struct tl_row r[] = { { "local_port", 0x00, 23, 16 },
					{ "grp", 0x00, 5, 0 },
					{ "clr", 0x04, 31, 31 },
					{ "prio_tc", 0x04, 4, 0 },
					{ "counter_set", 0x08, 31, 0 } };
	tl_expect_layout("ppcnt", 0x100, r, 5);
	const struct nicref_field *cs =
		nicref_layout_field(nicref_layout_find("ppcnt"), "counter_set");
	cr_assert_eq(cs->bit_width, 1984, "T114: counter_set is 1984 bits (08h-FCh)");
}

#define TL_NELEM(a) (sizeof(a) / sizeof((a)[0]))

Test(reg_layouts, ppcnt_counter_groups_t115_t126)
{
	expect_group("ppcnt_ieee_802_3", ieee_802_3, TL_NELEM(ieee_802_3));
	expect_group("ppcnt_rfc_2863", rfc_2863, TL_NELEM(rfc_2863));
	expect_group("ppcnt_rfc_2819", rfc_2819, TL_NELEM(rfc_2819));
	expect_group("ppcnt_rfc_3635", rfc_3635, TL_NELEM(rfc_3635));
	expect_group("ppcnt_per_prio", per_prio, TL_NELEM(per_prio));
	expect_group("ppcnt_per_tc", per_tc, TL_NELEM(per_tc));
	/* The port model numbers the same counters, group by group. */
	cr_assert_eq(PORT_NCNT_IEEE_802_3, TL_NELEM(ieee_802_3));
	cr_assert_eq(PORT_NCNT_RFC_2863, TL_NELEM(rfc_2863));
	cr_assert_eq(PORT_NCNT_RFC_2819, TL_NELEM(rfc_2819));
	cr_assert_eq(PORT_NCNT_RFC_3635, TL_NELEM(rfc_3635));
	cr_assert_eq(PORT_NCNT_PER_PRIO, TL_NELEM(per_prio));
	cr_assert_eq(PORT_NCNT_PER_TC, TL_NELEM(per_tc));
	cr_assert_eq(PORT_CNT_FIRST_IEEE_802_3, 0);
	cr_assert_eq(PORT_CNT_a_frames_transmitted_ok, 0);
	cr_assert_eq(PORT_CNT_FIRST_RFC_2863, PORT_CNT_if_in_octets);
	cr_assert_eq(PORT_CNT_FIRST_PER_PRIO, PORT_CNT_rx_octets);
	cr_assert_eq(PORT_CNT_FIRST_PER_TC, PORT_CNT_transmit_queue);
	cr_assert_eq(PORT_CNT_COUNT, 19 + 13 + 21 + 16 + 12 + 2);
}

/* The whole-command views put the register behind the 10h-byte ACCESS_REGISTER header. */
Test(reg_layouts, command_views)
{
	static const struct tl_row pmtu_in[] = { { "opcode", 0x00, 31, 16 },
					      { "op_mod", 0x04, 15, 0 },
					      { "register_id", 0x08, 15, 0 },
					      { "argument", 0x0C, 31, 0 },
					      { "local_port", 0x10, 23, 16 },
					      { "max_mtu", 0x14, 31, 16 },
					      { "admin_mtu", 0x18, 31, 16 },
					      { "oper_mtu", 0x1C, 31, 16 } };
	tl_expect_layout("access_reg_pmtu_in", 0x20, pmtu_in, TL_NELEM(pmtu_in));
	static const struct tl_row paos_out[] = { { "status", 0x00, 31, 24 },
					       { "syndrome", 0x04, 31, 0 },
					       { "local_port", 0x10, 23, 16 },
					       { "admin_status", 0x10, 11, 8 },
					       { "oper_status", 0x10, 3, 0 },
					       { "ase", 0x14, 31, 31 } };
	tl_expect_layout("access_reg_paos_out", 0x20, paos_out, TL_NELEM(paos_out));
	const struct nicref_layout *l = nicref_layout_find("access_reg_ppcnt_per_tc_out");
	cr_assert_not_null(l);
	cr_assert_eq(l->size, 0x110);
	const struct nicref_field *f = nicref_layout_field(l, "no_buffer_discard_uc_low");
	cr_assert_not_null(f);
	cr_assert_eq(f->prm_offset, 0x10 + 0x08 + 0x0C);
	cr_assert_not_null(nicref_layout_find("access_reg_ptys_in"));
	cr_assert_not_null(nicref_layout_find("access_reg_pfcc_out"));
	cr_assert_not_null(nicref_layout_find("access_reg_ppcnt_in"));
	cr_assert_not_null(nicref_layout_find("access_reg_ppcnt_rfc_2819_out"));
}

/* ---- The register table ---------------------------------------------------------------------- */

Test(reg_layouts, register_table_is_t104)
{
	static const struct {
		unsigned id, size;
		const char *name;
	} t104[] = { { PMTU, 0x10, "PMTU" }, { PTYS, 0x40, "PTYS" }, { PAOS, 0x10, "PAOS" },
		     { PFCC, 0x20, "PFCC" }, { PPCNT, 0x100, "PPCNT" } };
	for (size_t i = 0; i < TL_NELEM(t104); i++) {
		cr_assert_str_eq(nicref_register_name(t104[i].id), t104[i].name);
		cr_assert_eq(nicref_register_size(t104[i].id), t104[i].size, "%s", t104[i].name);
		cr_assert_eq(nicref_register_find(t104[i].name), (int)t104[i].id);
	}
	cr_assert_null(nicref_register_name(0x5005));
	cr_assert_eq(nicref_register_size(0x5005), 0);
	cr_assert_eq(nicref_register_find("pmtu"), -1);
	/* Issue 5's ROCE_ACCL, under nicref's own id (docs/adp.md; tests/roce_accl_test.c). */
	cr_assert_eq(nicref_register_find("ROCE_ACCL"), 0x4050);
}
