/* The L2 table (PRM §12.15 T457-T468) with the decisions of docs/vport.md (D-L2-*): the table
 * as a data structure (obj/l2_table.c) and SET/QUERY/DELETE_L2_TABLE_ENTRY through the command
 * queue. Inputs are built at the offsets T457/T461/T465 print, outputs read at T463's. */
#include <stdint.h>
#include <string.h>

#include "cmd/ctl_dev.h"
#include "prm/layouts.h"
#include "testlib.h"

#define OP_SET 0x829u
#define OP_QUERY 0x82Au
#define OP_DELETE 0x82Bu

#define OK 0x00u
#define BAD_OP 0x02u
#define BAD_RES_STATE 0x09u
#define BAD_INDEX 0x0Au

#define TABLE_SIZE 4096u /* 2^log_max_l2_table, default 12 (core/caps_default.c) */

/* ---- The table alone ------------------------------------------------------------------------ */

Test(l2_table, sorted_unique_and_lookup)
{
	struct l2_table t = { 0 };
	static const uint32_t order[] = { 50, 3, 4095, 0, 17, 1000, 2 };
	for (unsigned k = 0; k < sizeof order / sizeof order[0]; k++) {
		struct l2_entry e = { order[k], k & 1, (uint16_t)k, 0x020000000000ull + order[k] };
		cr_assert_eq(l2_table_insert(&t, &e), 0);
		cr_assert_eq(l2_table_check(&t, TABLE_SIZE), 0);
	}
	cr_expect_eq(t.n, 7);
	for (uint32_t k = 1; k < t.n; k++)
		cr_expect_lt(t.e[k - 1].index, t.e[k].index, "sorted by index");
	for (unsigned k = 0; k < sizeof order / sizeof order[0]; k++) {
		const struct l2_entry *e = l2_table_get(&t, order[k]);
		cr_assert_not_null(e, "index %u", order[k]);
		cr_expect_eq(e->mac, 0x020000000000ull + order[k]);
		cr_expect_eq(e->vlan, k);
		cr_expect_eq(e->vlan_valid, (bool)(k & 1));
	}
	cr_expect_null(l2_table_get(&t, 1));
	cr_expect_null(l2_table_get(&t, 4094));
	/* the same index twice is refused by the table too */
	struct l2_entry dup = { 17, false, 0, 1 };
	cr_expect_eq(l2_table_insert(&t, &dup), -1);
	cr_expect_eq(l2_table_get(&t, 17)->mac, 0x020000000000ull + 17);
	cr_expect_eq(l2_table_remove(&t, 17), 0);
	cr_expect_eq(l2_table_remove(&t, 17), -1);
	cr_expect_null(l2_table_get(&t, 17));
	cr_expect_eq(t.n, 6);
	cr_expect_eq(l2_table_check(&t, TABLE_SIZE), 0);
	l2_table_clear(&t);
	cr_expect_eq(t.n, 0);
	cr_expect_null(t.e);
}

Test(l2_table, memory_follows_the_entries)
{
	/* D-L2-4: memory for the entries set, not for 2^log_max_l2_table. */
	struct l2_table t = { 0 };
	cr_expect_eq(t.cap, 0);
	for (uint32_t i = 0; i < 1000; i++) {
		struct l2_entry e = { i * 7, false, 0, i };
		cr_assert_eq(l2_table_insert(&t, &e), 0);
	}
	cr_expect_geq(t.cap, 1000);
	cr_expect_leq(t.cap, 2048, "grows by doubling");
	for (uint32_t i = 0; i < 990; i++)
		cr_assert_eq(l2_table_remove(&t, i * 7), 0);
	cr_expect_leq(t.cap, 64, "gives memory back as it empties (cap %u)", t.cap);
	cr_expect_eq(l2_table_check(&t, TABLE_SIZE * 2), 0);
	for (uint32_t i = 990; i < 1000; i++)
		cr_assert_eq(l2_table_remove(&t, i * 7), 0);
	cr_expect_eq(t.cap, 0);
	cr_expect_null(t.e);
}

Test(l2_table, has_mac_with_and_without_vlan)
{
	/* T458: vlan_valid 0 "Only MAC is valid" (any VLAN); 1: that VLAN only (D-L2-2). */
	struct l2_table t = { 0 };
	struct l2_entry any = { 1, false, 0, 0x001122334455ull };
	struct l2_entry v10 = { 2, true, 10, 0x00AABBCCDDEEull };
	cr_assert_eq(l2_table_insert(&t, &any), 0);
	cr_assert_eq(l2_table_insert(&t, &v10), 0);
	cr_expect(l2_table_has_mac(&t, 0x001122334455ull, false, 0));
	cr_expect(l2_table_has_mac(&t, 0x001122334455ull, true, 99));
	cr_expect(l2_table_has_mac(&t, 0x00AABBCCDDEEull, true, 10));
	cr_expect(!l2_table_has_mac(&t, 0x00AABBCCDDEEull, true, 11));
	cr_expect(!l2_table_has_mac(&t, 0x00AABBCCDDEEull, false, 0));
	cr_expect(!l2_table_has_mac(&t, 0x001122334456ull, false, 0));
	l2_table_clear(&t);
}

Test(l2_table, check_catches_broken_tables)
{
	struct l2_entry e[3] = { { 5, false, 0, 1 }, { 3, false, 0, 2 }, { 9, false, 0, 3 } };
	struct l2_table t = { e, 3, 3 };
	cr_expect_eq(l2_table_check(&t, TABLE_SIZE), -442, "not sorted");
	e[0].index = 1;
	cr_expect_eq(l2_table_check(&t, TABLE_SIZE), 0);
	cr_expect_eq(l2_table_check(&t, 9), -441, "index 9 in a table of 9");
	e[2].vlan = 0x1000;
	cr_expect_eq(l2_table_check(&t, TABLE_SIZE), -443);
	e[2].vlan = 0;
	e[1].mac = 1ull << 48;
	cr_expect_eq(l2_table_check(&t, TABLE_SIZE), -443);
	e[1].mac = 2;
	t.n = 4;
	cr_expect_eq(l2_table_check(&t, TABLE_SIZE), -440);
}

/* ---- The commands --------------------------------------------------------------------------- */

static struct tl_dev *tdev;

static void setup(void)
{
	tdev = tl_up_to(NULL, REFDRV_INITIALIZED);
}

static void teardown(void)
{
	tl_down(tdev);
}

TestSuite(l2_cmd, .init = setup, .fini = teardown);

/* A 40h-byte L2 command: opcode 00h[31:16], op_mod 04h[15:0], table_index 14h[23:0]. */
static void l2_in(uint8_t in[0x40], unsigned opcode, uint32_t index)
{
	memset(in, 0, 0x40);
	tl_put32(in, opcode << 16);
	tl_put32(in + 0x14, index);
}

static unsigned run(const uint8_t *in, uint8_t *out, uint32_t out_len)
{
	return (unsigned)tl_cmd(tdev, in, 0x40, out, out_len);
}

static unsigned set_entry(uint32_t index, bool vlan_valid, unsigned vlan, uint64_t mac)
{
	uint8_t in[0x40], out[0x10];
	l2_in(in, OP_SET, index);
	tl_put32(in + 0x1C, (vlan_valid ? 1u << 12 : 0) | vlan); /* T458 1Ch[12], [11:0] */
	tl_put32(in + 0x20, (uint32_t)(mac >> 32));              /* T19 at 20h */
	tl_put32(in + 0x24, (uint32_t)mac);
	return run(in, out, sizeof out);
}

static unsigned query_entry(uint32_t index, uint8_t out[0x40])
{
	uint8_t in[0x40];
	l2_in(in, OP_QUERY, index);
	memset(out, 0xEE, 0x40);
	return run(in, out, 0x40);
}

static unsigned delete_entry(uint32_t index)
{
	uint8_t in[0x40], out[0x10];
	l2_in(in, OP_DELETE, index);
	return run(in, out, sizeof out);
}

/* The QUERY round trip of every writable field of the entry (T458 -> T464). */
Test(l2_cmd, round_trip_every_field)
{
	static const struct {
		uint32_t index;
		bool vlan_valid;
		unsigned vlan;
		uint64_t mac;
	} v[] = {
		{ 0, false, 0, 0x001122334455ull },
		{ 1, true, 4095, 0xFFFFFFFFFFFFull },
		{ 7, true, 0, 0x010000000001ull },
		{ 4095, false, 123, 0x00000000FFFFull }, /* vlan kept "as it was set" (D-L2-3) */
	};
	for (unsigned k = 0; k < sizeof v / sizeof v[0]; k++)
		cr_assert_eq(set_entry(v[k].index, v[k].vlan_valid, v[k].vlan, v[k].mac), OK);
	for (unsigned k = 0; k < sizeof v / sizeof v[0]; k++) {
		uint8_t out[0x40];
		cr_assert_eq(query_entry(v[k].index, out), OK);
		cr_expect_eq(tl_get32(out + 0x1C) >> 12 & 1, v[k].vlan_valid, "vlan_valid %u", k);
		cr_expect_eq(tl_get32(out + 0x1C) & 0xFFF, v[k].vlan, "vlan %u", k);
		cr_expect_eq(tl_get32(out + 0x1C) >> 13, 0, "1Ch[31:13] reserved");
		cr_expect_eq(tl_get32(out + 0x20), (uint32_t)(v[k].mac >> 32), "mac[47:32] %u", k);
		cr_expect_eq(tl_get32(out + 0x24), (uint32_t)v[k].mac, "mac[31:0] %u", k);
		for (unsigned o = 0x08; o < 0x1C; o += 4)
			cr_expect_eq(tl_get32(out + o), 0, "reserved %xh", o);
		for (unsigned o = 0x28; o < 0x40; o += 4)
			cr_expect_eq(tl_get32(out + o), 0, "reserved %xh", o);
	}
	cr_expect_eq(tdev->dev->vport->l2.n, 4);
}

Test(l2_cmd, set_twice_refused_until_deleted)
{
	/* §12.15 L9352: "it cannot do SET twice before DELETE of the previous one". */
	cr_assert_eq(set_entry(5, false, 0, 0x001122334455ull), OK);
	cr_expect_eq(set_entry(5, true, 9, 0x00AABBCCDDEEull), BAD_RES_STATE);
	tl_expect_refused(tdev, BAD_RES_STATE, NICREF_RULE_L2_TABLE_ENTRY_VALID);
	uint8_t out[0x40];
	cr_assert_eq(query_entry(5, out), OK);
	cr_expect_eq(tl_get32(out + 0x24), 0x22334455u, "the refused SET changed nothing");
	cr_assert_eq(delete_entry(5), OK);
	cr_expect_eq(set_entry(5, true, 9, 0x00AABBCCDDEEull), OK, "reusable after DELETE");
	cr_assert_eq(query_entry(5, out), OK);
	cr_expect_eq(tl_get32(out + 0x24), 0xBBCCDDEEu);
	cr_expect_eq(tl_get32(out + 0x1C), 1u << 12 | 9);
}

Test(l2_cmd, query_and_delete_of_an_invalid_entry_refused)
{
	/* D-L2-3: nothing set at index 6 (never, then after a DELETE). */
	uint8_t out[0x40];
	cr_expect_eq(query_entry(6, out), BAD_RES_STATE);
	tl_expect_refused(tdev, BAD_RES_STATE, NICREF_RULE_L2_TABLE_ENTRY_INVALID);
	cr_expect_eq(delete_entry(6), BAD_RES_STATE);
	tl_expect_refused(tdev, BAD_RES_STATE, NICREF_RULE_L2_TABLE_ENTRY_INVALID);
	cr_assert_eq(set_entry(6, false, 0, 0x001122334455ull), OK);
	cr_assert_eq(delete_entry(6), OK);
	cr_expect_eq(query_entry(6, out), BAD_RES_STATE);
	cr_expect_eq(delete_entry(6), BAD_RES_STATE);
	cr_expect_eq(tdev->dev->vport->l2.n, 0);
}

Test(l2_cmd, table_index_bound)
{
	/* D-L2-1: table_index < 2^log_max_l2_table (4096), for each of the three commands. */
	uint8_t out[0x40];
	cr_expect_eq(set_entry(TABLE_SIZE - 1, false, 0, 1), OK);
	cr_expect_eq(set_entry(TABLE_SIZE, false, 0, 1), BAD_INDEX);
	tl_expect_refused(tdev, BAD_INDEX, NICREF_RULE_L2_TABLE_INDEX_RANGE);
	cr_expect_eq(set_entry(0xFFFFFF, false, 0, 1), BAD_INDEX);
	cr_expect_eq(query_entry(TABLE_SIZE, out), BAD_INDEX);
	tl_expect_refused(tdev, BAD_INDEX, NICREF_RULE_L2_TABLE_INDEX_RANGE);
	cr_expect_eq(delete_entry(TABLE_SIZE), BAD_INDEX);
	tl_expect_refused(tdev, BAD_INDEX, NICREF_RULE_L2_TABLE_INDEX_RANGE);
	/* the index is judged before the entry's state (T128 precedence, D-L2-3) */
	cr_expect_eq(delete_entry(0xFFFFFF), BAD_INDEX);
	/* a smaller table: 2^3 */
	prm_set(tdev->dev->core.caps.cur[CAP_GENERAL], CAP_BYTES, PRM_FIELD(hca_cap, log_max_l2_table), 3);
	cr_assert_eq(delete_entry(TABLE_SIZE - 1), BAD_INDEX);
	cr_expect_eq(set_entry(7, false, 0, 1), OK);
	cr_expect_eq(set_entry(8, false, 0, 1), BAD_INDEX);
	cr_assert_eq(delete_entry(7), OK);
	prm_set(tdev->dev->core.caps.cur[CAP_GENERAL], CAP_BYTES, PRM_FIELD(hca_cap, log_max_l2_table), 12);
	cr_assert_eq(delete_entry(TABLE_SIZE - 1), OK);
}

Test(l2_cmd, needs_vport_group_manager)
{
	/* §12.15: "allowed only when HCA_CAP.vport_group_manager ==1", before anything else. */
	cr_assert_eq(set_entry(1, false, 0, 0x001122334455ull), OK);
	prm_set(tdev->dev->core.caps.cur[CAP_GENERAL], CAP_BYTES, PRM_FIELD(hca_cap, vport_group_manager),
		0);
	uint8_t out[0x40];
	cr_expect_eq(set_entry(2, false, 0, 1), BAD_OP);
	tl_expect_refused(tdev, BAD_OP, NICREF_RULE_L2_TABLE_NOT_MANAGER);
	cr_expect_eq(set_entry(TABLE_SIZE, false, 0, 1), BAD_OP, "BAD_OP before BAD_INDEX");
	cr_expect_eq(query_entry(1, out), BAD_OP);
	tl_expect_refused(tdev, BAD_OP, NICREF_RULE_L2_TABLE_NOT_MANAGER);
	cr_expect_eq(delete_entry(1), BAD_OP);
	tl_expect_refused(tdev, BAD_OP, NICREF_RULE_L2_TABLE_NOT_MANAGER);
	cr_expect_eq(tdev->dev->vport->l2.n, 1, "nothing changed");
	cr_expect_eq(vport_dev_check(tdev->dev), -407, "an entry a non-manager could not have set");
	prm_set(tdev->dev->core.caps.cur[CAP_GENERAL], CAP_BYTES, PRM_FIELD(hca_cap, vport_group_manager),
		1);
	cr_expect_eq(delete_entry(1), OK);
}

Test(l2_cmd, op_mod_other_than_zero_refused)
{
	static const unsigned ops[] = { OP_SET, OP_QUERY, OP_DELETE };
	for (unsigned k = 0; k < 3; k++) {
		uint8_t in[0x40], out[0x40];
		l2_in(in, ops[k], 0);
		tl_put32(in + 0x04, 1);
		cr_expect_eq(run(in, out, sizeof out), BAD_OP);
		tl_expect_refused(tdev, BAD_OP, NICREF_RULE_BAD_OP_MOD);
	}
}

Test(l2_cmd, table_emptied_at_teardown)
{
	cr_assert_eq(set_entry(3, true, 100, 0x001122334455ull), OK);
	cr_assert_eq(refdrv_teardown(&tdev->d), 0, "%s", tdev->d.error);
	cr_expect_eq(tdev->dev->vport->l2.n, 0);
	cr_expect_null(tdev->dev->vport->l2.e);
	cr_assert_eq(refdrv_bring_up(&tdev->d, REFDRV_INITIALIZED), 0, "%s", tdev->d.error);
	uint8_t out[0x40];
	cr_expect_eq(query_entry(3, out), BAD_RES_STATE);
	cr_expect_eq(set_entry(3, true, 100, 0x001122334455ull), OK);
}

Test(l2_cmd, feeds_the_owned_address_check)
{
	/* D-L2-2: the entries are the addresses the function owns. */
	cr_assert_eq(set_entry(0, true, 10, 0x001122334455ull), OK);
	cr_expect(l2_table_has_mac(&tdev->dev->vport->l2, 0x001122334455ull, true, 10));
	cr_expect(!l2_table_has_mac(&tdev->dev->vport->l2, 0x001122334455ull, true, 11));
	cr_assert_eq(delete_entry(0), OK);
	cr_expect(!l2_table_has_mac(&tdev->dev->vport->l2, 0x001122334455ull, true, 10));
}
