/* PPCNT (PRM §11.1.5 T114-T126) and the port counters: every group and priority set at its
 * offsets, counting from traffic (D-REG-9), clear on get and on set (D-REG-18), the group and
 * prio_tc ranges (D-REG-19). Shared tools: reg_util.h. */
#include <stdint.h>
#include <string.h>

#include "reg_util.h"

/* ---- PPCNT (§11.1.5) and the counters -------------------------------------------------------- */

TestSuite(reg_ppcnt, .init = setup, .fini = teardown);

static struct tl_result ppcnt(unsigned op, unsigned grp, unsigned prio_tc, unsigned clr)
{
	struct tl_reg c = reg_cmd(op, PPCNT, 0x100, 1);
	tl_reg_set(&c, 0x00, 5, 0, grp);
	tl_reg_set(&c, 0x04, 31, 31, clr);
	tl_reg_set(&c, 0x04, 4, 0, prio_tc);
	return tl_reg_run(dev, &c);
}

/* Counter at counter_set offset `off` (PPCNT 08h + off): _high then _low. */
static uint64_t cnt(const struct tl_result *r, unsigned off)
{
	return tl_get64(r->out, 0x10 + 0x08 + off);
}

Test(reg_ppcnt, every_group_reads_zero_at_power_on)
{
	static const struct {
		unsigned grp;
		const struct counter *c;
		size_t n;
	} g[] = {
		{ 0x00, ieee_802_3, TL_NELEM(ieee_802_3) }, { 0x01, rfc_2863, TL_NELEM(rfc_2863) },
		{ 0x02, rfc_2819, TL_NELEM(rfc_2819) },     { 0x03, rfc_3635, TL_NELEM(rfc_3635) },
		{ 0x10, per_prio, TL_NELEM(per_prio) },     { 0x11, per_tc, TL_NELEM(per_tc) },
	};
	for (size_t i = 0; i < TL_NELEM(g); i++) {
		struct tl_result r = ppcnt(READ, g[i].grp, 0, 0);
		tl_expect_ok(&r);
		cr_assert_eq(tl_reg_get(&r, 0x00, 23, 16), 1);
		cr_assert_eq(tl_reg_get(&r, 0x00, 5, 0), g[i].grp);
		for (unsigned b = 0x18; b < 0x110; b++)
			cr_assert_eq(r.out[b], 0, "grp 0x%x: byte 0x%x", g[i].grp, b);
	}
}

Test(reg_ppcnt, raw_counters_land_at_their_offsets)
{
	/* A distinct 64-bit value in every counter of every set, read back through PPCNT at the
	 * offsets transcribed from T116-T126. */
	static const struct {
		unsigned grp;
		const struct counter *c;
		size_t n;
		enum port_counter first;
		unsigned sets;
	} g[] = {
		{ 0x00, ieee_802_3, TL_NELEM(ieee_802_3), PORT_CNT_FIRST_IEEE_802_3, 1 },
		{ 0x01, rfc_2863, TL_NELEM(rfc_2863), PORT_CNT_FIRST_RFC_2863, 1 },
		{ 0x02, rfc_2819, TL_NELEM(rfc_2819), PORT_CNT_FIRST_RFC_2819, 1 },
		{ 0x03, rfc_3635, TL_NELEM(rfc_3635), PORT_CNT_FIRST_RFC_3635, 1 },
		{ 0x10, per_prio, TL_NELEM(per_prio), PORT_CNT_FIRST_PER_PRIO, 8 },
		{ 0x11, per_tc, TL_NELEM(per_tc), PORT_CNT_FIRST_PER_TC, 8 },
	};
	for (size_t i = 0; i < TL_NELEM(g); i++)
		for (unsigned s = 0; s < g[i].sets; s++)
			for (size_t k = 0; k < g[i].n; k++)
				port_counter_add(dev, 1, (enum port_counter)(g[i].first + (int)k), s,
						 0x0123456700000000ull * (i + 1) + s * 0x100 + k);
	for (size_t i = 0; i < TL_NELEM(g); i++)
		for (unsigned s = 0; s < g[i].sets; s++) {
			struct tl_result r = ppcnt(READ, g[i].grp, s, 0);
			tl_expect_ok(&r);
			cr_assert_eq(tl_reg_get(&r, 0x04, 4, 0), s);
			for (size_t k = 0; k < g[i].n; k++)
				cr_assert_eq(cnt(&r, g[i].c[k].off),
					     0x0123456700000000ull * (i + 1) + s * 0x100 + k,
					     "grp 0x%x set %u %s", g[i].grp, s, g[i].c[k].name);
		}
}

Test(reg_ppcnt, counters_are_64_bit_and_wrap)
{
	port_counter_add(dev, 1, PORT_CNT_a_frames_received_ok, 0, UINT64_MAX);
	cr_assert_eq(port_counter_get(dev, 1, PORT_CNT_a_frames_received_ok, 0), UINT64_MAX);
	struct tl_result r = ppcnt(READ, 0x00, 0, 0);
	cr_assert_eq(cnt(&r, 0x08), UINT64_MAX);
	port_counter_add(dev, 1, PORT_CNT_a_frames_received_ok, 0, 2);
	cr_assert_eq(port_counter_get(dev, 1, PORT_CNT_a_frames_received_ok, 0), 1);
}

Test(reg_ppcnt, tx_frame_counts)
{
	port_count(dev, 1, PORT_TX, PORT_UNICAST, 3, 60);
	port_count(dev, 1, PORT_TX, PORT_MULTICAST, 3, 1000);
	port_count(dev, 1, PORT_TX, PORT_BROADCAST, 0, 100);
	/* D-REG-9: octets count the frame and its 4-byte FCS. */
	const uint64_t octets = 64 + 1004 + 104;
	struct tl_result r = ppcnt(READ, 0x00, 0, 0);
	cr_assert_eq(cnt(&r, 0x00), 3, "a_frames_transmitted_ok");
	cr_assert_eq(cnt(&r, 0x20), octets, "a_octets_transmitted_ok");
	cr_assert_eq(cnt(&r, 0x30), 1, "a_multicast_frames_xmitted_ok");
	cr_assert_eq(cnt(&r, 0x38), 1, "a_broadcast_frames_xmitted_ok");
	cr_assert_eq(cnt(&r, 0x08), 0, "nothing received");
	r = ppcnt(READ, 0x01, 0, 0);
	cr_assert_eq(cnt(&r, 0x28), octets, "if_out_octets");
	cr_assert_eq(cnt(&r, 0x30), 1, "if_out_ucast_pkts");
	cr_assert_eq(cnt(&r, 0x58), 1, "if_out_multicast_pkts");
	cr_assert_eq(cnt(&r, 0x60), 1, "if_out_broadcast_pkts");
	cr_assert_eq(cnt(&r, 0x00), 0, "if_in_octets");
	r = ppcnt(READ, 0x02, 0, 0);
	cr_assert_eq(cnt(&r, 0x10), 0, "RFC 2819 counts received packets only");
	r = ppcnt(READ, 0x10, 3, 0);
	cr_assert_eq(cnt(&r, 0x28), 64 + 1004, "tx_octets prio 3");
	cr_assert_eq(cnt(&r, 0x48), 2, "tx_frames prio 3");
	r = ppcnt(READ, 0x10, 0, 0);
	cr_assert_eq(cnt(&r, 0x28), 104, "tx_octets prio 0");
	cr_assert_eq(cnt(&r, 0x48), 1, "tx_frames prio 0");
}

Test(reg_ppcnt, rx_frame_counts_and_size_bins)
{
	port_count(dev, 1, PORT_RX, PORT_UNICAST, 5, 60);    /* 64 octets */
	port_count(dev, 1, PORT_RX, PORT_MULTICAST, 5, 1514); /* 1518 */
	port_count(dev, 1, PORT_RX, PORT_BROADCAST, 5, 1515); /* 1519 */
	port_count(dev, 1, PORT_RX, PORT_UNICAST, 5, 10235);  /* 10239 */
	port_count(dev, 1, PORT_RX, PORT_UNICAST, 5, 10236);  /* 10240: no bin */
	port_count(dev, 1, PORT_RX, PORT_UNICAST, 5, 59);     /* 63: undersize */
	const uint64_t octets = 64 + 1518 + 1519 + 10239 + 10240 + 63;
	struct tl_result r = ppcnt(READ, 0x00, 0, 0);
	cr_assert_eq(cnt(&r, 0x08), 6, "a_frames_received_ok");
	cr_assert_eq(cnt(&r, 0x28), octets, "a_octets_received_ok");
	cr_assert_eq(cnt(&r, 0x40), 1, "a_multicast_frames_received_ok");
	cr_assert_eq(cnt(&r, 0x48), 1, "a_broadcast_frames_received_ok");
	r = ppcnt(READ, 0x01, 0, 0);
	cr_assert_eq(cnt(&r, 0x00), octets, "if_in_octets");
	cr_assert_eq(cnt(&r, 0x08), 4, "if_in_ucast_pkts");
	cr_assert_eq(cnt(&r, 0x48), 1, "if_in_multicast_pkts");
	cr_assert_eq(cnt(&r, 0x50), 1, "if_in_broadcast_pkts");
	r = ppcnt(READ, 0x02, 0, 0);
	cr_assert_eq(cnt(&r, 0x08), octets, "ether_stats_octets");
	cr_assert_eq(cnt(&r, 0x10), 6, "ether_stats_pkts");
	cr_assert_eq(cnt(&r, 0x18), 1, "ether_stats_broadcast_pkts");
	cr_assert_eq(cnt(&r, 0x20), 1, "ether_stats_multicast_pkts");
	cr_assert_eq(cnt(&r, 0x30), 1, "ether_stats_undersize_pkts");
	cr_assert_eq(cnt(&r, 0x58), 1, "pkts64octets");
	cr_assert_eq(cnt(&r, 0x80), 1, "pkts1024to1518octets");
	cr_assert_eq(cnt(&r, 0x88), 1, "pkts1519to2047octets");
	cr_assert_eq(cnt(&r, 0xA0), 1, "pkts8192to10239octets");
	uint64_t bins = 0;
	for (unsigned off = 0x58; off <= 0xA0; off += 8)
		bins += cnt(&r, off);
	cr_assert_eq(bins, 4);
	r = ppcnt(READ, 0x10, 5, 0);
	cr_assert_eq(cnt(&r, 0x00), octets, "rx_octets prio 5");
	cr_assert_eq(cnt(&r, 0x20), 6, "rx_frames prio 5");
}

/* RFC 2819 etherStatsPkts<a>to<b>Octets (T120 offsets 58h-A0h): a frame at each edge of each
 * bin lands in that bin and no other (port.c picks the bins below 1024 octets by bit length). */
Test(reg_ppcnt, rx_size_bins_at_every_edge)
{
	static const struct {
		uint32_t lo, hi, off;
	} bins[] = {
		{ 64, 64, 0x58 },      { 65, 127, 0x60 },     { 128, 255, 0x68 },
		{ 256, 511, 0x70 },    { 512, 1023, 0x78 },   { 1024, 1518, 0x80 },
		{ 1519, 2047, 0x88 },  { 2048, 4095, 0x90 },  { 4096, 8191, 0x98 },
		{ 8192, 10239, 0xA0 },
	};
	for (unsigned i = 0; i < sizeof bins / sizeof bins[0]; i++) {
		port_count(dev, 1, PORT_RX, PORT_UNICAST, 0, bins[i].lo - 4); /* octets: FCS in */
		if (bins[i].hi != bins[i].lo)
			port_count(dev, 1, PORT_RX, PORT_UNICAST, 0, bins[i].hi - 4);
		struct tl_result r = ppcnt(READ, 0x02, 0, 0);
		for (unsigned j = 0; j < sizeof bins / sizeof bins[0]; j++) {
			uint64_t want = j > i ? 0 : bins[j].hi != bins[j].lo ? 2 : 1;
			cr_assert_eq(cnt(&r, bins[j].off), want, "after %u-%u: bin %u-%u holds %llu",
				     bins[i].lo, bins[i].hi, bins[j].lo, bins[j].hi,
				     (unsigned long long)cnt(&r, bins[j].off));
		}
	}
}

Test(reg_ppcnt, clr_on_get_returns_then_clears_the_set)
{
	port_counter_add(dev, 1, PORT_CNT_rx_frames, 2, 7);
	port_counter_add(dev, 1, PORT_CNT_rx_frames, 3, 9);
	port_counter_add(dev, 1, PORT_CNT_a_frames_received_ok, 0, 5);
	struct tl_result r = ppcnt(READ, 0x10, 2, 1);
	tl_expect_ok(&r);
	cr_assert_eq(cnt(&r, 0x20), 7, "D-REG-18: the values before the clear");
	cr_assert_eq(tl_reg_get(&r, 0x04, 31, 31), 0, "clr is not echoed");
	r = ppcnt(READ, 0x10, 2, 0);
	cr_assert_eq(cnt(&r, 0x20), 0);
	r = ppcnt(READ, 0x10, 3, 0);
	cr_assert_eq(cnt(&r, 0x20), 9, "only the addressed priority is cleared");
	r = ppcnt(READ, 0x00, 0, 0);
	cr_assert_eq(cnt(&r, 0x08), 5, "other groups untouched");
}

Test(reg_ppcnt, clr_on_set)
{
	port_counter_add(dev, 1, PORT_CNT_if_in_octets, 0, 100);
	port_counter_add(dev, 1, PORT_CNT_a_frames_received_ok, 0, 5);
	struct tl_result r = ppcnt(WRITE, 0x01, 0, 0);
	tl_expect_ok(&r);
	cr_assert_eq(port_counter_get(dev, 1, PORT_CNT_if_in_octets, 0), 100, "Set without clr");
	r = ppcnt(WRITE, 0x01, 0, 1);
	tl_expect_ok(&r);
	cr_assert_eq(port_counter_get(dev, 1, PORT_CNT_if_in_octets, 0), 0);
	cr_assert_eq(port_counter_get(dev, 1, PORT_CNT_a_frames_received_ok, 0), 5);
}

Test(reg_ppcnt, group_63_clears_everything_but_gauges)
{
	port_counter_add(dev, 1, PORT_CNT_a_frames_received_ok, 0, 1);
	port_counter_add(dev, 1, PORT_CNT_if_out_errors, 0, 2);
	port_counter_add(dev, 1, PORT_CNT_ether_stats_jabbers, 0, 3);
	port_counter_add(dev, 1, PORT_CNT_dot3out_pause_frames, 0, 4);
	port_counter_add(dev, 1, PORT_CNT_tx_pause, 7, 5);
	port_counter_add(dev, 1, PORT_CNT_no_buffer_discard_uc, 6, 6);
	port_counter_add(dev, 1, PORT_CNT_transmit_queue, 6, 7);
	struct tl_result r = ppcnt(READ, 63, 0, 1);
	tl_expect_rule(&r, BAD_PARAM, NICREF_RULE_PPCNT_GRP_ALL_NOT_CLR);
	r = ppcnt(WRITE, 63, 0, 0);
	tl_expect_rule(&r, BAD_PARAM, NICREF_RULE_PPCNT_GRP_ALL_NOT_CLR);
	r = ppcnt(WRITE, 63, 1, 1);
	tl_expect_rule(&r, BAD_PARAM, NICREF_RULE_PPCNT_PRIO_TC_RANGE);
	cr_assert_eq(port_counter_get(dev, 1, PORT_CNT_a_frames_received_ok, 0), 1);
	r = ppcnt(WRITE, 63, 0, 1);
	tl_expect_ok(&r);
	cr_assert_eq(port_counter_get(dev, 1, PORT_CNT_a_frames_received_ok, 0), 0);
	cr_assert_eq(port_counter_get(dev, 1, PORT_CNT_if_out_errors, 0), 0);
	cr_assert_eq(port_counter_get(dev, 1, PORT_CNT_ether_stats_jabbers, 0), 0);
	cr_assert_eq(port_counter_get(dev, 1, PORT_CNT_dot3out_pause_frames, 0), 0);
	cr_assert_eq(port_counter_get(dev, 1, PORT_CNT_tx_pause, 7), 0);
	cr_assert_eq(port_counter_get(dev, 1, PORT_CNT_no_buffer_discard_uc, 6), 0);
	cr_assert_eq(port_counter_get(dev, 1, PORT_CNT_transmit_queue, 6), 7,
		     "a queue depth is not a counter (D-REG-18)");
}

Test(reg_ppcnt, group_values)
{
	static const unsigned bad[] = { 0x04, 0x0F, 0x12, 0x15, 0x20, 0x3E };
	for (size_t i = 0; i < TL_NELEM(bad); i++)
		for (unsigned op = 0; op < 2; op++) {
			struct tl_result r = ppcnt(op, bad[i], 0, 1);
			tl_expect_rule(&r, BAD_PARAM, NICREF_RULE_PPCNT_GRP_INVALID);
		}
}

Test(reg_ppcnt, prio_tc_ranges)
{
	/* T114: priorities 0-7; traffic classes 0..max_tc-1 (D-REG-19, default 8); other groups 0. */
	for (unsigned s = 0; s < 8; s++) {
		struct tl_result r = ppcnt(READ, 0x10, s, 0);
		tl_expect_ok(&r);
		r = ppcnt(READ, 0x11, s, 0);
		tl_expect_ok(&r);
	}
	static const unsigned grp[] = { 0x10, 0x11 };
	for (size_t i = 0; i < TL_NELEM(grp); i++)
		for (unsigned s = 8; s < 32; s += 7) {
			struct tl_result r = ppcnt(READ, grp[i], s, 0);
			tl_expect_rule(&r, BAD_PARAM, NICREF_RULE_PPCNT_PRIO_TC_RANGE);
		}
	static const unsigned plain[] = { 0x00, 0x01, 0x02, 0x03 };
	for (size_t i = 0; i < TL_NELEM(plain); i++) {
		struct tl_result r = ppcnt(READ, plain[i], 1, 0);
		tl_expect_rule(&r, BAD_PARAM, NICREF_RULE_PPCNT_PRIO_TC_RANGE);
		r = ppcnt(WRITE, plain[i], 31, 1);
		tl_expect_rule(&r, BAD_PARAM, NICREF_RULE_PPCNT_PRIO_TC_RANGE);
	}
}

Test(reg_ppcnt, a_refused_clear_clears_nothing)
{
	port_counter_add(dev, 1, PORT_CNT_tx_frames, 0, 3);
	struct tl_result r = ppcnt(WRITE, 0x10, 8, 1);
	tl_expect_rule(&r, BAD_PARAM, NICREF_RULE_PPCNT_PRIO_TC_RANGE);
	struct tl_reg c = reg_cmd(WRITE, PPCNT, 0x100, 1);
	tl_reg_set(&c, 0x00, 5, 0, 0x10);
	tl_reg_set(&c, 0x04, 31, 31, 1);
	tl_reg_set(&c, 0x00, 8, 8, 1); /* reserved */
	r = tl_reg_run(dev, &c);
	tl_expect_rule(&r, BAD_PARAM, NICREF_RULE_RESERVED_NOT_ZERO);
	cr_assert_eq(port_counter_get(dev, 1, PORT_CNT_tx_frames, 0), 3);
}
