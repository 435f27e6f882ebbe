/* Flow steering classification (PRM §7.11.2, §7.11.4; steer/classify.c) on tables, groups and
 * entries built through the §12.14 commands: match semantics, index order, misses, ALLOW, DROP,
 * forwarding to TIRs and to tables with levels, multi-path copies, flow tags, counters, the
 * root. Decisions: docs/steer.md. */
#include "steer_util.h"

#define RX STEER_NIC_RX
#define TX STEER_NIC_TX
enum { ALLOW = 1, DROP = 2, FWD = 4, COUNT = 8 };

static uint32_t table(struct senv *e, unsigned type, unsigned level, unsigned log_size)
{
	uint32_t id;
	cr_assert_eq(refdrv_create_flow_table(&e->t->d, type, level, log_size, 0, 0, &id), 0);
	return id;
}

static uint32_t group(struct senv *e, unsigned type, uint32_t ft, uint32_t s, uint32_t end,
		      unsigned enable, const uint8_t *crit)
{
	uint32_t id;
	cr_assert_eq(refdrv_create_flow_group(&e->t->d, type, ft, s, end, enable, crit, &id), 0,
		     "rule %s", tl_rule_of(e->t->d.last_syndrome));
	return id;
}

static void flow(struct senv *e, unsigned type, uint32_t ft, uint32_t idx, const struct refdrv_fte *f)
{
	cr_assert_eq(refdrv_set_fte(&e->t->d, type, ft, idx, 0, 0, f), 0, "rule %s",
		     tl_rule_of(e->t->d.last_syndrome));
}

static struct refdrv_fte to_tir(uint32_t g, uint32_t tir, uint32_t tag, const uint8_t *match)
{
	struct refdrv_fte f = { .group_id = g, .action = FWD, .flow_tag = tag, .match = match, .ndest = 1 };
	f.dest[0].type = 2;
	f.dest[0].id = tir;
	return f;
}

Test(steer_classify, no_root_is_the_types_default)
{
	struct senv e = senv_up();
	struct steer_verdict v;
	struct sframe f = { .dst = 0x0a000002, .proto = 6, .dport = 80 };
	sclassify(e.t, RX, &f, &v); /* §7.11.2.5, §7.11.4.1: NIC_RX default drop */
	cr_expect_eq(v.action, STEER_DEFAULT);
	cr_expect_eq(v.why, STEER_WHY_NO_ROOT);
	cr_expect_eq(v.ntirs, 0);
	/* a table of level 1 is not a root (§7.11.3.2: the level-0 table) */
	uint32_t t1 = table(&e, RX, 1, 2);
	uint32_t g = group(&e, RX, t1, 0, 3, 0, NULL);
	struct refdrv_fte a = to_tir(g, e.tir[0], 0, NULL);
	flow(&e, RX, t1, 0, &a);
	sclassify(e.t, RX, &f, &v);
	cr_expect_eq(v.why, STEER_WHY_NO_ROOT);
	/* ... until SET_FLOW_TABLE_ROOT names it (§12.14.4) */
	cr_assert_eq(refdrv_set_flow_table_root(&e.t->d, RX, t1), 0);
	sclassify(e.t, RX, &f, &v);
	cr_expect_eq(v.action, STEER_DELIVER);
	cr_expect_eq(v.tirn[0], e.tir[0]);
	sclassify(e.t, TX, &f, &v); /* NIC_TX has none: transmit (§7.11.4.2) */
	cr_expect_eq(v.action, STEER_DEFAULT);
	tl_down(e.t);
}

/* §7.11.2: "Packets ... attempt to match every entry, in order, starting at entry 0. The first
 * entry that matches" wins; invalid flows are skipped (§7.11.2.6). */
Test(steer_classify, lowest_matching_index_wins)
{
	struct senv e = senv_up();
	uint32_t ft = table(&e, RX, 0, 4);
	uint8_t crit[REFDRV_MATCH_LEN] = { 0 }, m[REFDRV_MATCH_LEN] = { 0 };
	mset(crit, "outer_ethertype", 0xffff);
	mset_ip4(crit, "outer_dst_ip", 0xffffffff);
	uint32_t ga = group(&e, RX, ft, 0, 3, 1, crit);
	uint32_t gb = group(&e, RX, ft, 4, 7, 0, NULL); /* matches every frame */
	mset(m, "outer_ethertype", 0x0800);
	mset_ip4(m, "outer_dst_ip", 0x0a000009);
	struct refdrv_fte f2 = to_tir(ga, e.tir[0], 7, m), f1 = to_tir(ga, e.tir[1], 8, m),
			  f5 = to_tir(gb, e.tir[2], 9, NULL);
	flow(&e, RX, ft, 5, &f5);
	flow(&e, RX, ft, 1, &f1); /* set before index 2: the chain is kept in index order */
	flow(&e, RX, ft, 2, &f2);
	struct steer_verdict v;
	struct sframe hit = { .dst = 0x0a000009, .proto = 17, .dport = 53 };
	struct sframe other = { .dst = 0x0a000002, .proto = 17, .dport = 53 };
	sclassify(e.t, RX, &hit, &v);
	cr_expect_eq(v.ntirs, 1);
	cr_expect_eq(v.tirn[0], e.tir[1], "index 1 before index 2");
	cr_expect_eq(v.flow_tag[0], 8);
	sclassify(e.t, RX, &other, &v);
	cr_expect_eq(v.tirn[0], e.tir[2], "the catch-all group at 4-7");
	cr_assert_eq(refdrv_delete_fte(&e.t->d, RX, ft, 1), 0);
	sclassify(e.t, RX, &hit, &v);
	cr_expect_eq(v.tirn[0], e.tir[0], "index 1 invalid: index 2");
	cr_assert_eq(refdrv_delete_fte(&e.t->d, RX, ft, 2), 0);
	sclassify(e.t, RX, &hit, &v);
	cr_expect_eq(v.tirn[0], e.tir[2]);
	cr_assert_eq(refdrv_delete_fte(&e.t->d, RX, ft, 5), 0);
	sclassify(e.t, RX, &hit, &v); /* empty table: miss, the default */
	cr_expect_eq(v.action, STEER_DEFAULT);
	cr_expect_eq(v.why, STEER_WHY_MISS);
	tl_down(e.t);
}

/* DROP stops; ALLOW is the type's default (D-FT-7); a miss with table_miss_action 1 continues
 * in the miss table (T388); MODIFY_FLOW_TABLE changes it (§12.14.2). */
Test(steer_classify, drop_allow_and_miss_tables)
{
	struct senv e = senv_up();
	uint32_t root = table(&e, RX, 0, 2), next = table(&e, RX, 5, 2);
	uint8_t crit[REFDRV_MATCH_LEN] = { 0 }, m80[REFDRV_MATCH_LEN] = { 0 }, m81[REFDRV_MATCH_LEN] = { 0 };
	mset(crit, "outer_tcp_dport", 0xffff);
	mset(m80, "outer_tcp_dport", 80);
	mset(m81, "outer_tcp_dport", 81);
	uint32_t g = group(&e, RX, root, 0, 3, 1, crit);
	struct refdrv_fte drop = { .group_id = g, .action = DROP, .match = m80 };
	struct refdrv_fte allow = { .group_id = g, .action = ALLOW, .match = m81 };
	flow(&e, RX, root, 0, &drop);
	flow(&e, RX, root, 1, &allow);
	uint32_t gn = group(&e, RX, next, 0, 3, 0, NULL);
	struct refdrv_fte catchall = to_tir(gn, e.tir[1], 0x42, NULL);
	flow(&e, RX, next, 3, &catchall);
	struct steer_verdict v;
	struct sframe f80 = { .dst = 1, .proto = 6, .dport = 80 }, f81 = f80, f82 = f80;
	f81.dport = 81;
	f82.dport = 82;
	sclassify(e.t, RX, &f80, &v);
	cr_expect_eq(v.action, STEER_DROP);
	cr_expect_eq(v.why, STEER_WHY_RULE_DROP);
	sclassify(e.t, RX, &f81, &v);
	cr_expect_eq(v.action, STEER_DEFAULT);
	cr_expect_eq(v.why, STEER_WHY_ALLOW);
	sclassify(e.t, RX, &f82, &v);
	cr_expect_eq(v.why, STEER_WHY_MISS);
	cr_assert_eq(refdrv_modify_flow_table_miss(&e.t->d, RX, root, 1, next), 0);
	sclassify(e.t, RX, &f82, &v);
	cr_expect_eq(v.action, STEER_DELIVER);
	cr_expect_eq(v.tirn[0], e.tir[1]);
	cr_expect_eq(v.flow_tag[0], 0x42);
	sclassify(e.t, RX, &f80, &v); /* a hit never reaches the miss table */
	cr_expect_eq(v.action, STEER_DROP);
	tl_down(e.t);
}

/* §7.11.2.4 multi-path: one copy per destination, TIRs then a table of level >= 64; the tag of
 * the flow before the split rides every copy, an unmarked flow keeps it and a marked one
 * replaces it (§7.11.2.9). */
Test(steer_classify, multi_path_copies_and_tags)
{
	struct senv e = senv_up();
	uint32_t root = table(&e, RX, 0, 2), t64 = table(&e, RX, 64, 2);
	uint32_t g = group(&e, RX, root, 0, 0, 0, NULL);
	struct refdrv_fte split = { .group_id = g, .action = FWD, .flow_tag = 0x11, .ndest = 3 };
	split.dest[0].type = 2, split.dest[0].id = e.tir[0];
	split.dest[1].type = 2, split.dest[1].id = e.tir[1];
	split.dest[2].type = 1, split.dest[2].id = t64;
	flow(&e, RX, root, 0, &split);
	uint8_t crit[REFDRV_MATCH_LEN] = { 0 }, m[REFDRV_MATCH_LEN] = { 0 };
	mset(crit, "outer_udp_dport", 0xffff);
	mset(m, "outer_udp_dport", 4789);
	uint32_t g64 = group(&e, RX, t64, 0, 1, 1, crit);
	struct refdrv_fte unmarked = to_tir(g64, e.tir[2], 0, m);
	flow(&e, RX, t64, 0, &unmarked);
	struct steer_verdict v;
	struct sframe f = { .dst = 1, .proto = 17, .dport = 4789 };
	sclassify(e.t, RX, &f, &v);
	cr_expect_eq(v.action, STEER_DELIVER);
	cr_assert_eq(v.ntirs, 3);
	for (unsigned i = 0; i < 3; i++) {
		cr_expect_eq(v.tirn[i], e.tir[i], "copy %u in list order (D-FT-20)", i);
		cr_expect_eq(v.flow_tag[i], 0x11, "copy %u keeps the tag", i);
	}
	struct refdrv_fte marked = to_tir(g64, e.tir[2], 0x22, m);
	cr_assert_eq(refdrv_set_fte(&e.t->d, RX, t64, 0, 1, 2, &marked), 0); /* modify flow_tag */
	sclassify(e.t, RX, &f, &v);
	cr_expect_eq(v.flow_tag[2], 0x22);
	cr_expect_eq(v.flow_tag[0], 0x11);
	f.dport = 1; /* the table-64 copy misses: two copies only */
	sclassify(e.t, RX, &f, &v);
	cr_expect_eq(v.action, STEER_DELIVER);
	cr_expect_eq(v.ntirs, 2);
	tl_down(e.t);
}

/* §7.11.2.8, §12.14.14: every frame that hits a COUNT flow adds 1 packet and its length
 * (D-FC-2); clear reads and resets. */
Test(steer_classify, counters_count_hits)
{
	struct senv e = senv_up();
	uint32_t root = table(&e, RX, 0, 1), c;
	cr_assert_eq(refdrv_alloc_flow_counter(&e.t->d, &c), 0);
	uint32_t g = group(&e, RX, root, 0, 1, 0, NULL);
	struct refdrv_fte f = { .group_id = g, .action = DROP | COUNT, .ncnt = 1 };
	f.cnt[0] = (uint16_t)c;
	flow(&e, RX, root, 0, &f);
	struct steer_verdict v;
	struct sframe tcp = { .dst = 1, .proto = 6, .dport = 1 }, udp = { .dst = 1, .proto = 17 };
	uint8_t buf[128];
	uint64_t want = 2 * sframe_build(&tcp, buf) + sframe_build(&udp, buf);
	sclassify(e.t, RX, &tcp, &v);
	sclassify(e.t, RX, &tcp, &v);
	sclassify(e.t, RX, &udp, &v);
	uint64_t pk, oc;
	cr_assert_eq(refdrv_query_flow_counter(&e.t->d, c, true, &pk, &oc), 0);
	cr_expect_eq(pk, 3);
	cr_expect_eq(oc, want);
	cr_assert_eq(refdrv_query_flow_counter(&e.t->d, c, false, &pk, &oc), 0);
	cr_expect_eq(pk, 0, "clear reset it");
	cr_expect_eq(oc, 0);
	tl_down(e.t);
}

/* T410/T416 match fields from the frame: VLAN tags (first, second), ethertype after them, DSCP/
 * ECN, TCP flags, IPv6 flow label, a partial dst_ip mask. */
Test(steer_classify, match_fields_from_the_frame)
{
	struct senv e = senv_up();
	uint32_t root = table(&e, RX, 0, 3);
	uint8_t crit[REFDRV_MATCH_LEN] = { 0 }, m[REFDRV_MATCH_LEN] = { 0 };
	mset(crit, "outer_cvlan_tag", 1);
	mset(crit, "outer_svlan_tag", 1);
	mset(crit, "outer_first_vid", 0xfff);
	mset(crit, "outer_second_cvlan_tag", 1);
	mset(crit, "outer_second_vid", 0xfff);
	mset(crit, "outer_ethertype", 0xffff);
	mset(crit, "outer_ip_dscp", 0x3f);
	mset(crit, "outer_tcp_flags", 0x1ff);
	mset_ip4(crit, "outer_dst_ip", 0xffffff00);
	uint32_t g = group(&e, RX, root, 0, 3, 3, crit);
	mset(m, "outer_svlan_tag", 1);
	mset(m, "outer_first_vid", 100);
	mset(m, "outer_second_cvlan_tag", 1);
	mset(m, "outer_second_vid", 200);
	mset(m, "outer_ethertype", 0x0800);
	mset(m, "outer_ip_dscp", 46);
	mset(m, "outer_tcp_flags", 0x002);
	mset_ip4(m, "outer_dst_ip", 0xc0a80100);
	struct refdrv_fte f = to_tir(g, e.tir[0], 1, m);
	flow(&e, RX, root, 0, &f);
	uint8_t c6[REFDRV_MATCH_LEN] = { 0 }, m6[REFDRV_MATCH_LEN] = { 0 };
	mset(c6, "outer_ethertype", 0xffff);
	mset(c6, "outer_ipv6_flow_label", 0xfffff);
	uint32_t g6 = group(&e, RX, root, 4, 7, 3, c6);
	mset(m6, "outer_ethertype", 0x86dd);
	mset(m6, "outer_ipv6_flow_label", 0x12345);
	struct refdrv_fte f6 = to_tir(g6, e.tir[1], 2, m6);
	flow(&e, RX, root, 4, &f6);
	struct steer_verdict v;
	struct sframe q = { .ntags = 2, .tpid = { 0x88a8, 0x8100 }, .tci = { 0x2064, 0x00c8 },
			    .dst = 0xc0a80177, .proto = 6, .tos = 46 << 2, .tcp_flags = 0x02 };
	sclassify(e.t, RX, &q, &v);
	cr_expect_eq(v.action, STEER_DELIVER, "S-tag 100, C-tag 200, DSCP 46, SYN, 192.168.1.0/24");
	struct sframe bad = q;
	bad.tpid[0] = 0x8100; /* a C-tag first: cvlan_tag 1, svlan_tag 0 */
	sclassify(e.t, RX, &bad, &v);
	cr_expect_eq(v.action, STEER_DEFAULT);
	bad = q;
	bad.tcp_flags = 0x12; /* SYN|ACK */
	sclassify(e.t, RX, &bad, &v);
	cr_expect_eq(v.action, STEER_DEFAULT);
	bad = q;
	bad.dst = 0xc0a80277;
	sclassify(e.t, RX, &bad, &v);
	cr_expect_eq(v.action, STEER_DEFAULT);
	struct sframe v6 = { .ipv6 = true, .flow_label = 0x12345, .proto = 17, .dport = 9 };
	sclassify(e.t, RX, &v6, &v);
	cr_expect_eq(v.action, STEER_DELIVER);
	cr_expect_eq(v.tirn[0], e.tir[1]);
	v6.flow_label = 0x12346;
	sclassify(e.t, RX, &v6, &v);
	cr_expect_eq(v.action, STEER_DEFAULT);
	tl_down(e.t);
}

/* NIC_TX (§7.11.4.2): forward to tables only, DROP discards, otherwise transmit. */
Test(steer_classify, nic_tx_drop_or_transmit)
{
	struct senv e = senv_up();
	uint32_t root = table(&e, TX, 0, 1), next = table(&e, TX, 1, 1);
	uint8_t crit[REFDRV_MATCH_LEN] = { 0 }, m[REFDRV_MATCH_LEN] = { 0 };
	mset(crit, "outer_udp_dport", 0xffff);
	mset(m, "outer_udp_dport", 7);
	uint32_t g = group(&e, TX, root, 0, 1, 1, crit);
	struct refdrv_fte fwd = { .group_id = g, .action = FWD, .match = m, .ndest = 1 };
	fwd.dest[0].type = 1, fwd.dest[0].id = next;
	flow(&e, TX, root, 0, &fwd);
	uint32_t gn = group(&e, TX, next, 0, 1, 0, NULL);
	struct refdrv_fte drop = { .group_id = gn, .action = DROP };
	flow(&e, TX, next, 1, &drop);
	struct steer_verdict v;
	struct sframe f = { .dst = 1, .proto = 17, .dport = 7 };
	sclassify(e.t, TX, &f, &v);
	cr_expect_eq(v.action, STEER_DROP);
	f.dport = 8;
	sclassify(e.t, TX, &f, &v);
	cr_expect_eq(v.action, STEER_DEFAULT);
	tl_down(e.t);
}

/* Lookup is through the groups' indexes: 60,000 flows in one group, each found. */
Test(steer_classify, large_table)
{
	struct senv e = senv_up();
	uint32_t root = table(&e, RX, 0, 16);
	uint8_t crit[REFDRV_MATCH_LEN] = { 0 }, m[REFDRV_MATCH_LEN] = { 0 };
	mset_ip4(crit, "outer_dst_ip", 0xffffffff);
	mset(crit, "outer_udp_dport", 0xffff);
	uint32_t g = group(&e, RX, root, 0, 59999, 1, crit);
	for (uint32_t i = 0; i < 60000; i++) {
		mset_ip4(m, "outer_dst_ip", 0x0a000000 + i);
		mset(m, "outer_udp_dport", i & 0xffff);
		struct refdrv_fte f = to_tir(g, e.tir[i % 3], i + 1, m);
		flow(&e, RX, root, i, &f);
	}
	struct steer_verdict v;
	for (uint32_t i = 0; i < 60000; i += 997) {
		struct sframe f = { .dst = 0x0a000000 + i, .proto = 17, .dport = (uint16_t)i };
		sclassify(e.t, RX, &f, &v);
		cr_expect_eq(v.flow_tag[0], i + 1, "flow %u", i);
	}
	struct sframe miss = { .dst = 0x0a000005, .proto = 17, .dport = 6 };
	sclassify(e.t, RX, &miss, &v);
	cr_expect_eq(v.action, STEER_DEFAULT);
	tl_down(e.t);
}

/* The key from the one parser (D-PARSE-2, D-PARSE-5): a UDP port rule does not match an IPv4
 * fragment other than the first (its bytes are payload, not a header, whatever they look
 * like), and an LLC/SNAP frame matches the EtherType its SNAP header carries. */
Test(steer_classify, key_of_fragments_and_snap)
{
	struct senv e = senv_up();
	uint32_t root = table(&e, RX, 0, 3);
	uint8_t crit[REFDRV_MATCH_LEN] = { 0 }, m[REFDRV_MATCH_LEN] = { 0 };
	mset(crit, "outer_udp_dport", 0xffff);
	uint32_t g = group(&e, RX, root, 0, 0, 1, crit);
	mset(m, "outer_udp_dport", 4791);
	struct refdrv_fte f = to_tir(g, e.tir[0], 1, m);
	flow(&e, RX, root, 0, &f);
	uint8_t c2[REFDRV_MATCH_LEN] = { 0 }, m2[REFDRV_MATCH_LEN] = { 0 };
	mset(c2, "outer_ethertype", 0xffff);
	uint32_t g2 = group(&e, RX, root, 1, 1, 1, c2);
	mset(m2, "outer_ethertype", 0x88b5);
	struct refdrv_fte f2 = to_tir(g2, e.tir[1], 2, m2);
	flow(&e, RX, root, 1, &f2);

	uint8_t p[128], key[STEER_KEY_LEN];
	struct pkt_info pi;
	struct steer_verdict v;
	struct sframe q = { .dst = 0x0a000002, .proto = 17, .dport = 4791 };
	size_t n = sframe_build(&q, p);
	pkt_parse(p, n, &pi);
	steer_key_build(p, n, &pi, key);
	steer_classify(e.t->dev, RX, key, (uint32_t)n, &v);
	cr_expect_eq(v.action, STEER_DELIVER, "the whole datagram: port 4791");
	p[14 + 6] = 0x00, p[14 + 7] = 0x10; /* fragment offset 16 (128 bytes), not the first */
	pkt_parse(p, n, &pi);
	steer_key_build(p, n, &pi, key);
	steer_classify(e.t->dev, RX, key, (uint32_t)n, &v);
	cr_expect_eq(v.action, STEER_DEFAULT, "a later fragment has no UDP header");

	/* 802.3: length, LLC AA-AA-03, SNAP OUI 00-00-00 and type 88B5 (IEEE 802 local). */
	static const uint8_t snap[] = { 2, 0, 0, 0, 0, 0xb, 2, 0, 0, 0, 0, 0xa, 0x00, 0x2e,
					0xaa, 0xaa, 0x03, 0, 0, 0, 0x88, 0xb5 };
	memset(p, 0, sizeof p);
	memcpy(p, snap, sizeof snap);
	pkt_parse(p, 60, &pi);
	steer_key_build(p, 60, &pi, key);
	steer_classify(e.t->dev, RX, key, 60, &v);
	cr_expect_eq(v.action, STEER_DELIVER, "the SNAP header's EtherType");
	cr_expect_eq(v.tirn[0], e.tir[1]);
	tl_down(e.t);
}
