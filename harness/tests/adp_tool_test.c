/* `nicref adp timeline` and `nicref adp check`: the capture checker's decisions on hand-made
 * records, the RoCEv2 frame parser, the pcap reader on the shipped captures (expectations from
 * corpora/adp_captures/captures.json, computed by corpora/adp_captures/gen_captures.py from the seed text, not by
 * nicref), and the timeline's text, JSON and SVG for the example profile of docs/adp.md.
 *
 * The example profile (corpora/adp_captures/example_profile.json): time_base 4 us; initial exponents
 * 1..4 (low 1, size 4: seed 001 L7 [low, low + size - 1]); range 0 = exponents 2..4 (16..64 us,
 * retry 2, TO_DIV_2), range 1 = 5..7 (128..512 us, retry 2, TO_DIV_4), range 2 = 8..11
 * (1.024..8.192 ms, retry 1, TO_LOW_BOUND, prev 1); total 4 us << 12 = 16.384 ms. With QP
 * timeout 10 the cap is 4.096 us << 10 = 4194.304 us. */
#include <criterion/criterion.h>
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "adp_check.h"
#include "adp_cmd.h"
#include "adp_pkt.h"
#include "adp_profile.h"
#include "pcap_read.h"

#define EXAMPLE "corpora/adp_captures/example_profile.json"
#define US 1000u

static struct adp_check_cfg example_cfg(void)
{
	struct adp_check_cfg c;
	memset(&c, 0, sizeof c);
	char err[256];
	cr_assert_eq(adp_profile_from_file(EXAMPLE, &c.mode.profile, err, sizeof err), 0, "%s", err);
	c.mode.adp = true;
	c.mode.retrans_en = true;
	c.mode.base_timeout_min_ns = 4000;
	c.attr.timeout = 10;
	c.attr.retry_cnt = 7;
	c.tol_ns = ADP_CHECK_DEFAULT_TOL_NS;
	return c;
}

static struct adp_check_cfg classic_cfg(uint8_t timeout, uint8_t retry_cnt)
{
	struct adp_check_cfg c;
	memset(&c, 0, sizeof c);
	c.attr.timeout = timeout;
	c.attr.retry_cnt = retry_cnt;
	c.tol_ns = ADP_CHECK_DEFAULT_TOL_NS;
	return c;
}

/* A request / an ACK of PSN p_ at u_ microseconds. */
#define D(p_, u_) { .flow = 0, .psn = (p_), .t_ns = (uint64_t)(u_) * US, .kind = ADP_REC_DATA }
#define A(p_, u_) { .flow = 0, .psn = (p_), .t_ns = (uint64_t)(u_) * US, .kind = ADP_REC_ACK }

static struct adp_verdict verdict(const struct adp_check_cfg *c, const struct adp_rec *r, size_t n)
{
	struct adp_verdict v;
	char err[256];
	cr_assert_eq(adp_check_flow(c, r, n, 0, &v, err, sizeof err), 0, "%s", err);
	return v;
}

/* ---- the decision on records ---- */

Test(adp_check, in_range_start_retried_once_then_doubled)
{
	/* Initial exponent 2 (16 us) lies in range 0: the first timeout keeps it for one more
	 * try (seed 001 L15, L25), then it doubles (L29): gaps 16, 16, 32 us. Only exponent 2
	 * gives a first gap of 16 us (1: 8 us, 3: 32 us, 4: 64 us). */
	struct adp_check_cfg c = example_cfg();
	struct adp_rec r[] = { D(1, 0), D(1, 16), D(1, 32), D(1, 64), A(1, 67) };
	struct adp_verdict v = verdict(&c, r, 5);
	cr_assert(v.conforming);
	cr_assert_eq(v.nexplain, 1);
	cr_assert_eq(v.explain_e[0], 2);
	cr_expect_eq(v.ncand, 4);
	cr_expect_eq(v.data, 4);
	cr_expect_eq(v.retransmissions, 3);
	cr_expect_eq(v.expiries, 3);
	cr_expect_eq(v.progress, 1);
}

Test(adp_check, below_every_range_starts_at_start_range_index)
{
	/* Initial exponent 1 (8 us) is in no range: the first timeout moves to range 0's low
	 * bound, exponent 2 (seed 001 L17), used timeout_retry_num = 2 times: gaps 8, 16, 16,
	 * then 32. */
	struct adp_check_cfg c = example_cfg();
	struct adp_rec r[] = { D(7, 0), D(7, 8), D(7, 24), D(7, 40), D(7, 72) };
	struct adp_verdict v = verdict(&c, r, 5);
	cr_assert(v.conforming);
	cr_assert_eq(v.nexplain, 1);
	cr_assert_eq(v.explain_e[0], 1);
}

Test(adp_check, no_retransmission_leaves_every_initial_value)
{
	struct adp_check_cfg c = example_cfg();
	struct adp_rec r[] = { D(1, 0), A(1, 3), D(2, 4), A(2, 7) };
	struct adp_verdict v = verdict(&c, r, 4);
	cr_assert(v.conforming);
	cr_assert_eq(v.nexplain, 4);
	for (unsigned i = 0; i < 4; i++)
		cr_expect_eq(v.explain_e[i], 1 + i);
}

Test(adp_check, first_gap_no_initial_value_allows)
{
	/* The first gap can only be 4 us << e for e in 1..4: 8, 16, 32 or 64 us. */
	struct adp_check_cfg c = example_cfg();
	struct adp_rec r[] = { D(0x100, 0), D(0x100, 100) };
	struct adp_verdict v = verdict(&c, r, 2);
	cr_assert_not(v.conforming);
	cr_expect_eq(v.kind, ADP_FAIL_GAP);
	cr_expect_eq(v.psn, 0x100);
	cr_expect_eq(v.retx, 1);
	cr_expect_eq(v.rec, 1);
	cr_expect_eq(v.gap_ns, 100 * US);
	cr_assert_eq(v.nallowed, 4);
	cr_expect_eq(v.allowed[0], 8 * US);
	cr_expect_eq(v.allowed[1], 16 * US);
	cr_expect_eq(v.allowed[2], 32 * US);
	cr_expect_eq(v.allowed[3], 64 * US);
	cr_expect_eq(v.nreach, 4);
	char buf[1024];
	adp_verdict_explain(&v, &c, 0x12, buf, sizeof buf);
	cr_expect_str_eq(buf, "QP 0x12 PSN 256 retransmission 1: gap 100.000 us; allowed {8.000 us, "
			      "16.000 us, 32.000 us, 64.000 us} +- 1000 ns, under every initial value");
}

Test(adp_check, later_gap_names_the_surviving_initial_value)
{
	/* Gaps 16, 16 pin exponent 2; the third must be 32 us (the doubling), 20 is not. */
	struct adp_check_cfg c = example_cfg();
	struct adp_rec r[] = { D(5, 0), D(5, 16), D(5, 32), D(5, 52) };
	struct adp_verdict v = verdict(&c, r, 4);
	cr_assert_not(v.conforming);
	cr_expect_eq(v.retx, 3);
	cr_expect_eq(v.gap_ns, 20 * US);
	cr_assert_eq(v.nallowed, 1);
	cr_expect_eq(v.allowed[0], 32 * US);
	cr_assert_eq(v.nreach, 1);
	cr_expect_eq(v.reach_e[0], 2);
	char buf[1024];
	adp_verdict_explain(&v, &c, 0x12, buf, sizeof buf);
	cr_expect_str_eq(buf, "QP 0x12 PSN 5 retransmission 3: gap 20.000 us; allowed {32.000 us} "
			      "+- 1000 ns (initial exponent 2 is the only one that explains the "
			      "earlier gaps)");
}

Test(adp_check, tolerance_is_inclusive)
{
	struct adp_check_cfg c = example_cfg();
	struct adp_rec ok[] = { D(1, 0), { .psn = 1, .t_ns = 17000, .kind = ADP_REC_DATA } };
	struct adp_rec late[] = { D(1, 0), { .psn = 1, .t_ns = 17001, .kind = ADP_REC_DATA } };
	c.tol_ns = 1000;
	cr_expect(verdict(&c, ok, 2).conforming, "16 us + 1000 ns is within 1000 ns");
	struct adp_verdict v = verdict(&c, late, 2);
	cr_expect_not(v.conforming, "16 us + 1001 ns is not (17 us is no initial value)");
	c.tol_ns = 0;
	cr_expect_not(verdict(&c, ok, 2).conforming);
}

Test(adp_check, forward_progress_decreases)
{
	/* Exponent 2: gaps 16, 16, 32, 32 bring it to 4 (64 us); the ACK decreases it by
	 * TO_DIV_2 of range 0 (one halving, seed 000 dec_mode 1, D-ADP-16) to 3: the next
	 * message's first gap is 32 us, not 64. */
	struct adp_check_cfg c = example_cfg();
	struct adp_rec good[] = { D(1, 0), D(1, 16), D(1, 32), D(1, 64), D(1, 96), A(1, 99),
				  D(2, 100), D(2, 132) };
	cr_expect(verdict(&c, good, 8).conforming);
	struct adp_rec bad[] = { D(1, 0), D(1, 16), D(1, 32), D(1, 64), D(1, 96), A(1, 99),
				 D(2, 100), D(2, 164) };
	struct adp_verdict v = verdict(&c, bad, 8);
	cr_assert_not(v.conforming);
	cr_expect_eq(v.psn, 2);
	cr_expect_eq(v.retx, 1);
	cr_expect_eq(v.allowed[0], 32 * US);
}

Test(adp_check, missing_retransmission)
{
	/* 16 us armed at the send; an ACK 40 us later with nothing resent in between. */
	struct adp_check_cfg c = example_cfg();
	struct adp_rec r[] = { D(1, 0), D(1, 16), A(1, 56) };
	struct adp_verdict v = verdict(&c, r, 3);
	cr_assert_not(v.conforming);
	cr_expect_eq(v.kind, ADP_FAIL_MISSING);
	cr_expect_eq(v.rec, 2);
	cr_expect_eq(v.retx, 2);
	cr_expect_eq(v.gap_ns, 40 * US);
	cr_expect_eq(v.allowed[0], 16 * US);
}

Test(adp_check, total_timeout_ends_retransmission)
{
	/* Classic-free total: 4 us << 12 = 16.384 ms. From exponent 2 the gaps run 16, 16, 32,
	 * 32, 64, 64 (range 0), 128, 128, 256, 256, 512, 512 (range 1), 1024, 2048, 4096 us,
	 * then 8192 us capped to 4194.304 us (seed 001 L43) twice: the 16th expiry is at
	 * 13378.304 us (before the total), the 17th at 17572.608 us >= 16384 us fails the QP
	 * (seed 001 L47-49), so a 17th retransmission is not allowed. */
	static const uint64_t gaps[] = { 16000,	  16000,   32000,   32000,   64000,   64000,
					 128000,  128000,  256000,  256000,  512000,  512000,
					 1024000, 2048000, 4096000, 4194304, 4194304 };
	struct adp_rec r[18];
	uint64_t t = 0;
	r[0] = (struct adp_rec){ .psn = 9, .t_ns = 0, .kind = ADP_REC_DATA };
	for (unsigned i = 0; i < 17; i++) {
		t += gaps[i];
		r[i + 1] = (struct adp_rec){ .psn = 9, .t_ns = t, .kind = ADP_REC_DATA };
	}
	struct adp_check_cfg c = example_cfg();
	cr_expect(verdict(&c, r, 17).conforming, "16 retransmissions are allowed");
	struct adp_verdict v = verdict(&c, r, 18);
	cr_assert_not(v.conforming);
	cr_expect_eq(v.kind, ADP_FAIL_EXHAUSTED);
	cr_expect_eq(v.retx, 17);
	cr_expect_eq(v.total_ns, 16384 * US);
	cr_expect_eq(v.since_progress_ns, 17572608u);
}

Test(adp_check, classic_timer_and_retry_count)
{
	/* ADP off: every gap is 4.096 us << 3 = 32.768 us, retry_cnt 2 retries. */
	struct adp_check_cfg c = classic_cfg(3, 2);
	struct adp_rec r[] = { { .psn = 1, .t_ns = 0 },	     { .psn = 1, .t_ns = 32768 },
			       { .psn = 1, .t_ns = 65536 },  { .psn = 1, .t_ns = 98304 } };
	cr_expect(verdict(&c, r, 3).conforming);
	struct adp_verdict v = verdict(&c, r, 4);
	cr_assert_not(v.conforming);
	cr_expect_eq(v.kind, ADP_FAIL_EXHAUSTED);
	cr_expect_eq(v.retx, 3);
	cr_expect_eq(v.ncand, 1);
}

Test(adp_check, infinite_timer_allows_no_retransmission)
{
	struct adp_check_cfg c = classic_cfg(0, 7); /* IB timeout 0: no timer */
	struct adp_rec r[] = { { .psn = 1, .t_ns = 0 }, { .psn = 1, .t_ns = 1000000 } };
	struct adp_verdict v = verdict(&c, r, 2);
	cr_assert_not(v.conforming);
	cr_expect_eq(v.kind, ADP_FAIL_INFINITE);
}

Test(adp_check, go_back_n_followers_take_no_timer_decision)
{
	/* PSNs 10-12 outstanding; the timer of 10 (16 us from its send) expires and 10, 11, 12
	 * are resent back to back: only 10's gap is a timer decision. */
	struct adp_check_cfg c = example_cfg();
	struct adp_rec r[] = { D(10, 0), D(11, 1), D(12, 2), D(10, 16), D(11, 17), D(12, 18),
			       A(12, 21) };
	struct adp_verdict v = verdict(&c, r, 7);
	cr_assert(v.conforming);
	cr_expect_eq(v.retransmissions, 3);
	cr_expect_eq(v.expiries, 1);
	cr_expect_eq(v.nexplain, 1);
}

Test(adp_check, nak_retransmission_is_immediate_and_counts_retries)
{
	/* A NAK PSN-sequence error for PSN 2 acknowledges PSN 1 and asks for 2 again at once
	 * (IBA); it is no timer expiry. With retry_cnt 0 the QP may not retry at all. */
	struct adp_check_cfg c = example_cfg();
	struct adp_rec r[] = { D(1, 0), D(2, 1), { .psn = 2, .t_ns = 3000, .kind = ADP_REC_NAK_SEQ },
			       D(2, 4), A(2, 7) };
	struct adp_verdict v = verdict(&c, r, 5);
	cr_expect(v.conforming);
	cr_expect_eq(v.expiries, 0);
	c.attr.retry_cnt = 0;
	v = verdict(&c, r, 5);
	cr_expect_not(v.conforming);
	cr_expect_eq(v.kind, ADP_FAIL_EXHAUSTED);
}

Test(adp_check, resending_an_acknowledged_psn)
{
	struct adp_check_cfg c = example_cfg();
	struct adp_rec r[] = { D(1, 0), A(1, 3), D(1, 16) };
	struct adp_verdict v = verdict(&c, r, 3);
	cr_assert_not(v.conforming);
	cr_expect_eq(v.kind, ADP_FAIL_ACKED);
}

Test(adp_check, idle_time_is_not_counted_against_the_total_timeout)
{
	/* 20 ms idle (> the 16.384 ms total) after an ACK, then a lost send: its retransmission
	 * is allowed, the no-progress time counting from the send (docs/adp.md assumption). */
	struct adp_check_cfg c = example_cfg();
	struct adp_rec r[] = { D(1, 0), A(1, 3), D(2, 20003), D(2, 20019) };
	cr_expect(verdict(&c, r, 4).conforming);
}

Test(adp_check, refused_profile_is_an_error)
{
	struct adp_check_cfg c = example_cfg();
	c.mode.profile.time_base = 3; /* not a power of two (seed 001 L23) */
	struct adp_rec r[] = { D(1, 0) };
	struct adp_verdict v;
	char err[256];
	cr_expect_eq(adp_check_flow(&c, r, 1, 0, &v, err, sizeof err), -1);
	cr_expect(strstr(err, "profile refused") != NULL, "%s", err);
}

/* ---- frames ---- */

/* Ethernet + IPv4 + UDP + BTH (+ AETH), written byte by byte from the public formats. */
static size_t frame4(uint8_t *f, uint8_t opcode, uint32_t dqp, uint32_t psn, int aeth,
		     uint8_t syndrome, uint16_t dport, int vlan)
{
	size_t o = 0;
	memset(f, 0, 128);
	o = 12;
	if (vlan) {
		f[o++] = 0x81, f[o++] = 0x00, f[o++] = 0x00, f[o++] = 0x05;
	}
	f[o++] = 0x08, f[o++] = 0x00;
	size_t ip = o, udplen = 8 + 12 + (aeth ? 4 : 0) + 4;
	f[o] = 0x45;
	f[o + 2] = (uint8_t)((20 + udplen) >> 8), f[o + 3] = (uint8_t)(20 + udplen);
	f[o + 8] = 64, f[o + 9] = 17;
	f[o + 12] = 10, f[o + 15] = 1, f[o + 16] = 10, f[o + 19] = 2;
	o = ip + 20;
	f[o] = 0xc0, f[o + 1] = 0x01, f[o + 2] = (uint8_t)(dport >> 8), f[o + 3] = (uint8_t)dport;
	f[o + 4] = (uint8_t)(udplen >> 8), f[o + 5] = (uint8_t)udplen;
	o += 8;
	f[o] = opcode;
	f[o + 2] = 0xff, f[o + 3] = 0xff;
	f[o + 5] = (uint8_t)(dqp >> 16), f[o + 6] = (uint8_t)(dqp >> 8), f[o + 7] = (uint8_t)dqp;
	f[o + 9] = (uint8_t)(psn >> 16), f[o + 10] = (uint8_t)(psn >> 8), f[o + 11] = (uint8_t)psn;
	o += 12;
	if (aeth) {
		f[o] = syndrome, f[o + 3] = 7;
		o += 4;
	}
	return o + 4; /* ICRC */
}

Test(adp_pkt, ethernet_ipv4_bth)
{
	uint8_t f[128];
	struct roce_pkt k;
	size_t n = frame4(f, 0x04, 0x123456, 0xabcdef, 0, 0, 4791, 0);
	cr_assert_eq(roce_parse_frame(f, n, ROCE_LINK_ETHERNET, &k), ROCE_PARSE_OK);
	cr_expect_eq(k.ipver, 4);
	cr_expect_eq(k.opcode, 0x04);
	cr_expect_eq(k.dqp, 0x123456);
	cr_expect_eq(k.psn, 0xabcdef);
	cr_expect_eq(k.has_aeth, 0);
	cr_expect_eq(k.src[0], 10);
	cr_expect_eq(k.dst[3], 2);
	n = frame4(f, 0x11, 0x11, 42, 1, 0x60, 4791, 1); /* VLAN-tagged ACK: a NAK, code 0 */
	cr_assert_eq(roce_parse_frame(f, n, ROCE_LINK_ETHERNET, &k), ROCE_PARSE_OK);
	cr_expect_eq(k.has_aeth, 1);
	cr_expect_eq(k.syndrome, 0x60);
	cr_expect_eq(k.msn, 7);
	cr_expect_eq(k.psn, 42);
	/* Not RoCEv2 (another UDP port); truncated (the snap length cut the BTH). */
	n = frame4(f, 0x04, 1, 1, 0, 0, 4792, 0);
	cr_expect_eq(roce_parse_frame(f, n, ROCE_LINK_ETHERNET, &k), ROCE_PARSE_OTHER);
	n = frame4(f, 0x04, 1, 1, 0, 0, 4791, 0);
	cr_expect_eq(roce_parse_frame(f, 14 + 20 + 8 + 6, ROCE_LINK_ETHERNET, &k),
		     ROCE_PARSE_TRUNCATED);
	/* The same packet without the link header, as raw IP and under a Linux cooked header. */
	cr_expect_eq(roce_parse_frame(f + 14, n - 14, ROCE_LINK_RAW_IP, &k), ROCE_PARSE_OK);
	uint8_t sll[160] = { 0 };
	sll[14] = 0x08;
	memcpy(sll + 16, f + 14, n - 14);
	cr_expect_eq(roce_parse_frame(sll, n + 2, ROCE_LINK_LINUX_SLL, &k), ROCE_PARSE_OK);
	cr_expect_eq(k.psn, 1);
	/* Garbage of every length never crashes and is never RoCE. */
	uint8_t junk[64];
	for (size_t i = 0; i < sizeof junk; i++)
		junk[i] = (uint8_t)(i * 37 + 11);
	for (size_t l = 0; l <= sizeof junk; l++)
		cr_expect_neq(roce_parse_frame(junk, l, ROCE_LINK_ETHERNET, &k), ROCE_PARSE_OK);
}

Test(adp_pkt, ipv6_address_text)
{
	uint8_t a[16] = { 0xfd, 0, [15] = 1 }, b[16] = { 0x20, 0x01, 0x0d, 0xb8, 0, 0, 0, 1,
							 0, 0, 0, 0, 0, 0, 0, 1 };
	char s[48];
	adp_addr_format(6, a, s, sizeof s);
	cr_expect_str_eq(s, "fd00::1");
	adp_addr_format(6, b, s, sizeof s);
	cr_expect_str_eq(s, "2001:db8:0:1::1");
}

static struct roce_pkt pkt(uint64_t t, int from_req, uint8_t op, uint32_t dqp, uint32_t psn)
{
	struct roce_pkt k = { .t_ns = t, .frame = (uint32_t)(t + 1), .ipver = 4, .opcode = op,
			      .dqp = dqp, .psn = psn, .has_aeth = op == 0x11 };
	k.src[0] = k.dst[0] = 10;
	k.src[3] = from_req ? 1 : 2;
	k.dst[3] = from_req ? 2 : 1;
	return k;
}

Test(adp_pkt, acks_join_the_flow_of_the_reverse_direction)
{
	/* Two responder QPs behind the same address pair: an ACK cannot be told apart without
	 * --ack-qp; with it, it can. */
	struct roce_pkt p[] = { pkt(0, 1, 0x04, 0x12, 1), pkt(1, 1, 0x04, 0x13, 1),
				pkt(2, 0, 0x11, 0x11, 1) };
	struct adp_flowset fs;
	char err[256];
	cr_expect_eq(adp_flows_build(p, 3, NULL, 0, &fs, err, sizeof err), -1);
	cr_expect(strstr(err, "--ack-qp") != NULL, "%s", err);
	struct adp_pair pair = { .data_qp = 0x13, .ack_qp = 0x11 };
	cr_assert_eq(adp_flows_build(p, 3, &pair, 1, &fs, err, sizeof err), 0, "%s", err);
	cr_assert_eq(fs.nflows, 2);
	cr_assert_eq(fs.nrecs, 3);
	cr_expect_eq(fs.recs[2].flow, 1);
	cr_expect_eq(fs.recs[2].kind, ADP_REC_ACK);
	cr_expect_eq(fs.flows[1].ack_qp, 0x11);
	adp_flows_free(&fs);
	/* Out-of-order timestamps are refused. */
	struct roce_pkt q[] = { pkt(5, 1, 0x04, 0x12, 1), pkt(4, 1, 0x04, 0x12, 2) };
	cr_expect_eq(adp_flows_build(q, 2, NULL, 0, &fs, err, sizeof err), -1);
}

/* ---- the shipped captures (expected verdicts from corpora/adp_captures/captures.json) ---- */

static struct adp_check_cfg cfg_from_args(const json_t *args)
{
	bool classic = false;
	struct adp_check_cfg c = example_cfg();
	for (size_t i = 0; i < json_array_size(args); i++) {
		const char *a = json_string_value(json_array_get(args, i));
		const char *v = i + 1 < json_array_size(args)
					? json_string_value(json_array_get(args, i + 1))
					: "";
		if (!strcmp(a, "--classic"))
			classic = true;
		else if (!strcmp(a, "--timeout"))
			c.attr.timeout = (uint8_t)atoi(v);
		else if (!strcmp(a, "--retry-cnt"))
			c.attr.retry_cnt = (uint8_t)atoi(v);
		else if (!strcmp(a, "--profile"))
			cr_assert_str_eq(v, EXAMPLE);
	}
	if (classic) {
		c.mode.adp = false;
		c.mode.retrans_en = false;
	}
	return c;
}

static void expect_u8s(const json_t *arr, const uint8_t *v, uint32_t n, const char *what,
		       const char *file)
{
	cr_assert_eq(json_array_size(arr), n, "%s %s: count", file, what);
	for (uint32_t i = 0; i < n; i++)
		cr_expect_eq(json_integer_value(json_array_get(arr, i)), v[i], "%s %s[%u]", file,
			     what, i);
}

Test(adp_captures, every_capture_as_the_generator_expects)
{
	json_error_t je;
	json_t *m = json_load_file("corpora/adp_captures/captures.json", 0, &je);
	cr_assert(m, "captures.json: %s", je.text);
	json_t *caps = json_object_get(m, "captures");
	cr_assert_geq(json_array_size(caps), 8);
	size_t nonconf = 0;
	for (size_t ci = 0; ci < json_array_size(caps); ci++) {
		const json_t *cap = json_array_get(caps, ci);
		const char *file = json_string_value(json_object_get(cap, "file"));
		struct adp_check_cfg c = cfg_from_args(json_object_get(cap, "args"));
		struct roce_pkt *pk;
		size_t n;
		struct pcap_stats st;
		char err[512];
		cr_assert_eq(pcap_read_roce(file, &pk, &n, &st, err, sizeof err), 0, "%s", err);
		cr_expect_eq(st.frames, n, "%s: every frame is RoCEv2", file);
		cr_expect_eq(st.truncated, 0);
		struct adp_flowset fs;
		cr_assert_eq(adp_flows_build(pk, n, NULL, 0, &fs, err, sizeof err), 0, "%s", err);
		free(pk);
		const json_t *flows = json_object_get(cap, "flows");
		cr_assert_eq(fs.nflows, json_array_size(flows), "%s: flows", file);
		for (size_t fi = 0; fi < fs.nflows; fi++) {
			const json_t *want = NULL;
			for (size_t k = 0; k < json_array_size(flows); k++)
				if ((uint32_t)json_integer_value(json_object_get(
					    json_array_get(flows, k), "qp")) == fs.flows[fi].dqp)
					want = json_array_get(flows, k);
			cr_assert(want, "%s: QP 0x%x not expected", file, fs.flows[fi].dqp);
			static struct adp_verdict v;
			cr_assert_eq(adp_check_flow(&c, fs.recs, fs.nrecs, (uint32_t)fi, &v, err,
						    sizeof err), 0, "%s", err);
			bool conf = json_is_true(json_object_get(want, "conforming"));
			cr_assert_eq(v.conforming, conf, "%s QP 0x%x", file, fs.flows[fi].dqp);
			const json_t *ie = json_object_get(want, "initial_exponents");
			if (conf) {
				expect_u8s(ie, v.explain_e, c.mode.adp ? v.nexplain : 0,
					   "initial_exponents", file);
				continue;
			}
			nonconf++;
			cr_expect_eq(v.psn, json_integer_value(json_object_get(want, "psn")), "%s", file);
			cr_expect_eq(v.retx, json_integer_value(json_object_get(want, "retransmission")),
				     "%s", file);
			cr_expect_str_eq(adp_fail_name(v.kind),
					 json_string_value(json_object_get(want, "kind")), "%s", file);
			const json_t *al = json_object_get(want, "allowed_ns");
			cr_assert_eq(json_array_size(al), v.nallowed, "%s allowed", file);
			for (uint32_t k = 0; k < v.nallowed; k++)
				cr_expect_eq((uint64_t)json_integer_value(json_array_get(al, k)),
					     v.allowed[k], "%s allowed[%u]", file, k);
			if (v.kind == ADP_FAIL_GAP || v.kind == ADP_FAIL_MISSING)
				cr_expect_eq(v.gap_ns, (uint64_t)json_integer_value(
							       json_object_get(want, "gap_ns")),
					     "%s gap", file);
			expect_u8s(ie, v.reach_e, c.mode.adp ? v.nreach : 0, "initial_exponents",
				   file);
		}
		adp_flows_free(&fs);
	}
	cr_expect_geq(nonconf, 6, "the non-conforming captures are all there");
	json_decref(m);
}

/* ---- the command line ---- */

/* Runs `nicref adp ARGS...`; returns stdout (caller frees) and the exit status. */
static char *run(int *rc, const char *const *args, int argc)
{
	char out[] = "/tmp/nicref_adp_out_XXXXXX", errp[] = "/tmp/nicref_adp_err_XXXXXX";
	int fo = mkstemp(out), fe = mkstemp(errp);
	cr_assert(fo >= 0 && fe >= 0);
	fflush(stdout);
	fflush(stderr);
	int so = dup(1), se = dup(2);
	dup2(fo, 1);
	dup2(fe, 2);
	*rc = adp_main(argc, (char **)args);
	fflush(stdout);
	fflush(stderr);
	dup2(so, 1);
	dup2(se, 2);
	close(so);
	close(se);
	close(fo);
	close(fe);
	FILE *f = fopen(out, "r");
	cr_assert(f);
	char *buf = calloc(1, 1 << 20);
	size_t n = fread(buf, 1, (1 << 20) - 1, f);
	buf[n] = '\0';
	fclose(f);
	unlink(out);
	unlink(errp);
	return buf;
}

#define RUN(rc, ...)                                                                            \
	run(rc, (const char *const[]){ __VA_ARGS__ },                                            \
	    (int)(sizeof((const char *const[]){ __VA_ARGS__ }) / sizeof(const char *)))

Test(adp_cli, check_exit_status_per_capture)
{
	int rc;
	char *o = RUN(&rc, "check", "corpora/adp_captures/conforming_adp.pcap", "--profile", EXAMPLE,
		      "--timeout", "10");
	cr_expect_eq(rc, 0, "%s", o);
	cr_expect(strstr(o, "result: conforming (2 flows)") != NULL, "%s", o);
	free(o);
	o = RUN(&rc, "check", "corpora/adp_captures/nonconf_skip_escalation.pcap", "--profile", EXAMPLE,
		"--timeout", "10");
	cr_expect_eq(rc, 1);
	cr_expect(strstr(o, "QP 0x12 PSN 100 retransmission 5: gap 128.000 us; allowed {64.000 "
			    "us} +- 1000 ns") != NULL, "%s", o);
	free(o);
	o = RUN(&rc, "check", "corpora/adp_captures/nonconf_classic_retry_cnt.pcap", "--classic",
		"--timeout", "3", "--retry-cnt", "3", "--json");
	cr_expect_eq(rc, 1);
	json_t *j = json_loads(o, 0, NULL);
	cr_assert(j, "%s", o);
	json_t *u = json_object_get(json_array_get(json_object_get(j, "flows"), 0),
				    "first_unexplained");
	cr_expect_eq(json_integer_value(json_object_get(u, "retransmission")), 4);
	cr_expect_str_eq(json_string_value(json_object_get(u, "kind")), "after_total_timeout");
	json_decref(j);
	free(o);
	/* Input errors: no such file, no profile, a profile the register refuses. */
	free(RUN(&rc, "check", "corpora/adp_captures/no_such.pcap", "--classic"));
	cr_expect_eq(rc, 2);
	free(RUN(&rc, "check", "corpora/adp_captures/conforming_adp.pcap"));
	cr_expect_eq(rc, 2);
	free(RUN(&rc, "check", "corpora/adp_captures/conforming_adp.pcap", "--profile-hex",
		 "00000000" "00000000" "00000000" "00000000" "00000000" "00000000" "00000000"
		 "00000000" "00000000" "00000000" "00000000" "00000000"));
	cr_expect_eq(rc, 2, "time_unit 0 is refused");
}

Test(adp_cli, exit_status_of_every_capture)
{
	json_t *m = json_load_file("corpora/adp_captures/captures.json", 0, NULL);
	cr_assert(m);
	json_t *caps = json_object_get(m, "captures");
	for (size_t ci = 0; ci < json_array_size(caps); ci++) {
		const json_t *cap = json_array_get(caps, ci);
		const json_t *args = json_object_get(cap, "args");
		const char *argv[16] = { "check", json_string_value(json_object_get(cap, "file")) };
		int argc = 2;
		for (size_t i = 0; i < json_array_size(args) && argc < 16; i++)
			argv[argc++] = json_string_value(json_array_get(args, i));
		int rc;
		free(run(&rc, argv, argc));
		cr_expect_eq(rc, json_integer_value(json_object_get(cap, "exit")), "%s", argv[1]);
	}
	json_decref(m);
}

Test(adp_cli, timeline_of_the_example_profile)
{
	/* Seed 1: splitmix64's first output from state 1 is 0x910a2dec89025cc1, which is 1
	 * modulo 4, so the initial exponent is 1 + 1 = 2 (16 us). Everything lost: the gaps of
	 * total_timeout_ends_retransmission above, the 17th expiry fails the QP. */
	int rc;
	char *o = RUN(&rc, "timeline", "--profile", EXAMPLE, "--timeout", "10", "--seed", "1",
		      "--loss", "0-40", "--json");
	cr_assert_eq(rc, 0);
	json_t *j = json_loads(o, 0, NULL);
	cr_assert(j, "%s", o);
	free(o);
	static const uint64_t armed_us1000[] = { 16000,	  16000,   32000,   32000,   64000,
						 64000,	  128000,  128000,  256000,  256000,
						 512000,  512000,  1024000, 2048000, 4096000,
						 4194304, 4194304 };
	static const int range[] = { -1, 0, 0, 0, 0, 0, 1, 1, 1, 1, 1, 1, 2, 2, 2, 2, 2 };
	static const int e[] = { 2, 2, 3, 3, 4, 4, 5, 5, 6, 6, 7, 7, 8, 9, 10, 11, 11 };
	static const char *const reason[] = { "init",	    "enter_range", "double",	 "retry_same",
					       "double",    "retry_same",  "next_range", "retry_same",
					       "double",    "retry_same",  "double",	 "retry_same",
					       "next_range", "double",	   "double",	 "double",
					       "ceiling" };
	json_t *at = json_object_get(j, "attempts");
	cr_assert_eq(json_array_size(at), 17);
	uint64_t t = 0;
	for (size_t i = 0; i < 17; i++) {
		json_t *x = json_array_get(at, i);
		cr_expect_eq((uint64_t)json_integer_value(json_object_get(x, "sent_ns")), t, "#%zu", i);
		cr_expect_eq((uint64_t)json_integer_value(json_object_get(x, "armed_ns")),
			     armed_us1000[i], "#%zu", i);
		cr_expect_eq(json_integer_value(json_object_get(x, "range")), range[i], "#%zu", i);
		cr_expect_eq(json_integer_value(json_object_get(x, "e")), e[i], "#%zu", i);
		cr_expect_str_eq(json_string_value(json_object_get(x, "reason")), reason[i], "#%zu", i);
		cr_expect_str_eq(json_string_value(json_object_get(x, "outcome")), "lost");
		t += armed_us1000[i];
	}
	cr_expect_str_eq(json_string_value(json_object_get(json_array_get(at, 15), "note")),
			 "capped by QP timeout");
	cr_expect_str_eq(json_string_value(json_object_get(j, "end")), "retry_exc");
	cr_expect_eq(json_integer_value(json_object_get(j, "end_ns")), 17572608);
	json_t *ctr = json_object_get(j, "counters");
	cr_expect_eq(json_integer_value(json_object_get(ctr, "roce_adp_retrans")), 16);
	cr_expect_eq(json_integer_value(json_object_get(ctr, "roce_adp_retrans_to")), 1);
	json_decref(j);
}

Test(adp_cli, timeline_text_and_register_hex_input)
{
	int rc;
	char *o = RUN(&rc, "timeline", "--profile", EXAMPLE, "--timeout", "10", "--seed", "1",
		      "--messages", "3", "--loss", "0-2,5-9");
	cr_assert_eq(rc, 0);
	/* Message 0: 16, 16, 32 us lost, acked at 64 + 2 us; TO_DIV_2 takes exponent 3 to 2,
	 * so message 1 goes at 66 us armed 16 us. */
	cr_expect(strstr(o, "      3     0           64.000           32.000     0    3  "
			    "retry_same   acked\n") != NULL, "%s", o);
	cr_expect(strstr(o, "      4     1           66.000           16.000     0    2  "
			    "decrease     acked\n") != NULL, "%s", o);
	cr_expect(strstr(o, "ended: done at 230.000 us: every message acknowledged\n") != NULL,
		  "%s", o);
	/* The same profile as the 48 register bytes (seed 000 layout), and inside the whole
	 * ROCE_ACCL data with roce_adp_retrans_en 1 and profile id 1: the same timeline. */
	struct nicref_adp_profile p;
	char err[256];
	cr_assert_eq(adp_profile_from_file(EXAMPLE, &p, err, sizeof err), 0);
	uint8_t b[0x40] = { 0 };
	cr_assert_eq(nicref_adp_profile_encode(&p, b + 0x10, 0x30), 0);
	char hex[0x81], arg[0x61];
	for (int i = 0; i < 0x30; i++)
		snprintf(arg + 2 * i, 3, "%02x", b[0x10 + i]);
	char *o2 = RUN(&rc, "timeline", "--profile-hex", arg, "--timeout", "10", "--seed", "1",
		       "--messages", "3", "--loss", "0-2,5-9");
	cr_assert_eq(rc, 0);
	cr_expect_str_eq(strchr(o2, '\n'), strchr(o, '\n'), "same rows from the hex profile");
	b[0x04] = 0x10; /* adp_retx_profile_id 1 (04h 30:28) */
	b[0x07] = 0x01; /* roce_adp_retrans_en (04h 0) */
	for (int i = 0; i < 0x40; i++)
		snprintf(hex + 2 * i, 3, "%02x", b[i]);
	char *o3 = RUN(&rc, "timeline", "--profile-hex", hex, "--timeout", "10", "--seed", "1",
		       "--messages", "3", "--loss", "0-2,5-9");
	cr_assert_eq(rc, 0);
	cr_expect_str_eq(strchr(o3, '\n'), strchr(o, '\n'), "same rows from the register");
	free(o3);
	/* Profile id 0: firmware-defined timeouts, the classic IB timer (seed 001 L68-72). */
	b[0x04] = 0x00;
	for (int i = 0; i < 0x40; i++)
		snprintf(hex + 2 * i, 3, "%02x", b[i]);
	o3 = RUN(&rc, "timeline", "--profile-hex", hex, "--timeout", "3", "--loss", "0");
	cr_assert_eq(rc, 0);
	cr_expect(strstr(o3, "      0     0            0.000           32.768     -    -  "
			     "classic      lost\n") != NULL, "%s", o3);
	free(o);
	free(o2);
	free(o3);
}

/* A minimal well-formedness check: every element closed in order. */
static bool balanced(const char *s)
{
	char stack[64][16];
	int depth = 0;
	for (const char *p = strchr(s, '<'); p; p = strchr(p + 1, '<')) {
		if (p[1] == '?' || p[1] == '!')
			continue;
		const char *end = strchr(p, '>');
		if (!end)
			return false;
		bool closing = p[1] == '/', self = end[-1] == '/';
		char name[16] = { 0 };
		size_t k = 0;
		for (const char *q = p + 1 + closing; *q != ' ' && *q != '>' && *q != '/' && k < 15;
		     q++)
			name[k++] = *q;
		if (self)
			continue;
		if (closing) {
			if (depth == 0 || strcmp(stack[depth - 1], name) != 0)
				return false;
			depth--;
		} else {
			if (depth == 64)
				return false;
			strcpy(stack[depth++], name);
		}
	}
	return depth == 0;
}

Test(adp_cli, plot_is_standalone_svg)
{
	char path[] = "/tmp/nicref_adp_plot_XXXXXX";
	int fd = mkstemp(path);
	cr_assert(fd >= 0);
	close(fd);
	int rc;
	free(RUN(&rc, "timeline", "--profile", EXAMPLE, "--timeout", "10", "--seed", "1",
		 "--messages", "3", "--loss", "0-2,5-9", "--plot", path));
	cr_assert_eq(rc, 0);
	FILE *f = fopen(path, "r");
	cr_assert(f);
	static char svg[1 << 18];
	size_t n = fread(svg, 1, sizeof svg - 1, f);
	svg[n] = '\0';
	fclose(f);
	unlink(path);
	cr_expect_eq(strncmp(svg, "<?xml version=\"1.0\" encoding=\"UTF-8\"", 36), 0);
	cr_expect(strstr(svg, "<svg xmlns=\"http://www.w3.org/2000/svg\" version=\"1.1\"") != NULL);
	cr_expect(balanced(svg), "elements are nested and closed");
	/* One group per transmission (11), the axis with its unit, the legend. */
	size_t rows = 0;
	for (const char *p = strstr(svg, "<g id=\"t"); p; p = strstr(p + 1, "<g id=\"t"))
		rows++;
	cr_expect_eq(rows, 11);
	cr_expect(strstr(svg, "time since the QP became ready to send (\xc2\xb5s)") != NULL);
	cr_expect(strstr(svg, ">Legend<") != NULL);
	cr_expect(strstr(svg, "timeout range 0") != NULL);
	cr_expect(strstr(svg, "every message acknowledged") != NULL);
}

Test(adp_cli, bad_inputs)
{
	int rc;
	char path[] = "/tmp/nicref_adp_prof_XXXXXX";
	int fd = mkstemp(path);
	FILE *f = fdopen(fd, "w");
	fputs("{\"time_unit\":1,\"time_base\":4,\"range_num\":8}", f); /* 3-bit field */
	fclose(f);
	free(RUN(&rc, "timeline", "--profile", path));
	cr_expect_eq(rc, 2);
	f = fopen(path, "w");
	fputs("{\"time_unit\":1,\"time_bsae\":4}", f);
	fclose(f);
	free(RUN(&rc, "timeline", "--profile", path));
	cr_expect_eq(rc, 2, "unknown field");
	unlink(path);
	free(RUN(&rc, "timeline", "--classic", "--loss", "0,x"));
	cr_expect_eq(rc, 2);
	free(RUN(&rc, "timeline", "--classic", "--loss", "70", "--max-attempts", "64"));
	cr_expect_eq(rc, 2, "transmission beyond --max-attempts");
	free(RUN(&rc, "timeline", "--classic", "--timeout", "32"));
	cr_expect_eq(rc, 2);
	free(RUN(&rc, "timeline", "--profile", EXAMPLE, "--dec", "by-guess"));
	cr_expect_eq(rc, 2);
	free(RUN(&rc, "frobnicate"));
	cr_expect_eq(rc, 2);
}

Test(adp_inputs, durations_and_loss_patterns)
{
	uint64_t ns;
	cr_expect_eq(adp_parse_duration("1.5ms", &ns), 0);
	cr_expect_eq(ns, 1500000);
	cr_expect_eq(adp_parse_duration("4096ns", &ns), 0);
	cr_expect_eq(ns, 4096);
	cr_expect_eq(adp_parse_duration("2us", &ns), 0);
	cr_expect_eq(ns, 2000);
	cr_expect_eq(adp_parse_duration("7", &ns), 0);
	cr_expect_eq(ns, 7);
	cr_expect_eq(adp_parse_duration("0.0001us", &ns), -1, "below a nanosecond");
	cr_expect_eq(adp_parse_duration("5 us", &ns), -1);
	cr_expect_eq(adp_parse_duration("99999999999999999999s", &ns), -1);
	uint64_t w[2];
	cr_expect_eq(adp_loss_list("0,1,2,5,64-65", w, 2), 0);
	cr_expect_eq(w[0], 0x27u);
	cr_expect_eq(w[1], 3u);
	cr_expect_eq(adp_loss_list("3-1", w, 2), -1);
	cr_expect_eq(adp_loss_list("128", w, 2), -1);
	cr_expect_eq(adp_loss_bits("1101", w, 2), 0);
	cr_expect_eq(w[0], 0xbu);
	cr_expect_eq(adp_loss_bits("12", w, 2), -1);
	struct nicref_adp_options o = { 0 };
	cr_expect_eq(adp_option_set(&o, "dec", "by-factor"), 0);
	cr_expect_eq(o.dec_reading, NICREF_ADP_DEC_BY_FACTOR);
	cr_expect_eq(adp_option_set(&o, "dec-trigger", "clean-progress"), 0);
	cr_expect_eq(o.dec_trigger, NICREF_ADP_DEC_CLEAN_PROGRESS);
	cr_expect_eq(adp_option_set(&o, "first-timeout", "maybe"), -1);
	cr_expect_eq(adp_option_set(&o, "colour", "red"), 1);
}

/* ---- many flows: grouped by key and decided from their own records ---- */

/* Flow i of n: requester 10.x.y.z (10.0.0.0 + i + 1) to 11.0.0.1, responder QP i + 1, one
 * request of PSN 0 at i us (every 7th resent after the classic timer 4.096 us << 3), its ACK
 * (to requester QP 0x800000 + i) 3 us after the last transmission; in time order. */
static size_t many_flows(struct roce_pkt *p, size_t n)
{
	size_t k = 0;
	for (size_t i = 0; i < n; i++) {
		uint32_t a = 0x0a000000u + (uint32_t)i + 1;
		struct roce_pkt req = { .ipver = 4, .opcode = 0x04, .dqp = (uint32_t)i + 1 };
		req.src[0] = (uint8_t)(a >> 24);
		req.src[1] = (uint8_t)(a >> 16);
		req.src[2] = (uint8_t)(a >> 8);
		req.src[3] = (uint8_t)a;
		req.dst[0] = 11;
		req.dst[3] = 1;
		struct roce_pkt ack = { .ipver = 4, .opcode = 0x11, .dqp = 0x800000u + (uint32_t)i,
					.has_aeth = 1 };
		memcpy(ack.src, req.dst, 16);
		memcpy(ack.dst, req.src, 16);
		uint64_t t = (uint64_t)i * US;
		req.t_ns = t;
		p[k++] = req;
		if (i % 7 == 0) {
			req.t_ns = t + (4096u << 3);
			p[k++] = req;
			t += 4096u << 3;
		}
		ack.t_ns = t + 3 * US;
		p[k++] = ack;
	}
	/* Insertion by time (stable: a request before an ACK of the same time). */
	for (size_t i = 1; i < k; i++)
		for (size_t j = i; j > 0 && p[j - 1].t_ns > p[j].t_ns; j--) {
			struct roce_pkt x = p[j];
			p[j] = p[j - 1];
			p[j - 1] = x;
		}
	for (size_t i = 0; i < k; i++)
		p[i].frame = (uint32_t)i + 1;
	return k;
}

Test(adp_pkt, many_flows_grouped_by_key)
{
	enum { N = 3000 };
	struct roce_pkt *p = calloc(3 * N, sizeof *p);
	cr_assert(p);
	size_t np = many_flows(p, N);
	struct adp_flowset fs;
	char err[256];
	cr_assert_eq(adp_flows_build(p, np, NULL, 0, &fs, err, sizeof err), 0, "%s", err);
	cr_assert_eq(fs.nflows, N);
	cr_assert_eq(fs.nrecs, np);
	cr_expect_eq(fs.ignored_acks, 0);
	for (size_t f = 0; f < N; f++) {
		/* Flows in the order of their first request: flow f is responder QP f + 1. */
		cr_expect_eq(fs.flows[f].dqp, f + 1);
		cr_expect_eq(fs.flows[f].ndata, f % 7 == 0 ? 2u : 1u, "flow %zu", f);
		cr_expect_eq(fs.flows[f].nack, 1, "flow %zu", f);
		cr_expect_eq(fs.flows[f].ack_qp, 0x800000u + f, "flow %zu", f);
	}
	for (size_t i = 0; i < np; i++)
		cr_expect_eq(fs.flows[fs.recs[i].flow].dqp,
			     p[i].opcode == 0x11 ? p[i].dqp - 0x800000u + 1 : p[i].dqp,
			     "record %zu", i);
	free(p);

	/* The index gives each flow its records in capture order, and the same verdict as the
	 * walk over every record. */
	struct adp_flow_index ix;
	cr_assert_eq(adp_flow_index_build(fs.recs, fs.nrecs, fs.nflows, &ix), 0);
	cr_expect_eq(ix.start[0], 0);
	cr_expect_eq(ix.start[N], fs.nrecs);
	struct adp_check_cfg c = classic_cfg(3, 7);
	static struct adp_verdict a, b;
	for (uint32_t f = 0; f < N; f += 97) {
		for (size_t k = ix.start[f]; k < ix.start[f + 1]; k++) {
			cr_expect_eq(fs.recs[ix.rec[k]].flow, f);
			cr_expect(k == ix.start[f] || ix.rec[k] > ix.rec[k - 1], "capture order");
		}
		cr_assert_eq(adp_check_flow(&c, fs.recs, fs.nrecs, f, &a, err, sizeof err), 0);
		cr_assert_eq(adp_check_flow_indexed(&c, fs.recs, &ix, f, &b, err, sizeof err), 0);
		cr_expect(a.conforming && b.conforming, "flow %u", f);
		cr_expect_eq(a.data, b.data);
		cr_expect_eq(a.retransmissions, b.retransmissions);
		cr_expect_eq(a.expiries, b.expiries);
		cr_expect_eq(a.progress, b.progress);
		cr_expect_eq(a.t0_ns, b.t0_ns);
		cr_expect_eq(b.t0_ns, (uint64_t)f * US, "the flow's first packet");
		cr_expect_eq(b.retransmissions, f % 7 == 0);
	}
	/* A flow beyond the index is an error, not a read past it. */
	cr_expect_eq(adp_check_flow_indexed(&c, fs.recs, &ix, N, &b, err, sizeof err), -1);
	adp_flow_index_free(&ix);
	adp_flows_free(&fs);
}

/* Runs `nicref adp ARGS...` keeping stdout and stderr apart (caller frees both). */
static void run_split(int *rc, const char *const *args, int argc, char **out, char **errs)
{
	char po[] = "/tmp/nicref_adp_o_XXXXXX", pe[] = "/tmp/nicref_adp_e_XXXXXX";
	int fo = mkstemp(po), fe = mkstemp(pe);
	cr_assert(fo >= 0 && fe >= 0);
	fflush(stdout);
	fflush(stderr);
	int so = dup(1), se = dup(2);
	dup2(fo, 1);
	dup2(fe, 2);
	*rc = adp_main(argc, (char **)args);
	fflush(stdout);
	fflush(stderr);
	dup2(so, 1);
	dup2(se, 2);
	close(so);
	close(se);
	close(fo);
	close(fe);
	const char *paths[2] = { po, pe };
	char **bufs[2] = { out, errs };
	for (int i = 0; i < 2; i++) {
		FILE *f = fopen(paths[i], "r");
		cr_assert(f);
		*bufs[i] = calloc(1, 1 << 16);
		size_t n = fread(*bufs[i], 1, (1 << 16) - 1, f);
		(*bufs[i])[n] = '\0';
		fclose(f);
		unlink(paths[i]);
	}
}

/* A classic pcap (microsecond timestamps, Ethernet) holding the given frames. */
static void write_pcap(const char *path, const uint8_t *const *frames, const size_t *lens,
		       size_t n)
{
	FILE *f = fopen(path, "wb");
	cr_assert(f);
	const uint32_t hdr[6] = { 0xa1b2c3d4, 2 | 4u << 16, 0, 0, 65535, 1 };
	cr_assert_eq(fwrite(hdr, sizeof hdr, 1, f), 1);
	for (size_t i = 0; i < n; i++) {
		const uint32_t rec[4] = { 1700000000u, (uint32_t)i, (uint32_t)lens[i],
					  (uint32_t)lens[i] };
		cr_assert_eq(fwrite(rec, sizeof rec, 1, f), 1);
		cr_assert_eq(fwrite(frames[i], lens[i], 1, f), 1);
	}
	fclose(f);
}

/* A capture with no RoCEv2 RC request has nothing to check: exit 2 (bad input, as the tool's
 * convention for what it cannot judge), one line on stderr naming the file, nothing on stdout,
 * in text and in JSON. Before issue 11 stdout said "result: conforming (0 flows)" while stderr
 * said "no RoCEv2 RC requests". */
Test(adp_cli, capture_with_nothing_to_check)
{
	char empty[] = "/tmp/nicref_adp_empty_XXXXXX", arp[] = "/tmp/nicref_adp_arp_XXXXXX";
	close(mkstemp(empty));
	close(mkstemp(arp));
	write_pcap(empty, NULL, NULL, 0);
	/* One Ethernet frame of another protocol (ARP, 0806h). */
	static const uint8_t frame[42] = { 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 2, 0, 0, 0, 0, 1,
					   0x08, 0x06 };
	const uint8_t *frames[1] = { frame };
	const size_t lens[1] = { sizeof frame };
	write_pcap(arp, frames, lens, 1);
	const char *files[2] = { empty, arp };
	const char *counts[2] = { "among 0 frames (0 RoCEv2 packets)",
				  "among 1 frames (0 RoCEv2 packets)" };
	for (int i = 0; i < 2; i++)
		for (int json = 0; json < 2; json++) {
			int rc;
			char *o, *e;
			const char *args[] = { "check", files[i], "--classic", "--json" };
			run_split(&rc, args, json ? 4 : 3, &o, &e);
			cr_expect_eq(rc, 2, "%s: exit 2", files[i]);
			cr_expect_str_eq(o, "", "%s: nothing on stdout", files[i]);
			cr_expect(strstr(e, files[i]) && strstr(e, counts[i]) &&
					  strstr(e, "nothing to check"),
				  "stderr: %s", e);
			cr_expect_eq(strchr(e, '\n'), e + strlen(e) - 1, "one line: %s", e);
			free(o);
			free(e);
		}
	unlink(empty);
	unlink(arp);
}
