/* Flow steering command rules found by the session-31 review (revsteer): the masks either
 * ft_field bit supports (D-FT-9, §7.11.3.4 note), the FTE's group_id range (BAD_INDEX), the
 * unselected context of MODIFY_FLOW_TABLE (D-FT-23), the D-CMD-7 order of the table and group
 * commands, and flow counters read and cleared after traffic (T454/T456). */
#include "steer_util.h"

#define RX 0

enum { ALLOW = 1, DROP = 2, FWD = 4, COUNT = 8 };

/* The T153 bit `bit` (00h[bit]) of NIC_RX ft_field_support (full) or ft_field_bitmask_support
 * (T151 20h, 30h) set to v. */
static void fbit(struct tl_dev *t, bool bitmask, unsigned bit, bool v)
{
	uint8_t *p = t->dev->core.caps.cur[CAP_FLOW_TABLE_NIC] + 0x40 + (bitmask ? 0x30 : 0x20);
	uint8_t *b = p + 3 - bit / 8;
	*b = (uint8_t)(v ? *b | 1u << bit % 8 : *b & ~(1u << bit % 8));
}

/* §7.11.3.4: "a PARTIAL match is supported if the corresponding bit of ft_field_bitmask_support
 * ... is set"; note: the dmac mask 01:00:00:00:00:00 "is also supported if a FULL match is
 * supported". Either bit takes it; neither refuses it; another PARTIAL dmac mask needs the
 * bitmask bit. */
Test(steer_rules, dmac_multicast_mask_under_either_bit)
{
	struct senv e = senv_up();
	struct tl_dev *t = e.t;
	uint32_t a, g;
	cr_assert_eq(refdrv_create_flow_table(&t->d, RX, 0, 4, 0, 0, &a), 0);
	uint8_t mc[REFDRV_MATCH_LEN] = { 0 }, oui[REFDRV_MATCH_LEN] = { 0 };
	mset(mc, "outer_dmac_47_16", 0x01000000);
	mset(oui, "outer_dmac_47_16", 0xFFFFFF00);
	fbit(t, false, 31, false); /* bitmask only */
	fbit(t, true, 31, true);
	cr_expect_eq(refdrv_create_flow_group(&t->d, RX, a, 0, 0, 1, mc, &g), 0,
		     "bitmask only: refused as %s", tl_rule_of(t->d.last_syndrome));
	fbit(t, false, 31, true); /* full only */
	fbit(t, true, 31, false);
	cr_expect_eq(refdrv_create_flow_group(&t->d, RX, a, 1, 1, 1, mc, &g), 0,
		     "full only: refused as %s", tl_rule_of(t->d.last_syndrome));
	tl_refused(t, refdrv_create_flow_group(&t->d, RX, a, 2, 2, 1, oui, &g), FG_CRITERIA_UNSUPPORTED);
	fbit(t, false, 31, false); /* neither */
	tl_refused(t, refdrv_create_flow_group(&t->d, RX, a, 2, 2, 1, mc, &g), FG_CRITERIA_UNSUPPORTED);
	tl_down(t);
}

/* D-FT-9: an IPv4 address mask is FULL of T413's ipv4 field and PARTIAL of the 128-bit address:
 * either bit takes it; neither refuses it; an IPv6 /64 stays PARTIAL (bitmask bit only). */
Test(steer_rules, ipv4_address_mask_under_either_bit)
{
	struct senv e = senv_up();
	struct tl_dev *t = e.t;
	uint32_t a;
	cr_assert_eq(refdrv_create_flow_table(&t->d, RX, 0, 4, 0, 0, &a), 0);
	uint8_t m[REFDRV_MATCH_LEN] = { 0 }, v6[REFDRV_MATCH_LEN] = { 0 };
	mset_ip4(m, "outer_dst_ip", 0xFFFFFFFF);
	uint8_t half[16] = { 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF };
	cr_assert_eq(nicref_field_set_bytes(v6, REFDRV_MATCH_LEN, tl_field("fte_match_param", "outer_dst_ip"),
					    half, 16), 0);
	uint32_t g;
	fbit(t, false, 18, false); /* T153 00h[18] outer_dip: bitmask only */
	fbit(t, true, 18, true);
	cr_expect_eq(refdrv_create_flow_group(&t->d, RX, a, 0, 0, 1, m, &g), 0,
		     "bitmask only: refused as %s", tl_rule_of(t->d.last_syndrome));
	fbit(t, false, 18, true); /* full only */
	fbit(t, true, 18, false);
	cr_expect_eq(refdrv_create_flow_group(&t->d, RX, a, 1, 1, 1, m, &g), 0,
		     "full only: refused as %s", tl_rule_of(t->d.last_syndrome));
	tl_refused(t, refdrv_create_flow_group(&t->d, RX, a, 2, 2, 1, v6, &g), FG_CRITERIA_UNSUPPORTED);
	fbit(t, false, 18, false);
	tl_refused(t, refdrv_create_flow_group(&t->d, RX, a, 2, 2, 1, m, &g), FG_CRITERIA_UNSUPPORTED);
	tl_down(t);
}

/* rules_steer.h, T128: a handle outside its range is BAD_INDEX. SET_FLOW_TABLE_ENTRY's
 * group_id 0 and 2^24 (T418 23:0) are outside the group handles. */
Test(steer_rules, fte_group_id_out_of_range_is_bad_index)
{
	struct senv e = senv_up();
	struct tl_dev *t = e.t;
	uint32_t a, g;
	cr_assert_eq(refdrv_create_flow_table(&t->d, RX, 0, 2, 0, 0, &a), 0);
	cr_assert_eq(refdrv_create_flow_group(&t->d, RX, a, 0, 3, 0, NULL, &g), 0);
	struct refdrv_fte f = { .group_id = 0, .action = DROP };
	tl_refused(t, refdrv_set_fte(&t->d, RX, a, 0, 0, 0, &f), FTE_GROUP_OUT_OF_RANGE);
	f.group_id = 1u << 24;
	tl_refused(t, refdrv_set_fte(&t->d, RX, a, 0, 0, 0, &f), FTE_GROUP_OUT_OF_RANGE);
	f.group_id = g + 1; /* in range, not allocated */
	tl_refused(t, refdrv_set_fte(&t->d, RX, a, 0, 0, 0, &f), FTE_GROUP_NOT_FOUND);
	f.group_id = g;
	cr_expect_eq(refdrv_set_fte(&t->d, RX, a, 0, 0, 0, &f), 0);
	tl_down(t);
}

static int modify_ft(struct tl_dev *t, uint32_t id, unsigned sel, unsigned level, unsigned log_size,
		     unsigned action, uint32_t miss)
{
	static const char L[] = "modify_flow_table_in";
	uint8_t in[0x40] = { 0 }, out[0x10];
	cr_assert_eq(refdrv_field_set(in, sizeof in, L, "opcode", 0x93C), 0);
	cr_assert_eq(refdrv_field_set(in, sizeof in, L, "modify_field_select", sel), 0);
	cr_assert_eq(refdrv_field_set(in, sizeof in, L, "table_id", id), 0);
	cr_assert_eq(refdrv_field_set(in, sizeof in, L, "level", level), 0);
	cr_assert_eq(refdrv_field_set(in, sizeof in, L, "log_size", log_size), 0);
	cr_assert_eq(refdrv_field_set(in, sizeof in, L, "table_miss_action", action), 0);
	cr_assert_eq(refdrv_field_set(in, sizeof in, L, "table_miss_id", miss), 0);
	return tl_cmd(t, in, sizeof in, out, sizeof out);
}

/* D-FT-23: T390 places the whole flow table context; modify_field_select "indicates which fields
 * to modify". An unselected field that is 0 or the table's own value is taken (a driver writing
 * back what it queried); another value is a change the command cannot make. */
Test(steer_rules, modify_flow_table_unselected_context)
{
	struct senv e = senv_up();
	struct tl_dev *t = e.t;
	uint32_t a, b, c;
	cr_assert_eq(refdrv_create_flow_table(&t->d, RX, 3, 2, 0, 0, &a), 0);
	cr_assert_eq(refdrv_create_flow_table(&t->d, RX, 4, 2, 0, 0, &b), 0);
	cr_assert_eq(refdrv_create_flow_table(&t->d, RX, 5, 2, 0, 0, &c), 0);
	cr_expect_eq(modify_ft(t, a, 1, 3, 2, 1, b), 0, "own level and log_size: refused as %s",
		     tl_rule_of(t->d.last_syndrome));
	cr_expect_eq(modify_ft(t, a, 1, 0, 0, 1, b), 0, "zeros");
	tl_refused(t, modify_ft(t, a, 1, 5, 2, 0, 0), FT_MODIFY_UNSELECTED);
	tl_refused(t, modify_ft(t, a, 1, 3, 3, 0, 0), FT_MODIFY_UNSELECTED);
	/* bit 0 clear: the miss is unselected too */
	cr_expect_eq(modify_ft(t, a, 0, 3, 2, 1, b), 0, "own miss: refused as %s",
		     tl_rule_of(t->d.last_syndrome));
	tl_refused(t, modify_ft(t, a, 0, 0, 0, 1, c), FT_MODIFY_UNSELECTED);
	tl_refused(t, modify_ft(t, a, 0, 0, 0, 2, b), FT_MODIFY_UNSELECTED);
	uint8_t in[0x40] = { 0 }, out[0x40] = { 0 };
	refdrv_field_set(in, sizeof in, "query_flow_table_in", "opcode", 0x932);
	refdrv_field_set(in, sizeof in, "query_flow_table_in", "table_id", a);
	cr_assert_eq(tl_cmd(t, in, sizeof in, out, sizeof out), 0);
	cr_expect_eq(refdrv_field_get(out, sizeof out, "query_flow_table_out", "level"), 3);
	cr_expect_eq(refdrv_field_get(out, sizeof out, "query_flow_table_out", "table_miss_id"), b);
	tl_down(t);
}

/* D-CMD-7 step 6: a command's field checks (BAD_PARAM) come before the objects it names
 * (BAD_INDEX, BAD_RESOURCE). */
Test(steer_rules, field_checks_before_the_objects_named)
{
	struct senv e = senv_up();
	struct tl_dev *t = e.t;
	uint32_t a, b;
	cr_assert_eq(refdrv_create_flow_table(&t->d, RX, 0, 2, 0, 0, &a), 0);
	/* a second level-0 table whose miss names table 0 (out of range) or 9 (not allocated) */
	tl_refused(t, refdrv_create_flow_table(&t->d, RX, 0, 2, 1, 0, &b), FT_SECOND_LEVEL0);
	tl_refused(t, refdrv_create_flow_table(&t->d, RX, 0, 2, 1, 9, &b), FT_SECOND_LEVEL0);
	/* MODIFY_FLOW_TABLE select bit 1 of table 9 (not allocated) */
	tl_refused(t, modify_ft(t, 9, 2, 0, 0, 0, 0), FT_MODIFY_SELECT);
	/* CREATE_FLOW_GROUP start above end, or an unsupported criterion, in table 9 */
	uint32_t g;
	tl_refused(t, refdrv_create_flow_group(&t->d, RX, 9, 3, 1, 0, NULL, &g), FG_INDEX_ORDER);
	uint8_t m[REFDRV_MATCH_LEN] = { 0 };
	mset(m, "inner_ip_protocol", 0xFF);
	tl_refused(t, refdrv_create_flow_group(&t->d, RX, 9, 0, 1, 4, m, &g), FG_CRITERIA_UNSUPPORTED);
	tl_refused(t, refdrv_create_flow_group(&t->d, RX, 9, 0, 1, 0, NULL, &g), FT_NOT_FOUND);
	tl_down(t);
}

/* QUERY_FLOW_COUNTER in bulk (D-FC-3): num counters from id, 16 bytes each (T491) from 10h. */
static void bulk(struct tl_dev *t, uint32_t id, uint32_t num, uint64_t *stats)
{
	static const char L[] = "query_flow_counter_in";
	uint8_t in[0x20] = { 0 }, out[0x10 + 16 * 8] = { 0 };
	refdrv_field_set(in, sizeof in, L, "opcode", 0x93B);
	refdrv_field_set(in, sizeof in, L, "flow_counter_id", id);
	refdrv_field_set(in, sizeof in, L, "num_of_counters", num);
	cr_assert_eq(tl_cmd(t, in, sizeof in, out, (uint32_t)(0x10 + 16 * num)), 0, "%s",
		     tl_rule_of(t->d.last_syndrome));
	for (uint32_t k = 0; k < 2 * num; k++) {
		stats[k] = 0;
		for (unsigned i = 0; i < 8; i++)
			stats[k] = stats[k] << 8 | out[0x10 + 8 * k + i];
	}
}

/* §7.11.2.8, T454 18h "Read and reset", T456: frames counted by two flows, read in bulk (the
 * allocated counters' packets at [2k], octets at [2k+1]) and one by one; clear resets only the
 * counter it reads. */
Test(steer_rules, counters_read_in_bulk_and_cleared_after_traffic)
{
	struct senv e = senv_up();
	struct tl_dev *t = e.t;
	uint32_t a, g, c[3];
	for (unsigned i = 0; i < 3; i++)
		cr_assert_eq(refdrv_alloc_flow_counter(&t->d, &c[i]), 0);
	cr_assert_eq(c[0], 1, "D-FC-1: ids from 1");
	cr_assert_eq(refdrv_create_flow_table(&t->d, RX, 0, 2, 0, 0, &a), 0);
	uint8_t m[REFDRV_MATCH_LEN] = { 0 };
	mset(m, "outer_udp_dport", 0xFFFF);
	cr_assert_eq(refdrv_create_flow_group(&t->d, RX, a, 0, 1, 1, m, &g), 0);
	uint8_t val[2][REFDRV_MATCH_LEN] = { { 0 } };
	struct refdrv_fte f = { .group_id = g, .action = DROP | COUNT, .ncnt = 1 };
	for (unsigned i = 0; i < 2; i++) {
		mset(val[i], "outer_udp_dport", 100 + i);
		f.match = val[i];
		f.cnt[0] = (uint16_t)c[i];
		cr_assert_eq(refdrv_set_fte(&t->d, RX, a, i, 0, 0, &f), 0);
	}
	struct sframe fr = { .dst = 0x0A000002, .proto = 17, .dport = 100 };
	struct steer_verdict v;
	sclassify(t, STEER_NIC_RX, &fr, &v);
	sclassify(t, STEER_NIC_RX, &fr, &v);
	fr.dport = 101;
	sclassify(t, STEER_NIC_RX, &fr, &v);
	const uint64_t len = 14 + 20 + 8; /* sframe: Ethernet, IPv4, UDP */
	uint64_t s[8];
	bulk(t, 0, 4, s); /* ids 0 (not allocated: "unknown value"), 1, 2, 3 */
	cr_expect_eq(s[2], 2);
	cr_expect_eq(s[3], 2 * len);
	cr_expect_eq(s[4], 1);
	cr_expect_eq(s[5], len);
	cr_expect_eq(s[6], 0);
	cr_expect_eq(s[7], 0);
	uint64_t p, o;
	cr_assert_eq(refdrv_query_flow_counter(&t->d, c[0], true, &p, &o), 0);
	cr_expect_eq(p, 2);
	cr_expect_eq(o, 2 * len);
	cr_assert_eq(refdrv_query_flow_counter(&t->d, c[0], false, &p, &o), 0);
	cr_expect_eq(p + o, 0, "cleared: %llu packets", (unsigned long long)p);
	cr_assert_eq(refdrv_query_flow_counter(&t->d, c[1], false, &p, &o), 0);
	cr_expect_eq(p, 1, "the other counter is not cleared");
	cr_expect_eq(o, len);
	tl_down(t);
}
