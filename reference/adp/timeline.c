/* A whole ADP timeline for one QP: the engine (adp/engine.c) driven by a loss pattern over
 * virtual time, for `nicref adp timeline`, the vectors and the fuzzer. One transmission is
 * outstanding at once (a message is sent, then retransmitted until acknowledged), which is
 * all the timer rules of seeds 000/001 need. */
#include "adp/adp_int.h"

static const char *const end_names[] = {
	[NICREF_ADP_END_DONE] = "done",
	[NICREF_ADP_END_RETRY_EXC] = "retry_exc",
	[NICREF_ADP_END_LIMIT] = "limit",
	[NICREF_ADP_END_STALL] = "stall",
};

const char *nicref_adp_end_name(enum nicref_adp_end e)
{
	return (unsigned)e < sizeof end_names / sizeof end_names[0] ? end_names[e] : NULL;
}

static uint64_t add_sat(uint64_t a, uint64_t b)
{
	return b > UINT64_MAX - a ? UINT64_MAX : a + b;
}

static bool lost_bit(const struct nicref_adp_run *run, uint32_t k)
{
	size_t w = k / 64u;
	return run->loss && w < run->loss_words && (run->loss[w] >> (k % 64u)) & 1u;
}

enum nicref_adp_end nicref_adp_timeline(const struct nicref_adp_run *run,
					struct nicref_adp_attempt *out, size_t cap, size_t *n,
					struct nicref_adp_counters *counters)
{
	struct nicref_adp_qp qp;
	uint64_t prng = run->seed;
	/* One draw of splitmix64 for the initial value, as a device seeded with run->seed
	 * would make for its first QP. */
	nicref_adp_qp_init(&qp, &run->mode, &run->attr, 0, nicref_splitmix64(&prng));
	uint32_t limit = run->max_attempts ? run->max_attempts : NICREF_ADP_TIMELINE_MAX;
	enum nicref_adp_reason why = qp.mode.adp ? NICREF_ADP_R_INIT : NICREF_ADP_R_CLASSIC;
	enum nicref_adp_end end = NICREF_ADP_END_DONE;
	uint64_t t = 0;
	uint32_t msg = 0, k = 0;
	size_t recorded = 0;
	while (msg < run->messages) {
		if (k >= limit || (out && recorded >= cap)) {
			end = NICREF_ADP_END_LIMIT;
			break;
		}
		uint64_t armed = nicref_adp_armed_ns(&qp);
		/* Lost by the pattern, or acknowledged too late: the timer expires first and the
		 * late ACK is not modelled (one outstanding transmission). */
		uint8_t lost = lost_bit(run, k) ? 1 : (armed != 0 && run->rtt_ns >= armed) ? 2 : 0;
		if (out) {
			out[recorded] = (struct nicref_adp_attempt){
				.attempt = k,
				.message = msg,
				.sent_ns = t,
				.armed_ns = armed,
				.range = qp.r,
				.e = qp.mode.adp ? qp.e : (uint8_t)(qp.attr.timeout & 0x1Fu),
				.reason = (uint8_t)why,
				.lost = lost,
			};
			recorded++;
		}
		k++;
		if (!lost) {
			/* The ACK is forward progress; the next message goes at once. */
			t = add_sat(t, run->rtt_ns);
			nicref_adp_on_progress(&qp, t, &why);
			msg++;
			continue;
		}
		if (armed == 0) {
			end = NICREF_ADP_END_STALL; /* infinite classic timer: nothing expires */
			break;
		}
		t = add_sat(t, armed);
		bool again = nicref_adp_on_timeout(&qp, t, &why);
		if (counters)
			nicref_adp_count_timeout(&qp, again, counters);
		if (!again) {
			end = NICREF_ADP_END_RETRY_EXC;
			break;
		}
	}
	if (n)
		*n = recorded;
	return end;
}
