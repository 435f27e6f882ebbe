/* LRO session creation (PRM §3.3.6.2; eth/lro_seg.c, lro_rx.c; docs/lro.md D-LRO-1, D-LRO-8,
 * D-LRO-9): a TCP segment on an LRO TIR opens a session (scattered, no CQE) or, failing one of
 * the conditions, is delivered on its own with the first failing condition as its cause. */
#include <criterion/criterion.h>

#include "lro_util.h"

TestSuite(lro_open, .init = lro_setup, .fini = rx_teardown);

/* §3.3.6.2, §3.3.6.5: "The first segment in the LRO session is scattered as is to memory ...
 * CQE is not reported." */
Test(lro_open, a_segment_opens_a_session_without_a_cqe)
{
	uint8_t f[512], m[512], c[64];
	struct seg s = seg_of(1000, 100);
	size_t n = seg_build(f, &s, NULL);
	rx_post1(RX_BUF, 4096);
	cr_assert_eq(seg_give(&s), RX_DELIVERED);
	const struct nicref_event *e = tl_only(&rdev->tr, NICREF_EV_LRO_OPEN);
	cr_expect_eq(e->arg[0], lro_tirn);
	cr_expect_eq(e->arg[1], rx.rqn);
	cr_expect_eq(e->arg[2], 0, "the WQE of counter 0");
	cr_expect_eq(e->arg[3], 14 + 20 + 20 + 100, "the frame as scattered");
	cr_expect_eq(n, 154);
	cr_expect_eq(tl_count(&rdev->tr, NICREF_EV_CQE), 0, "no CQE while the session is open");
	cr_expect_eq(refdrv_rx_poll(&rdev->d, &rx.cq, c), 0);
	rx_mem(RX_BUF, m, n);
	cr_expect_arr_eq(m, f, n, "the first segment as is");
	struct nicref_stats st;
	nicref_stats_get(rdev->dev, &st);
	cr_expect_eq(st.lro_sessions_opened, 1);
	cr_expect_eq(st.lro_sessions_ended, 0);
}

/* D-LRO-9: LRO is for TCP; a UDP frame on the LRO TIR, and a TCP one on a TIR without LRO, go
 * the ordinary way without an lro_* event. */
Test(lro_open, udp_and_plain_tirs_are_not_lro)
{
	uint8_t f[256], c[64];
	rx_post1(RX_BUF, 512);
	rx_post1(RX_BUF + 0x400, 512);
	struct rx_frame_opts o = rx_udp(40);
	size_t n = rx_frame(f, &o);
	struct pkt_info pi;
	pkt_parse(f, n, &pi);
	cr_assert_eq(rx_deliver_tir(rdev->dev, lro_tirn, f, n, &pi, 0), RX_DELIVERED);
	struct seg s = seg_of(1, 10);
	n = seg_build(f, &s, NULL);
	cr_assert_eq(rx_give(f, n, 0), RX_DELIVERED); /* rx.tirn: LRO off */
	char story[32];
	cr_expect_str_eq(lro_story(story, sizeof story), "cc", "two CQEs, no LRO event");
	rx_cqe(c);
	cr_expect_eq(CQE(c, lro_num_seg), 0);
	rx_cqe(c);
	cr_expect_eq(CQE(c, lro_num_seg), 0);
	cr_expect_eq(CQE(c, l4_hdr_type), 4, "T68 4: TCP ACK with data");
}

/* One segment that fails a condition: lro_pass with its cause, then its own CQE with
 * lro_num_seg 0 (T5: "0 - when LRO was not performed"). */
static void expect_pass(const struct seg *s, enum nicref_lro_cause cause, const char *what)
{
	uint8_t c[64];
	char story[32];
	tl_mark(&rdev->tr);
	rx_post1(RX_BUF, 512);
	cr_assert_eq(seg_give(s), RX_DELIVERED, "%s", what);
	cr_expect_str_eq(lro_story(story, sizeof story), "pc", "%s", what);
	cr_expect_eq(lro_pass_cause(0), cause, "%s: %s, expected %s", what,
		     nicref_lro_cause_name((enum nicref_lro_cause)lro_pass_cause(0)),
		     nicref_lro_cause_name(cause));
	rx_cqe(c);
	cr_expect_eq(CQE(c, opcode), 2, "%s", what);
	cr_expect_eq(CQE(c, lro_num_seg), 0, "%s", what);
}

/* §3.3.6.2, each condition alone. */
Test(lro_open, each_condition_keeps_a_segment_on_its_own)
{
	struct seg s;
	const struct {
		unsigned flags, ns_res;
		const char *what;
	} flags[] = {
		{ SEG_ACK | SEG_FIN, 0, "FIN" }, { SEG_ACK | SEG_SYN, 0, "SYN" },
		{ SEG_ACK | SEG_RST, 0, "RST" }, { SEG_ACK | SEG_URG, 0, "URG" },
		{ SEG_ACK, 1, "NS" },		 { SEG_ACK, 2, "a reserved flag" },
		{ SEG_ACK, 8, "another reserved flag" },
	};
	for (size_t i = 0; i < sizeof flags / sizeof flags[0]; i++) {
		s = seg_of(1, 10);
		s.flags = flags[i].flags;
		s.ns_res = flags[i].ns_res;
		expect_pass(&s, NICREF_LRO_TCP_FLAGS, flags[i].what);
	}
	s = seg_of(1, 10);
	s.mss_opt = true;
	expect_pass(&s, NICREF_LRO_TCP_OPTIONS, "an MSS option (D-LRO-2)");
	s = seg_of(1, 10);
	s.ip_opts = 1;
	expect_pass(&s, NICREF_LRO_IP_OPTIONS, "IPv4 options");
	s = seg_of(1, 10);
	s.mf = true;
	expect_pass(&s, NICREF_LRO_FRAGMENT, "a first fragment (MF)");
	s = seg_of(1, 0);
	expect_pass(&s, NICREF_LRO_SMALL, "a pure ACK: 0 < lro_min_mss_size 1");
	s = seg_of(1, 10);
	s.bad_tcp_csum = true;
	expect_pass(&s, NICREF_LRO_INVALID, "a bad TCP checksum");
	s = seg_of(1, 10);
	s.bad_ip_csum = true;
	expect_pass(&s, NICREF_LRO_INVALID, "a bad IPv4 header checksum");
}

/* D-LRO-8: several conditions fail: the first in the table's order is named. */
Test(lro_open, the_first_failing_condition_is_named)
{
	struct seg s = seg_of(1, 0);
	s.flags = SEG_ACK | SEG_FIN;
	s.mss_opt = true;
	s.ip_opts = 1;
	expect_pass(&s, NICREF_LRO_TCP_FLAGS, "FIN, an option, IP options, no payload");
	s.flags = SEG_ACK;
	expect_pass(&s, NICREF_LRO_TCP_OPTIONS, "an option, IP options, no payload");
	s.mss_opt = false;
	expect_pass(&s, NICREF_LRO_IP_OPTIONS, "IP options, no payload");
}

/* §3.3.6.2 "When HCA_CAP.lro_psh_flag is disabled, PSH flag should also be clear"; with it, PSH
 * opens. Likewise the timestamp option and lro_time_stamp. */
Test(lro_open, psh_and_timestamps_follow_the_capabilities)
{
	struct seg s = seg_of(1, 10);
	s.flags = SEG_ACK | SEG_PSH;
	lro_set_eth_cap("lro_psh_flag", 0);
	expect_pass(&s, NICREF_LRO_PSH, "PSH without lro_psh_flag");
	s = seg_of(1, 10);
	s.ts = true;
	lro_set_eth_cap("lro_time_stamp", 0);
	expect_pass(&s, NICREF_LRO_TIMESTAMP_OFF, "a timestamp without lro_time_stamp");
	lro_set_eth_cap("lro_psh_flag", 1);
	lro_set_eth_cap("lro_time_stamp", 1);
	tl_mark(&rdev->tr);
	rx_post1(RX_BUF, 512);
	s.flags = SEG_ACK | SEG_PSH;
	cr_assert_eq(seg_give(&s), RX_DELIVERED);
	cr_expect_eq(tl_count(&rdev->tr, NICREF_EV_LRO_OPEN), 1, "PSH and a timestamp open");
}

/* T45 lro_enable_mask: bit 0 IPv4, bit 1 IPv6. */
Test(lro_open, the_enable_mask_selects_the_ip_version)
{
	struct lro_tir_opts t = lro_tir_default();
	t.mask = 1;
	lro_tirn = lro_make_tir(&t);
	struct seg s = seg_of(1, 10);
	s.v6 = true;
	expect_pass(&s, NICREF_LRO_NOT_ENABLED, "IPv6 on an IPv4-only TIR");
	tl_mark(&rdev->tr);
	rx_post1(RX_BUF, 512);
	s.v6 = false;
	cr_assert_eq(seg_give(&s), RX_DELIVERED);
	cr_expect_eq(tl_count(&rdev->tr, NICREF_EV_LRO_OPEN), 1, "IPv4 opens");
	t.mask = 2;
	lro_tirn = lro_make_tir(&t);
	s.v6 = true;
	tl_mark(&rdev->tr);
	rx_post1(RX_BUF + 0x800, 512);
	cr_assert_eq(seg_give(&s), RX_DELIVERED);
	cr_expect_eq(tl_count(&rdev->tr, NICREF_EV_LRO_OPEN), 1, "IPv6 opens");
}

/* T45 10h: a period below the smallest supported one (8 µs, T147) leaves LRO inactive. */
Test(lro_open, a_period_below_the_smallest_is_inactive)
{
	struct lro_tir_opts t = lro_tir_default();
	t.timeout_usecs = 7;
	lro_tirn = lro_make_tir(&t);
	struct seg s = seg_of(1, 10);
	expect_pass(&s, NICREF_LRO_INACTIVE, "7 µs < 8 µs");
}

/* D-LRO-1: sessions are per flow, TIR and RQ, and the device holds lro_max_sessions of them;
 * with none free the segment goes on its own (no_resources). */
Test(lro_open, the_session_limit_is_the_profiles)
{
	struct nicref_profile p;
	nicref_profile_default(&p);
	cr_expect_eq(p.lro_max_sessions, 256, "D-LRO-1 default");
	p.lro_max_sessions = 2;
	struct rx_opts o = rx_default_opts();
	o.profile = &p;
	struct lro_tir_opts t = lro_tir_default();
	lro_setup_with(&o, &t);
	struct seg s = seg_of(1, 10);
	for (unsigned i = 0; i < 2; i++) {
		rx_post1(RX_BUF + 0x1000 * i, 512);
		s.sport = (uint16_t)(100 + i);
		cr_assert_eq(seg_give(&s), RX_DELIVERED);
	}
	cr_expect_eq(tl_count(&rdev->tr, NICREF_EV_LRO_OPEN), 2, "two flows, two sessions");
	s.sport = 102;
	expect_pass(&s, NICREF_LRO_NO_RESOURCES, "a third flow");
	/* The same flow on another TIR is another session (D-LRO-1), and still none is free. */
	s.sport = 100;
	uint32_t first = lro_tirn;
	lro_tirn = lro_make_tir(&t);
	expect_pass(&s, NICREF_LRO_NO_RESOURCES, "flow 100 on a second TIR");
	lro_tirn = first;
	tl_mark(&rdev->tr);
	cr_assert_eq(seg_give(&(struct seg){ .vid = -1, .sport = 100, .seq = 11, .ack = 0x1000,
					     .win = 0x2000, .flags = SEG_ACK, .payload = 10 }),
		     RX_DELIVERED);
	cr_expect_eq(tl_count(&rdev->tr, NICREF_EV_LRO_MERGE), 1, "flow 100 on its TIR merges");
}

/* The profile's bounds: 1 to 4096 sessions, a minimum segment above 0, a mode of two. */
Test(lro_open, profile_bounds)
{
	struct nicref_config cfg;
	const struct {
		uint16_t sessions, mss;
		uint8_t mode;
		bool ok;
	} rows[] = {
		{ 1, 1, 0, true },  { 4096, 1, 1, true }, { 0, 1, 0, false },
		{ 4097, 1, 0, false }, { 16, 0, 0, false }, { 16, 1, 2, false },
	};
	for (size_t i = 0; i < sizeof rows / sizeof rows[0]; i++) {
		nicref_config_default(&cfg);
		cfg.profile.lro_max_sessions = rows[i].sessions;
		cfg.profile.lro_min_mss_size = rows[i].mss;
		cfg.profile.lro_max_msg_sz_mode = rows[i].mode;
		struct nicref_dev *d = nicref_dev_create(&cfg);
		cr_expect_eq(d != NULL, rows[i].ok, "row %zu", i);
		nicref_dev_destroy(d);
	}
}

/* T147 lro_min_mss_size follows the profile (a minimum: caps cannot lower it). */
Test(lro_open, min_mss_size_follows_the_profile)
{
	struct nicref_profile p;
	nicref_profile_default(&p);
	p.lro_min_mss_size = 100;
	cr_expect_eq(nicref_profile_cap_set(&p, "per_protocol_networking_offload_caps",
					    "lro_min_mss_size", 1),
		     NICREF_CAP_SET_FIXED);
	struct rx_opts o = rx_default_opts();
	o.profile = &p;
	struct lro_tir_opts t = lro_tir_default();
	lro_setup_with(&o, &t);
	cr_expect_eq(prm_get(rdev->dev->core.caps.cur[CAP_ETH_OFFLOAD], CAP_BYTES,
			     tl_field("per_protocol_networking_offload_caps", "lro_min_mss_size")),
		     100);
	struct seg s = seg_of(1, 99);
	expect_pass(&s, NICREF_LRO_SMALL, "99 < 100");
	tl_mark(&rdev->tr);
	rx_post1(RX_BUF, 512);
	s.payload = 100;
	cr_assert_eq(seg_give(&s), RX_DELIVERED);
	cr_expect_eq(tl_count(&rdev->tr, NICREF_EV_LRO_OPEN), 1, "100 opens");
}
