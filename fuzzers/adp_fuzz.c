/* Target: adp, adaptive retransmission (seeds 000 and 001): the per-QP engine
 * (reference/include/nicref/adp.h) driven by an event stream over a harness-side virtual
 * clock, the profile validation on any field values, the timeline driver, and optionally the
 * ROCE_ACCL register through ACCESS_REGISTER on a device.
 *
 * Input (every byte string is one; bytes past the end read as 0):
 *   0-23   a profile: the 24 defined bytes of seed 000's adp_retx_profile, big-endian dwords:
 *          00h qp_total_timeout[31] range_num[30:28] start_range_index[26:24] time_unit[23:22]
 *          time_base[15:0]; 04h retx_total_timeout[31:24] timeout_init_low_bound[15:8]
 *          timeout_init_range_size[7:0]; 08h-14h timeout_range[0..3]: prev_range_index[30:28]
 *          dec_mode[27:26] timeout_retry_num[25:16] range_low_bound[15:8] range_size[7:0].
 *          Reserved bits are ignored.
 *   24     mode: bit 0 first_timeout, bit 1 dec_reading (bits 1 and 5 together: by_factor),
 *          bit 2 init_range, bit 3 dec_trigger (1 = the alternative readings of adp.h);
 *          bit 4 classic (ADP off); bit 5 capabilities from bytes 26-28 instead of the
 *          defaults (4 ranges, 4000 ns); bit 6 write the profile into ROCE_ACCL on a device
 *          and run the mode the device gives a QP (its options are the device profile's,
 *          the defaults); bit 7 roce_adp_retrans_en
 *   25     QP: timeout[4:0] (IB local ACK timeout, 0 = infinite), retry_cnt[7:5]
 *   26-28  capabilities: max_range_num[23:21] base_timeout_min_ns[19:0]; with bit 6, bits
 *          23:21 are the ROCE_ACCL profile id instead (0 must be refused)
 *   29-36  the 64-bit draw of the initial timeout (big-endian); also the timeline's seed
 *   37-    events, an op byte and an operand byte each. The op codes are fixed numbers; 7-255 are
 *          reserved: the event's two bytes are consumed and nothing happens (a new op takes the
 *          next free code, so no existing input changes meaning):
 *          0 transmit a new message (when nothing was outstanding: a send from idle,
 *            nicref_adp_on_send_idle, and the timer armed)
 *          1 ACK of min(operand % 4 + 1, outstanding) messages: forward progress; the timer
 *            re-armed if messages are left, stopped if not
 *          2 NAK sequence error acknowledging operand % 4 of the outstanding messages (forward
 *            progress when not 0), then a retransmission (nicref_adp_on_nak) that re-arms
 *          3 time step of 2^(operand % 40) ns, stopping at the timer's deadline, where the
 *            timer expires (nicref_adp_on_timeout)
 *          4 jump to the deadline and expire (nothing when the timer is stopped)
 *          5 the QP enters ready-to-send again: a new draw (operand even; the draw of bytes
 *            29-36 mixed with the operand and the event's number, reserved events not counted)
 *            or a given initial exponent operand / 2 % 64 (nicref_adp_qp_init_e, as capture
 *            checking uses it)
 *          6 a whole timeline (nicref_adp_timeline) with loss pattern = the next 8 input bytes,
 *            operand % 8 + 1 messages, rtt 2^(operand / 8) ns
 *          On a failed QP, ops 1, 2 and 4 call the engine anyway (it must stay failed) and
 *          op 0 does nothing.
 *
 * Properties, after every step:
 * - validation never crashes, answers a rule of enum nicref_adp_rule, and a profile it
 *   accepts keeps every exponent the engine can form below 2^63 ns (D-ADP-7), so no field
 *   value overflows (UBSan watches the engine's own arithmetic); a profile it refuses runs as
 *   the classic timer (defined outcome for bad input);
 * - the armed timeout is within [floor, cap] (seed 001 L43, L60): ADP armed =
 *   max(adp_retx_base_timeout_min, min(time_base << e, 4.096 us * 2^QP.timeout)), never 0;
 *   classic armed = 4.096 us * 2^timeout exactly (0 = infinite); 0 once failed;
 * - the state lies inside the profile: before the first timeout e is a value of the initial
 *   range (seed 001 L7 / seed 000 L175), after it r is a valid range and lo_r <= e <= hi_r
 *   (L15-17, L31-35);
 * - a timeout never lowers the value except at the first timeout (L17) or when the next range
 *   tops out lower (overlapping ranges, D-ADP-13); forward progress never raises it (L51-56);
 * - the total timeout (L45-49): under ADP an expiry retransmits iff the time since forward
 *   progress (or init, or the last send from idle: D-ADP-11) is below retry_cnt * 4.096 us * 2^timeout (qp_total_timeout) or
 *   time_base << retx_total_timeout, whatever retry_cnt says (D-ADP-17); on the classic timer
 *   iff fewer than retry_cnt retries since progress; a NAK retransmits iff fewer than retry_cnt
 *   retries (both modes);
 * - a failed QP stays failed, whatever progress, NAK or expiry it meets, until it is
 *   re-initialised;
 * - timelines: attempts numbered 0.., each sent when the previous one's ACK came (rtt) or its
 *   timer expired (armed), messages advancing exactly on ACKs, the ending consistent with the
 *   last attempt, the counters equal to the retransmissions and failures (D-ADP-18);
 * - ROCE_ACCL: a profile write is accepted iff the id is not 0 and the profile passes the
 *   validation against the device's capabilities; the READ returns exactly what was written
 *   (or nothing selected after a refusal); the mode a QP takes runs the profile iff it was
 *   accepted and roce_adp_retrans_en is 1; the device never sees a driver violation. */
#include <string.h>

#include "driver.h"
#include "fuzz_oracle.h"
#include "fuzz_target.h"
#include "nicref/adp.h"

#define ADP_FUZZ_MAX_EVENTS 4096
#define ADP_FUZZ_TIMELINE_MAX 256u
/* The virtual clock stops here: far beyond any total timeout a validated profile or the QP
 * fields can express (7 * 4.096 us * 2^31 < 2^46), and far from wrapping. */
#define CLOCK_LIMIT (1ull << 62)
#define HEAD_BYTES 37u
#define REG_ROCE_ACCL 0x4050u /* nicref's register id (docs/adp.md, D-ADP-20) */

/* The event op codes (the input format above); ADP_OPS..255 are reserved. */
static const char *const adp_op_name[] = { "transmit", "ack",	    "nak",     "step",
					   "expire",   "reinit", "timeline" };
#define ADP_OPS (sizeof adp_op_name / sizeof adp_op_name[0])

struct harness {
	struct nicref_adp_mode mode; /* what the harness asked for */
	bool adp;                    /* what the engine must run: mode.adp and a valid profile */
	struct nicref_adp_qp_attr attr;
	struct nicref_adp_qp qp;
	bool given_e;          /* initialised with an exponent given, not drawn */
	uint64_t now;
	uint64_t t_progress;   /* last forward progress, send from idle or init, as the harness
				* saw it */
	uint32_t outstanding;  /* messages sent and not acknowledged */
	bool armed;            /* the timer runs */
	uint64_t deadline;
	bool failed;           /* RETRY_EXC reported */
	uint32_t retries;      /* retries counted against retry_cnt since the last progress */
};

static struct nicref_dev *dev;
static struct fuzz_oracle oracle;

static uint32_t be32(const uint8_t *p)
{
	return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3];
}

static void put32(uint8_t *p, uint32_t v)
{
	for (unsigned i = 0; i < 4; i++)
		p[i] = (uint8_t)(v >> (24 - 8 * i));
}

/* Seed 000's profile and range layouts, decoded by the harness itself (a cross-check of the
 * library's codec through the register). */
static void decode_profile(const uint8_t *b, struct nicref_adp_profile *p)
{
	uint32_t d0 = be32(b), d1 = be32(b + 4);
	memset(p, 0, sizeof *p);
	p->qp_total_timeout = (uint8_t)(d0 >> 31);
	p->range_num = (uint8_t)(d0 >> 28 & 7);
	p->start_range_index = (uint8_t)(d0 >> 24 & 7);
	p->time_unit = (uint8_t)(d0 >> 22 & 3);
	p->time_base = (uint16_t)d0;
	p->retx_total_timeout = (uint8_t)(d1 >> 24);
	p->timeout_init_low_bound = (uint8_t)(d1 >> 8);
	p->timeout_init_range_size = (uint8_t)d1;
	for (unsigned i = 0; i < NICREF_ADP_MAX_RANGES; i++) {
		uint32_t r = be32(b + 8 + 4 * i);
		p->range[i].prev_range_index = (uint8_t)(r >> 28 & 7);
		p->range[i].dec_mode = (uint8_t)(r >> 26 & 3);
		p->range[i].timeout_retry_num = (uint16_t)(r >> 16 & 0x3FF);
		p->range[i].range_low_bound = (uint8_t)(r >> 8);
		p->range[i].range_size = (uint8_t)r;
	}
}

static void encode_profile(const struct nicref_adp_profile *p, uint8_t *b)
{
	put32(b, (uint32_t)p->qp_total_timeout << 31 | (uint32_t)p->range_num << 28 |
			 (uint32_t)p->start_range_index << 24 | (uint32_t)p->time_unit << 22 |
			 p->time_base);
	put32(b + 4, (uint32_t)p->retx_total_timeout << 24 |
			     (uint32_t)p->timeout_init_low_bound << 8 | p->timeout_init_range_size);
	for (unsigned i = 0; i < NICREF_ADP_MAX_RANGES; i++) {
		const struct nicref_adp_range *r = &p->range[i];
		put32(b + 8 + 4 * i, (uint32_t)r->prev_range_index << 28 |
					     (uint32_t)r->dec_mode << 26 |
					     (uint32_t)r->timeout_retry_num << 16 |
					     (uint32_t)r->range_low_bound << 8 | r->range_size);
	}
}

/* base << e, saturated at UINT64_MAX; *fits says whether it stays below 2^63. */
static uint64_t shifted(uint64_t base, unsigned e, bool *fits)
{
	if (base == 0) {
		*fits = true;
		return 0;
	}
	if (e >= 64 || base > UINT64_MAX >> e) {
		*fits = false;
		return UINT64_MAX;
	}
	*fits = (base << e) < (1ull << 63);
	return base << e;
}

/* IB local ACK timeout: 4.096 us * 2^t, in ns; 0 = infinite. */
static uint64_t ib_timeout_ns(unsigned t)
{
	return t == 0 ? 0 : 4096ull << t;
}

static uint64_t add_sat(uint64_t a, uint64_t b)
{
	return b > UINT64_MAX - a ? UINT64_MAX : a + b;
}

static uint64_t base_ns(const struct harness *h)
{
	return (uint64_t)h->mode.profile.time_base * 1000u; /* time_unit 1: microseconds */
}

/* Seed 001 L47 / seed 000 L119-123 and L161, with D-ADP-11's units. */
static uint64_t total_timeout_ns(const struct harness *h)
{
	const struct nicref_adp_profile *p = &h->mode.profile;
	bool fits;
	if (p->qp_total_timeout)
		return h->attr.timeout == 0 ? UINT64_MAX
					    : (h->attr.retry_cnt & 7u) * ib_timeout_ns(h->attr.timeout);
	uint64_t t = shifted(base_ns(h), p->retx_total_timeout, &fits);
	NICREF_FUZZ_CHECK(fits);
	return t;
}

/* The initial exponents: [low, low + size - 1] (seed 001 L7; size 0: low) or, inclusive,
 * [low, low + size] (seed 000 L175). */
static void init_range(const struct harness *h, unsigned *lo, unsigned *hi)
{
	const struct nicref_adp_profile *p = &h->mode.profile;
	*lo = p->timeout_init_low_bound;
	*hi = *lo + p->timeout_init_range_size;
	if (h->mode.opt.init_range != NICREF_ADP_INIT_INCLUSIVE && *hi > *lo)
		(*hi)--;
}

/* Every exponent an accepted profile can make the engine use keeps base << e below 2^63
 * (D-ADP-7): the range tops, both readings of the initial range, the total timeout. */
static void check_no_overflow(const struct harness *h)
{
	const struct nicref_adp_profile *p = &h->mode.profile;
	bool fits;
	(void)shifted(base_ns(h), (unsigned)p->timeout_init_low_bound + p->timeout_init_range_size,
		      &fits);
	NICREF_FUZZ_CHECK(fits);
	for (unsigned r = 0; r < p->range_num; r++) {
		(void)shifted(base_ns(h),
			      (unsigned)p->range[r].range_low_bound + p->range[r].range_size, &fits);
		NICREF_FUZZ_CHECK(fits);
	}
	if (!p->qp_total_timeout) {
		(void)shifted(base_ns(h), p->retx_total_timeout, &fits);
		NICREF_FUZZ_CHECK(fits);
	}
}

/* The armed value the seeds ask for (D-ADP-10: cap, then floor), computed by the harness. */
static uint64_t want_armed(const struct harness *h, unsigned e)
{
	uint64_t cap = ib_timeout_ns(h->attr.timeout);
	if (!h->adp)
		return cap;
	bool fits;
	uint64_t v = shifted(base_ns(h), e, &fits);
	if (cap != 0 && cap < v)
		v = cap;
	return v < h->mode.base_timeout_min_ns ? h->mode.base_timeout_min_ns : v;
}

/* The state lies inside the profile and the armed value inside [floor, cap]. */
static uint64_t check_state(const struct harness *h)
{
	const struct nicref_adp_qp *q = &h->qp;
	uint64_t armed = nicref_adp_armed_ns(q);
	uint64_t cap = ib_timeout_ns(h->attr.timeout);
	NICREF_FUZZ_CHECK(nicref_adp_ib_timeout_ns(h->attr.timeout) == cap);
	NICREF_FUZZ_CHECK(q->mode.adp == h->adp);
	if (q->phase == NICREF_ADP_FAILED) {
		NICREF_FUZZ_CHECK(h->failed && armed == 0);
		return 0;
	}
	NICREF_FUZZ_CHECK(!h->failed);
	if (!h->adp) {
		NICREF_FUZZ_CHECK(armed == cap && q->phase == NICREF_ADP_INITIAL);
		NICREF_FUZZ_CHECK(nicref_adp_total_timeout_ns(q) == UINT64_MAX);
		return armed;
	}
	const struct nicref_adp_profile *p = &h->mode.profile;
	if (q->phase == NICREF_ADP_INITIAL) {
		unsigned lo, hi;
		init_range(h, &lo, &hi);
		NICREF_FUZZ_CHECK(q->r == -1);
		NICREF_FUZZ_CHECK(h->given_e || (q->e >= lo && q->e <= hi));
	} else {
		NICREF_FUZZ_CHECK(q->phase == NICREF_ADP_RANGED);
		NICREF_FUZZ_CHECK(q->r >= 0 && q->r < p->range_num);
		const struct nicref_adp_range *r = &p->range[q->r];
		NICREF_FUZZ_CHECK(q->e >= r->range_low_bound &&
				  q->e <= r->range_low_bound + r->range_size);
		NICREF_FUZZ_CHECK(q->uses < r->timeout_retry_num);
	}
	uint64_t floor = h->mode.base_timeout_min_ns;
	NICREF_FUZZ_CHECK(armed == want_armed(h, q->e));
	NICREF_FUZZ_CHECK(armed > 0 && armed >= floor);
	NICREF_FUZZ_CHECK(cap == 0 || armed <= cap || armed == floor);
	NICREF_FUZZ_CHECK(nicref_adp_total_timeout_ns(q) == total_timeout_ns(h));
	return armed;
}

static void arm(struct harness *h)
{
	uint64_t a = check_state(h);
	h->armed = a != 0; /* classic timeout 0: the timer never expires */
	h->deadline = add_sat(h->now, a);
}

static void become_failed(struct harness *h, enum nicref_adp_reason why)
{
	NICREF_FUZZ_CHECK(why == NICREF_ADP_R_RETRY_EXC);
	NICREF_FUZZ_CHECK(h->qp.phase == NICREF_ADP_FAILED);
	h->failed = true;
	h->armed = false;
	(void)check_state(h);
}

/* The timer expires now (= its deadline). */
static void expire(struct harness *h)
{
	enum nicref_adp_reason why = NICREF_ADP_R_COUNT;
	uint8_t e_before = h->qp.e, phase_before = h->qp.phase;
	uint64_t elapsed = h->now - h->t_progress;
	bool again = nicref_adp_on_timeout(&h->qp, h->now, &why);
	if (h->adp) {
		/* Seed 001 L45-49: fail iff no forward progress within the total timeout; under
		 * ADP retry_cnt does not end timer retries (D-ADP-17). */
		NICREF_FUZZ_CHECK(again == (elapsed < total_timeout_ns(h)));
	} else {
		/* Classic IB: retry_cnt retries since the last forward progress. */
		NICREF_FUZZ_CHECK(again == (h->retries < (h->attr.retry_cnt & 7u)));
		h->retries++;
	}
	if (!again) {
		become_failed(h, why);
		return;
	}
	NICREF_FUZZ_CHECK(why < NICREF_ADP_R_COUNT && nicref_adp_reason_name(why) != NULL);
	NICREF_FUZZ_CHECK(h->adp || why == NICREF_ADP_R_CLASSIC);
	/* Seed 001 L31-35: later timeouts keep or double the value; only the first one may
	 * lower it (L17), and the move to a next range that tops out lower (D-ADP-13). */
	if (h->adp && phase_before != NICREF_ADP_INITIAL && h->qp.e < e_before) {
		const struct nicref_adp_range *r = &h->mode.profile.range[h->qp.r];
		NICREF_FUZZ_CHECK(why == NICREF_ADP_R_NEXT_RANGE &&
				  h->qp.e == r->range_low_bound + r->range_size);
	}
	arm(h);
}

static void progress(struct harness *h)
{
	enum nicref_adp_reason why = NICREF_ADP_R_COUNT;
	uint8_t e_before = h->qp.e;
	nicref_adp_on_progress(&h->qp, h->now, &why);
	h->t_progress = h->now;
	h->retries = 0;
	NICREF_FUZZ_CHECK(why < NICREF_ADP_R_COUNT);
	/* Seed 001 L51-56: forward progress decreases the value, never raises it. */
	NICREF_FUZZ_CHECK(h->qp.e <= e_before);
	(void)check_state(h);
}

static void nak(struct harness *h, uint32_t acked)
{
	enum nicref_adp_reason why = NICREF_ADP_R_COUNT;
	uint8_t e_before = h->qp.e;
	if (acked) {
		h->outstanding -= acked;
		h->t_progress = h->now;
		h->retries = 0;
	}
	bool again = nicref_adp_on_nak(&h->qp, h->now, acked != 0, &why);
	/* IBA: a NAK-sequence-error retransmission uses a retry, in both modes (D-ADP-17). */
	NICREF_FUZZ_CHECK(again == (h->retries < (h->attr.retry_cnt & 7u)));
	h->retries++;
	NICREF_FUZZ_CHECK(h->qp.e <= e_before);
	if (!again) {
		become_failed(h, why);
		return;
	}
	NICREF_FUZZ_CHECK(why == NICREF_ADP_R_NAK);
	arm(h);
}

/* A failed QP (IBV_WC_RETRY_EXC_ERR, in the error state) stays failed whatever happens to it
 * until it is re-initialised: op 1 progress, op 2 NAK, op 4 expiry. */
static void poke_failed(struct harness *h, uint8_t op)
{
	enum nicref_adp_reason why = NICREF_ADP_R_COUNT;
	if (op == 1)
		nicref_adp_on_progress(&h->qp, h->now, &why);
	else if (op == 2)
		NICREF_FUZZ_CHECK(!nicref_adp_on_nak(&h->qp, h->now, true, &why));
	else
		NICREF_FUZZ_CHECK(!nicref_adp_on_timeout(&h->qp, h->now, &why));
	NICREF_FUZZ_CHECK(why == NICREF_ADP_R_RETRY_EXC);
	(void)check_state(h);
}

static void qp_start(struct harness *h, uint64_t draw, int given_e)
{
	if (given_e >= 0)
		nicref_adp_qp_init_e(&h->qp, &h->mode, &h->attr, h->now, (uint8_t)given_e);
	else
		nicref_adp_qp_init(&h->qp, &h->mode, &h->attr, h->now, draw);
	h->given_e = given_e >= 0;
	h->t_progress = h->now;
	h->outstanding = 0;
	h->armed = false;
	h->failed = false;
	h->retries = 0;
	(void)check_state(h);
}

/* A whole timeline (nicref_adp_timeline) checked against its documented semantics. */
static void timeline(const struct harness *h, uint64_t seed, const uint8_t *lossb, uint8_t arg)
{
	static struct nicref_adp_attempt out[ADP_FUZZ_TIMELINE_MAX];
	uint64_t loss[ADP_FUZZ_TIMELINE_MAX / 64] = { 0 };
	for (unsigned i = 0; i < 8; i++)
		loss[0] |= (uint64_t)lossb[i] << (8 * i);
	loss[1] = ~0ull; /* past 64 transmissions everything is lost: the run must end */
	loss[2] = loss[3] = ~0ull;
	struct nicref_adp_run run = {
		.mode = h->mode,
		.attr = h->attr,
		.seed = seed,
		.loss = loss,
		.loss_words = sizeof loss / sizeof loss[0],
		.rtt_ns = 1ull << (arg / 8),
		.messages = arg % 8u + 1u,
		.max_attempts = ADP_FUZZ_TIMELINE_MAX,
	};
	struct nicref_adp_counters cnt = { 0, 0 };
	size_t n = 0;
	enum nicref_adp_end end = nicref_adp_timeline(&run, out, ADP_FUZZ_TIMELINE_MAX, &n, &cnt);
	NICREF_FUZZ_CHECK(n >= 1 && n <= ADP_FUZZ_TIMELINE_MAX);
	NICREF_FUZZ_CHECK(nicref_adp_end_name(end) != NULL);
	struct harness t = *h;
	uint64_t cap = ib_timeout_ns(h->attr.timeout), t_progress = 0, retrans = 0, total;
	uint32_t since_progress = 0;
	total = h->adp ? total_timeout_ns(h) : UINT64_MAX;
	for (size_t i = 0; i < n; i++) {
		const struct nicref_adp_attempt *a = &out[i];
		NICREF_FUZZ_CHECK(a->attempt == i && a->reason < NICREF_ADP_R_COUNT);
		NICREF_FUZZ_CHECK(a->lost == (((loss[i / 64] >> (i % 64)) & 1u)
						      ? 1
						      : (a->armed_ns != 0 && run.rtt_ns >= a->armed_ns)
								? 2
								: 0));
		if (h->adp) {
			NICREF_FUZZ_CHECK(a->armed_ns == want_armed(&t, a->e));
			NICREF_FUZZ_CHECK(a->range >= -1 && a->range < h->mode.profile.range_num);
		} else {
			NICREF_FUZZ_CHECK(a->armed_ns == cap && a->range == -1);
		}
		if (i == 0) {
			NICREF_FUZZ_CHECK(a->sent_ns == 0 && a->message == 0);
			continue;
		}
		const struct nicref_adp_attempt *b = &out[i - 1];
		if (b->lost) {
			/* A retransmission when the previous transmission's timer expired, within
			 * the total timeout since progress (seed 001 L49). */
			NICREF_FUZZ_CHECK(a->message == b->message && b->armed_ns != 0);
			NICREF_FUZZ_CHECK(a->sent_ns == add_sat(b->sent_ns, b->armed_ns));
			NICREF_FUZZ_CHECK(a->sent_ns - t_progress < total);
			since_progress++;
			NICREF_FUZZ_CHECK(h->adp || since_progress <= (h->attr.retry_cnt & 7u));
			retrans++;
		} else {
			NICREF_FUZZ_CHECK(a->message == b->message + 1);
			NICREF_FUZZ_CHECK(a->sent_ns == add_sat(b->sent_ns, run.rtt_ns));
			t_progress = a->sent_ns;
			since_progress = 0;
		}
	}
	const struct nicref_adp_attempt *last = &out[n - 1];
	switch (end) {
	case NICREF_ADP_END_DONE:
		NICREF_FUZZ_CHECK(!last->lost && last->message == run.messages - 1);
		break;
	case NICREF_ADP_END_RETRY_EXC:
		NICREF_FUZZ_CHECK(last->lost && last->armed_ns != 0);
		if (h->adp)
			NICREF_FUZZ_CHECK(add_sat(last->sent_ns, last->armed_ns) - t_progress >= total);
		else
			NICREF_FUZZ_CHECK(since_progress == (h->attr.retry_cnt & 7u));
		break;
	case NICREF_ADP_END_STALL:
		NICREF_FUZZ_CHECK(last->lost && last->armed_ns == 0 && !h->adp);
		break;
	case NICREF_ADP_END_LIMIT:
		NICREF_FUZZ_CHECK(n == ADP_FUZZ_TIMELINE_MAX);
		break;
	}
	/* D-ADP-18: retransmissions by expiry and failures, while ADP runs or is enabled. A run
	 * cut by the limit after a lost transmission has processed that expiry: its
	 * retransmission is counted though not recorded. */
	bool counting = h->adp || h->mode.retrans_en;
	if (end == NICREF_ADP_END_LIMIT && last->lost)
		retrans++;
	NICREF_FUZZ_CHECK(cnt.roce_adp_retrans == (counting ? retrans : 0));
	NICREF_FUZZ_CHECK(cnt.roce_adp_retrans_to ==
			  (counting && end == NICREF_ADP_END_RETRY_EXC ? 1u : 0u));
}

/* ROCE_ACCL through ACCESS_REGISTER on a device brought to ENABLED: the write is accepted iff
 * the id is not 0 and the profile passes against the device's capabilities; the READ and the
 * mode a QP gets follow. Returns the mode into h. */
static void through_register(struct harness *h, unsigned id, bool en)
{
	uint8_t in[0x50], out[0x50];
	struct refdrv drv;
	nicref_dev_reset(dev);
	nicref_hostmem_clear(dev);
	fuzz_oracle_reset(&oracle);
	struct refdrv_ops ops = refdrv_ops_model(dev);
	NICREF_FUZZ_CHECK(refdrv_init(&drv, &ops) == 0);
	NICREF_FUZZ_CHECK(refdrv_bring_up(&drv, REFDRV_ENABLED) == 0);

	/* PRM §12.4.1 T221/T222: opcode, op_mod 0 (write), register_id; ROCE_ACCL at 10h:
	 * adp_retx_profile_select 00h[28], roce_adp_retrans_field_select 00h[0],
	 * adp_retx_profile_id 04h[30:28], roce_adp_retrans_en 04h[0], the profile at 20h. */
	memset(in, 0, sizeof in);
	put32(in, NICREF_OP_ACCESS_REG << 16);
	put32(in + 8, REG_ROCE_ACCL);
	put32(in + 0x10, 1u << 28 | 1u);
	put32(in + 0x14, (uint32_t)id << 28 | (en ? 1u : 0u));
	encode_profile(&h->mode.profile, in + 0x20);
	bool valid = id != 0 && nicref_adp_profile_check(&h->mode.profile,
							 h->mode.base_timeout_min_ns,
							 NICREF_ADP_MAX_RANGES) == NICREF_ADP_OK;
	int status = refdrv_cmd(&drv, in, sizeof in, out, 16);
	NICREF_FUZZ_CHECK(status == (valid ? 0x0 : 0x3)); /* T128: OK, BAD_PARAM */
	/* READ (op_mod 1). */
	memset(in + 0x10, 0, sizeof in - 0x10);
	put32(in + 4, 1);
	NICREF_FUZZ_CHECK(refdrv_cmd(&drv, in, sizeof in, out, sizeof out) == 0);
	refdrv_fini(&drv);
	uint8_t want[0x30] = { 0 };
	if (valid)
		encode_profile(&h->mode.profile, want);
	NICREF_FUZZ_CHECK(be32(out + 0x10) == (1u << 28 | 1u)); /* supported, configurable */
	NICREF_FUZZ_CHECK(be32(out + 0x14) == ((valid ? (uint32_t)id << 28 : 0) |
					       (valid && en ? 1u : 0u)));
	/* The default capabilities: 4 ranges, max id 7, 4000 ns (D-ADP-21). */
	NICREF_FUZZ_CHECK(be32(out + 0x18) == (4u << 28 | 7u << 24 | 4000u));
	NICREF_FUZZ_CHECK(memcmp(out + 0x20, want, sizeof want) == 0);
	NICREF_FUZZ_CHECK(oracle.violations == 0 && oracle.transport_violations == 0);
	fuzz_oracle_check_dev(&oracle);

	/* Seed 001 L62-72: the selected profile governs the QPs of the function. */
	struct nicref_adp_mode m;
	nicref_adp_dev_mode(dev, &m);
	NICREF_FUZZ_CHECK(m.adp == (valid && en) && m.retrans_en == (valid && en));
	NICREF_FUZZ_CHECK(m.base_timeout_min_ns == 4000u);
	if (valid) {
		uint8_t got[0x30] = { 0 };
		encode_profile(&m.profile, got);
		NICREF_FUZZ_CHECK(memcmp(got, want, sizeof want) == 0);
	}
	h->mode = m;
}

static int adp_init(void)
{
	dev = fuzz_oracle_device(&oracle);
	return dev ? 0 : -1;
}

static void adp_one_input(const uint8_t *data, size_t len)
{
	uint8_t head[HEAD_BYTES] = { 0 };
	memcpy(head, data, len < sizeof head ? len : sizeof head);
	struct harness h;
	memset(&h, 0, sizeof h);

	decode_profile(head, &h.mode.profile);
	unsigned max_range_num = NICREF_ADP_MAX_RANGES;
	uint32_t caps = (uint32_t)head[26] << 16 | (uint32_t)head[27] << 8 | head[28];
	h.mode.base_timeout_min_ns = 4000; /* seed 001 L60 */
	if ((head[24] & 0x60) == 0x20) {
		max_range_num = caps >> 21;
		h.mode.base_timeout_min_ns = caps & 0xFFFFF;
	}
	h.mode.opt.first_timeout = head[24] & 1;
	h.mode.opt.dec_reading = (head[24] >> 1 & 1) + ((head[24] & 0x22) == 0x22 ? 1 : 0);
	h.mode.opt.init_range = head[24] >> 2 & 1;
	h.mode.opt.dec_trigger = head[24] >> 3 & 1;
	h.mode.adp = !(head[24] & 0x10);
	h.mode.retrans_en = (head[24] & 0x80) != 0;
	NICREF_FUZZ_CHECK(nicref_adp_options_ok(&h.mode.opt));
	h.attr.timeout = head[25] & 0x1F;
	h.attr.retry_cnt = head[25] >> 5;
	uint64_t draw = 0;
	for (unsigned i = 0; i < 8; i++)
		draw = draw << 8 | head[29 + i];

	/* Validation answers for any field values, and what it accepts cannot overflow. */
	enum nicref_adp_rule rule = nicref_adp_profile_check(
		&h.mode.profile, h.mode.base_timeout_min_ns, max_range_num);
	NICREF_FUZZ_CHECK((unsigned)rule < NICREF_ADP_RULE_COUNT);
	NICREF_FUZZ_CHECK(nicref_adp_rule_name(rule) != NULL &&
			  nicref_adp_rule_citation(rule) != NULL);
	NICREF_FUZZ_CHECK(rule != NICREF_ADP_BAD_PROFILE_ID); /* the register's rule */
	if (rule == NICREF_ADP_OK)
		check_no_overflow(&h);

	if (head[24] & 0x40)
		through_register(&h, caps >> 21, (head[24] & 0x80) != 0);
	/* The engine runs a profile only when it passes (against the largest range count; a
	 * refused one is run as the classic timer). */
	h.adp = h.mode.adp && nicref_adp_profile_check(&h.mode.profile, h.mode.base_timeout_min_ns,
						       NICREF_ADP_MAX_RANGES) == NICREF_ADP_OK;
	if (h.adp)
		check_no_overflow(&h);

	qp_start(&h, draw, -1);
	const uint8_t *ev = len > sizeof head ? data + sizeof head : NULL;
	size_t nev = len > sizeof head ? (len - sizeof head) / 2 : 0;
	if (nev > ADP_FUZZ_MAX_EVENTS)
		nev = ADP_FUZZ_MAX_EVENTS;
	/* Reserved events leave no trace: n numbers the event slots without them (the seed of a
	 * re-init draw), so inserting one changes nothing that follows. */
	size_t reserved = 0;
	for (size_t i = 0; i < nev && h.now < CLOCK_LIMIT; i++) {
		uint8_t op = ev[2 * i], arg = ev[2 * i + 1];
		if (op >= ADP_OPS) {
			reserved++;
			continue;
		}
		size_t n = i - reserved;
		fuzz_trace("event %zu %s arg %u at %llu ns", n, adp_op_name[op], arg,
			   (unsigned long long)h.now);
		if (h.failed && (op == 1 || op == 2 || op == 4)) {
			poke_failed(&h, op);
			continue;
		}
		switch (op) {
		case 0: /* transmit */
			if (h.failed)
				break;
			if (h.outstanding++ == 0) {
				/* Sent from idle: no progress was owed while nothing was outstanding,
				 * the total timeout counts from here (seed 001 L49, D-ADP-11). */
				nicref_adp_on_send_idle(&h.qp, h.now);
				h.t_progress = h.now;
				arm(&h);
			}
			break;
		case 1: { /* ACK */
			if (h.failed || h.outstanding == 0)
				break;
			uint32_t k = (uint32_t)(arg % 4) + 1;
			h.outstanding -= k < h.outstanding ? k : h.outstanding;
			progress(&h);
			if (h.outstanding)
				arm(&h);
			else
				h.armed = false;
			break;
		}
		case 2: { /* NAK sequence error */
			if (h.failed || h.outstanding == 0)
				break;
			uint32_t k = arg % 4;
			nak(&h, k < h.outstanding ? k : h.outstanding - 1);
			break;
		}
		case 3: { /* time step */
			uint64_t to = h.now + (1ull << (arg % 40));
			if (h.armed && h.deadline <= to) {
				h.now = h.deadline;
				expire(&h);
			} else {
				h.now = to;
			}
			break;
		}
		case 4: /* expire */
			if (h.armed) {
				h.now = h.deadline;
				expire(&h);
			}
			break;
		case 5: /* re-init */
			qp_start(&h, draw ^ ((uint64_t)arg << 56 | n), arg & 1 ? arg / 2 % 64 : -1);
			break;
		case 6: { /* a whole timeline */
			uint8_t lossb[8] = { 0 };
			size_t at = sizeof head + 2 * (i + 1);
			for (unsigned k = 0; k < 8 && at + k < len; k++)
				lossb[k] = data[at + k];
			timeline(&h, draw, lossb, arg);
			i += 4; /* the 8 loss bytes are not events */
			break;
		}
		}
		NICREF_FUZZ_CHECK(!h.failed || !h.armed);
	}
}

NICREF_FUZZ_TARGET(adp_init, adp_one_input)
