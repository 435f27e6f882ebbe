/* The ADP engine's timeline (reference/adp/): the attempts of a QP when transmissions are lost,
 * with escalation, decrease on progress, the limits, the classic timer, and the loss words. The
 * example profile E: adp_util.h. Every expected value is worked out by hand from the seed text. */
#include <stdint.h>
#include <string.h>

#include "adp_util.h"

/* ---- Timeline ------------------------------------------------------------------------------- */

struct want {
	uint64_t sent, armed;
	int range;
	unsigned e;
	enum nicref_adp_reason reason;
	unsigned lost;
};

static void expect_timeline(const struct nicref_adp_attempt *got, size_t n, const struct want *w,
			    size_t nw)
{
	cr_assert_eq(n, nw, "%zu attempts, expected %zu", n, nw);
	for (size_t i = 0; i < n; i++) {
		cr_expect_eq(got[i].attempt, got[0].attempt + i);
		cr_expect_eq(got[i].sent_ns, w[i].sent, "attempt %zu sent %llu, expected %llu", i,
			     (unsigned long long)got[i].sent_ns, (unsigned long long)w[i].sent);
		cr_expect_eq(got[i].armed_ns, w[i].armed, "attempt %zu armed %llu, expected %llu", i,
			     (unsigned long long)got[i].armed_ns, (unsigned long long)w[i].armed);
		cr_expect_eq(got[i].range, w[i].range, "attempt %zu range", i);
		cr_expect_eq(got[i].e, w[i].e, "attempt %zu e", i);
		cr_expect_eq(got[i].reason, w[i].reason, "attempt %zu reason %s, expected %s", i,
			     nicref_adp_reason_name(got[i].reason), nicref_adp_reason_name(w[i].reason));
		cr_expect_eq(got[i].lost, w[i].lost, "attempt %zu lost", i);
	}
}

/* Seed 0: the first splitmix64 draw 0xE220A8397B1DCDAF is odd, so e = 2 + 1 = 3. Every
 * transmission lost: the escalation of escalation_in_range_first_timeout, ending at
 * 16448000 >= 16384000 with 11 retransmissions and one total timeout. */
Test(adp_timeline, all_lost_total_timeout)
{
	struct nicref_adp_profile p = example();
	const uint64_t loss[1] = { UINT64_MAX };
	struct nicref_adp_run run = { .mode = mode_of(&p), .attr = QP_ATTR, .seed = 0,
				      .loss = loss, .loss_words = 1, .rtt_ns = 1000,
				      .messages = 1, .max_attempts = 100 };
	static const struct want w[] = {
		{ 0, 32000, -1, 3, NICREF_ADP_R_INIT, 1 },
		{ 32000, 32000, 0, 3, NICREF_ADP_R_ENTER_RANGE, 1 },
		{ 64000, 64000, 0, 4, NICREF_ADP_R_DOUBLE, 1 },
		{ 128000, 64000, 0, 4, NICREF_ADP_R_RETRY_SAME, 1 },
		{ 192000, 128000, 1, 5, NICREF_ADP_R_NEXT_RANGE, 1 },
		{ 320000, 256000, 1, 6, NICREF_ADP_R_DOUBLE, 1 },
		{ 576000, 512000, 1, 7, NICREF_ADP_R_DOUBLE, 1 },
		{ 1088000, 1024000, 2, 8, NICREF_ADP_R_NEXT_RANGE, 1 },
		{ 2112000, 2048000, 2, 9, NICREF_ADP_R_DOUBLE, 1 },
		{ 4160000, 4096000, 2, 10, NICREF_ADP_R_DOUBLE, 1 },
		{ 8256000, 4096000, 2, 10, NICREF_ADP_R_CEILING, 1 },
		{ 12352000, 4096000, 2, 10, NICREF_ADP_R_CEILING, 1 },
	};
	struct nicref_adp_attempt out[32];
	size_t n = 0;
	struct nicref_adp_counters c = { 0, 0 };
	cr_expect_eq(nicref_adp_timeline(&run, out, 32, &n, &c), NICREF_ADP_END_RETRY_EXC);
	expect_timeline(out, n, w, sizeof w / sizeof w[0]);
	cr_expect_eq(c.roce_adp_retrans, 11);
	cr_expect_eq(c.roce_adp_retrans_to, 1);
	/* qp_total_timeout, QP timeout 10, retry_cnt 2: total 2 * 4194304 = 8388608; expiry at
	 * 8256000 < it retransmits, the one at 12352000 fails: 11 attempts. */
	p.qp_total_timeout = 1;
	run.mode = mode_of(&p);
	run.attr = (struct nicref_adp_qp_attr){ 10, 2 };
	c = (struct nicref_adp_counters){ 0, 0 };
	cr_expect_eq(nicref_adp_timeline(&run, out, 32, &n, &c), NICREF_ADP_END_RETRY_EXC);
	expect_timeline(out, n, w, 11); /* every V(e) used is below the cap 4194304 */
	cr_expect(c.roce_adp_retrans == 10 && c.roce_adp_retrans_to == 1);
}

/* Losses 0-4, then acknowledged (rtt 1000): progress at 321000 decreases range 1's 6 by
 * TO_DIV_4 to 5; message 1 is acknowledged at 322000: at lo 5, back to range 0 at 4. */
Test(adp_timeline, progress_decrease)
{
	struct nicref_adp_profile p = example();
	const uint64_t loss[1] = { 0x1F };
	struct nicref_adp_run run = { .mode = mode_of(&p), .attr = QP_ATTR, .seed = 0,
				      .loss = loss, .loss_words = 1, .rtt_ns = 1000,
				      .messages = 2, .max_attempts = 100 };
	static const struct want w[] = {
		{ 0, 32000, -1, 3, NICREF_ADP_R_INIT, 1 },
		{ 32000, 32000, 0, 3, NICREF_ADP_R_ENTER_RANGE, 1 },
		{ 64000, 64000, 0, 4, NICREF_ADP_R_DOUBLE, 1 },
		{ 128000, 64000, 0, 4, NICREF_ADP_R_RETRY_SAME, 1 },
		{ 192000, 128000, 1, 5, NICREF_ADP_R_NEXT_RANGE, 1 },
		{ 320000, 256000, 1, 6, NICREF_ADP_R_DOUBLE, 0 },
		{ 321000, 128000, 1, 5, NICREF_ADP_R_DECREASE, 0 },
	};
	struct nicref_adp_attempt out[16];
	size_t n = 0;
	struct nicref_adp_counters c = { 0, 0 };
	cr_expect_eq(nicref_adp_timeline(&run, out, 16, &n, &c), NICREF_ADP_END_DONE);
	expect_timeline(out, n, w, sizeof w / sizeof w[0]);
	cr_expect(c.roce_adp_retrans == 5 && c.roce_adp_retrans_to == 0);
	/* Under the other trigger reading the first progress keeps 6; the clean second one
	 * would decrease, after the run. */
	run.mode.opt.dec_trigger = NICREF_ADP_DEC_CLEAN_PROGRESS;
	static const struct want w2[] = {
		{ 320000, 256000, 1, 6, NICREF_ADP_R_DOUBLE, 0 },
		{ 321000, 256000, 1, 6, NICREF_ADP_R_KEEP, 0 },
	};
	cr_expect_eq(nicref_adp_timeline(&run, out, 16, &n, NULL), NICREF_ADP_END_DONE);
	cr_assert_eq(n, 7);
	expect_timeline(out + 5, 2, w2, 2);
}

/* Limits, late ACKs, the classic timer and its stall. */
Test(adp_timeline, limits_and_classic)
{
	struct nicref_adp_profile p = example();
	const uint64_t loss[1] = { UINT64_MAX };
	struct nicref_adp_run run = { .mode = mode_of(&p), .attr = QP_ATTR, .seed = 0,
				      .loss = loss, .loss_words = 1, .rtt_ns = 1000,
				      .messages = 1, .max_attempts = 3 };
	struct nicref_adp_attempt out[8];
	size_t n = 0;
	cr_expect_eq(nicref_adp_timeline(&run, out, 8, &n, NULL), NICREF_ADP_END_LIMIT);
	cr_expect_eq(n, 3);
	run.max_attempts = 0; /* NICREF_ADP_TIMELINE_MAX; the cap of out limits */
	cr_expect_eq(nicref_adp_timeline(&run, out, 2, &n, NULL), NICREF_ADP_END_LIMIT);
	cr_expect_eq(n, 2);
	cr_expect_eq(nicref_adp_timeline(&run, NULL, 0, &n, NULL), NICREF_ADP_END_RETRY_EXC);
	cr_expect_eq(n, 0);
	/* No loss bits, rtt 40000 >= armed 32000: the timer wins (lost 2); then 40000 < 64000. */
	run.loss = NULL;
	run.loss_words = 0;
	run.rtt_ns = 40000;
	static const struct want late[] = {
		{ 0, 32000, -1, 3, NICREF_ADP_R_INIT, 2 },
		{ 32000, 32000, 0, 3, NICREF_ADP_R_ENTER_RANGE, 2 },
		{ 64000, 64000, 0, 4, NICREF_ADP_R_DOUBLE, 0 },
	};
	cr_expect_eq(nicref_adp_timeline(&run, out, 8, &n, NULL), NICREF_ADP_END_DONE);
	expect_timeline(out, n, late, 3);
	/* Classic: timeout 10 (4194304 ns), retry_cnt 3: 4 transmissions, then RETRY_EXC. */
	memset(&run.mode, 0, sizeof run.mode);
	run.attr = (struct nicref_adp_qp_attr){ 10, 3 };
	run.loss = loss;
	run.loss_words = 1;
	run.rtt_ns = 1000;
	static const struct want cl[] = {
		{ 0, 4194304, -1, 10, NICREF_ADP_R_CLASSIC, 1 },
		{ 4194304, 4194304, -1, 10, NICREF_ADP_R_CLASSIC, 1 },
		{ 8388608, 4194304, -1, 10, NICREF_ADP_R_CLASSIC, 1 },
		{ 12582912, 4194304, -1, 10, NICREF_ADP_R_CLASSIC, 1 },
	};
	struct nicref_adp_counters c = { 0, 0 };
	cr_expect_eq(nicref_adp_timeline(&run, out, 8, &n, &c), NICREF_ADP_END_RETRY_EXC);
	expect_timeline(out, n, cl, 4);
	cr_expect(c.roce_adp_retrans == 0 && c.roce_adp_retrans_to == 0, "ADP off: no count");
	run.mode.retrans_en = true;
	cr_expect_eq(nicref_adp_timeline(&run, out, 8, &n, &c), NICREF_ADP_END_RETRY_EXC);
	cr_expect(c.roce_adp_retrans == 3 && c.roce_adp_retrans_to == 1);
	run.attr.timeout = 0;
	cr_expect_eq(nicref_adp_timeline(&run, out, 8, &n, NULL), NICREF_ADP_END_STALL);
	cr_expect_eq(n, 1);
	cr_expect_eq(out[0].armed_ns, 0);
	/* No messages: nothing sent. */
	run.messages = 0;
	cr_expect_eq(nicref_adp_timeline(&run, out, 8, &n, NULL), NICREF_ADP_END_DONE);
	cr_expect_eq(n, 0);
}

/* A loss bit beyond 64: word 1 bit 0 is attempt 64. Acked transmissions with rtt 1000 from
 * e 3 (INITIAL, no range): progress keeps 3, so 64 messages go at 0, 1000, ..., 63000;
 * attempt 64 (message 64) at 64000 is lost, expires at 96000 and enters range 0. */
Test(adp_timeline, loss_words)
{
	struct nicref_adp_profile p = example();
	const uint64_t loss[2] = { 0, 1 };
	struct nicref_adp_run run = { .mode = mode_of(&p), .attr = QP_ATTR, .seed = 0,
				      .loss = loss, .loss_words = 2, .rtt_ns = 1000,
				      .messages = 66, .max_attempts = 0 };
	struct nicref_adp_attempt out[80];
	size_t n = 0;
	cr_expect_eq(nicref_adp_timeline(&run, out, 80, &n, NULL), NICREF_ADP_END_DONE);
	cr_assert_eq(n, 67);
	cr_expect(out[63].sent_ns == 63000 && out[63].reason == NICREF_ADP_R_KEEP &&
		  out[63].lost == 0);
	cr_expect(out[64].sent_ns == 64000 && out[64].message == 64 && out[64].lost == 1);
	cr_expect(out[65].sent_ns == 96000 && out[65].message == 64 &&
		  out[65].reason == NICREF_ADP_R_ENTER_RANGE && out[65].range == 0);
	/* Acked at 97000: range 0 TO_DIV_2: 3 - 1 = 2. */
	cr_expect(out[66].sent_ns == 97000 && out[66].message == 65 && out[66].e == 2 &&
		  out[66].reason == NICREF_ADP_R_DECREASE);
}
