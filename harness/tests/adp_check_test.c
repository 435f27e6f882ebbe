/* `nicref adp check`, the capture checker's decisions (harness/adp_check.c) on hand-made records:
 * the ADP timer (seed 001) and the classic one, each way a retransmission can be unexplained,
 * the tolerance, NAKs, go-back-N followers, and a refused profile. The example profile:
 * adp_tool_util.h. */
#include <stdint.h>
#include <string.h>

#include "adp_tool_util.h"

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

/* IBTA Vol. 1 §9.7.6.1.3: the QP has one transport timer, restarted when an ACK acknowledges
 * some but not all outstanding requests (the model's requester does the same, D-ROCE-RC-2).
 * Classic timer, QP timeout 3: 4.096 us << 3 = 32.768 us. PSNs 100 and 101 pipelined, the ACK of
 * 100 at 10 us restarts the timer for 101: due at 10 + 32.768 = 42.768 us, 41.768 us after its
 * own send (the reviewer's pipelined_partial_ack capture). */
Test(adp_check, partial_ack_restarts_the_one_timer_classic)
{
	struct adp_check_cfg c = classic_cfg(3, 3);
	struct adp_rec r[] = { D(100, 0), D(101, 1), A(100, 10),
			       { .psn = 101, .t_ns = 42768, .kind = ADP_REC_DATA },
			       { .psn = 101, .t_ns = 44768, .kind = ADP_REC_ACK } };
	struct adp_verdict v = verdict(&c, r, 5);
	cr_expect(v.conforming, "kind %s gap %llu", adp_fail_name((enum adp_fail)v.kind),
		  (unsigned long long)v.gap_ns);
	cr_expect_eq(v.expiries, 1);
	/* A timer per PSN (101 resent 32.768 us after its own send) is the violation now. */
	r[3].t_ns = 33768;
	v = verdict(&c, r, 5);
	cr_assert_not(v.conforming);
	cr_expect_eq(v.kind, ADP_FAIL_GAP);
	cr_expect_eq(v.psn, 101);
	cr_expect_eq(v.gap_ns, 23768, "the gap is measured from the restart at the ACK");
	cr_expect_eq(v.allowed[0], 32768);
}

/* The same under ADP, where the progress also changes the value: the restarted timer takes the
 * value after the decrease. Exponent 2 (the only initial value giving a first gap of 16 us):
 * gaps 16, 16, 32, 32 bring it to 4; the ACK at 99 us decreases it to 3 (TO_DIV_2 of range 0,
 * D-ADP-16). PSNs 2 and 3 go at 100 and 101 us (the timer starts at 100 with 32 us); the ACK of
 * 2 at 103 us decreases to 2 (16 us) and restarts the timer: 3 is due at 103 + 16 = 119 us (not
 * 101 + 32 = 133 us per PSN, nor 103 + 32 = 135 us with the value before the progress). */
Test(adp_check, partial_ack_restarts_the_timer_with_the_decreased_value)
{
	struct adp_check_cfg c = example_cfg();
	struct adp_rec r[] = { D(1, 0), D(1, 16), D(1, 32), D(1, 64), D(1, 96), A(1, 99),
			       D(2, 100), D(3, 101), A(2, 103), D(3, 119), A(3, 122) };
	struct adp_verdict v = verdict(&c, r, 11);
	cr_assert(v.conforming, "kind %s psn %u gap %llu", adp_fail_name((enum adp_fail)v.kind),
		  v.psn, (unsigned long long)v.gap_ns);
	cr_expect_eq(v.nexplain, 1);
	cr_expect_eq(v.explain_e[0], 2);
	r[9].t_ns = 133 * US; /* a device timing PSN 3 from its own send */
	v = verdict(&c, r, 11);
	cr_assert_not(v.conforming);
	cr_expect_eq(v.kind, ADP_FAIL_GAP);
	cr_expect_eq(v.psn, 3);
	cr_expect_eq(v.gap_ns, 30 * US);
	cr_expect_eq(v.nallowed, 1);
	cr_expect_eq(v.allowed[0], 16 * US);
}

/* A request sent behind outstanding ones leaves the timer running (IBTA §9.7.6.1.3: it starts
 * when a request goes out while it is stopped): 2 sent at 10 us does not move 1's expiry at
 * 16 us (a restart would put it at 26 us, beyond the tolerance). */
Test(adp_check, a_send_behind_outstanding_requests_keeps_the_timer)
{
	struct adp_check_cfg c = example_cfg();
	struct adp_rec ok[] = { D(1, 0), D(2, 10), D(1, 16), D(2, 17), A(2, 20) };
	struct adp_verdict v = verdict(&c, ok, 5);
	cr_expect(v.conforming);
	cr_expect_eq(v.nexplain, 1);
	cr_expect_eq(v.explain_e[0], 2);
}

/* seed 001 L43: the armed value is capped by the QP timeout. With QP timeout 3 the cap,
 * 4.096 us << 3 = 32.768 us, lies 768 ns from the profile value 4 us << 3 = 32 us: a 1 us
 * tolerance lets a device arming 32 us pass where 32.768 us is due (the reviewer's
 * cap_within_tolerance capture). The default tolerance is then (768 - 1) / 2 = 383 ns. */
Test(adp_check, default_tolerance_separates_the_cap_from_a_profile_value)
{
	struct adp_check_cfg c = example_cfg();
	cr_expect_eq(adp_check_default_tol(&c.mode, &c.attr), 1000,
		     "QP timeout 10: values 8, 16, 32, 64 us ... 4194.304 us, all >= 4 us apart");
	c.attr.timeout = 3;
	cr_expect_eq(adp_check_default_tol(&c.mode, &c.attr), 383);
	struct adp_check_cfg k = classic_cfg(3, 3);
	cr_expect_eq(adp_check_default_tol(&k.mode, &k.attr), 1000, "one classic value");
	/* Exponent 3 (32 us, in range 0: retried once at 32 us, then 64 us capped to 32.768 us):
	 * a device that keeps 32 us after the doubling. */
	struct adp_rec r[] = { D(1, 0), D(1, 32), D(1, 64), D(1, 96), A(1, 99) };
	c.tol_ns = 1000;
	cr_expect(verdict(&c, r, 5).conforming, "1 us lets 32 us pass for 32.768 us");
	c.tol_ns = adp_check_default_tol(&c.mode, &c.attr);
	struct adp_verdict v = verdict(&c, r, 5);
	cr_assert_not(v.conforming);
	cr_expect_eq(v.kind, ADP_FAIL_GAP);
	cr_expect_eq(v.psn, 1);
	cr_expect_eq(v.retx, 3);
	cr_expect_eq(v.allowed[0], 32768);
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
