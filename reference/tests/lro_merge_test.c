/* LRO merging and the merged CQE (PRM §3.3.6.4-§3.3.6.6, T5, T68; eth/lro_rx.c, lro_end.c,
 * rx_cqe.c; docs/lro.md D-LRO-3, D-LRO-5, D-LRO-7): segments of an open session add their TCP
 * payload after what its WQE holds, and the CQE written when the session ends reports them. The
 * expected values are computed here from the segments' bytes. */
#include <criterion/criterion.h>

#include "lro_util.h"

TestSuite(lro_merge, .init = lro_setup, .fini = rx_teardown);

/* Ends the open sessions by their timer: 2N of the default 32 µs TIR (D-LRO-5). */
static void expire(void)
{
	nicref_clock_advance(rdev->dev, 64000);
}

/* The RFC 1071 sum (folded, not complemented) of the concatenation of n pieces. */
static uint16_t sum_of(const uint8_t *const *p, const size_t *len, unsigned n)
{
	uint8_t all[8192];
	size_t at = 0;
	for (unsigned i = 0; i < n; i++) {
		memcpy(all + at, p[i], len[i]);
		at += len[i];
	}
	return rx_fold(rx_sum(0, all, at));
}

/* §3.3.6.5: one header, the payloads after it; T5 and D-LRO-7 for every LRO field. */
Test(lro_merge, three_segments_one_buffer_one_cqe)
{
	uint8_t f[3][512], m[1024], c[64];
	size_t tcp[3];
	struct seg s[3];
	const uint8_t ttl[3] = { 64, 50, 60 };
	for (unsigned i = 0; i < 3; i++) {
		s[i] = seg_of(1000 + 100 * i, 100);
		s[i].fill = (uint8_t)(0x40 * i);
		s[i].ttl = ttl[i];
		s[i].win = (uint16_t)(0x2000 + 0x100 * i);
		s[i].ack = 0x1000 + i;
		s[i].ip_id = (uint16_t)(7 + i); /* identification may differ (§3.3.6.4) */
		cr_assert_eq(seg_build(f[i], &s[i], &tcp[i]), 154);
	}
	s[1].flags |= SEG_PSH;
	seg_build(f[1], &s[1], &tcp[1]);
	rx_post1(RX_BUF, 4096);
	for (unsigned i = 0; i < 3; i++)
		cr_assert_eq(seg_give(&s[i]), RX_DELIVERED);
	char story[32];
	cr_expect_str_eq(lro_story(story, sizeof story), "omm");
	const struct nicref_event *e = lro_ev(NICREF_EV_LRO_MERGE, 0);
	cr_expect_eq(e->arg[2], 0);
	cr_expect_eq(e->arg[3], 2, "num_seg");
	cr_expect_eq(e->arg[4], 154 + 100, "the byte_cnt so far");
	cr_expect_eq(lro_ev(NICREF_EV_LRO_MERGE, 1)->arg[4], 154 + 200);
	cr_expect_eq(refdrv_rx_poll(&rdev->d, &rx.cq, c), 0, "no CQE yet");
	expire();
	cr_expect_str_eq(lro_story(story, sizeof story), "ommec");
	e = lro_ev(NICREF_EV_LRO_END, 0);
	cr_expect_eq(e->arg[3], NICREF_LRO_TIMER);
	cr_expect_eq(e->arg[4], 3);
	cr_expect_eq(e->arg[5], 354);
	rx_mem(RX_BUF, m, 354 + 4);
	cr_expect_arr_eq(m, f[0], 154, "the first segment as is");
	cr_expect_arr_eq(m + 154, f[1] + 54, 100, "then the second's payload");
	cr_expect_arr_eq(m + 254, f[2] + 54, 100, "then the third's");
	rx_cqe(c);
	cr_expect_eq(CQE(c, opcode), 2);
	cr_expect_eq(CQE(c, wqe_counter), 0);
	cr_expect_eq(CQE(c, lro_num_seg), 3, "T5: segments coalesced");
	cr_expect_eq(CQE(c, byte_cnt), 14 + 20 + 20 + 300, "T5: from the MAC header");
	cr_expect_eq(CQE(c, lro_abrt), 1, "T68 01: timeout");
	cr_expect_eq(CQE(c, lro_min_ttl), 50, "T5: the minimum TTL");
	cr_expect_eq(CQE(c, lro_tcp_win), 0x2200, "T5: the last segment's window");
	cr_expect_eq(CQE(c, lro_ack_seq_num), 0x1002, "T5: the last segment's ACK");
	cr_expect_eq(CQE(c, lro_tcp_psh), 1, "T5: one of them had PSH");
	cr_expect_eq(CQE(c, lro_dup_ack_cnt), 0, "T5: always zero");
	cr_expect_eq(CQE(c, lro_timestamp_is_valid), 0);
	cr_expect_eq(CQE(c, l4_hdr_type), 4, "T68 4: TCP ACK with data");
	cr_expect_eq(CQE(c, l3_hdr_type), 2);
	cr_expect_eq(CQE(c, l3_ok), 1);
	cr_expect_eq(CQE(c, l4_ok), 1);
	const uint8_t *p[3] = { f[0] + tcp[0] + 20, f[1] + 54, f[2] + 54 };
	const size_t len[3] = { 100, 100, 100 };
	cr_expect_eq(CQE(c, checksum), sum_of(p, len, 3),
		     "T4: all the TCP payload, no header, no pseudo-header (D-LRO-7)");
	cr_expect_eq(CQE(c, srqn_user_index), 0x654321);
	struct nicref_stats st;
	nicref_stats_get(rdev->dev, &st);
	cr_expect_eq(st.lro_segments_merged, 2);
	cr_expect_eq(st.lro_sessions_ended, 1);
}

/* The checksum over payloads of odd lengths: one byte stream (each payload continues at the
 * byte the previous one ended; D-LRO-7). */
Test(lro_merge, checksum_over_odd_payloads)
{
	uint8_t f[3][512], c[64];
	size_t tcp[3];
	const size_t pl[3] = { 101, 77, 50 };
	struct seg s[3];
	uint32_t seq = 5;
	for (unsigned i = 0; i < 3; i++) {
		s[i] = seg_of(seq, pl[i]);
		s[i].fill = (uint8_t)(0x11 * (i + 1));
		seg_build(f[i], &s[i], &tcp[i]);
		seq += (uint32_t)pl[i];
	}
	rx_post1(RX_BUF, 4096);
	for (unsigned i = 0; i < 3; i++)
		cr_assert_eq(seg_give(&s[i]), RX_DELIVERED);
	expire();
	rx_cqe(c);
	const uint8_t *p[3] = { f[0] + tcp[0] + 20, f[1] + 54, f[2] + 54 };
	const size_t len[3] = { 101, 77, 50 };
	cr_expect_eq(CQE(c, checksum), sum_of(p, len, 3));
	cr_expect_eq(CQE(c, byte_cnt), 54 + 228);
}

/* T5 lro_timestamp_value / _echo: the last segment's TSval and TSecr, in timestamp_h / _l. */
Test(lro_merge, timestamps_of_the_last_segment)
{
	uint8_t c[64];
	rx_post1(RX_BUF, 4096);
	for (unsigned i = 0; i < 3; i++) {
		struct seg s = seg_of(100 + 10 * i, 10);
		s.ts = true;
		s.tsval = 0x01020300 + i;
		s.tsecr = 0x0A0B0C00 + i;
		cr_assert_eq(seg_give(&s), RX_DELIVERED);
	}
	expire();
	rx_cqe(c);
	cr_expect_eq(CQE(c, lro_num_seg), 3);
	cr_expect_eq(CQE(c, lro_timestamp_is_valid), 1);
	cr_expect_eq(CQE(c, timestamp_h), 0x01020302, "TSval of the last");
	cr_expect_eq(CQE(c, timestamp_l), 0x0A0B0C02, "TSecr of the last");
	cr_expect_eq(CQE(c, byte_cnt), 14 + 20 + 32 + 30, "a 32-byte TCP header once");
}

/* T68 lro_timestamp_echo "of the latest coalesced segment with valid TSecr field" (RFC 7323
 * §3.2: valid only with ACK; D-LRO-13): a last segment without ACK does not give TSecr. */
Test(lro_merge, tsecr_of_the_latest_segment_with_ack)
{
	uint8_t c[64];
	rx_post1(RX_BUF, 4096);
	for (unsigned i = 0; i < 3; i++) {
		struct seg s = seg_of(100 + 10 * i, 10);
		s.ts = true;
		s.tsval = 0x01020300 + i;
		s.tsecr = 0x0A0B0C00 + i;
		if (i == 2)
			s.flags = 0; /* no ACK: its TSecr is not valid */
		cr_assert_eq(seg_give(&s), RX_DELIVERED);
	}
	expire();
	rx_cqe(c);
	cr_expect_eq(CQE(c, lro_num_seg), 3);
	cr_expect_eq(CQE(c, l4_hdr_type), 4, "ACK in a segment");
	cr_expect_eq(CQE(c, timestamp_h), 0x01020302, "TSval of the last");
	cr_expect_eq(CQE(c, timestamp_l), 0x0A0B0C01, "TSecr of the second, the latest with ACK");
}

/* T5 L4_hdr_type: ACK in a later segment shows though the first header lacks it; none: 1. */
Test(lro_merge, l4_hdr_type_across_the_segments)
{
	uint8_t c[64];
	rx_post1(RX_BUF, 4096);
	rx_post1(RX_BUF + 0x1000, 4096);
	struct seg s = seg_of(1, 10);
	s.flags = 0;
	cr_assert_eq(seg_give(&s), RX_DELIVERED);
	s.seq = 11;
	cr_assert_eq(seg_give(&s), RX_DELIVERED);
	expire();
	rx_cqe(c);
	cr_expect_eq(CQE(c, lro_num_seg), 2);
	cr_expect_eq(CQE(c, l4_hdr_type), 1, "T68 1: TCP, no ACK in any");
	s.seq = 21;
	cr_assert_eq(seg_give(&s), RX_DELIVERED);
	s.seq = 31;
	s.flags = SEG_ACK;
	cr_assert_eq(seg_give(&s), RX_DELIVERED);
	expire();
	rx_cqe(c);
	cr_expect_eq(CQE(c, l4_hdr_type), 4, "T5: the ACK of a later segment");
	cr_expect_eq(CQE(c, wqe_counter), 1);
}

/* §3.3.6.5: the payloads follow through the scatter list, across its entries. */
Test(lro_merge, payload_crosses_scatter_entries)
{
	uint8_t f[2][512], m[512];
	struct seg s[2] = { seg_of(1, 100), seg_of(101, 100) };
	s[1].fill = 0x80;
	seg_build(f[0], &s[0], NULL);
	seg_build(f[1], &s[1], NULL);
	struct refdrv_rx_sge e[3] = { rx_sge(RX_BUF, 200), rx_sge(RX_BUF + 0x400, 30),
				      rx_sge(RX_BUF + 0x800, 1000) };
	rx_post(e, 3);
	cr_assert_eq(seg_give(&s[0]), RX_DELIVERED);
	cr_assert_eq(seg_give(&s[1]), RX_DELIVERED);
	rx_mem(RX_BUF, m, 200);
	cr_expect_arr_eq(m, f[0], 154);
	cr_expect_arr_eq(m + 154, f[1] + 54, 46, "46 bytes fill the first entry");
	rx_mem(RX_BUF + 0x400, m, 30);
	cr_expect_arr_eq(m, f[1] + 54 + 46, 30, "30 the second");
	rx_mem(RX_BUF + 0x800, m, 24);
	cr_expect_arr_eq(m, f[1] + 54 + 76, 24, "the rest the third");
}

/* §3.3.6.5: "when VLAN stripping is configured, then the VLAN is stripped prior to scattering
 * the first segment"; the VLAN ID is part of the flow id (§3.3.6.1). */
Test(lro_merge, vlan_stripped_first_frame_then_payloads)
{
	uint8_t f[2][512], m[512], c[64];
	struct seg s[2] = { seg_of(1, 100), seg_of(101, 100) };
	s[0].vid = s[1].vid = 5;
	s[1].fill = 0x33;
	seg_build(f[0], &s[0], NULL);
	seg_build(f[1], &s[1], NULL);
	rx_post1(RX_BUF, 4096);
	cr_assert_eq(seg_give(&s[0]), RX_DELIVERED);
	struct seg other = s[1];
	other.vid = 6;
	rx_post1(RX_BUF + 0x1000, 4096);
	cr_assert_eq(seg_give(&other), RX_DELIVERED);
	cr_expect_eq(tl_count(&rdev->tr, NICREF_EV_LRO_OPEN), 2, "VLAN 6 is another flow");
	cr_assert_eq(seg_give(&s[1]), RX_DELIVERED);
	cr_expect_eq(tl_count(&rdev->tr, NICREF_EV_LRO_MERGE), 1);
	rx_mem(RX_BUF, m, 254);
	cr_expect_arr_eq(m, f[0], 12);
	cr_expect_arr_eq(m + 12, f[0] + 16, 142, "the tag stripped");
	cr_expect_arr_eq(m + 154, f[1] + 58, 100);
	expire();
	rx_cqe(c);
	cr_expect_eq(CQE(c, byte_cnt), 254);
	cr_expect_eq(CQE(c, cv), 1);
	cr_expect_eq(CQE(c, vid), 5);
	rx_cqe(c);
	cr_expect_eq(CQE(c, vid), 6);
	cr_expect_eq(CQE(c, lro_num_seg), 1, "T5: 1 when just a single packet");
}

/* IPv6: the Hop Limit's minimum, a 40-byte header once. */
Test(lro_merge, ipv6_segments)
{
	uint8_t c[64], f[2][512];
	size_t tcp;
	struct seg s[2] = { seg_of(7, 60), seg_of(67, 60) };
	s[0].v6 = s[1].v6 = true;
	s[0].ttl = 9;
	s[1].ttl = 3;
	seg_build(f[0], &s[0], &tcp);
	seg_build(f[1], &s[1], NULL);
	rx_post1(RX_BUF, 4096);
	cr_assert_eq(seg_give(&s[0]), RX_DELIVERED);
	cr_assert_eq(seg_give(&s[1]), RX_DELIVERED);
	expire();
	rx_cqe(c);
	cr_expect_eq(CQE(c, lro_num_seg), 2);
	cr_expect_eq(CQE(c, byte_cnt), 14 + 40 + 20 + 120);
	cr_expect_eq(CQE(c, lro_min_ttl), 3, "T5: the minimum Hop Limit");
	cr_expect_eq(CQE(c, l3_hdr_type), 1, "T68 01: IPv6");
	const uint8_t *p[2] = { f[0] + tcp + 20, f[1] + 74 };
	const size_t len[2] = { 60, 60 };
	cr_expect_eq(CQE(c, checksum), sum_of(p, len, 2));
}

/* Multi-destination steering (PRM §7.11.2.4): each TIR receiving a copy runs its own session
 * (D-LRO-1), each in its own WQE. */
Test(lro_merge, each_tir_of_a_multi_path_flow_has_its_session)
{
	struct lro_tir_opts t = lro_tir_default();
	uint32_t tirs[2] = { lro_tirn, lro_make_tir(&t) };
	rx_steer_all(tirs, 2, 0);
	for (unsigned i = 0; i < 4; i++)
		rx_post1(RX_BUF + 0x1000 * i, 4096);
	tl_mark(&rdev->tr);
	uint8_t f[512];
	for (unsigned i = 0; i < 2; i++) {
		struct seg s = seg_of(1 + 100 * i, 100);
		size_t n = seg_build(f, &s, NULL);
		nicref_wire_rx(rdev->dev, 1, f, n);
	}
	cr_expect_eq(tl_count(&rdev->tr, NICREF_EV_LRO_OPEN), 2);
	cr_expect_eq(tl_count(&rdev->tr, NICREF_EV_LRO_MERGE), 2);
	cr_expect_eq(lro_ev(NICREF_EV_LRO_OPEN, 0)->arg[0], tirs[0]);
	cr_expect_eq(lro_ev(NICREF_EV_LRO_OPEN, 1)->arg[0], tirs[1]);
	cr_expect_eq(lro_ev(NICREF_EV_LRO_MERGE, 0)->arg[2], 0, "TIR 1's session in WQE 0");
	cr_expect_eq(lro_ev(NICREF_EV_LRO_MERGE, 1)->arg[2], 1, "TIR 2's in WQE 1");
}
