/* The ADP engine: one QP's retransmission timer as a pure state machine over virtual time
 * (seed 001 "Algorithm & Profile Description and Formulas"), and the classic InfiniBand timer
 * it replaces when ADP is off or no profile is selected (D-ADP-3).
 *
 * Time values are exponents: the value of e is time_base << e (seed 001 L9 "HW timer =
 * time_base * 2^granularity"; seed 000 L233-239 range bounds "base_time << x"). Range r holds
 * the exponents lo_r .. hi_r = lo_r + range_size, both ends included (D-ADP-4). In the RANGED
 * phase lo_r <= e <= hi_r always holds. Where the seeds can be read two ways the reading is
 * mode.opt (docs/decisions.md D-ADP-9, -12, -14 (dec_trigger, retry_uses), -16). */
#include <string.h>

#include "adp/adp_int.h"

static const char *const reason_names[NICREF_ADP_R_COUNT] = {
	[NICREF_ADP_R_INIT] = "init",
	[NICREF_ADP_R_RETRY_SAME] = "retry_same",
	[NICREF_ADP_R_ENTER_RANGE] = "enter_range",
	[NICREF_ADP_R_START_RANGE] = "start_range",
	[NICREF_ADP_R_DOUBLE] = "double",
	[NICREF_ADP_R_NEXT_RANGE] = "next_range",
	[NICREF_ADP_R_CEILING] = "ceiling",
	[NICREF_ADP_R_DECREASE] = "decrease",
	[NICREF_ADP_R_PREV_RANGE] = "prev_range",
	[NICREF_ADP_R_CLASSIC] = "classic",
	[NICREF_ADP_R_KEEP] = "keep",
	[NICREF_ADP_R_NAK] = "nak",
	[NICREF_ADP_R_RETRY_EXC] = "retry_exc",
};

const char *nicref_adp_reason_name(enum nicref_adp_reason r)
{
	return (unsigned)r < NICREF_ADP_R_COUNT ? reason_names[r] : NULL;
}

uint64_t nicref_adp_ib_timeout_ns(uint8_t timeout)
{
	/* IBA local ACK timeout: 4.096 us * 2^t for the 5-bit t; 0 means infinite. */
	unsigned t = timeout & 0x1Fu;
	return t == 0 ? 0 : UINT64_C(4096) << t;
}

static unsigned retry_cnt(const struct nicref_adp_qp *qp)
{
	return qp->attr.retry_cnt & 7u; /* IBA: a 3-bit count */
}

static unsigned lo_of(const struct nicref_adp_qp *qp, unsigned r)
{
	return qp->mode.profile.range[r].range_low_bound;
}

/* seed 000 L239 / seed 001 L33: the top of range r is range_low_bound + range_size. */
static unsigned hi_of(const struct nicref_adp_qp *qp, unsigned r)
{
	return (unsigned)qp->mode.profile.range[r].range_low_bound +
	       qp->mode.profile.range[r].range_size;
}

void nicref_adp_init_bounds(const struct nicref_adp_mode *mode, unsigned *lo, unsigned *count)
{
	const struct nicref_adp_profile *p = &mode->profile;
	*lo = p->timeout_init_low_bound;
	if (!mode->adp) {
		*lo = 0;
		*count = 1;
	} else if (mode->opt.init_range == NICREF_ADP_INIT_INCLUSIVE) {
		/* seed 000 L175: the upper bound is base << (low + size). */
		*count = (unsigned)p->timeout_init_range_size + 1;
	} else {
		/* seed 001 L7: uniform in [low, low + size - 1]; size 0 leaves only low (D-ADP-9). */
		*count = p->timeout_init_range_size ? p->timeout_init_range_size : 1u;
	}
}

void nicref_adp_qp_init_e(struct nicref_adp_qp *qp, const struct nicref_adp_mode *mode,
			  const struct nicref_adp_qp_attr *attr, uint64_t now_ns, uint8_t e)
{
	memset(qp, 0, sizeof *qp);
	qp->mode = *mode;
	qp->attr = *attr;
	/* A profile the register would refuse is not run: the classic timer (defined outcome
	 * for bad input; the register and the tools check profiles first). */
	if (qp->mode.adp && nicref_adp_profile_check(&mode->profile, mode->base_timeout_min_ns,
						     NICREF_ADP_MAX_RANGES) != NICREF_ADP_OK)
		qp->mode.adp = false;
	qp->phase = NICREF_ADP_INITIAL;
	qp->r = -1;
	qp->e = qp->mode.adp ? e : 0;
	qp->t_progress = now_ns;
}

void nicref_adp_qp_init(struct nicref_adp_qp *qp, const struct nicref_adp_mode *mode,
			const struct nicref_adp_qp_attr *attr, uint64_t now_ns, uint64_t random)
{
	nicref_adp_qp_init_e(qp, mode, attr, now_ns, 0);
	if (!qp->mode.adp)
		return;
	/* seed 001 L7, L21: the initial value is randomised so QPs do not start together. */
	unsigned lo, count;
	nicref_adp_init_bounds(&qp->mode, &lo, &count);
	qp->e = (uint8_t)(lo + random % count);
}

uint64_t nicref_adp_armed_ns(const struct nicref_adp_qp *qp)
{
	if (qp->phase == NICREF_ADP_FAILED)
		return 0;
	uint64_t cap = nicref_adp_ib_timeout_ns(qp->attr.timeout);
	if (!qp->mode.adp)
		return cap;
	uint64_t v = nicref_adp_value_ns(&qp->mode.profile, qp->e);
	/* seed 001 L43: "Maximum timeout is capped by QP.ack_timeout, regardless of configured
	 * ranges" (the armed value only, e is kept: D-ADP-10); timeout 0 (infinite) caps
	 * nothing. */
	if (cap != 0 && v > cap)
		v = cap;
	/* seed 001 L60: "The minimum enforced timeout is adp_retx_base_timeout_min". */
	if (v < qp->mode.base_timeout_min_ns)
		v = qp->mode.base_timeout_min_ns;
	return v;
}

uint64_t nicref_adp_total_timeout_ns(const struct nicref_adp_qp *qp)
{
	if (!qp->mode.adp)
		return UINT64_MAX;
	const struct nicref_adp_profile *p = &qp->mode.profile;
	if (p->qp_total_timeout) {
		/* seed 000 L119-121 "QP.retry_count * QP.timeout", seed 001 L47 "QP.ack_timeout *
		 * QP.retry_num": the 3-bit retry count times the IB timer; no extended retry
		 * count in the model; timeout 0 (infinite) is no limit (D-ADP-11). */
		uint64_t t = nicref_adp_ib_timeout_ns(qp->attr.timeout);
		return t == 0 ? UINT64_MAX : retry_cnt(qp) * t;
	}
	/* seed 000 L161: "base_time << retx_total_timeout". */
	return nicref_adp_value_ns(p, p->retx_total_timeout);
}

static void fail(struct nicref_adp_qp *qp, enum nicref_adp_reason *why)
{
	/* seed 001 L49: "the QP fails and transitions to ERR state with error code
	 * IBV_WC_RETRY_EXC_ERR". */
	qp->phase = NICREF_ADP_FAILED;
	*why = NICREF_ADP_R_RETRY_EXC;
}

/* timeout_retry_num uses of the current value are over: seed 001 L31-35. */
static void escalate(struct nicref_adp_qp *qp, enum nicref_adp_reason *why)
{
	unsigned r = (unsigned)qp->r;
	qp->uses = 0;
	if (qp->e < hi_of(qp, r)) {
		/* L31-33: "current_timeout is doubled until it reaches" the range top. */
		qp->e++;
		*why = NICREF_ADP_R_DOUBLE;
	} else if (r + 1 < qp->mode.profile.range_num) {
		/* L35: "The algorithm then continues with the next defined range", at the first of
		 * its values above the current one (its low bound when the ranges do not overlap;
		 * D-ADP-13). */
		unsigned e = qp->e + 1u;
		r++;
		if (e < lo_of(qp, r))
			e = lo_of(qp, r);
		if (e > hi_of(qp, r))
			e = hi_of(qp, r);
		qp->r = (int8_t)r;
		qp->e = (uint8_t)e;
		*why = NICREF_ADP_R_NEXT_RANGE;
	} else {
		/* No range after the last: its top is the ceiling (D-ADP-13). */
		*why = NICREF_ADP_R_CEILING;
	}
}

/* The first timeout (seed 001 L13-17, L25). */
static void first_timeout(struct nicref_adp_qp *qp, enum nicref_adp_reason *why)
{
	const struct nicref_adp_profile *p = &qp->mode.profile;
	qp->phase = NICREF_ADP_RANGED;
	for (unsigned r = 0; r < p->range_num; r++) {
		if (qp->e < lo_of(qp, r) || qp->e > hi_of(qp, r))
			continue;
		/* L15: "If current_timeout falls within any defined range ... the algorithm
		 * continues within that range" (the lowest such range: ranges may overlap). */
		qp->r = (int8_t)r;
		if (qp->mode.opt.first_timeout == NICREF_ADP_FIRST_ESCALATE) {
			/* Other reading of L25 (D-ADP-12): the initial value was its one use. */
			escalate(qp, why);
		} else {
			/* L25 "The initial timeout value is retried only once": one more arm at
			 * it, then the next expiry escalates (D-ADP-12). */
			qp->uses = (uint16_t)(p->range[r].timeout_retry_num - 1u);
			*why = NICREF_ADP_R_ENTER_RANGE;
		}
		return;
	}
	/* L17: "Otherwise, it starts from timeout_range[start_range_index].range_low_bound". */
	qp->r = (int8_t)p->start_range_index;
	qp->e = (uint8_t)lo_of(qp, p->start_range_index);
	qp->uses = 0;
	*why = NICREF_ADP_R_START_RANGE;
}

bool nicref_adp_on_timeout(struct nicref_adp_qp *qp, uint64_t now_ns, enum nicref_adp_reason *why)
{
	if (qp->phase == NICREF_ADP_FAILED) {
		*why = NICREF_ADP_R_RETRY_EXC;
		return false;
	}
	if (!qp->mode.adp) {
		/* IBA: each local ACK timeout uses one retry; retry_cnt retries, then the QP
		 * fails. */
		if (++qp->retries > retry_cnt(qp)) {
			fail(qp, why);
			return false;
		}
		qp->retx_since_progress = 1;
		*why = NICREF_ADP_R_CLASSIC;
		return true;
	}
	/* seed 001 L49: no forward progress within the total timeout fails the QP; judged at
	 * the expiry, before any retransmission (D-ADP-11, D-ADP-17: under ADP the total timeout,
	 * not retry_cnt, ends timer retries). */
	uint64_t elapsed = now_ns > qp->t_progress ? now_ns - qp->t_progress : 0;
	if (elapsed >= nicref_adp_total_timeout_ns(qp)) {
		fail(qp, why);
		return false;
	}
	if (qp->phase == NICREF_ADP_INITIAL) {
		first_timeout(qp, why);
	} else {
		/* seed 001 L29 / seed 000 L227: the value is used timeout_retry_num times (the
		 * consecutive expiries at it), then increased. D-ADP-14, other reading: the
		 * first transmission after progress is no retransmission, so its expiry is not a
		 * use and timeout_retry_num retransmissions follow at the value. */
		unsigned r = (unsigned)qp->r;
		if (qp->mode.opt.retry_uses == NICREF_ADP_USES_RETRANSMISSIONS &&
		    !qp->retx_since_progress)
			*why = NICREF_ADP_R_RETRY_SAME;
		else if (++qp->uses >= qp->mode.profile.range[r].timeout_retry_num)
			escalate(qp, why);
		else
			*why = NICREF_ADP_R_RETRY_SAME;
	}
	qp->retx_since_progress = 1;
	return true;
}

/* How far dec_mode lowers the exponent (seed 000 L213-221 against seed 001 L51-55,
 * D-ADP-16); TO_LOW_BOUND is handled by the caller. */
static unsigned dec_amount(unsigned dec_mode, unsigned reading)
{
	bool div4 = dec_mode == ADP_DEC_TO_DIV_4;
	switch (reading) {
	case NICREF_ADP_DEC_BY_AMOUNT:
		return div4 ? 2u : 4u; /* "Decrement by 2", "Decrement by 4", in code order */
	case NICREF_ADP_DEC_BY_FACTOR:
		return div4 ? 1u : 2u; /* the same list read as "divide by 2", "divide by 4" */
	default:
		return div4 ? 2u : 1u; /* TO_DIV_4: /4 = -2; TO_DIV_2: /2 = -1 */
	}
}

void nicref_adp_on_send_idle(struct nicref_adp_qp *qp, uint64_t now_ns)
{
	/* seed 001 L49 "If no forward progress is made within the total timeout": progress is owed
	 * only while something is outstanding, so the idle time before this send does not count
	 * (D-ADP-11). The clock never moves back (a caller's stale time changes nothing). */
	if (qp->phase != NICREF_ADP_FAILED && now_ns > qp->t_progress)
		qp->t_progress = now_ns;
}

void nicref_adp_on_progress(struct nicref_adp_qp *qp, uint64_t now_ns, enum nicref_adp_reason *why)
{
	if (qp->phase == NICREF_ADP_FAILED) {
		*why = NICREF_ADP_R_RETRY_EXC;
		return;
	}
	bool clean = !qp->retx_since_progress;
	qp->retx_since_progress = 0;
	qp->t_progress = now_ns;
	qp->retries = 0; /* IBA: forward progress restores the retry count */
	if (!qp->mode.adp) {
		*why = NICREF_ADP_R_CLASSIC;
		return;
	}
	/* seed 000 L227: "consecutive" retransmissions: progress ends the run of them (the next
	 * transmission is the first use, or with retry_uses RETRANSMISSIONS none: D-ADP-14). */
	qp->uses = 0;
	*why = NICREF_ADP_R_KEEP;
	/* The initial value has no range yet: the first timeout picks one (seed 001 L13). */
	if (qp->phase == NICREF_ADP_INITIAL)
		return;
	/* D-ADP-14: a decrease per forward-progress event, or (other reading) only per one that
	 * followed no retransmission. */
	if (qp->mode.opt.dec_trigger == NICREF_ADP_DEC_CLEAN_PROGRESS && !clean)
		return;
	unsigned r = (unsigned)qp->r;
	const struct nicref_adp_range *rg = &qp->mode.profile.range[r];
	unsigned lo = rg->range_low_bound;
	if (qp->e > lo) {
		/* seed 001 L51-55 / seed 000 L213: decrease by dec_mode, not below the range's
		 * low bound ("until lower bound is reached"). */
		unsigned e = rg->dec_mode == ADP_DEC_TO_LOW_BOUND
				     ? lo
				     : qp->e - dec_amount(rg->dec_mode, qp->mode.opt.dec_reading);
		if (e < lo || e > qp->e)
			e = lo;
		qp->e = (uint8_t)e;
		*why = NICREF_ADP_R_DECREASE;
	} else if (r > 0) {
		/* seed 000 L207: at the range's low bound, a decrease moves to prev_range_index
		 * (seed 001 L56), at the highest value of that range below the old low bound
		 * (D-ADP-15). Range 0 has no previous range (D-ADP-5). */
		unsigned p = rg->prev_range_index;
		unsigned e = lo - 1u;
		if (e < lo_of(qp, p))
			e = lo_of(qp, p);
		if (e > hi_of(qp, p))
			e = hi_of(qp, p);
		qp->r = (int8_t)p;
		qp->e = (uint8_t)e;
		*why = NICREF_ADP_R_PREV_RANGE;
	}
}

bool nicref_adp_on_nak(struct nicref_adp_qp *qp, uint64_t now_ns, bool progress,
		       enum nicref_adp_reason *why)
{
	if (qp->phase == NICREF_ADP_FAILED) {
		*why = NICREF_ADP_R_RETRY_EXC;
		return false;
	}
	if (progress)
		nicref_adp_on_progress(qp, now_ns, why);
	/* IBA: a NAK-sequence-error retransmission uses a retry; the seeds change only the
	 * timer, so this holds under ADP too (D-ADP-17). */
	if (++qp->retries > retry_cnt(qp)) {
		fail(qp, why);
		return false;
	}
	qp->retx_since_progress = 1;
	*why = NICREF_ADP_R_NAK;
	return true;
}

void nicref_adp_count_timeout(const struct nicref_adp_qp *qp, bool retransmitted,
			      struct nicref_adp_counters *c)
{
	/* D-ADP-18: the mlx5 RoCE accelerator counters count under adaptive retransmission. */
	if (!qp->mode.adp && !qp->mode.retrans_en)
		return;
	if (retransmitted)
		c->roce_adp_retrans++;
	else
		c->roce_adp_retrans_to++;
}
