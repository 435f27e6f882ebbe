/* LRO session termination by an arriving segment (PRM §3.3.6.3, §3.3.6.4; eth/lro_rx.c;
 * docs/lro.md D-LRO-4, D-LRO-6, D-LRO-8): the session completes without the segment, then the
 * segment opens the next session (the four causes marked (*)) or is delivered on its own. */
#include <criterion/criterion.h>

#include "lro_util.h"

TestSuite(lro_end, .init = lro_setup, .fini = rx_teardown);

/* Opens the session with seg_of(1, 100) (+ ts when asked) in a WQE of 4096 bytes, and posts
 * three more WQEs. */
static void open_one(bool ts)
{
	for (unsigned i = 0; i < 4; i++)
		rx_post1(RX_BUF + 0x1000 * i, 4096);
	struct seg s = seg_of(1, 100);
	s.ts = ts;
	s.tsval = 100;
	cr_assert_eq(seg_give(&s), RX_DELIVERED);
	tl_mark(&rdev->tr);
}

/* The segment b ends the session for `cause`; `story` the events it leaves. */
static void expect_end(const struct seg *b, enum nicref_lro_cause cause, const char *story,
		       const char *what)
{
	char got[32];
	cr_assert_eq(seg_give(b), RX_DELIVERED, "%s", what);
	cr_expect_str_eq(lro_story(got, sizeof got), story, "%s", what);
	cr_expect_eq(lro_end_cause(0), cause, "%s: %s, expected %s", what,
		     nicref_lro_cause_name((enum nicref_lro_cause)lro_end_cause(0)),
		     nicref_lro_cause_name(cause));
	if (story[2] == 'p')
		cr_expect_eq(lro_pass_cause(0), cause, "%s: the pass names the same cause", what);
}

/* §3.3.6.3 "Out of order segment": the session's CQE, then the segment's own. */
Test(lro_end, out_of_order_then_standalone)
{
	uint8_t f[512], c[64];
	size_t tcp;
	open_one(false);
	struct seg a = seg_of(1, 100);
	seg_build(f, &a, &tcp);
	struct seg b = seg_of(500, 100);
	expect_end(&b, NICREF_LRO_OUT_OF_ORDER, "ecpc", "seq 500, expected 101");
	const struct nicref_event *e = lro_ev(NICREF_EV_LRO_END, 0);
	cr_expect_eq(e->arg[4], 1);
	cr_expect_eq(e->arg[5], 154);
	rx_cqe(c);
	cr_expect_eq(CQE(c, lro_num_seg), 1, "T5: the first segment alone");
	cr_expect_eq(CQE(c, byte_cnt), 154);
	cr_expect_eq(CQE(c, lro_abrt), 2, "T68 10: other (D-LRO-4)");
	cr_expect_eq(CQE(c, checksum), rx_fold(rx_sum(0, f + tcp + 20, 100)),
		     "T4: the payload (D-LRO-7)");
	cr_expect_eq(CQE(c, wqe_counter), 0);
	rx_cqe(c);
	cr_expect_eq(CQE(c, lro_num_seg), 0, "the segment on its own");
	cr_expect_eq(CQE(c, byte_cnt), 154);
	cr_expect_eq(CQE(c, wqe_counter), 1);
}

/* §3.3.6.3: the creation conditions end an open session, and the segment goes on its own. */
Test(lro_end, a_condition_of_creation_ends_the_session)
{
	open_one(false);
	struct seg b = seg_of(101, 100);
	b.flags = SEG_ACK | SEG_FIN;
	expect_end(&b, NICREF_LRO_TCP_FLAGS, "ecpc", "FIN");
}

Test(lro_end, a_pure_ack_ends_the_session)
{
	open_one(false);
	struct seg b = seg_of(101, 0);
	expect_end(&b, NICREF_LRO_SMALL, "ecpc", "no payload");
}

/* §3.3.6.3: "IP field ... does not match" (not TTL, checksum, length, identification). */
Test(lro_end, ip_mismatch_is_standalone)
{
	open_one(false);
	struct seg b = seg_of(101, 100);
	b.tos = 0x20; /* DSCP 8 */
	expect_end(&b, NICREF_LRO_IP_MISMATCH, "ecpc", "DSCP");
	open_one(false);
	b = seg_of(101, 100);
	b.df = true;
	expect_end(&b, NICREF_LRO_IP_MISMATCH, "ecpc", "DF");
}

/* §3.3.6.3 (*): an ECN difference, in the IP header or in TCP's ECE/CWR, restarts. */
Test(lro_end, ecn_restarts)
{
	uint8_t c[64];
	open_one(false);
	struct seg b = seg_of(101, 100);
	b.tos = 0x01; /* ECT(1) */
	expect_end(&b, NICREF_LRO_ECN, "eco", "IP ECN");
	rx_cqe(c);
	cr_expect_eq(CQE(c, lro_num_seg), 1);
	cr_expect_eq(CQE(c, lro_abrt), 2);
	const struct nicref_event *o = lro_ev(NICREF_EV_LRO_OPEN, 0);
	cr_expect_eq(o->arg[2], 1, "the next session in the next WQE");
	tl_mark(&rdev->tr);
	b = seg_of(201, 100);
	b.tos = 0x01;
	b.flags = SEG_ACK | SEG_ECE;
	expect_end(&b, NICREF_LRO_ECN, "eco", "TCP ECE");
}

/* §3.3.6.3 (*) and D-LRO-6 mode 0: lro_max_msg_sz × 256 bytes of TCP header and payload. */
Test(lro_end, max_size_restarts_mode_0)
{
	uint8_t c[64];
	struct lro_tir_opts t = lro_tir_default();
	t.max_msg_sz = 1; /* 256 bytes */
	lro_tirn = lro_make_tir(&t);
	open_one(false);
	struct seg b = seg_of(101, 120);
	cr_assert_eq(seg_give(&b), RX_DELIVERED);
	cr_expect_eq(tl_count(&rdev->tr, NICREF_EV_LRO_MERGE), 1, "20 + 100 + 120 = 240 <= 256");
	tl_mark(&rdev->tr);
	b = seg_of(221, 17);
	expect_end(&b, NICREF_LRO_MAX_SIZE, "eco", "240 + 17 > 256");
	rx_cqe(c);
	cr_expect_eq(CQE(c, lro_abrt), 0, "T68 00: max IP payload size exceeded");
	cr_expect_eq(CQE(c, lro_num_seg), 2);
}

/* D-LRO-6 mode 1 (HCA_CAP.lro_max_msg_sz_mode, the profile's): from the L2 header. */
Test(lro_end, max_size_mode_1_counts_from_l2)
{
	struct nicref_profile p;
	nicref_profile_default(&p);
	p.lro_max_msg_sz_mode = 1;
	struct rx_opts o = rx_default_opts();
	o.profile = &p;
	struct lro_tir_opts t = lro_tir_default();
	t.max_msg_sz = 1;
	lro_setup_with(&o, &t);
	cr_expect_eq(prm_get(rdev->dev->core.caps.cur[CAP_ETH_OFFLOAD], CAP_BYTES,
			     tl_field("per_protocol_networking_offload_caps",
				      "lro_max_msg_sz_mode")),
		     1);
	open_one(false);
	struct seg b = seg_of(101, 120);
	expect_end(&b, NICREF_LRO_MAX_SIZE, "eco", "154 + 120 = 274 > 256");
}

/* §3.3.6.3 (*): the timestamp cases. */
Test(lro_end, timestamps_restart)
{
	open_one(false);
	struct seg b = seg_of(101, 100);
	b.ts = true;
	b.tsval = 5;
	expect_end(&b, NICREF_LRO_TS_PREV_ABSENT, "eco", "a timestamp after none");
	tl_mark(&rdev->tr);
	b = seg_of(201, 100);
	b.ts = true;
	b.tsval = 5; /* equal: merges (§3.3.6.4 ">=") */
	cr_assert_eq(seg_give(&b), RX_DELIVERED);
	cr_expect_eq(tl_count(&rdev->tr, NICREF_EV_LRO_MERGE), 1, "the same TSval merges");
	tl_mark(&rdev->tr);
	b = seg_of(301, 100);
	b.ts = true;
	b.tsval = 4;
	expect_end(&b, NICREF_LRO_TS_OLDER, "eco", "TSval 4 < 5");
	tl_mark(&rdev->tr);
	b = seg_of(401, 100);
	expect_end(&b, NICREF_LRO_TS_ABSENT, "eco", "no timestamp after one");
}

/* D-LRO-8: out of order is checked before the (*) causes: a segment out of order and with a
 * timestamp change ends the session as out of order and goes on its own. */
Test(lro_end, merge_conditions_in_order)
{
	open_one(false);
	struct seg b = seg_of(999, 100);
	b.ts = true;
	expect_end(&b, NICREF_LRO_OUT_OF_ORDER, "ecpc", "out of order and a new timestamp");
}

/* D-LRO-6: lro_num_seg has 8 bits: the 256th segment starts a new session. */
Test(lro_end, at_most_255_segments)
{
	uint8_t c[64];
	rx_post1(RX_BUF, 8192);
	rx_post1(RX_BUF + 0x2000, 8192);
	for (uint32_t i = 0; i < 256; i++)
		cr_assert_eq(seg_give(&(struct seg){ .vid = -1, .seq = 1 + i, .ack = 1, .win = 1,
						     .flags = SEG_ACK, .payload = 1 }),
			     RX_DELIVERED);
	cr_expect_eq(tl_count(&rdev->tr, NICREF_EV_LRO_OPEN), 2);
	cr_expect_eq(lro_end_cause(0), NICREF_LRO_MAX_SIZE);
	rx_cqe(c);
	cr_expect_eq(CQE(c, lro_num_seg), 255);
	cr_expect_eq(CQE(c, byte_cnt), 54 + 255);
}
