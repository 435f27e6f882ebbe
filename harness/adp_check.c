/* The decision of `nicref adp check` (rules in adp_check.h). */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "adp_check.h"

#define PSN_MASK 0xffffffu

/* PSN order is modulo 2^24 (IBTA §9.7.2): a is before b when b - a is in (0, 2^23). */
static bool psn_before(uint32_t a, uint32_t b)
{
	uint32_t d = (b - a) & PSN_MASK;
	return d != 0 && d < (1u << 23);
}

const char *adp_fail_name(enum adp_fail f)
{
	switch (f) {
	case ADP_FAIL_NONE:
		return "none";
	case ADP_FAIL_GAP:
		return "gap";
	case ADP_FAIL_MISSING:
		return "missing_retransmission";
	case ADP_FAIL_EXHAUSTED:
		return "after_total_timeout";
	case ADP_FAIL_INFINITE:
		return "infinite_timer";
	case ADP_FAIL_ACKED:
		return "already_acknowledged";
	}
	return "?";
}

void adp_fmt_us(uint64_t ns, char *buf, size_t len)
{
	if (ns == UINT64_MAX)
		snprintf(buf, len, "infinite");
	else
		snprintf(buf, len, "%llu.%03llu us", (unsigned long long)(ns / 1000),
			 (unsigned long long)(ns % 1000));
}

uint32_t adp_init_candidates(const struct nicref_adp_mode *mode, uint8_t *e, uint32_t cap)
{
	/* seed 001 L7 (or seed 000 L175 under the inclusive reading, D-ADP-9), as the engine
	 * draws them. */
	unsigned lo, count;
	nicref_adp_init_bounds(mode, &lo, &count);
	uint32_t n = 0;
	for (unsigned k = 0; k < count && lo + k <= 255 && n < cap; k++)
		e[n++] = (uint8_t)(lo + k);
	return n;
}

uint64_t adp_check_default_tol(const struct nicref_adp_mode *mode,
			       const struct nicref_adp_qp_attr *attr)
{
	const struct nicref_adp_profile *p = &mode->profile;
	if (!mode->adp || nicref_adp_profile_check(p, mode->base_timeout_min_ns,
						   NICREF_ADP_MAX_RANGES) != NICREF_ADP_OK)
		return ADP_CHECK_DEFAULT_TOL_NS;
	/* The highest exponent the engine can hold: the top of a range or of the init range. */
	unsigned lo, count, top;
	nicref_adp_init_bounds(mode, &lo, &count);
	top = lo + count - 1;
	for (unsigned r = 0; r < p->range_num && r < NICREF_ADP_MAX_RANGES; r++) {
		unsigned hi = (unsigned)p->range[r].range_low_bound + p->range[r].range_size;
		if (hi > top)
			top = hi;
	}
	/* The armed values are non-decreasing in e (the profile value doubles, then the cap and
	 * the floor clamp it), so neighbours in e give the smallest differences. */
	uint64_t tol = ADP_CHECK_DEFAULT_TOL_NS, prev = 0;
	for (unsigned e = 0; e <= top && e <= 255; e++) {
		struct nicref_adp_qp qp;
		nicref_adp_qp_init_e(&qp, mode, attr, 0, (uint8_t)e);
		uint64_t v = nicref_adp_armed_ns(&qp);
		if (e > 0 && v != prev && (v - prev - 1) / 2 < tol)
			tol = (v - prev - 1) / 2;
		prev = v;
	}
	return tol;
}

struct out_psn {
	uint32_t psn;
	uint32_t retx; /* retransmissions so far */
};

struct sim {
	struct out_psn *q; /* outstanding PSNs, oldest first, q[head..tail) */
	size_t head, tail, cap;
};

static int push(struct sim *s, struct out_psn o)
{
	if (s->tail == s->cap) {
		if (s->head > 0) {
			memmove(s->q, s->q + s->head, (s->tail - s->head) * sizeof *s->q);
			s->tail -= s->head;
			s->head = 0;
		} else {
			size_t nc = s->cap ? s->cap * 2 : 64;
			struct out_psn *g = realloc(s->q, nc * sizeof *g);
			if (!g)
				return -1;
			s->q = g;
			s->cap = nc;
		}
	}
	s->q[s->tail++] = o;
	return 0;
}

struct fail {
	size_t rec;
	uint8_t kind;
	uint32_t psn, retx;
	uint64_t gap, expected, total, since;
};

struct stats {
	uint32_t data, retransmissions, expiries, progress;
};

/* The QP's one transport timer (IBTA Vol. 1 §9.7.6.1.3; the model's requester, D-ROCE-RC-2):
 * started by a request sent while it is stopped (nothing outstanding), restarted by forward
 * progress that leaves requests outstanding and by each retransmission that opens a burst (a
 * timer expiry or a NAK's resend), stopped when nothing is outstanding. Every expiry and every
 * gap is measured from its start, never from a PSN's own send. */
struct flow_timer {
	uint64_t start; /* virtual ns it was (re)started */
	uint64_t armed; /* the value then (0: infinite) */
};

static void timer_start(struct flow_timer *tm, const struct nicref_adp_qp *qp, uint64_t t)
{
	tm->start = t;
	tm->armed = nicref_adp_armed_ns(qp);
}

/* The records of one flow: recs[list[0]], ..., recs[list[n - 1]], in capture order. */
struct flow_recs {
	const struct adp_rec *recs;
	const size_t *list;
	size_t n;
};

/* One replay of the flow. With qp == NULL the engine is not consulted (statistics only).
 * Returns 0 (everything explained), 1 (*f says where it stops) or -1 (no memory). */
static int replay(const struct adp_check_cfg *cfg, struct nicref_adp_qp *qp,
		  const struct flow_recs *fr, struct fail *f, struct stats *st)
{
	struct sim s = { 0 };
	struct flow_timer tm = { 0, 0 };
	bool have_max = false, prev_retx = false, dead = false, nak_pending = false;
	uint32_t max_psn = 0, prev_psn = 0;
	uint64_t dead_total = 0, dead_since = 0, tmax = 0;
	int rc = 0;
	memset(st, 0, sizeof *st);
	for (size_t j = 0; j < fr->n && rc == 0; j++) {
		size_t i = fr->list[j]; /* the index into the record array, for the verdict */
		const struct adp_rec *r = &fr->recs[i];
		/* A record stamped before the flow's previous one (an inversion the capture reader
		 * tolerated, D-CAPT-1) is taken at the previous one's time: the engine's clock never
		 * runs backwards, and no gap is computed negative. */
		uint64_t t = r->t_ns < tmax ? tmax : r->t_ns;
		tmax = t;
		bool is_data = r->kind == ADP_REC_DATA;
		struct out_psn *old = s.head < s.tail ? &s.q[s.head] : NULL;
		/* A timer that expired without a retransmission: the QP either failed at that
		 * expiry (no forward progress within the total timeout, seed 001 L47-49) or had
		 * to retransmit then (from the oldest outstanding PSN). */
		if (qp && !dead && !nak_pending && old && tm.armed != 0 &&
		    t > tm.start + tm.armed + cfg->tol_ns && !(is_data && r->psn == old->psn)) {
			struct nicref_adp_qp probe = *qp;
			enum nicref_adp_reason why;
			uint64_t at = tm.start + tm.armed;
			if (nicref_adp_on_timeout(&probe, at, &why)) {
				*f = (struct fail){ .rec = i, .kind = ADP_FAIL_MISSING, .psn = old->psn,
						    .retx = old->retx + 1, .gap = t - tm.start,
						    .expected = tm.armed };
				rc = 1;
				break;
			}
			dead = true;
			dead_total = nicref_adp_total_timeout_ns(qp);
			dead_since = at - qp->t_progress;
		}
		if (!is_data) {
			/* ACK: up to psn; NAK sequence error: before psn (IBTA §9.7.5.1). */
			if (r->kind == ADP_REC_OTHER || !old)
				continue;
			uint32_t upto = r->kind == ADP_REC_ACK ? r->psn : (r->psn - 1) & PSN_MASK;
			bool progress = !psn_before(upto, old->psn);
			while (s.head < s.tail && !psn_before(upto, s.q[s.head].psn))
				s.head++;
			st->progress += progress;
			/* NAK: the requester resends from the NAK's PSN at once. */
			nak_pending = nak_pending || r->kind == ADP_REC_NAK_SEQ;
			if (!qp || dead)
				continue;
			enum nicref_adp_reason why;
			if (r->kind == ADP_REC_NAK_SEQ) {
				/* The retry counts against retry_cnt (engine: D-ADP-17). */
				if (!nicref_adp_on_nak(qp, t, progress, &why)) {
					dead = true;
					dead_total = nicref_adp_total_timeout_ns(qp);
					dead_since = t - qp->t_progress;
				}
			} else if (progress) {
				nicref_adp_on_progress(qp, t, &why); /* seed 001 L51-56 */
				/* IBTA §9.7.6.1.3: progress restarts the timer for what is left, with
				 * the value the progress left (a decrease applies at once). */
				if (s.head < s.tail)
					timer_start(&tm, qp, t);
			}
			continue;
		}
		st->data++;
		if (!have_max || psn_before(max_psn, r->psn)) {
			/* A first transmission, armed with the engine's current value (rule E). */
			if (qp && dead) {
				*f = (struct fail){ .rec = i, .kind = ADP_FAIL_EXHAUSTED, .psn = r->psn,
						    .total = dead_total, .since = dead_since };
				rc = 1;
				break;
			}
			/* Nothing was outstanding: a send from idle, from which "no forward progress
			 * within the total timeout" (seed 001 L49) counts (D-ADP-11); the stopped
			 * timer starts. A send behind outstanding requests leaves it running. */
			if (qp && !old) {
				nicref_adp_on_send_idle(qp, t);
				timer_start(&tm, qp, t);
			}
			have_max = true;
			max_psn = r->psn;
			prev_retx = false;
			prev_psn = r->psn;
			if (push(&s, (struct out_psn){ .psn = r->psn })) {
				rc = -1;
				break;
			}
			continue;
		}
		st->retransmissions++;
		size_t k = s.head;
		while (k < s.tail && s.q[k].psn != r->psn)
			k++;
		if (k == s.tail) {
			if (qp) {
				*f = (struct fail){ .rec = i, .kind = ADP_FAIL_ACKED, .psn = r->psn };
				rc = 1;
			}
			prev_retx = false;
			continue;
		}
		struct out_psn *o = &s.q[k];
		bool follower = prev_retx && r->psn == ((prev_psn + 1) & PSN_MASK);
		prev_retx = true;
		prev_psn = r->psn;
		o->retx++;
		if (follower)
			continue; /* go-back-N: resent behind the burst's first PSN, under its timer */
		if (!qp) {
			st->expiries += !nak_pending;
			nak_pending = false;
			continue;
		}
		uint64_t gap = t - tm.start;
		struct fail here = { .rec = i, .psn = r->psn, .retx = o->retx, .gap = gap,
				     .expected = tm.armed };
		if (dead) {
			here.kind = ADP_FAIL_EXHAUSTED;
			here.total = dead_total;
			here.since = dead_since;
		} else if (nak_pending) {
			/* The NAK's retransmission: no timer decided it; the timer restarts. */
			nak_pending = false;
			timer_start(&tm, qp, t);
			continue;
		} else if (tm.armed == 0) {
			here.kind = ADP_FAIL_INFINITE;
		} else if (gap + cfg->tol_ns < tm.armed || gap > tm.armed + cfg->tol_ns) {
			here.kind = ADP_FAIL_GAP;
		} else {
			/* The engine sees the expiry at the armed time, not the observed one. */
			uint64_t at = tm.start + tm.armed;
			struct nicref_adp_qp before = *qp;
			enum nicref_adp_reason why;
			if (!nicref_adp_on_timeout(qp, at, &why)) {
				here.kind = ADP_FAIL_EXHAUSTED;
				here.total = nicref_adp_total_timeout_ns(&before);
				here.since = at - before.t_progress;
			}
		}
		if (here.kind != ADP_FAIL_NONE) {
			*f = here;
			rc = 1;
			break;
		}
		timer_start(&tm, qp, t); /* the retransmission restarts the timer */
	}
	free(s.q);
	return rc;
}

/* Decides one flow from its own records. */
static int check_recs(const struct adp_check_cfg *cfg, const struct flow_recs *fr,
		      struct adp_verdict *v, char *err, size_t errlen)
{
	const struct adp_rec *recs = fr->recs;
	memset(v, 0, sizeof *v);
	if (cfg->mode.adp) {
		enum nicref_adp_rule rule = nicref_adp_profile_check(
			&cfg->mode.profile, cfg->mode.base_timeout_min_ns, NICREF_ADP_MAX_RANGES);
		if (rule != NICREF_ADP_OK) {
			snprintf(err, errlen, "profile refused: %s (%s)", nicref_adp_rule_name(rule),
				 nicref_adp_rule_citation(rule));
			return -1;
		}
	}
	struct stats st;
	struct fail none;
	if (replay(cfg, NULL, fr, &none, &st) < 0) {
		snprintf(err, errlen, "out of memory");
		return -1;
	}
	v->data = st.data;
	v->retransmissions = st.retransmissions;
	v->expiries = st.expiries;
	v->progress = st.progress;

	if (cfg->mode.adp) {
		v->ncand = adp_init_candidates(&cfg->mode, v->cand_e, ADP_CHECK_MAX_CAND);
	} else {
		v->ncand = 1; /* classic IB timer: nothing random */
	}
	/* The QP enters ready-to-send with the flow's first packet. */
	uint64_t t0 = fr->n ? recs[fr->list[0]].t_ns : 0;
	v->t0_ns = t0;
	struct fail best = { 0 };
	bool any_fail = false;
	struct fail *fails = calloc(ADP_CHECK_MAX_CAND, sizeof *fails);
	if (!fails) {
		snprintf(err, errlen, "out of memory");
		return -1;
	}
	for (uint32_t c = 0; c < v->ncand; c++) {
		struct nicref_adp_qp qp;
		nicref_adp_qp_init_e(&qp, &cfg->mode, &cfg->attr, t0, v->cand_e[c]);
		struct fail f;
		int rc = replay(cfg, &qp, fr, &f, &st);
		if (rc < 0) {
			free(fails);
			snprintf(err, errlen, "out of memory");
			return -1;
		}
		fails[c].rec = SIZE_MAX;
		if (rc == 0) {
			v->explain_e[v->nexplain++] = v->cand_e[c];
			continue;
		}
		fails[c] = f;
		if (!any_fail || f.rec > best.rec)
			best = f;
		any_fail = true;
	}
	v->conforming = v->nexplain > 0;
	if (v->conforming) {
		free(fails);
		return 0;
	}
	/* The first record no candidate explains: the latest failure over the candidates. */
	v->rec = best.rec;
	v->frame = recs[best.rec].frame;
	v->t_ns = recs[best.rec].t_ns;
	v->psn = best.psn;
	v->retx = best.retx;
	v->kind = best.kind;
	v->gap_ns = best.gap;
	v->total_ns = best.total;
	v->since_progress_ns = best.since;
	for (uint32_t c = 0; c < v->ncand; c++) {
		if (fails[c].rec != best.rec)
			continue;
		v->reach_e[v->nreach++] = v->cand_e[c];
		if (fails[c].kind != ADP_FAIL_GAP && fails[c].kind != ADP_FAIL_MISSING)
			continue;
		uint64_t x = fails[c].expected;
		uint32_t k = 0;
		while (k < v->nallowed && v->allowed[k] < x)
			k++;
		if (k < v->nallowed && v->allowed[k] == x)
			continue;
		memmove(&v->allowed[k + 1], &v->allowed[k], (v->nallowed - k) * sizeof x);
		v->allowed[k] = x;
		v->nallowed++;
	}
	free(fails);
	return 0;
}

int adp_check_flow(const struct adp_check_cfg *cfg, const struct adp_rec *recs, size_t n,
		   uint32_t flow, struct adp_verdict *v, char *err, size_t errlen)
{
	size_t *list = malloc((n ? n : 1) * sizeof *list), k = 0;
	if (!list) {
		memset(v, 0, sizeof *v);
		snprintf(err, errlen, "out of memory");
		return -1;
	}
	for (size_t i = 0; i < n; i++)
		if (recs[i].flow == flow)
			list[k++] = i;
	struct flow_recs fr = { recs, list, k };
	int rc = check_recs(cfg, &fr, v, err, errlen);
	free(list);
	return rc;
}

int adp_flow_index_build(const struct adp_rec *recs, size_t n, size_t nflows,
			 struct adp_flow_index *ix)
{
	ix->nflows = nflows;
	ix->start = calloc(nflows + 1, sizeof *ix->start);
	ix->rec = malloc((n ? n : 1) * sizeof *ix->rec);
	if (!ix->start || !ix->rec) {
		adp_flow_index_free(ix);
		return -1;
	}
	/* Counting sort by flow, stable: start[f + 1] counts flow f, then the prefix sums. */
	for (size_t i = 0; i < n; i++) {
		if (recs[i].flow >= nflows) {
			adp_flow_index_free(ix);
			return -1;
		}
		ix->start[recs[i].flow + 1]++;
	}
	for (size_t f = 0; f < nflows; f++)
		ix->start[f + 1] += ix->start[f];
	for (size_t i = 0; i < n; i++)
		ix->rec[ix->start[recs[i].flow]++] = i;
	/* The fill moved each start to the next flow's: shift back. */
	for (size_t f = nflows; f > 0; f--)
		ix->start[f] = ix->start[f - 1];
	ix->start[0] = 0;
	return 0;
}

void adp_flow_index_free(struct adp_flow_index *ix)
{
	free(ix->start);
	free(ix->rec);
	ix->start = NULL;
	ix->rec = NULL;
	ix->nflows = 0;
}

int adp_check_flow_indexed(const struct adp_check_cfg *cfg, const struct adp_rec *recs,
			   const struct adp_flow_index *ix, uint32_t flow, struct adp_verdict *v,
			   char *err, size_t errlen)
{
	if (flow >= ix->nflows) {
		memset(v, 0, sizeof *v);
		snprintf(err, errlen, "flow %u: not in the index", flow);
		return -1;
	}
	struct flow_recs fr = { recs, ix->rec + ix->start[flow],
				ix->start[flow + 1] - ix->start[flow] };
	return check_recs(cfg, &fr, v, err, errlen);
}

__attribute__((format(printf, 4, 5))) static void appendf(char *buf, size_t len, size_t *o,
							  const char *fmt, ...)
{
	if (*o >= len)
		return;
	va_list ap;
	va_start(ap, fmt);
	int w = vsnprintf(buf + *o, len - *o, fmt, ap);
	va_end(ap);
	if (w > 0)
		*o += (size_t)w;
}

static void fmt_exps(const uint8_t *e, uint32_t n, char *buf, size_t len)
{
	size_t o = 0;
	buf[0] = '\0';
	for (uint32_t i = 0; i < n; i++)
		appendf(buf, len, &o, "%s%u", i ? "," : "", e[i]);
}

void adp_verdict_explain(const struct adp_verdict *v, const struct adp_check_cfg *cfg,
			 uint32_t qp, char *buf, size_t len)
{
	char exps[1024], a[48], b[48];
	size_t o = 0;
	buf[0] = '\0';
	if (v->conforming) {
		fmt_exps(v->explain_e, v->nexplain, exps, sizeof exps);
		if (cfg->mode.adp)
			appendf(buf, len, &o, "conforming: every gap explained by initial exponent%s {%s}",
				v->nexplain > 1 ? "s" : "", exps);
		else
			appendf(buf, len, &o, "conforming: every gap explained by the classic IB timer");
		return;
	}
	adp_fmt_us(v->gap_ns, a, sizeof a);
	appendf(buf, len, &o, "QP 0x%x PSN %u retransmission %u", qp, v->psn, v->retx);
	switch ((enum adp_fail)v->kind) {
	case ADP_FAIL_NONE:
		break;
	case ADP_FAIL_GAP:
		appendf(buf, len, &o, ": gap %s; allowed {", a);
		break;
	case ADP_FAIL_MISSING:
		appendf(buf, len, &o, " missing: nothing resent %s after the timer started; "
			"due after {", a);
		break;
	case ADP_FAIL_EXHAUSTED:
		adp_fmt_us(v->since_progress_ns, a, sizeof a);
		adp_fmt_us(v->total_ns, b, sizeof b);
		if (cfg->mode.adp)
			appendf(buf, len, &o, ": not allowed: no forward progress for %s at the expiry, "
				"total timeout %s (seed 001 L47-49); the QP must fail with "
				"IBV_WC_RETRY_EXC_ERR", a, b);
		else
			appendf(buf, len, &o, ": not allowed: retry_cnt %u exhausted; the QP must fail "
				"with IBV_WC_RETRY_EXC_ERR", cfg->attr.retry_cnt);
		break;
	case ADP_FAIL_INFINITE:
		appendf(buf, len, &o, ": gap %s; not allowed: QP timeout 0 is an infinite timer", a);
		break;
	case ADP_FAIL_ACKED:
		appendf(buf, len, &o, ": not allowed: the PSN was already acknowledged");
		break;
	}
	if (v->kind == ADP_FAIL_GAP || v->kind == ADP_FAIL_MISSING) {
		for (uint32_t i = 0; i < v->nallowed; i++) {
			adp_fmt_us(v->allowed[i], a, sizeof a);
			appendf(buf, len, &o, "%s%s", i ? ", " : "", a);
		}
		appendf(buf, len, &o, "} +- %llu ns", (unsigned long long)cfg->tol_ns);
	}
	if (!cfg->mode.adp)
		return;
	if (v->nreach == v->ncand) {
		appendf(buf, len, &o, ", under every initial value");
	} else {
		fmt_exps(v->reach_e, v->nreach, exps, sizeof exps);
		if (v->nreach == 1)
			appendf(buf, len, &o, " (initial exponent %s is the only one that explains "
				"the earlier gaps)", exps);
		else
			appendf(buf, len, &o, " (initial exponents {%s} are the only ones that "
				"explain the earlier gaps)", exps);
	}
}
